"""The publisher's shared ground: its state per game, a channel slot for each request, and one
part of a pass run unless it waits out an earlier failure (logged once per outage, P-39).

The publisher's jobs (``boards``, ``hands``, ``notices``, ``tracking``) build on
``PublisherBase``; ``bot.discord.publisher.Publisher`` puts them together with the pump.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
import time
from collections.abc import Awaitable, Callable, Hashable
from datetime import datetime
from typing import TypeVar

import discord

from ..backoff import backoff, one_line
from ..host.table import Table
from ..host.timers import Sleep, utcnow
from ..picture_cache import ImageCache
from ..settings import Settings
from ..speeds import reminders
from ..store import Store
from ..ui.public_log import PublicLog
from .dms import DirectMessages
from .game_messages import CHANNEL, UNKNOWN_CHANNEL, GameMessages, Round, Wait
from .limiter import Budget, GlobalLimiter
from .looks import Looks
from .pacing import ChannelPacer, Kind, Slot
from .panels import Panels
from .pings import PingPolicy
from .replies import PrivateReplies

# Every part logs as the one publisher module did, so log records keep their names.
log = logging.getLogger("bot.discord.publisher")
_T = TypeVar("_T")


def _keys(part: str) -> list[str]:
    """The waits ``part`` is held by: its own, and the channel's for the parts posted there."""
    return [part, CHANNEL] if part in ("board", "notes") else [part]


def _channel_refused(exc: BaseException) -> bool:
    """The channel itself will not take the bot's messages (a lost permission, the bot
    removed, the channel deleted), as opposed to one request failing."""
    if isinstance(exc, discord.Forbidden):
        return True
    return isinstance(exc, discord.NotFound) and exc.code == UNKNOWN_CHANNEL


def _part_name(key: str, table: Table) -> str:
    if key.startswith("dm:"):
        return f"DM of seat {key[3:]}"
    return {"render": "rendering", "board": "board", "notes": "channel notices and pings"}.get(
        key, key
    )


