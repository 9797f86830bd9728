"""Keeps every game's public messages and private hands up to date.

Edits to one game's messages are coalesced: a change marks the game dirty, one pump per game
renders the newest committed state and sends it, then waits ``board_edit_interval`` before the
next edit, so a burst of clicks becomes a few edits and the newest state always wins. An edit that
fails (a long 429 storm, a network outage) is tried again with backoff for as long as it takes:
every board ends up showing the newest state, unless its message is gone (P-23).

Every request to a channel (the game's, or a member's DM) first takes a slot of Discord's
per-channel limits from the shared ``ChannelPacer`` (P-26). A message whose channel has no free
slot is left for the next round: the pump sleeps until a slot frees up and renders again, so a
busy channel gets fewer edits, each of the newest state, and no 429 of its own making. Messages
waiting longest go first, so no page of a board starves behind a busier one.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import functools
import itertools
import logging
import time
from collections.abc import Awaitable, Callable, Hashable, Iterable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, TypeVar

import discord

from ..backoff import backoff, one_line
from ..host.table import Outcome, Table
from ..host.timers import Sleep, utcnow
from ..picture_cache import ImageCache
from ..settings import Settings
from ..store import Store
from ..ui.lobby import cancelled_message, lobby_message
from ..ui.presenter import presenter_for
from ..ui.public_log import PublicLog
from ..ui.specs import MessageSpec
from ..web.links import game_url, with_replay_link
from .dms import DirectMessages
from .limiter import GlobalLimiter
from .pacing import ChannelPacer, Kind, Slot
from .panels import Panels
from .pings import PingPlan, PingPolicy
from .render import edit_kwargs, send_kwargs
from .replies import PrivateReplies, PrivateReply

log = logging.getLogger(__name__)
DM_CLOSED = 50007
QUIET = discord.AllowedMentions.none()
"""Boards name members (whom the game waits on) without ever notifying them: pings do that."""
CLOSE_SECONDS = 5.0
CHANNEL = "channel"
"""The part of a game's messages that stands for its channel refusing the bot (P-39)."""
GIVE_UP = 10
"""Tries of a failing part of a finished game's messages before the pump gives up (~4 min)."""
UNKNOWN_MESSAGE, UNKNOWN_CHANNEL = 10008, 10003
_T = TypeVar("_T")


@dataclass
class _Wait:
    """A part of a game's messages that failed: how often in a row, and when to try again."""

    failures: int = 0
    not_before: float = 0.0


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


@dataclass
class _Round:
    """One pass of a pump: how many requests it sent, and how long until a channel it could
    not use has a free slot (``None``: none was held back)."""

    sent: int = 0
    held: float | None = None

    channel_ok: bool = False
    """A request to the game's channel went through: it takes the bot's messages again."""

    def hold(self, delay: float) -> None:
        self.held = delay if self.held is None else min(self.held, delay)

    def channel_sent(self) -> None:
        self.sent += 1
        self.channel_ok = True


@dataclass
class _Frame:
    """What one game should show now, rendered under its lock."""

    boards: list[MessageSpec]
    hands: dict[int, MessageSpec] = field(default_factory=dict)
    turn: int = 0
    settled: list[tuple[PrivateReply, MessageSpec]] = field(default_factory=list)
    """Private replies whose buttons are used up, each with what it becomes (P-27)."""
    ping: tuple[int, ...] = ()
    """Members (user ids) to ping now: the game has waited on them ``PING_AFTER`` (P-46)."""
    ping_text: str = ""
    ping_plan: PingPlan = field(default_factory=PingPlan)
    """The pinged seats' waits, and the old ping messages to delete first (P-46)."""
    refresh_at: datetime | None = None
    """When to render again even if nothing happens (``Presenter.refresh_at``)."""
    seq: int = 0
    """The render's place in the order of every render (see ``_GameMessages.landed``)."""


@dataclass
class _Drawing:
    """The game's messages as its last committed state shows them (no side effects)."""

    boards: list[MessageSpec]
    hands: dict[int, MessageSpec]
    turn: int
    members: list[int]
    """The seats the game waits on that members play themselves (the board names them)."""
    seq: int


