"""Members' own settings, the same in every server and game (``/bugs settings``)."""

from __future__ import annotations

import time
from collections.abc import Iterable
from typing import Any

from sqlalchemy import select

from .base import StoreBase
from .models import MemberSettingsRow, utcnow
from .records import MemberSettings
from .writer import SQLiteWriter

#: Seconds a process keeps a member's settings once read from a store other processes share
#: (PostgreSQL, P-87): a change made through the process is known there at once, elsewhere
#: within this. A SQLite file has one process (P-22): its copies are kept until they change.
MEMBER_SETTINGS_TTL = 10.0
#: Members whose settings a process keeps at most; past it, only the newest half stay.
MEMBER_SETTINGS_KEPT = 50_000


class MemberSettingsStore(StoreBase):
    """Reads and writes of member settings, each member's kept once read (P-87)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._members_read: dict[int, tuple[float, MemberSettings]] = {}
        """Settings by member, with the ``time.monotonic()`` they were read at."""

    async def member_settings(self, user_ids: Iterable[int]) -> dict[int, MemberSettings]:
        """Each member's settings (the defaults for a member who never changed one), as read
        at most ``MEMBER_SETTINGS_TTL`` seconds ago where other processes share the store (on a
        SQLite file, as last read or changed here). A turn ping asks for them each time: read
        through SQLAlchemy that cost the event loop 2-4 ms of CPU a ping at 200 games, and a
        member is pinged at most once a ``PING_AFTER`` (20 s), longer than the TTL."""
        now = time.monotonic()
        ttl = MEMBER_SETTINGS_TTL if self.shared else float("inf")
        found: dict[int, MemberSettings] = {}
        wanted: set[int] = set()
        for uid in set(user_ids):
            kept = self._members_read.get(uid)
            if kept is not None and now - kept[0] < ttl:
                found[uid] = kept[1]
            else:
                wanted.add(uid)
        if not wanted:
            return found
        read = {uid: MemberSettings(uid) for uid in wanted}
        writer = self._writer
        chosen = (
            writer.member_pings_now(sorted(wanted)) if isinstance(writer, SQLiteWriter) else None
        )
        if chosen is None:
            async with self._reading() as session:
                rows = await session.scalars(
                    select(MemberSettingsRow).where(MemberSettingsRow.user_id.in_(wanted))
                )
                chosen = {row.user_id: row.pings for row in rows}
        for uid, pings in chosen.items():
            read[uid] = MemberSettings(uid, pings=pings, chosen=True)
        self._keep_members(read, now)
        return found | read

    async def set_member_settings(self, user_id: int, *, pings: bool) -> MemberSettings:
        """Remember a member's choice; returns their settings now."""
        async with self._writing() as session:
            row = await session.get(MemberSettingsRow, user_id)
            if row is None:
                session.add(MemberSettingsRow(user_id=user_id, pings=pings, updated_at=utcnow()))
            else:
                row.pings, row.updated_at = pings, utcnow()
        mine = MemberSettings(user_id, pings=pings, chosen=True)
        self._keep_members({user_id: mine}, time.monotonic())
        return mine

    def _keep_members(self, read: dict[int, MemberSettings], now: float) -> None:
        kept = self._members_read
        if len(kept) + len(read) > MEMBER_SETTINGS_KEPT:  # the newest copies stay, half full
            room = max(0, MEMBER_SETTINGS_KEPT // 2 - len(read))
            newest = sorted(kept.items(), key=lambda item: item[1][0])[len(kept) - room :]
            kept.clear()
            kept.update(newest)
        for uid, settings in read.items():
            kept[uid] = (now, settings)
