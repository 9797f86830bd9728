"""A server's settings (``/bugtable``) and their audit trail.

Values are opaque JSON here: what each may be is the host's to check (``host/policy_values.py``)
before it is written. A change and its audit rows are one transaction, so the trail never misses
a change nor records one that did not happen; on PostgreSQL one server's changes are serialised
by an advisory lock, so the trail's "before" values follow one another even across processes.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any

from sqlalchemy import delete, func, select
from sqlalchemy.ext.asyncio import AsyncSession

from .base import StoreBase
from .models import ServerSettingChangeRow, ServerSettingRow, utcnow
from .postgres import SETTINGS_LOCK, fold_key
from .records import SettingChangeRecord

MAX_NAME = 100
"""The audit trail keeps a member's name to this length (its column's)."""


class ServerSettingsStore(StoreBase):
    """Reads and writes of servers' settings."""

    async def server_settings(self, guild_id: int) -> dict[str, Any]:
        """What the server's admins set, by setting name (a setting not here is at the
        default)."""
        async with self._reading() as session:
            rows = await session.scalars(
                select(ServerSettingRow).where(ServerSettingRow.guild_id == guild_id)
            )
            return {row.key: row.value for row in rows}

    async def change_server_settings(
        self,
        guild_id: int,
        changes: Mapping[str, Any],
        *,
        user_id: int,
        user_name: str,
        at: datetime | None = None,
    ) -> list[SettingChangeRecord]:
        """Set each named setting to its value (``None``: back to the default) and record each
        one that changed; returns those changes (none: everything was already so)."""
        now = at or utcnow()
        made: list[SettingChangeRecord] = []
        async with self._writing() as session:
            await _lock_server(session, guild_id)
            rows = {
                row.key: row
                for row in await session.scalars(
                    select(ServerSettingRow).where(
                        ServerSettingRow.guild_id == guild_id,
                        ServerSettingRow.key.in_(list(changes)),
                    )
                )
            }
            for key, new in changes.items():
                row = rows.get(key)
                old = None if row is None else row.value
                if row is not None and new is None:
                    await session.execute(
                        delete(ServerSettingRow).where(
                            ServerSettingRow.guild_id == guild_id, ServerSettingRow.key == key
                        )
                    )
                elif row is None and new is not None:
                    session.add(
                        ServerSettingRow(
                            guild_id=guild_id,
                            key=key,
                            value=new,
                            updated_by=user_id,
                            updated_at=now,
                        )
                    )
                elif row is not None and old != new:
                    row.value, row.updated_by, row.updated_at = new, user_id, now
                else:
                    continue  # already so: nothing to record
                change = SettingChangeRecord(
                    guild_id, key, old, new, user_id, user_name[:MAX_NAME], now
                )
                session.add(
                    ServerSettingChangeRow(
                        guild_id=guild_id,
                        key=key,
                        old_value=old,
                        new_value=new,
                        user_id=user_id,
                        user_name=change.user_name,
                        at=now,
                    )
                )
                made.append(change)
        return made

    async def server_setting_changes(
        self, guild_id: int, limit: int = 10
    ) -> list[SettingChangeRecord]:
        """The server's latest changes, newest first."""
        async with self._reading() as session:
            rows = await session.scalars(
                select(ServerSettingChangeRow)
                .where(ServerSettingChangeRow.guild_id == guild_id)
                .order_by(ServerSettingChangeRow.at.desc(), ServerSettingChangeRow.id.desc())
                .limit(limit)
            )
            return [
                SettingChangeRecord(
                    r.guild_id, r.key, r.old_value, r.new_value, r.user_id, r.user_name, r.at
                )
                for r in rows
            ]


async def _lock_server(session: AsyncSession, guild_id: int) -> None:
    """One server's changes one after another (PostgreSQL; SQLite's writers already are)."""
    bind = session.bind
    if bind is not None and bind.dialect.name == "postgresql":
        await session.execute(select(func.pg_advisory_xact_lock(SETTINGS_LOCK, fold_key(guild_id))))