@dataclass
class _GameMessages:
    board_ids: dict[str, int] = field(default_factory=dict)
    shown: dict[str, tuple[MessageSpec, int]] = field(default_factory=dict)
    hand_ids: dict[int, int] = field(default_factory=dict)
    hands_shown: dict[int, tuple[MessageSpec, int | None]] = field(default_factory=dict)
    """Per seat, the DM last shown and the turn its controls carry (None: it has none)."""
    dm_closed: set[int] = field(default_factory=set)
    stale_since: dict[str, float] = field(default_factory=dict)
    """Since when each board message (``board``, ``board:1`` …) has waited for an edit."""
    known: bool = False
    """This process showed the game's messages, or read them from the store (``adopt``)."""
    pings: PingPolicy = field(default_factory=lambda: PingPolicy(0.0))
    """Whom the game waits on since when, and its one ping message (P-46)."""
    ping_wake: asyncio.Task[None] | None = None
    """Wakes the pump when the next ping falls due, even if nothing else happens."""
    notices: list[str] = field(default_factory=list)
    """Channel messages to send (DMs closed, a seat handed to a bot), each without a secret."""
    waits: dict[str, _Wait] = field(default_factory=dict)
    """Parts whose last try failed (``board``, ``notes``, ``dm:<seat>``, ``channel`` …)."""
    changed: asyncio.Event = field(default_factory=asyncio.Event)
    """Set by every change: wakes a pump that waits out one part's failure."""
    landed: dict[str, int] = field(default_factory=dict)
    """Per message (``board``, ``board:1``, ``dm:<seat>``), the newest render whose send or
    click answer landed: one landing after a newer one leaves the message stale (P-45)."""
    answering: dict[int, int] = field(default_factory=dict)
    """Messages (by id) a click is being decided and answered on: the pump's edit of such a
    message waits for that answer, which may show the same state already (P-45)."""
    answered: asyncio.Event = field(default_factory=asyncio.Event)
    """Set whenever a click's answer is done (``answering`` lost an entry)."""
    dirty: bool = False
    pump: asyncio.Task[None] | None = None
    refresh: asyncio.TimerHandle | None = None


