"""Servers' policies read from the store, with a small cache (P-63).

A process keeps each server's settings for ``ttl`` seconds (``SERVER_SETTINGS_TTL``): lobbies
open, bots are added and moderators act far more often than admins change settings, and a read
per click would be wasted. A change made through this process replaces its cached entry at once;
another process sharing the database sees it once its own entry is older than ``ttl``, so every
process agrees within that bound without any message between them.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from rules.core import GAMES

from ..store import SettingChangeRecord, Store
from .errors import BadSetting
from .policy import SPEEDS, ServerPolicy
from .policy_values import (
    BadValue,
    SettingKey,
    policy_from_values,
    read_value,
    write_value,
)


@dataclass(frozen=True)
class ServerSettings:
    """A server's policy and which of its settings the server chose (the rest are defaults)."""

    policy: ServerPolicy
    chosen: frozenset[str]
    """Names (``SettingKey.name``) of the settings the server set."""

    def is_chosen(self, key: SettingKey) -> bool:
        return key.name in self.chosen


@dataclass
class _Cached:
    settings: ServerSettings
    read_at: float


class StoredPolicies:
    """The ``Policies`` of a bot process: the store's settings, cached for ``ttl`` seconds."""

    def __init__(
        self, store: Store, *, ttl: float, monotonic: Callable[[], float] = time.monotonic
    ) -> None:
        self.store, self.ttl, self.monotonic = store, ttl, monotonic
        self._cache: dict[int, _Cached] = {}

    async def for_guild(self, guild_id: int | None) -> ServerPolicy:
        return (await self.settings(guild_id)).policy

    async def settings(self, guild_id: int | None) -> ServerSettings:
        """The server's settings, as read at most ``ttl`` seconds ago."""
        if guild_id is None:  # direct messages: no server, no admins
            return ServerSettings(policy_from_values({}), frozenset())
        cached = self._cache.get(guild_id)
        now = self.monotonic()
        if cached is not None and now - cached.read_at < self.ttl:
            return cached.settings
        values = await self.store.server_settings(guild_id)
        found = ServerSettings(policy_from_values(values), frozenset(values))
        self._cache[guild_id] = _Cached(found, now)
        return found

    async def fresh(self, guild_id: int | None) -> ServerPolicy:
        """The server's policy as the database holds it now: what a change builds on (adding a
        channel to the list), so it never undoes another process's change it has not seen."""
        if guild_id is not None:
            self.forget(guild_id)
        return await self.for_guild(guild_id)

    def forget(self, guild_id: int) -> None:
        """Read the server's settings again at their next use."""
        self._cache.pop(guild_id, None)

    async def change(
        self,
        guild_id: int,
        changes: Mapping[SettingKey, Any],
        *,
        user_id: int,
        user_name: str,
    ) -> list[SettingChangeRecord]:
        """Set each setting to its value (``None``: back to the default), after checking each
        value and the policy they make together; nothing is stored if one is refused."""
        stored: dict[str, Any] = {}
        for key, value in changes.items():
            try:
                stored[key.name] = (
                    None
                    if value is None
                    else write_value(key, read_value(key, write_value(key, value)))
                )
            except BadValue as exc:
                raise BadSetting(f"`{key.name}`: {exc}. Nothing changed.") from None
        return await self._write(guild_id, stored, user_id=user_id, user_name=user_name)

    async def reset(
        self, guild_id: int, keys: Iterable[SettingKey] | None, *, user_id: int, user_name: str
    ) -> list[SettingChangeRecord]:
        """Every named setting (``None``: every one the server set) back to its default."""
        names = (
            list(await self.store.server_settings(guild_id))
            if keys is None
            else [k.name for k in keys]
        )
        return await self._write(
            guild_id, dict.fromkeys(names), user_id=user_id, user_name=user_name
        )

    async def _write(
        self, guild_id: int, stored: dict[str, Any], *, user_id: int, user_name: str
    ) -> list[SettingChangeRecord]:
        current = await self.store.server_settings(guild_id)
        after = {k: v for k, v in {**current, **stored}.items() if v is not None}
        check_together(policy_from_values(after))
        made = await self.store.change_server_settings(
            guild_id, stored, user_id=user_id, user_name=user_name
        )
        self.forget(guild_id)  # this process sees the change at once
        return made

    async def changes(self, guild_id: int, limit: int) -> list[SettingChangeRecord]:
        """The server's latest setting changes, newest first."""
        return await self.store.server_setting_changes(guild_id, limit)


def check_together(policy: ServerPolicy) -> None:
    """What no one setting can check alone: each game's default speed is one its server allows
    (else an opener who picks no speed would get one the server forbids)."""
    for slug in sorted({*GAMES, *policy.games}):
        speed = policy.game(slug).speed
        if speed not in policy.speeds:
            allowed = ", ".join(s for s in SPEEDS if s in policy.speeds)
            raise BadSetting(
                f"{slug} would start at {speed} by default, which the allowed speeds ({allowed}) "
                "leave out: give it an allowed default speed (`/bugtable game`) or allow "
                f"{speed}. Nothing changed."
            )
