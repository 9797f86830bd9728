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

The jobs live in their own modules: ``boards`` (rendering, board messages, click answers),
``hands`` (DMs), ``notices`` (channel notices and pings), ``tracking`` (private replies), on
``attempts`` (slots, failures); ``Publisher`` here is the facade, with the pump.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from datetime import UTC, datetime

from ..backoff import one_line
from ..host.table import Outcome, Table
from ..speeds import control_of
from ..ui.presenter import presenter_for
from ..ui.specs import MessageSpec
from .boards import Boards
from .game_messages import CHANNEL, GIVE_UP, Frame, GameMessages, Round
from .hands import Hands
from .mentioning import restore_waits, waiting_members
from .notices import Notices
from .replies import PrivateReply
from .tracking import Tracking

log = logging.getLogger(__name__)
CLOSE_SECONDS = 5.0


class Publisher(Boards, Hands, Notices, Tracking):
    """The host's listener on the Discord side. ``client`` reaches Discord (channels, members'
    DMs); ``store`` keeps which messages show which game; ``log`` has each game's public log
    lines, which boards show."""

    async def adopt(self, table: Table, *, restarted: bool = True) -> None:
        """Learn which messages show this game (after a restart, or when another process
        showed them: ``restarted`` False, P-36)."""
        state = self._state_of(table)
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
            restore_waits(state.pings, table, waiting_members(table), ping)

    # -- the Listener protocol -----------------------------------------------------------
    def table_changed(self, table: Table, outcome: Outcome | None) -> None:
        presenter = presenter_for(table.slug)
        for change in table.seat_changes:  # a seat handed to a bot or taken back
            notice = presenter.seat_notice(change.view, change)
            if notice is not None:
                self._state(table.id).notices.append(
                    f"<@{table.user_at(change.seat).user_id}> {notice}"
                )
        if outcome is not None:  # which private choices this move decided, and how (P-61)
            self.replies.witness(
                table.id, lambda reply: presenter.settled_by(outcome, reply.seat, reply.spec)
            )
        acted = () if outcome is None or outcome.seat < 0 else (outcome.seat,)
        # After every committed change, so a wait that begins and ends between two pump
        # passes is still seen to end (P-46).
        self._state_of(table).pings.observe(waiting_members(table), acted, self.clock())
        self.mark_dirty(table)

    def mark_dirty(self, table: Table) -> None:
        state = self._state(table.id)
        state.dirty = True
        state.changed.set()
        if state.pump is None or state.pump.done():
            state.pump = asyncio.create_task(self._pump(table), name=f"pump:{table.id}")

    async def flush(self) -> None:
        """Wait until every pending edit has been sent (tests and shutdown)."""
        while busy := [
            task
            for state in self._games.values()
            for task in (
                state.pump,
                state.picture_wake,
                *(p.task for p in state.pictures.values()),
            )
            if task is not None and not task.done()
        ]:
            await asyncio.gather(*busy, return_exceptions=True)

    async def close(self) -> None:
        """Send what can be sent within ``CLOSE_SECONDS``, then stop: a pump waiting out a long
        outage must not hold up shutdown (a board is redrawn when its game is next used)."""
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.flush(), CLOSE_SECONDS)
        for state in self._games.values():  # a ping still due goes after the restart (P-46)
            for task in (state.ping_wake, state.resting):
                if task is not None:
                    task.cancel()
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
        while True:
            while state.dirty:
                # One pass at a time: while it waits its turn among every game's passes (P-94)
                # and while its global requests wait for their places (P-47), the changes made
                # meanwhile become one pass. The turn is taken and counted at once, never held.
                if self.passes.enabled:
                    (await self.passes.acquire()).done()
                state.dirty = False
                state.changed.clear()
                rounds = Round()
                frame = await self._attempt(
                    table, state, "render", rounds, lambda: self._render(table)
                )
                if frame is not None:
                    await self._send_frame(table, state, frame, rounds)
                if (
                    frame is not None
                    and rounds.sent
                    and not state.dirty
                    and await self.overtaken(table, frame.version)
                ):
                    state.dirty = True  # what landed may be older than another process's edit
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
            wake = state.picture_wake
            going_on = table.status in ("lobby", "playing")
            if going_on or wake is None or wake.done() or self._given_up(table, state):
                break
            # The final words went out before the final picture was drawn (P-86): wait for
            # it, then put it on (its wake marks the game dirty), then let the game go.
            await asyncio.wait({wake})
        if table.status not in ("lobby", "playing"):
            self._forget(table)
        elif table.status == "playing" and control_of(table.game.time_control).rests:
            self._arm_rest(table, state)

    def _forget(self, table: Table) -> None:
        """Drop what this process keeps of a game's messages: it ended, or rests (P-74)."""
        self.log.forget(table.id)
        self.panels.forget(table.id)
        done = self._games.pop(table.id, None)
        if done is None:
            return
        for task in (done.ping_wake, done.resting):
            if task is not None and task is not asyncio.current_task():
                task.cancel()
        for handle in (done.refresh, done.picture_wake):
            if handle is not None:
                handle.cancel()

    def _arm_rest(self, table: Table, state: GameMessages) -> None:
        """Once the game has waited ``REST_AFTER`` with nothing to send, unload it (P-74)."""
        if self.rest is None:
            return
        if state.resting is not None:
            state.resting.cancel()
        version = table.game.version
        state.resting = asyncio.create_task(
            self._rest_later(table, state, version), name=f"rest:{table.id}"
        )

    async def _rest_later(self, table: Table, state: GameMessages, version: int) -> None:
        await self.sleep(self.settings.rest_after * self.settings.timer_scale)
        if self._games.get(table.id) is not state or state.dirty or state.waits:
            return  # changed, or something still to send: the next pass arms it again
        if state.pump is not None and not state.pump.done():
            return
        if state.answering or any(not p.task.done() for p in state.pictures.values()):
            return
        if state.picture_wake is not None and not state.picture_wake.done():
            return  # a picture still to go on the board (P-86)
        assert self.rest is not None
        if self.rest(table.id, version, state.pings.next_due()):
            self._forget(table)

    async def _send_frame(
        self, table: Table, state: GameMessages, frame: Frame, rounds: Round
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
            *(self._settle_reply(table, reply, spec, frame.turn) for reply, spec in frame.settled),
        ]
        await asyncio.gather(*parts)

    async def _settle_reply(
        self, table: Table, reply: PrivateReply, spec: MessageSpec, turn: int
    ) -> None:
        """One used-up private reply settled; one that cannot be (Discord unreachable, the
        connection lost) keeps its old buttons, which answer as stale (P-45): it fails alone,
        never the pass that carries the board and the DMs (P-39)."""
        try:
            await self.replies.settle(reply, spec, table.id, turn)
        except Exception as exc:
            log.warning(
                "game %s: could not settle a private reply of seat %s (%s)",
                table.id,
                reply.seat,
                one_line(exc),
            )

    def _given_up(self, table: Table, state: GameMessages) -> bool:
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
    async def _rest(state: GameMessages, gap: float, held: float) -> None:
        """Wait ``gap`` (the spacing of one game's edits), then until ``held`` is over or the
        game changes, whichever comes first: a part waiting out a failure must not hold back
        the others' news."""
        if gap > 0:
            await asyncio.sleep(gap)
        remaining = held - gap
        if remaining > 0 and not state.changed.is_set():
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(state.changed.wait(), remaining)

    def _schedule_refresh(self, table: Table, state: GameMessages, at: datetime | None) -> None:
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

    def _schedule_ping(self, table: Table, state: GameMessages) -> None:
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
        # A ping goes out with the channel's notices: while they wait out a failure (Discord
        # unreachable, the channel refusing the bot), so does this wake. Woken sooner, each
        # pass would find the ping still due and wake the next at once: measured with Discord
        # gone, the bot redrew 50 games without end, a whole core.
        held = self._held(self._state(table.id), "notes")
        if held > 0:
            await asyncio.sleep(held)
        self._state(table.id).ping_wake = None  # this task is done: the pump may set the next
        self.mark_dirty(table)