class Publisher:
    """The host's listener on the Discord side. ``client`` reaches Discord (channels, members'
    DMs); ``store`` keeps which messages show which game; ``log`` has each game's public log
    lines, which boards show."""

    def __init__(
        self,
        client: discord.Client,
        store: Store,
        settings: Settings,
        log: PublicLog,
        *,
        refresh: Callable[[Table], Awaitable[object]] | None = None,
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
        self._games: dict[int, _GameMessages] = {}
        self.images = ImageCache(processes=settings.picture_processes)
        self.pacer = ChannelPacer(settings.channel_edit_limit, settings.channel_edit_window)
        # Discord's global limit (P-47): a pass waits its turn before it renders.
        self.limiter = limiter or GlobalLimiter(None)
        self.replies = PrivateReplies()
        self.panels = Panels()
        """Each member's one private panel per game (P-48)."""
        self.dms = DirectMessages(client)
        self._seq = itertools.count(1)
        """Numbers every render in the order the renders saw the game (P-45)."""

    def _state(self, game_id: int) -> _GameMessages:
        state = self._games.get(game_id)
        if state is None:
            after = self.settings.ping_after * self.settings.timer_scale
            state = self._games[game_id] = _GameMessages(pings=PingPolicy(after))
        return state

    async def adopt(self, table: Table, *, restarted: bool = True) -> None:
        """Learn which messages show this game (after a restart, or when another process
        showed them: ``restarted`` False, P-36)."""
        state = self._state(table.id)
        state.known = True
        ping: int | None = None
        for kind, record in (await self.store.messages(table.id)).items():
            if kind.startswith("board"):
                state.board_ids[kind] = record.message_id
            elif kind.startswith("hand:"):
                seat = int(kind.split(":", 1)[1])
                state.hand_ids[seat] = record.message_id
                with contextlib.suppress(KeyError):  # a seat the game no longer has
                    self.dms.learn(table.user_at(seat).user_id, record.channel_id)
            elif kind == "ping":
                ping = record.message_id
        if restarted:  # waits timed from the game's last change (P-46)
            restore_waits(state.pings, table, _members(table), ping)

    # -- the Listener protocol -----------------------------------------------------------
    def table_changed(self, table: Table, outcome: Outcome | None) -> None:
        presenter = presenter_for(table.slug)
        for change in table.seat_changes:  # a seat handed to a bot or taken back
            notice = presenter.seat_notice(table, change)
            if notice is not None:
                self._state(table.id).notices.append(
                    f"<@{table.user_at(change.seat).user_id}> {notice}"
                )
        acted = () if outcome is None or outcome.seat < 0 else (outcome.seat,)
        # After every committed change, so a wait that begins and ends between two pump
        # passes is still seen to end (P-46).
        self._state(table.id).pings.observe(_members(table), acted, self.clock())
        self.mark_dirty(table)

    def mark_dirty(self, table: Table) -> None:
        state = self._state(table.id)
        state.dirty = True
        state.changed.set()
        if state.pump is None or state.pump.done():
            state.pump = asyncio.create_task(self._pump(table), name=f"pump:{table.id}")

    async def flush(self) -> None:
        """Wait until every pending edit has been sent (tests and shutdown)."""
        while pumps := [s.pump for s in self._games.values() if s.pump and not s.pump.done()]:
            await asyncio.gather(*pumps, return_exceptions=True)

    async def close(self) -> None:
        """Send what can be sent within ``CLOSE_SECONDS``, then stop: a pump waiting out a long
        outage must not hold up shutdown (a board is redrawn when its game is next used)."""
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.flush(), CLOSE_SECONDS)
        for state in self._games.values():  # a ping still due goes after the restart (P-46)
            if state.ping_wake is not None:
                state.ping_wake.cancel()
        self.images.close()

    # -- the pump ------------------------------------------------------------------------
    async def _pump(self, table: Table) -> None:
        state = self._state(table.id)
        interval = self.settings.board_edit_interval
        if not state.known and self.store.shared:
            # A game another process showed (a DM click for it came here): find its messages,
            # or this process would post a second board.
            try:
                await self.adopt(table, restarted=False)
            except Exception as exc:  # the next change tries again
                log.warning("game %s: its messages are unknown (%s)", table.id, one_line(exc))
        while state.dirty:
            # Under Discord's global limit a pass waits its turn first, then draws the newest
            # state: the changes made meanwhile become this one pass (P-47).
            async with self.limiter.ahead():
                state.dirty = False
                state.changed.clear()
                rounds = _Round()
                frame = await self._attempt(
                    table, state, "render", rounds, lambda: self._render(table)
                )
                if frame is not None:
                    await self._send_frame(table, state, frame, rounds)
            if frame is not None:
                self._schedule_refresh(table, state, frame.refresh_at)
                self._schedule_ping(table, state)
            if self._given_up(table, state):
                break
            if rounds.held is not None:  # something must be tried again: come back with news
                state.dirty = True
                await self._rest(state, interval if rounds.sent else 0.0, rounds.held)
            elif rounds.sent and state.dirty:
                await asyncio.sleep(interval)
        if table.status not in ("lobby", "playing"):
            self.log.forget(table.id)
            self.panels.forget(table.id)
            done = self._games.pop(table.id, None)
            if done is not None and done.refresh is not None:
                done.refresh.cancel()
            if done is not None and done.ping_wake is not None:
                done.ping_wake.cancel()

    async def _send_frame(
        self, table: Table, state: _GameMessages, frame: _Frame, rounds: _Round
    ) -> None:
        """Each part on its own and at the same time (P-39): the DMs, the private replies and
        the pings never wait on the board (nor one DM on another), and a part that fails is
        tried again later without holding the others."""
        parts = [
            self._attempt(
                table,
                state,
                "board",
                rounds,
                lambda: self._sync_boards(table, state, frame, rounds),
            ),
            self._sync_hands(table, state, frame, rounds),
            self._attempt(
                table,
                state,
                "notes",
                rounds,
                lambda: self._sync_channel_notes(table, state, frame, rounds),
            ),
            *(
                self.replies.settle(reply, spec, table.id, frame.turn)
                for reply, spec in frame.settled
            ),
        ]
        await asyncio.gather(*parts)

    async def _attempt(
        self,
        table: Table,
        state: _GameMessages,
        part: str,
        rounds: _Round,
        send: Callable[[], Awaitable[_T]],
    ) -> _T | None:
        """Run one part of a pass (``render``, ``board``, ``notes``, ``dm:<seat>``) unless it
        waits out an earlier failure; a failure is logged once per outage and tried again
        later each time, up to ``RETRY_MAX_DELAY`` apart. The board and the notes share the
        channel: while it refuses the bot (403, or 404 for the channel itself), neither is
        tried before the channel's own wait is over."""
        now = time.monotonic()
        keys = [part, CHANNEL] if part in ("board", "notes") else [part]
        waits = [w.not_before - now for k in keys if (w := state.waits.get(k)) is not None]
        if waits and max(waits) > 0:
            rounds.hold(max(waits))
            return None
        try:
            result = await send()
        except Exception as exc:
            key = CHANNEL if part in ("board", "notes") and _channel_refused(exc) else part
            wait = state.waits.setdefault(key, _Wait())
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

    def _given_up(self, table: Table, state: _GameMessages) -> bool:
        """A finished game whose channel still refuses the bot stops trying after ``GIVE_UP``
        tries (a game in play keeps trying: its board must catch up when the permission is
        back). Other failures (429 storms, outages) are tried for as long as it takes (P-23)."""
        wait = state.waits.get(CHANNEL)
        if table.status in ("lobby", "playing") or wait is None or wait.failures < GIVE_UP:
            return False
        log.warning(
            "game %s has ended and channel %s still refuses the bot; gave up showing its end",
            table.id,
            table.game.channel_id,
        )
        return True

    @staticmethod
    async def _rest(state: _GameMessages, gap: float, held: float) -> None:
        """Wait ``gap`` (the spacing of one game's edits), then until ``held`` is over or the
        game changes, whichever comes first: a part waiting out a failure must not hold back
        the others' news."""
        if gap > 0:
            await asyncio.sleep(gap)
        remaining = held - gap
        if remaining > 0 and not state.changed.is_set():
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(state.changed.wait(), remaining)

    def _slot(self, channel: Hashable, kind: Kind, rounds: _Round) -> Slot | None:
        """A slot for one request to ``channel`` now, or ``None`` (the round notes the wait)."""
        slot = self.pacer.take(channel, kind)
        if slot is None:
            rounds.hold(self.pacer.delay(channel, kind))
        return slot

    def _schedule_refresh(self, table: Table, state: _GameMessages, at: datetime | None) -> None:
        """Redraw at the refresh time the presenter gave when this pass rendered (a live
        countdown, a cooldown ending), once. Judged at render time, not now: a cooldown that
        ended while the pass was sending still gets the redraw that lifts it."""
        if state.refresh is not None:
            state.refresh.cancel()
            state.refresh = None
        if at is None or table.status != "playing":
            return
        delay = max(0.0, (at - datetime.now(UTC)).total_seconds())
        state.refresh = asyncio.get_running_loop().call_later(delay, self.mark_dirty, table)

    def _schedule_ping(self, table: Table, state: _GameMessages) -> None:
        """Render again when the next ping falls due (P-46), once, like ``_schedule_refresh``
        but on the publisher's own clock."""
        if state.ping_wake is not None:
            state.ping_wake.cancel()
            state.ping_wake = None
        at = state.pings.next_due()
        if at is None or table.status != "playing":
            return
        delay = max(0.0, (at - self.clock()).total_seconds())
        state.ping_wake = asyncio.create_task(self._wake(table, delay), name=f"ping:{table.id}")

    async def _wake(self, table: Table, delay: float) -> None:
        await self.sleep(delay)
        self._state(table.id).ping_wake = None  # this task is done: the pump may set the next
        self.mark_dirty(table)

    async def _render(self, table: Table) -> _Frame:
        """Render the last committed state (the lock guarantees no half-applied action), the
        newest of any process when several share the store (P-36)."""
        if self.refresh is not None and self.store.shared and table.status in ("lobby", "playing"):
            try:
                await self.refresh(table)
            except Exception as exc:  # draw what this process knows; the next change redraws
                log.warning(
                    "game %s: could not check for newer moves (%s)", table.id, one_line(exc)
                )
        async with table.lock:
            presenter = presenter_for(table.slug)
            if table.status == "lobby":
                return _Frame([lobby_message(table)], seq=next(self._seq))
            settled = [
                (reply, presenter.answered(table, reply.seat, reply.spec))
                for reply in self.replies.used_up(table)
            ]
            if table.status == "cancelled" or table.engine is None:
                state = self._state(table.id)
                state.pings.clear()
                plan = state.pings.plan(self.clock())
                return _Frame(
                    [cancelled_message(table)], settled=settled, ping_plan=plan, seq=next(self._seq)
                )
            # Asked before drawing: a board drawn while a cooldown still ran then always has
            # its redraw due, even if the cooldown ends while the board is being drawn.
            refresh_at = None if table.engine.is_over else presenter.refresh_at(table)
            drawing = self._draw(table)
            state = self._state(table.id)
            if not drawing.members:  # over, or waiting on nobody a member plays (P-28)
                state.pings.observe((), (), self.clock())
            plan = state.pings.plan(self.clock())
            ping = list(plan.ping)
            return _Frame(
                drawing.boards,
                drawing.hands,
                drawing.turn,
                settled,
                ping=tuple(table.user_at(s).user_id for s in ping),
                ping_text=presenter.ping_text(table, ping) if ping else "",
                ping_plan=plan,
                refresh_at=refresh_at,
                seq=drawing.seq,
            )

    def _draw(
        self, table: Table, *, boards: bool = True, seats: Iterable[int] | None = None
    ) -> _Drawing:
        """A game in play as it should show now: its boards (the first naming whom the game
        waits on, P-28) and each member's DM. Holding the table's lock; no side effects, so a
        click's answer and the pump draw alike. A click's answer needs only the message it came
        from: ``boards=False`` leaves the boards out, ``seats`` the DMs of the other seats."""
        presenter = presenter_for(table.slug)
        engine = table.running()
        waiting = frozenset() if engine.is_over else engine.waiting_for()
        members = [s for s in sorted(waiting) if s >= 0 and pingable(table, s)]
        specs = presenter.public_boards(table, self.log.lines(table.id)) if boards else []
        if engine.is_over and specs:  # a finished game's board links to its replay
            url = game_url(self.settings, table.game.web_token)
            specs[0] = with_replay_link(specs[0], url)
        if members and specs:  # the board says whom the game waits on (P-28)
            specs[0] = with_turn_line(specs[0], [table.user_at(s).user_id for s in members])
        hands: dict[int, MessageSpec] = {}
        for seat in range(engine.players) if seats is None else seats:
            if table.user_at(seat).is_bot:
                continue
            spec = presenter.hand(table, seat)
            if spec is not None:
                hands[seat] = spec
        return _Drawing(specs, hands, engine.turn, members, next(self._seq))

    async def _sync_boards(
        self, table: Table, state: _GameMessages, frame: _Frame, rounds: _Round
    ) -> None:
        boards, turn = frame.boards, frame.turn
        channel = self.client.get_partial_messageable(table.game.channel_id)
        kinds = ["board" if i == 0 else f"board:{i}" for i in range(len(boards))]
        await _after_answers(state, [state.board_ids.get(kind) for kind in kinds])
        now = time.monotonic()
        changed = [
            (kind, spec)
            for kind, spec in zip(kinds, boards, strict=True)
            if state.shown.get(kind) != (spec, turn) and not _answered_newer(state, kind, frame)
        ]
        for kind, _ in changed:
            state.stale_since.setdefault(kind, now)
        # The message that has waited longest goes first: no page starves behind a busier one.
        changed.sort(key=lambda item: state.stale_since[item[0]])
        for kind, spec in changed:
            previous = state.shown.get(kind)
            message_id = state.board_ids.get(kind)
            slot = self._slot(channel.id, "send" if message_id is None else "edit", rounds)
            if slot is None:
                continue
            try:
                # The picture (if any) is rendered off the event loop, and uploaded only when it
                # changed: an unchanged board picture stays on the message as it is.
                shown = previous[0].image if previous is not None else None
                png = None
                if spec.image is not None and (message_id is None or spec.image != shown):
                    png = await self.images.png(spec.image)
                if message_id is None:
                    message = await channel.send(
                        **send_kwargs(spec, table.id, turn, png), allowed_mentions=QUIET
                    )
                    state.board_ids[kind] = message.id
                    await self.store.set_message(table.id, kind, channel.id, message.id)
                else:
                    await channel.get_partial_message(message_id).edit(
                        **edit_kwargs(spec, table.id, turn, png, shown=shown),
                        allowed_mentions=QUIET,
                    )
            except discord.NotFound as exc:
                if exc.code != UNKNOWN_MESSAGE or message_id is None:
                    raise
                # Someone deleted the board: post it again, once, with the newest state (the
                # next round; the store then records the new message, P-39).
                log.warning("game %s: its %s message was deleted; posting it again", table.id, kind)
                state.board_ids.pop(kind, None)
                state.shown.pop(kind, None)
                state.dirty = True
                rounds.hold(0.0)
                continue
            finally:
                slot.release()
            if _landed(state, kind, frame.seq):
                state.shown[kind] = (spec, turn)
                state.stale_since.pop(kind, None)
            rounds.channel_sent()
        for kind in [k for k in state.board_ids if k not in kinds]:
            slot = self._slot(channel.id, "delete", rounds)
            if slot is None:
                continue
            try:
                with contextlib.suppress(discord.NotFound):
                    await channel.get_partial_message(state.board_ids[kind]).delete()
            finally:
                slot.release()
            state.board_ids.pop(kind)
            state.shown.pop(kind, None)
            state.stale_since.pop(kind, None)
            rounds.channel_sent()

    async def _sync_hands(
        self, table: Table, state: _GameMessages, frame: _Frame, rounds: _Round
    ) -> None:
        """One DM per player per game (P-8): sent once, then edited in place, "your turn" and
        its buttons included. Edits never notify. Each DM is its own part: one that fails is
        tried again later while the others go on (P-39)."""
        await asyncio.gather(
            *(
                self._attempt(
                    table,
                    state,
                    f"dm:{seat}",
                    rounds,
                    functools.partial(self._sync_hand, table, state, seat, spec, frame, rounds),
                )
                for seat, spec in frame.hands.items()
                if seat not in state.dm_closed
                and state.hands_shown.get(seat) != shown_as(spec, frame.turn)
            )
        )

    async def _sync_hand(
        self,
        table: Table,
        state: _GameMessages,
        seat: int,
        spec: MessageSpec,
        frame: _Frame,
        rounds: _Round,
    ) -> None:
        turn = frame.turn
        await _after_answers(state, [state.hand_ids.get(seat)])
        if state.hands_shown.get(seat) == shown_as(spec, turn) or _answered_newer(
            state, f"dm:{seat}", frame
        ):
            return  # the click on it showed this, or newer, in its own answer
        first = seat not in state.hand_ids
        user_id = table.user_at(seat).user_id
        slot = self._slot(("dm", user_id), "send" if first else "edit", rounds)
        if slot is None:
            return
        try:
            dm = await self.dms.channel(user_id)  # by id: no GET /users/{id} (issue #21)
            if first:
                message = await dm.send(**send_kwargs(spec, table.id, turn))
                state.hand_ids[seat] = message.id
                await self.store.set_message(table.id, f"hand:{seat}", dm.id, message.id)
            else:
                await dm.get_partial_message(state.hand_ids[seat]).edit(
                    **edit_kwargs(spec, table.id, turn)
                )
        except discord.Forbidden as exc:
            # DMs closed (50007), or any other refusal to reach this member: their hand stays
            # a click away (My hand), and the channel is told once.
            log.info("game %s: seat %s takes no DMs (%s)", table.id, seat, one_line(exc))
            state.dm_closed.add(seat)
            await self._tell_dms_closed(table, user_id)
            return
        except discord.NotFound:  # the DM is gone: send a new one, now
            state.hand_ids.pop(seat, None)
            state.dirty = True
            rounds.hold(0.0)
            return
        finally:
            slot.release()
        if _landed(state, f"dm:{seat}", frame.seq):
            state.hands_shown[seat] = shown_as(spec, turn)
        rounds.sent += 1

    async def _tell_dms_closed(self, table: Table, user_id: int) -> None:
        """Say so in the channel, without the secret, and point at the ephemeral fallback (in
        the next pass: the channel's part of this one may have gone already)."""
        state = self._state(table.id)
        state.dirty = True
        state.notices.append(
            f"<@{user_id}>, I can't send you direct messages, so your hand stays hidden here: "
            "press **My hand** on the board or use `/bugs hand` to see it privately."
        )

    async def _sync_channel_notes(
        self, table: Table, state: _GameMessages, frame: _Frame, rounds: _Round
    ) -> None:
        """Notices, then the turn ping (one per game: the previous one is deleted first,
        P-46), each within the channel's limits."""
        channel = self.client.get_partial_messageable(table.game.channel_id)
        while state.notices:
            slot = self._slot(channel.id, "send", rounds)
            if slot is None:
                break
            try:
                await channel.send(
                    state.notices[0], allowed_mentions=discord.AllowedMentions(users=True)
                )
            finally:
                slot.release()
            state.notices.pop(0)
            rounds.channel_sent()
        pings, plan, wanted = state.pings, frame.ping_plan, []
        if frame.ping:  # members with pings off are skipped for this wait (P-28)
            settings = await self.store.member_settings(frame.ping)
            wanted = [u for u in frame.ping if settings[u].pings]
            if wanted:
                pings.sending(plan)
            else:
                pings.pinged(plan, (), None)
        for message_id in list(pings.doomed):
            slot = self._slot(channel.id, "delete", rounds)
            if slot is None:
                return  # the new ping waits for the old one to go
            try:
                with contextlib.suppress(discord.NotFound):
                    await channel.get_partial_message(message_id).delete()
            finally:
                slot.release()
            pings.deleted(message_id)
            rounds.channel_sent()
        if wanted:
            await self._ping(table, state, frame, wanted, rounds)

    async def _ping(
        self, table: Table, state: _GameMessages, frame: _Frame, wanted: list[int], rounds: _Round
    ) -> None:
        """Mention the members the game has waited on for ``PING_AFTER`` who want pings, in a
        new message (edits notify nobody), P-28, P-46."""
        plan = frame.ping_plan
        channel = self.client.get_partial_messageable(table.game.channel_id)
        slot = self._slot(channel.id, "send", rounds)
        if slot is None:
            return
        try:
            message = await channel.send(
                ping_content(wanted, frame.ping_text),
                allowed_mentions=discord.AllowedMentions(
                    everyone=False, roles=False, users=[discord.Object(u) for u in wanted]
                ),
            )
        finally:
            slot.release()
        named = [s for s in plan.ping if table.user_at(s).user_id in wanted]
        state.pings.pinged(plan, named, message.id)
        rounds.channel_sent()
        await self.store.set_message(table.id, "ping", channel.id, message.id)

    # -- clicks answered by the message they came from (issue #21) --------------------------
    @contextlib.contextmanager
    def answering(self, game_id: int, message: discord.Message | None) -> Iterator[None]:
        """While a click on ``message`` is being decided and answered, the pump's edit of that
        message waits: the click's own answer (``answer_click``) may show the same state, and
        the pump then has nothing to send. A click answered otherwise (refused, a private
        reply) lets the edit go as soon as it is done."""
        if message is None:
            yield
            return
        state = self._state(game_id)
        state.answering[message.id] = state.answering.get(message.id, 0) + 1
        try:
            yield
        finally:
            left = state.answering.pop(message.id) - 1
            if left:
                state.answering[message.id] = left
            state.answered.set()

    async def answer_click(self, interaction: discord.Interaction[Any], table: Table) -> bool:
        """Answer a click that changed the game by updating the message it came from (the
        board, or the clicker's own DM) in the click's response (``UPDATE_MESSAGE``): the
        clicker and everyone else see the new state at once, and it costs none of the bot's
        global request budget. The pump then has nothing left to edit there (P-45).

        False when the click came from another message, or its message shows the same thing
        as before: the caller acknowledges the click itself."""
        message = interaction.message
        if message is None:
            return False
        state = self._state(table.id)
        async with table.lock:
            key = self._clicked(table, state, message.id, interaction.user.id)
            if key is None:
                return False
            drawing = self._answer_drawing(table, key)
            spec = _drawn(drawing, key)
            if spec is None:
                return False
            turn = drawing.turn
            board = not key.startswith("dm:")
            if board:
                previous = state.shown.get(key)
                if previous == (spec, turn):
                    return False
                state.shown[key] = (spec, turn)  # claimed: the pump does not send it too
            else:
                seat = int(key[3:])
                previous_hand = state.hands_shown.get(seat)
                if previous_hand == shown_as(spec, turn):
                    return False
                state.hands_shown[seat] = shown_as(spec, turn)
        shown_image = previous[0].image if board and previous is not None else None
        try:
            png = None
            if spec.image is not None and spec.image != shown_image:
                png = await self.images.png(spec.image)
            kwargs = edit_kwargs(spec, table.id, turn, png, shown=shown_image)
            if interaction.response.is_done():  # deferred by the ack guard: edit through it
                await interaction.edit_original_response(**kwargs, allowed_mentions=QUIET)
            else:
                await interaction.response.edit_message(**kwargs, allowed_mentions=QUIET)
        except Exception as exc:
            # Unanswered (too late, or Discord failed): the pump edits the message instead.
            log.warning(
                "game %s: could not answer a click on its %s (%s)", table.id, key, one_line(exc)
            )
            if board:
                state.shown.pop(key, None)
            else:
                state.hands_shown.pop(int(key[3:]), None)
            self.mark_dirty(table)
            return interaction.response.is_done()
        if board:
            if _landed(state, key, drawing.seq):
                state.stale_since.pop(key, None)
        else:
            _landed(state, key, drawing.seq)
        if state.dirty:
            self.mark_dirty(table)
        return True

    def _answer_drawing(self, table: Table, key: str) -> _Drawing:
        """What the clicked message ``key`` should show now, and nothing else."""
        if table.status == "lobby":
            return _Drawing([lobby_message(table)], {}, 0, [], next(self._seq))
        if table.status == "cancelled" or table.engine is None:
            return _Drawing([cancelled_message(table)], {}, 0, [], next(self._seq))
        if key.startswith("dm:"):
            return self._draw(table, boards=False, seats=[int(key[3:])])
        return self._draw(table, seats=())

    @staticmethod
    def _clicked(table: Table, state: _GameMessages, message_id: int, user_id: int) -> str | None:
        """Which of the game's messages was clicked: ``board``, ``board:1``, or ``dm:<seat>``
        of the clicker only."""
        for kind, board_id in state.board_ids.items():
            if board_id == message_id:
                return kind
        seat = table.seat_of(user_id)
        if seat is not None and state.hand_ids.get(seat) == message_id:
            return f"dm:{seat}"
        return None

    def track_reply(self, table: Table, reply: PrivateReply) -> None:
        """Keep a private reply with buttons until they are used up (P-27); redraw at once if
        the game moved on while it was being sent."""
        self.replies.track(table.id, reply)
        if self.replies.pending(table.id):
            self.mark_dirty(table)

    def dm_shows_hand(self, game_id: int, seat: int) -> bool:
        """Whether the seat's DM shows their hand (sent, DMs not closed): their panel then
        need not repeat it (P-48)."""
        state = self._games.get(game_id)
        return state is not None and seat in state.hand_ids and seat not in state.dm_closed

    def board_message_id(self, game_id: int) -> int | None:
        return self._state(game_id).board_ids.get("board")

    def remember_board(
        self, game_id: int, message_id: int, spec: MessageSpec | None = None
    ) -> None:
        state = self._state(game_id)
        state.known = True
        state.board_ids["board"] = message_id
        if spec is not None:
            state.shown["board"] = (spec, 0)


