"""Members' own settings, the same in every server and game (``/bugs settings``)."""

from __future__ import annotations

from collections.abc import Iterable

from sqlalchemy import select

from .base import StoreBase
from .models import MemberSettingsRow, utcnow
from .records import MemberSettings


class MemberSettingsStore(StoreBase):
    """Reads and writes of member settings."""

    async def member_settings(self, user_ids: Iterable[int]) -> dict[int, MemberSettings]:
        """Each member's settings (the defaults for a member who never changed one)."""
        wanted = set(user_ids)
        found = {uid: MemberSettings(uid) for uid in wanted}
        if not wanted:
            return found
        async with self._reading() as session:
            rows = await session.scalars(
                select(MemberSettingsRow).where(MemberSettingsRow.user_id.in_(wanted))
            )
            for row in rows:
                found[row.user_id] = MemberSettings(row.user_id, pings=row.pings, chosen=True)
        return found

    async def set_member_settings(self, user_id: int, *, pings: bool) -> MemberSettings:
        """Remember a member's choice; returns their settings now."""
        async with self._writing() as session:
            row = await session.get(MemberSettingsRow, user_id)
            if row is None:
                session.add(MemberSettingsRow(user_id=user_id, pings=pings, updated_at=utcnow()))
            else:
                row.pings, row.updated_at = pings, utcnow()
        return MemberSettings(user_id, pings=pings, chosen=True)
