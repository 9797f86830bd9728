"""What the bot keeps beside the games: which Discord message shows which part of a game, and
small bot-wide facts."""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.dialects import postgresql, sqlite

from .base import StoreBase
from .models import MessageRow, MetaRow, utcnow
from .records import MessageRecord
from .rows import lock_game
from .writer import SQLiteWriter


class MetaStore(StoreBase):
    """Messages of games and bot-wide values."""

    async def set_message(self, game_id: int, kind: str, channel_id: int, message_id: int) -> None:
        """Remember (or replace) the message that shows ``kind`` for this game."""
        writer = self._writer
        if isinstance(writer, SQLiteWriter) and writer.set_message_now(
            game_id, kind, channel_id, message_id
        ):
            return
        async with self._writing() as session:
            await lock_game(session, game_id)
            values = {
                "game_id": game_id,
                "kind": kind,
                "channel_id": channel_id,
                "message_id": message_id,
            }
            changes = {"channel_id": channel_id, "message_id": message_id}
            dialect = session.bind.dialect.name if session.bind is not None else ""
            if dialect in ("sqlite", "postgresql"):
                insert = (sqlite.insert if dialect == "sqlite" else postgresql.insert)(MessageRow)
                await session.execute(
                    insert.values(**values).on_conflict_do_update(
                        index_elements=[MessageRow.game_id, MessageRow.kind], set_=changes
                    )
                )
            else:  # portable fallback; the game row lock above keeps it race-free
                row = await session.scalar(
                    select(MessageRow).where(MessageRow.game_id == game_id, MessageRow.kind == kind)
                )
                if row is None:
                    session.add(MessageRow(**values))
                else:
                    row.channel_id, row.message_id = channel_id, message_id

    async def messages(self, game_id: int) -> dict[str, MessageRecord]:
        """The game's messages by kind."""
        async with self._reading() as session:
            rows = await session.scalars(
                select(MessageRow).where(MessageRow.game_id == game_id).order_by(MessageRow.id)
            )
            return {
                r.kind: MessageRecord(
                    game_id=r.game_id, kind=r.kind, channel_id=r.channel_id, message_id=r.message_id
                )
                for r in rows
            }

    # ------------------------------------------------------------------ meta

    async def get_meta(self, key: str) -> str | None:
        """A bot-wide value remembered across restarts, or None if never set."""
        async with self._reading() as session:
            row = await session.get(MetaRow, key)
            return None if row is None else row.value

    async def set_meta(self, key: str, value: str) -> None:
        """Remember (or replace) a bot-wide value."""
        async with self._writing() as session:
            row = await session.get(MetaRow, key)
            if row is None:
                session.add(MetaRow(key=key, value=value, updated_at=utcnow()))
            else:
                row.value, row.updated_at = value, utcnow()