ANSWER_WAIT = 3.0
"""At most this long an edit waits for a click's answer on its message (Discord's own
deadline for answering a click)."""


def _drawn(drawing: _Drawing, key: str) -> MessageSpec | None:
    """The spec of message ``key`` in ``drawing`` (None: the game no longer shows it)."""
    if key.startswith("dm:"):
        return drawing.hands.get(int(key[3:]))
    index = 0 if key == "board" else int(key.split(":")[1])
    return drawing.boards[index] if index < len(drawing.boards) else None


async def _after_answers(state: _GameMessages, message_ids: list[int | None]) -> None:
    """Until no click on these messages is being answered (at most ``ANSWER_WAIT``)."""
    deadline = time.monotonic() + ANSWER_WAIT
    while any(m is not None and m in state.answering for m in message_ids):
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            return
        state.answered.clear()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(state.answered.wait(), remaining)


def _answered_newer(state: _GameMessages, key: str, frame: _Frame) -> bool:
    """A click's answer showed a later render of this message than ``frame``: sending the
    frame would take it back (any change after that answer marks the game dirty itself)."""
    return frame.seq < state.landed.get(key, 0)


def _landed(state: _GameMessages, key: str, seq: int) -> bool:
    """Note that render ``seq`` of message ``key`` landed. False if a newer render of it had
    landed already (a click's answer and the pump's edit crossed): the message may now show the
    older one, so it is marked unknown and the next pass draws it again, once (P-45)."""
    if seq > state.landed.get(key, 0):
        state.landed[key] = seq
        return True
    if key.startswith("dm:"):
        state.hands_shown.pop(int(key[3:]), None)
    else:
        state.shown.pop(key, None)
    state.dirty = True
    return False


