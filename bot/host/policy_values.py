"""A server's policy as stored values (issue #24): one JSON value per setting, keyed by name.

The store keeps only what an admin set (a setting without a row is at the default), and a game
keeps its server's whole policy as it was when the game opened (P-64). Both go through this one
codec, so a value is read back exactly as it was checked when it was written; a stored value
this version cannot read (a game since removed, a hand-edited row) is left out with a warning
rather than stopping the bot.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from dataclasses import dataclass, fields, replace
from typing import Any, Final, Literal, TypeAlias, cast, get_args

from .policy import (
    BOT_LEVELS,
    DEFAULT_POLICY,
    SPEEDS,
    BotLevel,
    GamePolicy,
    ServerPolicy,
    Speed,
)

log = logging.getLogger(__name__)

JsonValue: TypeAlias = bool | int | float | str | list[int] | list[str] | None
"""What one setting is stored as."""

ServerField = Literal[
    "speeds",
    "channels",
    "moderator_role",
    "bot_levels",
    "afk_limit",
    "stand_in_level",
    "pings_default",
    "ping_after",
    "public_replays",
]
GameField = Literal["enabled", "speed"]
SERVER_FIELDS: Final[tuple[ServerField, ...]] = get_args(ServerField)
GAME_FIELDS: Final[tuple[GameField, ...]] = get_args(GameField)
GAME_PREFIX = "games."


@dataclass(frozen=True, order=True)
class SettingKey:
    """One setting: a field of ``ServerPolicy``, or a field of one game's ``GamePolicy``."""

    field: ServerField | GameField
    game: str | None = None

    @property
    def name(self) -> str:
        """How the store and the audit trail name it: ``afk_limit``, ``games.bug-off.speed``."""
        return self.field if self.game is None else f"{GAME_PREFIX}{self.game}.{self.field}"

    @classmethod
    def parse(cls, name: str) -> SettingKey:
        if name.startswith(GAME_PREFIX):
            slug, _, field = name[len(GAME_PREFIX) :].rpartition(".")
            if slug and field in GAME_FIELDS:
                return cls(field, slug)
        elif name in SERVER_FIELDS:
            return cls(name)
        raise ValueError(f"no setting {name!r}")


class BadValue(ValueError):
    """A stored or given value a setting cannot take."""


def _bool(value: object) -> bool:
    if not isinstance(value, bool):
        raise BadValue(f"{value!r} is not true or false")
    return value


def _speed(value: object) -> Speed:
    if value not in SPEEDS:
        raise BadValue(f"{value!r} is not a speed ({', '.join(SPEEDS)})")
    return value


def _level(value: object) -> BotLevel:
    if value not in BOT_LEVELS:
        raise BadValue(f"{value!r} is not a bot level ({', '.join(BOT_LEVELS)})")
    return value


def _optional_level(value: object) -> BotLevel | None:
    return None if value is None else _level(value)


def _speeds(value: object) -> frozenset[Speed]:
    if not isinstance(value, list) or not value:
        raise BadValue("at least one speed must be allowed")
    return frozenset(_speed(v) for v in value)


def _levels(value: object) -> frozenset[BotLevel]:
    if not isinstance(value, list):
        raise BadValue(f"{value!r} is not a list of bot levels")
    return frozenset(_level(v) for v in value)


def _snowflake(value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
        raise BadValue(f"{value!r} is not a Discord id")
    return value


def _channels(value: object) -> frozenset[int]:
    if not isinstance(value, list):
        raise BadValue(f"{value!r} is not a list of channels")
    return frozenset(_snowflake(v) for v in value)


def _optional_role(value: object) -> int | None:
    return None if value is None else _snowflake(value)


def _optional_count(value: object) -> int | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise BadValue(f"{value!r} is not a whole number of 0 or more")
    return value


def _optional_seconds(value: object) -> float | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float) or not 0 <= value < 1e9:
        raise BadValue(f"{value!r} is not a number of seconds of 0 or more")
    return float(value)


def _sorted_strings(value: frozenset[str]) -> list[str]:
    return sorted(value)


def _sorted_ids(value: frozenset[int]) -> list[int]:
    return sorted(value)


def _same(value: Any) -> JsonValue:
    return cast(JsonValue, value)


@dataclass(frozen=True)
class Codec:
    """How one field is read from its stored value, and written back."""

    read: Callable[[object], Any]
    write: Callable[[Any], JsonValue] = _same


SERVER_CODECS: Final[Mapping[ServerField, Codec]] = {
    "speeds": Codec(_speeds, lambda v: [str(s) for s in SPEEDS if s in v]),
    "channels": Codec(_channels, _sorted_ids),
    "moderator_role": Codec(_optional_role),
    "bot_levels": Codec(_levels, lambda v: [str(lv) for lv in BOT_LEVELS if lv in v]),
    "afk_limit": Codec(_optional_count),
    "stand_in_level": Codec(_optional_level),
    "pings_default": Codec(_bool),
    "ping_after": Codec(_optional_seconds),
    "public_replays": Codec(_bool),
}
GAME_CODECS: Final[Mapping[GameField, Codec]] = {
    "enabled": Codec(_bool),
    "speed": Codec(_speed),
}


def read_value(key: SettingKey, value: object) -> Any:
    """The policy field's value from a stored one (``BadValue`` if it cannot be one)."""
    if key.game is None:
        return SERVER_CODECS[cast(ServerField, key.field)].read(value)
    return GAME_CODECS[cast(GameField, key.field)].read(value)


def write_value(key: SettingKey, value: Any) -> JsonValue:
    """The stored form of a policy field's value."""
    if key.game is None:
        return SERVER_CODECS[cast(ServerField, key.field)].write(value)
    return GAME_CODECS[cast(GameField, key.field)].write(value)


def value_of(policy: ServerPolicy, key: SettingKey) -> Any:
    """The setting's value in ``policy`` (a game's own, or the default game policy's)."""
    if key.game is None:
        return getattr(policy, key.field)
    return getattr(policy.game(key.game), key.field)


def policy_from_values(values: Mapping[str, object]) -> ServerPolicy:
    """The policy these stored values make, every other setting at its default."""
    server: dict[str, Any] = {}
    games: dict[str, dict[str, Any]] = {}
    for name, stored in values.items():
        try:
            key = SettingKey.parse(name)
            value = read_value(key, stored)
        except ValueError as exc:
            log.warning("server setting %s left at its default: %s", name, exc)
            continue
        if key.game is None:
            server[key.field] = value
        else:
            games.setdefault(key.game, {})[key.field] = value
    return replace(
        DEFAULT_POLICY,
        games={slug: GamePolicy(**chosen) for slug, chosen in sorted(games.items())},
        **server,
    )


def policy_values(policy: ServerPolicy) -> dict[str, JsonValue]:
    """Every setting of ``policy`` as stored values (a game's snapshot of its server's policy,
    P-64): each game's own settings, and every server-wide one."""
    values: dict[str, JsonValue] = {}
    for slug, game in sorted(policy.games.items()):
        for f in fields(GamePolicy):
            key = SettingKey(cast(GameField, f.name), slug)
            values[key.name] = write_value(key, getattr(game, f.name))
    for name in SERVER_FIELDS:
        key = SettingKey(name)
        values[key.name] = write_value(key, getattr(policy, name))
    return values
