"""Play: actions in arrival order, persisted deadlines firing (timers), pacing, and the clock's
AFK strikes with the bots that stand in for a member who is away (P-30, P-31)."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime, timedelta
from typing import Any

from rules.core import SYSTEM, Deadline, Engine, RuleError

from ..speeds import control_of, deadline_seconds
from ..store.errors import NotSeated, VersionConflict
from ..store.records import TimerSpec
from .core import gone, log, through_gate
from .errors import GameGone, NotAway, NotStarted, SeatAway, StaleButton, TooFast
from .loading import Loading
from .results import final_results
from .table import Outcome, SeatChange, SeatChangeWhy, Table


class Play(Loading):
    """Applies actions and deadlines to a running game, and hands seats to and from bots."""

    @through_gate
    async def act(
        self,
        game_id: int,
        user_id: int,
        action: dict[str, Any],
        *,
        turn: int | None = None,
        by_bot: bool = False,
    ) -> Outcome:
        """Apply a member's action in arrival order; committed before this returns.
        ``by_bot``: a bot plays (a bot seat, or a member's seat while they are away)."""
        table = await self.table(game_id)
        fired: list[Outcome] = []

        async def attempt() -> Outcome:
            if table.status == "lobby":
                raise NotStarted()
            if table.status != "playing":
                # Just finished, still loaded while its listeners hear of the end.
                raise gone(table.status)
            seat = table.require_seat(user_id)
            if table.user_at(seat).away and not by_bot:
                raise SeatAway()
            # A deadline that passed takes effect before anything that arrived after it
            # (a member acting now is not away, whatever their clock did, P-31).
            fired.extend(await self._fire_overdue_locked(table, None if by_bot else seat))
            engine = table.running()
            # A game that just ended (a countdown fired above) is refused by the engine
            # itself, whose message says why ("Too late: STOP has been called").
            if turn is not None and turn != engine.turn and not engine.is_over:
                raise StaleButton()
            self._check_pacing(table, action)
            done = await self._apply_locked(table, seat, action)
            if not by_bot:
                table.clock_strikes.pop(seat, None)
            return done

        try:
            outcome = await self._locked(table, attempt)
        finally:
            for earlier in fired:
                await self._notify(table, earlier)
        await self._notify(table, outcome)
        return outcome

    def _check_pacing(self, table: Table, action: dict[str, Any]) -> None:
        setting = table.engine_cls.pacing.get(str(action.get("type")))
        if setting is None:
            return
        gap = self.settings.timer_seconds(setting, 0.0)
        last = table.paced_at.get(setting)
        if last is not None and self.monotonic() - last < gap:
            raise TooFast()

    async def fire_timer(self, game_id: int, key: str) -> Outcome | None:
        """A persisted deadline expired: apply its SYSTEM action if the game still wants it
        (a game not loaded yet is loaded now). Not while stopping: the deadline is in the
        database, and fires on the next start."""
        if self.gate.closed:
            return None
        with self.gate.through():
            return await self._fire_timer(game_id, key)

    async def _fire_timer(self, game_id: int, key: str) -> Outcome | None:
        try:
            table = await self.table(game_id)
        except GameGone:
            return None
        if table.status != "playing":
            return None

        async def attempt() -> Outcome | None:
            if table.status != "playing" or key not in table.timers or table.engine is None:
                return None
            return await self._fire_key_locked(table, key)

        outcome = await self._locked(table, attempt)
        if outcome is not None:
            await self._notify(table, outcome)
        return outcome

    async def _fire_overdue_locked(self, table: Table, acting: int | None = None) -> list[Outcome]:
        fired = []
        now = self.clock()
        for key, due in sorted(table.timers.items(), key=lambda kv: kv[1]):
            if due <= now and key in table.timers and table.status == "playing":
                outcome = await self._fire_key_locked(table, key, acting)
                if outcome is not None:
                    fired.append(outcome)
        return fired

    async def _fire_key_locked(
        self, table: Table, key: str, acting: int | None = None
    ) -> Outcome | None:
        engine = table.running()
        wanted = {d.key: d for d in engine.deadlines()}
        deadline = wanted.get(key)
        if deadline is None:  # the engine moved on; forget the stale timer
            log.debug("timer %s of game %s no longer wanted", key, table.id)
            return None
        turn = engine.turn  # the move the clock was waiting for
        outcome = await self._apply_locked(table, SYSTEM, deadline.action, fired_key=key)
        await self._count_clock_locked(table, deadline, acting, turn)
        return outcome

    async def _count_clock_locked(
        self, table: Table, deadline: Deadline, acting: int | None, turn: int
    ) -> None:
        """A member's own clock ran out (a platform timer waiting on that one seat): one more
        in a row; at ``afk_limit`` a bot takes the seat over until they come back (P-31).
        Not if the board showed the move for less than half the clock (P-84): the bot's own
        edits were late (Discord's limits under load), not the member."""
        if deadline.setting is None or len(deadline.seats) != 1:
            return  # a rule's own time (a countdown), or one that waits on everyone
        if not control_of(table.game.time_control).strikes:
            return  # turn-based: a clock running out is a default, never a strike (P-71)
        (seat,) = deadline.seats
        if seat == acting or not 0 <= seat < len(table.names()) or table.bot_plays(seat):
            return
        if self._shown_too_briefly(table, deadline, turn, seat):
            return
        strikes = table.clock_strikes[seat] = table.clock_strikes.get(seat, 0) + 1
        limit = table.policy.afk_limit  # the server's when the game opened (P-64)
        if limit is None:
            limit = self.settings.afk_limit
        if not limit or strikes < limit or table.running().is_over:
            return
        try:
            user_id = table.user_at(seat).user_id
            await self._set_away_locked(table, user_id, away=True, why="clock", strikes=strikes)
        except VersionConflict:  # another process moved the game on since the timer's commit
            log.info("game %s moved on: seat %s waits for its next clock", table.id, seat)
        except Exception:  # the timer's own move is committed; the hand-over waits for the next
            log.exception("could not hand seat %s of game %s to a bot", seat, table.id)

    def _shown_too_briefly(self, table: Table, deadline: Deadline, turn: int, seat: int) -> bool:
        """Whether the board showed ``turn`` for less than half of ``deadline``'s clock (known
        only to the process that shows the game: elsewhere the clock counts as it always did)."""
        shown = None if self.on_screen is None else self.on_screen(table.id, turn)
        if shown is None:
            return False
        clock = deadline_seconds(
            self.settings,
            table.engine_cls,
            table.game.time_control,
            deadline.setting,
            deadline.seconds,
        )
        if shown >= clock / 2:
            return False
        log.info(
            "game %s: seat %s's clock ran out %.1f s after the board showed the move "
            "(clock %.1f s): no strike",
            table.id,
            seat,
            shown,
            clock,
        )
        return True

    async def _apply_locked(
        self, table: Table, seat: int, action: dict[str, Any], *, fired_key: str | None = None
    ) -> Outcome:
        engine = table.running()
        turn_before = engine.turn
        try:
            events = engine.apply(seat, action)
        except RuleError:
            raise
        except Exception:
            # An engine bug must not leave a half-applied state in memory.
            self._rollback(table)
            raise
        now = self.clock()
        timers = self._timer_specs(table, engine, table.timers, now, fired_key=fired_key)
        wanted = {t.key: t.due_at for t in timers}
        # Most actions leave the deadlines as they were: neither stored nor scheduled again.
        timers_changed = wanted != table.timers
        # A snapshot costs more than most moves: made only when the store will write it (every
        # SNAPSHOT_EVERY actions and at the end, P-33); the table keeps the moves since.
        due = self.store.snapshot_due(table.game, ending=engine.is_over)
        snapshot = engine.to_dict() if due else None
        results = final_results(table) if engine.is_over else None
        try:
            record = await self.store.record_action(
                table.game,
                seat=seat,
                action=action,
                snapshot=snapshot,
                timers=timers if timers_changed else None,
                results=results,
            )
        except BaseException:
            self._rollback(table)
            raise
        table.game = record
        if snapshot is not None and record.snapshot_seq == record.last_seq:
            table.committed, table.tail = snapshot, []
        else:
            table.tail.append((seat, action))
        if engine.turn != turn_before:
            table.paced_at.clear()  # pacing spaces actions within a turn, not across turns
            table.paced_until.clear()
        setting = table.engine_cls.pacing.get(str(action.get("type")))
        if setting is not None:
            table.paced_at[setting] = self.monotonic()
            # From the same instant as the host's own check, so a board never offers the
            # button before the host takes it.
            gap = self.settings.timer_seconds(setting, 0.0)
            table.paced_until[setting] = self.clock() + timedelta(seconds=gap)
        if engine.is_over:
            table.timers = {}
            self.scheduler.drop_game(table.id)
        elif timers_changed:
            table.timers = wanted
            self.scheduler.set_game(table.id, wanted.items())
        return Outcome(table.view(), seat, action, events, engine.is_over, turn_before, engine.turn)

    def _rollback(self, table: Table) -> None:
        """Back to what the database holds: the stored snapshot plus the moves since."""
        if table.committed is not None:
            engine = table.engine_cls.from_dict(table.committed)
            for seat, action in table.tail:
                engine.apply(seat, action)
            table.engine = engine

    def _timer_specs(
        self,
        table: Table,
        engine: Engine,
        current: Mapping[str, datetime],
        now: datetime,
        *,
        fired_key: str | None = None,
    ) -> list[TimerSpec]:
        """The deadlines the engine wants now, timed by the game's own control (P-71); a key
        already running keeps its due time."""
        specs: list[TimerSpec] = []
        if engine.is_over:
            return specs
        for deadline in engine.deadlines():
            if deadline.key == fired_key:
                log.warning("engine %s still wants fired timer %s", engine.slug, fired_key)
                continue
            due = current.get(deadline.key)
            if due is None:
                seconds = deadline_seconds(
                    self.settings,
                    table.engine_cls,
                    table.game.time_control,
                    deadline.setting,
                    deadline.seconds,
                )
                due = now + timedelta(seconds=seconds)
            specs.append(TimerSpec(key=deadline.key, due_at=due, action=deadline.action))
        return specs

    async def _set_away_locked(
        self, table: Table, user_id: int, *, away: bool, why: SeatChangeWhy, strikes: int = 0
    ) -> None:
        """A bot takes over a member's seat (``away``), or hands it back; the listeners are
        told through ``table.seat_changes``. The caller holds the lock and notifies."""
        seat = table.require_seat(user_id)
        held = table.user_at(seat)
        if held.is_bot:
            raise NotSeated(table.id, user_id, playing=True)
        if held.away == away:
            raise (SeatAway("A bot already plays your seat.") if away else NotAway())
        level = self.stand_in_level(table) if away else None
        table.game, table.seats = await self.store.set_away(
            table.id, user_id, away=away, expected_version=table.game.version, level=level
        )
        table.clock_strikes.pop(seat, None)
        table.seat_changes.append(SeatChange(seat, why, strikes, view=table.view()))
