"""What a server's admins decide about play (issue #24): the typed contract between the
server-settings store, the host and the Discord edge.

A ``ServerPolicy`` is read once per decision that needs it (a lobby opened, a bot added, a
moderator's command, a stand-in seated); a field left at ``None`` means "the bot's own setting
from the environment" (``AFK_LIMIT``, ``STAND_IN_LEVEL``, ``PING_AFTER``). A running game never
reads its server's policy for its clock: the time control is stored with the game when it opens.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Final, Literal, Protocol, get_args

Speed = Literal["fast", "normal", "slow", "turn-based"]
"""A time control preset (issue #24 item 2); ``normal`` is the games' declared timers."""
SPEEDS: Final[tuple[Speed, ...]] = get_args(Speed)

BotLevel = Literal["easy", "normal", "hard"]
"""A bot player's strength (issue #23, ``rules/core/bots.py``)."""
BOT_LEVELS: Final[tuple[BotLevel, ...]] = get_args(BotLevel)


@dataclass(frozen=True)
class GamePolicy:
    """One game's settings on one server."""

    enabled: bool = True
    speed: Speed = "normal"
    """The time control a new game of this kind gets unless its opener picks another."""


@dataclass(frozen=True)
class ServerPolicy:
    """A server's settings, each at the bot's default until an admin sets it."""

    games: Mapping[str, GamePolicy] = field(default_factory=dict)
    speeds: frozenset[Speed] = frozenset(SPEEDS)
    """The presets an opener may pick with ``/bugs new <game> speed:``."""
    channels: frozenset[int] = frozenset()
    """Where games may be opened; empty: any channel."""
    moderator_role: int | None = None
    """A role that may start, cancel and moderate besides Manage Channels."""
    bot_levels: frozenset[BotLevel] = frozenset(BOT_LEVELS)
    """The levels **Add bot** offers; empty: bots may not be added."""
    afk_limit: int | None = None
    """Missed clocks in a row before a stand-in takes the seat; 0 never; None: ``AFK_LIMIT``."""
    stand_in_level: BotLevel | None = None
    """The level of stand-ins; None: ``STAND_IN_LEVEL``."""
    pings_default: bool = True
    """Whether members who have not chosen (``/bugs settings``) are pinged."""
    ping_after: float | None = None
    """Seconds a game waits on a member before the ping; None: ``PING_AFTER``."""
    public_replays: bool = True
    """Whether finished games get a public replay link."""

    def game(self, slug: str) -> GamePolicy:
        return self.games.get(slug, DEFAULT_GAME_POLICY)

    def allows_channel(self, channel_id: int) -> bool:
        return not self.channels or channel_id in self.channels


DEFAULT_GAME_POLICY: Final = GamePolicy()
DEFAULT_POLICY: Final = ServerPolicy()


class Policies(Protocol):
    """Where the host and the edge read a server's policy (the store's cache, or defaults)."""

    async def for_guild(self, guild_id: int | None) -> ServerPolicy: ...


class DefaultPolicies:
    """Every server at the bot's defaults: the policy before any admin sets anything, and the
    one of direct messages (no server)."""

    async def for_guild(self, guild_id: int | None) -> ServerPolicy:
        return DEFAULT_POLICY