def _waiting(table: Table) -> frozenset[int]:
    engine = table.engine
    if engine is None or engine.is_over or table.status != "playing":
        return frozenset()
    return engine.waiting_for()


def _members(table: Table) -> list[int]:
    """The seats the game waits on that members play themselves: those a ping may name."""
    return [s for s in sorted(_waiting(table)) if s >= 0 and pingable(table, s)]


def restore_waits(
    pings: PingPolicy, table: Table, members: list[int], ping_message: int | None
) -> None:
    """After a restart, each wait began when the game last changed (``games.updated_at``);
    a ping message sent since then (a Discord id tells when it was made) already pinged them."""
    since = table.game.updated_at
    pinged = ping_message is not None and discord.utils.snowflake_time(ping_message) >= since
    pings.restore(members, since, pinged=pinged, message=ping_message)


def pingable(table: Table, seat: int) -> bool:
    """A seat a member plays themself: bots, and stand-ins for a member away, are never
    pinged (P-28, P-30)."""
    return not table.bot_plays(seat)


MAX_MENTIONS = 10


def mentions(user_ids: list[int]) -> str:
    shown = " ".join(f"<@{u}>" for u in user_ids[:MAX_MENTIONS])
    more = len(user_ids) - MAX_MENTIONS
    return f"{shown} +{more}" if more > 0 else shown


def shown_as(spec: MessageSpec, turn: int) -> tuple[MessageSpec, int | None]:
    """What a DM showing ``spec`` at ``turn`` is: the same choices at a new turn are new buttons
    (a DM's are always the current ones, P-8), and a DM without any is not edited for a turn."""
    return spec, turn if spec.acts else None


def with_turn_line(spec: MessageSpec, user_ids: list[int]) -> MessageSpec:
    """The board with a first line naming whom the game waits on (as mentions, which do not
    notify anyone in an edit: the ping does that)."""
    line = f"🔔 Your move: {mentions(user_ids)}"
    content = f"{line}\n{spec.content}" if spec.content else line
    return dataclasses.replace(spec, content=content)


def ping_content(user_ids: list[int], text: str) -> str:
    return f"🔔 {mentions(user_ids)} {text} (pings: `/bugs settings`)"