class PublisherBase:
    """What every job of the publisher shares: Discord, the store, the limits, each game's
    messages."""

    def __init__(
        self,
        client: discord.Client,
        store: Store,
        settings: Settings,
        log: PublicLog,
        *,
        refresh: Callable[[Table], Awaitable[object]] | None = None,
        rest: Callable[[int, int, datetime | None], bool] | None = None,
        limiter: GlobalLimiter | None = None,
        clock: Callable[[], datetime] = utcnow,
        sleep: Sleep = asyncio.sleep,
    ) -> None:
        self.client, self.store, self.settings, self.log = client, store, settings, log
        # Wall time and sleeping, for when pings fall due (a test moves them, P-46).
        self.clock, self.sleep = clock, sleep
        # On a store shared by several processes, brings a table up to the newest commit
        # before it is drawn (the host's refresh, P-36).
        self.refresh = refresh
        # Unloads a game that only waits on its members, waking it for its next ping (the
        # host's rest, P-74).
        self.rest = rest
        self._games: dict[int, GameMessages] = {}
        self.images = ImageCache(processes=settings.picture_processes)
        self.pacer = ChannelPacer(settings.channel_edit_limit, settings.channel_edit_window)
        # Discord's global limit (P-47): each request with the bot token waits for its place.
        self.limiter = limiter or GlobalLimiter(None)
        # The event loop's (P-94): each pass waits its turn, then renders the newest state.
        rate = settings.board_pass_rate
        self.passes = GlobalLimiter(Budget(rate) if rate > 0 else None)
        self.replies = PrivateReplies()
        self.panels = Panels()
        """Each member's one private panel per game (P-48)."""
        self.looks = Looks()
        """Each member's one Details / Full board message per game (P-62)."""
        self.dms = DirectMessages(client)
        self._seq = itertools.count(1)
        """Numbers every render in the order the renders saw the game (P-45)."""

    def _state(self, game_id: int) -> GameMessages:
        state = self._games.get(game_id)
        if state is None:
            after = self.settings.ping_after * self.settings.timer_scale
            state = self._games[game_id] = GameMessages(pings=PingPolicy(after))
        return state

    def _state_of(self, table: Table) -> GameMessages:
        """The game's state, its pings timed by the game's own control (P-71: a turn-based
        game reminds at 1 h and 12 h into a wait, the others once, after the server's
        PING_AFTER when the game opened, else the bot's, P-66), times TIMER_SCALE."""
        state = self._state(table.id)
        scale = self.settings.timer_scale
        after = table.policy.ping_after
        first, *later = reminders(
            self.settings.ping_after if after is None else after, table.game.time_control
        )
        state.pings.after, state.pings.again = first * scale, tuple(m * scale for m in later)
        return state

    def mark_dirty(self, table: Table) -> None:
        """Have the game's messages redrawn soon (the pump's, ``Publisher.mark_dirty``)."""
        raise NotImplementedError

    def _slot(self, channel: Hashable, kind: Kind, rounds: Round) -> Slot | None:
        """A slot for one request to ``channel`` now, or ``None`` (the round notes the wait)."""
        slot = self.pacer.take(channel, kind)
        if slot is None:
            rounds.hold(self.pacer.delay(channel, kind))
        return slot

    async def _attempt(
        self,
        table: Table,
        state: GameMessages,
        part: str,
        rounds: Round,
        send: Callable[[], Awaitable[_T]],
    ) -> _T | None:
        """Run one part of a pass (``render``, ``board``, ``notes``, ``dm:<seat>``) unless it
        waits out an earlier failure; a failure is logged once per outage and tried again
        later each time, up to ``RETRY_MAX_DELAY`` apart. The board and the notes share the
        channel: while it refuses the bot (403, or 404 for the channel itself), neither is
        tried before the channel's own wait is over."""
        now = time.monotonic()
        keys = _keys(part)
        held = self._held(state, part, now)
        if held > 0:
            rounds.hold(held)
            return None
        try:
            result = await send()
        except Exception as exc:
            key = CHANNEL if part in ("board", "notes") and _channel_refused(exc) else part
            wait = state.waits.setdefault(key, Wait())
            if wait.not_before > now:  # the board and the notes met the same refusal at once
                rounds.hold(wait.not_before - time.monotonic())
                return None
            wait.failures += 1
            delay = backoff(wait.failures, self.settings.retry_max_delay)
            wait.not_before = time.monotonic() + delay
            rounds.hold(delay)
            if wait.failures == 1:
                self._log_outage(table, key, exc)
            return None
        # The channel is known to take the bot's messages again only once a request to it
        # went through (a part with nothing to send proves nothing).
        for key in [k for k in keys if k != CHANNEL or rounds.channel_ok]:
            healed = state.waits.pop(key, None)
            if healed is not None and key == CHANNEL:
                log.info(
                    "game %s: channel %s allows the bot again; its board is up to date",
                    table.id,
                    table.game.channel_id,
                )
            elif healed is not None:
                log.info(
                    "game %s: %s works again after %d failed tries; it is up to date",
                    table.id,
                    _part_name(key, table),
                    healed.failures,
                )
        return result

    @staticmethod
    def _held(state: GameMessages, part: str, now: float | None = None) -> float:
        """Seconds ``part`` still waits out an earlier failure (0: it may be tried now)."""
        now = time.monotonic() if now is None else now
        waits = [w.not_before - now for k in _keys(part) if (w := state.waits.get(k)) is not None]
        return max([0.0, *waits])

    @staticmethod
    def _log_outage(table: Table, key: str, exc: BaseException) -> None:
        """One short line when a part starts failing (never one per try)."""
        if key == CHANNEL:
            log.warning(
                "game %s: channel %s refuses the bot (%s); its board and pings wait until it "
                "allows the bot again, the DMs and the game go on",
                table.id,
                table.game.channel_id,
                one_line(exc),
            )
            return
        log.warning(
            "could not update the %s of game %s (%s); trying again later",
            _part_name(key, table),
            table.id,
            one_line(exc),
            exc_info=not isinstance(exc, discord.HTTPException),
        )
