"""The Host: lobby operations and arrival-order actions, each committed before anyone sees it.

Every change to a game takes that game's lock, checks, applies, commits, and only then returns
(and tells the listeners). Checks and the state change happen with no ``await`` in between.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import secrets
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping, Sequence
from contextlib import asynccontextmanager
from datetime import datetime, timedelta
from typing import Any, Concatenate, ParamSpec, Protocol, TypeVar

from rules.core import GAMES, SYSTEM, Deadline, Engine, RuleError, get_game

from ..settings import Settings
from ..standings import final_result
from ..store import Store, VersionConflict, WrongStatus
from ..store.errors import NotSeated
from ..store.records import ActionRecord, GameRecord, LobbySeat, ResultSpec, TimerSpec
from .errors import (
    AlreadyStarted,
    GameGone,
    HostError,
    NotAllowed,
    NotAPlayer,
    NotAway,
    NotStarted,
    SeatAway,
    StaleButton,
    TooFast,
    UnknownGame,
)
from .gate import Gate
from .table import Outcome, SeatChange, SeatChangeWhy, Table
from .timers import Sleep, TimerScheduler, utcnow

log = logging.getLogger(__name__)
T = TypeVar("T")
P = ParamSpec("P")
HostT = TypeVar("HostT", bound="Host")


def _through_gate(
    method: Callable[Concatenate[HostT, P], Awaitable[T]],
) -> Callable[Concatenate[HostT, P], Awaitable[T]]:
    """A change a member (or a bot) begins: refused once a graceful stop closed the gate,
    waited for by the stop otherwise."""

    @functools.wraps(method)
    async def through(self: HostT, *args: P.args, **kwargs: P.kwargs) -> T:
        with self.gate.through():
            return await method(self, *args, **kwargs)

    return through


class Listener(Protocol):
    """Told about every committed change (the Discord layer redraws boards and sends DMs)."""

    def table_changed(self, table: Table, outcome: Outcome | None) -> Awaitable[None] | None: ...


Loader = Callable[[Table, list[Outcome]], Awaitable[None] | None]
Reloader = Callable[[Table, list[Outcome]], None]
"""Hears of a game loaded from the store, with the outcomes of replaying its whole log."""


class Host:
    """Owns the live tables of one bot process."""

    def __init__(
        self,
        store: Store,
        settings: Settings,
        *,
        clock: Callable[[], datetime] = utcnow,
        monotonic: Callable[[], float] = time.monotonic,
        sleep: Sleep = asyncio.sleep,
    ) -> None:
        self.store = store
        self.settings = settings
        self.clock = clock
        self.monotonic = monotonic
        self.tables: dict[int, Table] = {}
        self.listeners: list[Listener] = []
        self.loaders: list[Loader] = []
        self.reloaders: list[Reloader] = []
        """Told what another process's commits did when a table is reloaded (P-36)."""
        """Told when a game is loaded from the store (at its first use after a restart), with
        what replaying its log did."""
        self._loading: dict[int, asyncio.Future[Table]] = {}
        self._dormant: dict[int, dict[str, datetime]] = {}
        # Alarms run from the start, or after a restart from ``resume_timers()``.
        self._timers_running = True
        self.gate = Gate()
        """Closed by a graceful stop: nothing new begins, what began finishes."""
        self.scheduler = TimerScheduler(
            self.fire_timer, clock, max_delay=settings.retry_max_delay, sleep=sleep
        )

    # -- loading ---------------------------------------------------------------------------
    async def restore(self, *, changed_since: datetime | None = None) -> list[Table]:
        """After a restart: note every persisted deadline and load only the games a bot must
        move in (a bot seat, or a member's seat a bot plays). Every other game is loaded when
        first used (a click, a command, its deadline), so start-up does not grow with the number
        of games (P-32); so are those changed at ``changed_since`` or later, whose turn pings
        may still be due (P-46). The deadlines start with ``resume_timers()``, once the caller is
        ready for what they do (overdue ones fire at once). Returns the games loaded now."""
        self._timers_running = False
        self._dormant = {}
        for timer in await self.store.all_timers():
            self._dormant.setdefault(timer.game_id, {})[timer.key] = timer.due_at
        restored = []
        records = await self.store.games_played_by_bots()
        if changed_since is not None:
            records += await self.store.games_changed_since(changed_since)
        for record in records:
            if record.id in self.tables:
                continue
            if record.slug not in GAMES:
                log.warning("game %s is a %r, which this bot does not know", record.id, record.slug)
                continue
            restored.append(await self._load(record))
        return restored

    async def _load(self, record: GameRecord) -> Table:
        """Build a game's table from the store, check its log against its snapshot and tell the
        loaders (the Discord layer rebuilds the public log and redraws the board)."""
        table = Table(record, get_game(record.slug), [])
        actions = await self._fill(table, record, verify=True)
        outcomes = self._replay_check(table, record, actions)
        self.tables[record.id] = table
        for loader in self.loaders:
            try:
                maybe = loader(table, outcomes)
                if maybe is not None:
                    await maybe
            except Exception:
                log.exception("loader failed for game %s", table.id)
        return table

    async def _fill(
        self, table: Table, record: GameRecord, *, verify: bool = False
    ) -> list[ActionRecord]:
        """Make the table what the database holds: the stored snapshot plus the actions after
        it. With ``verify`` the whole log is read (and returned) so it can be checked."""
        table.game = record
        table.seats = await self.store.seats(record.id)
        actions: list[ActionRecord] = []
        if verify and record.snapshot is not None:
            actions = await self.store.actions(record.id)
            tail = [a for a in actions if a.seq > record.snapshot_seq]
        elif record.snapshot is not None and record.last_seq > record.snapshot_seq:
            tail = await self.store.actions_after(record.id, record.snapshot_seq)
        else:
            tail = []
        if record.snapshot is not None:
            engine = table.engine_cls.from_dict(record.snapshot)
            for entry in tail:
                engine.apply(entry.seat, entry.action)
            table.engine = engine
            table.committed = record.snapshot
            table.tail = [(entry.seat, entry.action) for entry in tail]
        playing = record.status == "playing"
        table.timers = (
            {t.key: t.due_at for t in await self.store.timers(record.id)} if playing else {}
        )
        return actions

    def _replay_check(
        self, table: Table, record: GameRecord, actions: Sequence[ActionRecord]
    ) -> list[Outcome]:
        """Replay the whole log from the seed: what each action did (for the public log) and
        proof that the stored snapshot is what the log gives, once per game and process."""
        if table.engine is None or record.snapshot is None:
            return []
        outcomes: list[Outcome] = []
        try:
            engine = table.engine_cls.new(table.engine.players, record.seed, record.options)
            if record.snapshot_seq == 0 and engine.to_dict() != record.snapshot:
                raise ValueError("the first snapshot is not the seed's")
            for entry in actions:
                outcomes.append(_replayed(table, engine, entry))
                if entry.seq == record.snapshot_seq and engine.to_dict() != record.snapshot:
                    raise ValueError(f"the snapshot after seq {entry.seq} is not the log's")
        except Exception as exc:  # reported, not fatal: the game goes on from its snapshot
            why = str(exc) if isinstance(exc, ValueError) else type(exc).__name__
            log.error(
                "game %s: replaying its log does not give its stored snapshot (%s)", table.id, why
            )
        return outcomes

    async def _reload_locked(self, table: Table) -> None:
        """The database moved on behind this table (another process committed): take its word,
        and tell the reloaders what those commits did (the public log says it, P-36)."""
        known, seen = table.engine, table.game.last_seq
        await self._fill(table, await self._record(table.id))
        missed = await self._missed(table, known, seen)
        for reloader in self.reloaders:
            try:
                reloader(table, missed)
            except Exception:
                log.exception("reloader failed for game %s", table.id)
        table.paced_at.clear()
        table.paced_until.clear()
        if table.status == "playing":
            self.scheduler.set_game(table.id, table.timers.items())
        else:
            self.scheduler.drop_game(table.id)

    async def _missed(self, table: Table, known: Engine | None, seen: int) -> list[Outcome]:
        """What the actions after ``seen`` (committed by another process) did, replayed on
        ``known``, the engine this table had before (which the reload replaced)."""
        if known is None:
            return []
        outcomes: list[Outcome] = []
        try:
            for entry in await self.store.actions_after(table.id, seen):
                outcomes.append(_replayed(table, known, entry))
        except Exception:  # the table is reloaded whatever: only the log lines are missing
            log.exception("game %s: could not replay what another process committed", table.id)
        return outcomes

    async def _locked(self, table: Table, attempt: Callable[[], Awaitable[T]]) -> T:
        """Run ``attempt`` holding the table's lock. If the database says the table is stale
        (a version or status it did not expect), reload the table and run it once more, so a
        stale table never refuses every later click (P-22). On a store other processes share,
        the attempt also holds the game's database lock, and a table found stale under it is
        reloaded first (P-36). Listeners hear of a reload."""
        reloaded = False
        try:
            async with self._guarded(table) as reloaded:
                try:
                    return await attempt()
                except (VersionConflict, WrongStatus) as exc:
                    log.warning(
                        "game %s changed in the database behind this process (%s): reloading it",
                        table.id,
                        type(exc).__name__,
                    )
                    await self._reload_locked(table)
                    reloaded = True
                return await attempt()
        finally:
            if reloaded:
                await self._notify(table, None)

    @asynccontextmanager
    async def _guarded(self, table: Table) -> AsyncIterator[bool]:
        """Hold the table's lock and, on a store other processes share, the game's database
        lock, reloading the table first if another process committed since (P-36). Yields
        whether it reloaded (the caller tells the listeners)."""
        async with table.lock, self.store.game_guard(table.id) as current:
            stale = current is not None and (current.version, current.status) != (
                table.game.version,
                table.status,
            )
            if stale:
                log.info("game %s moved on in another process: reloading it first", table.id)
                await self._reload_locked(table)
            yield stale

    async def refresh(self, table: Table) -> bool:
        """Bring the table up to what the database holds, if another process moved the game on
        (a shared store only, P-36): a board is then never drawn from a state older than one
        another process already showed. Whether it reloaded."""
        if not self.store.shared:
            return False
        async with self._guarded(table) as reloaded:
            return reloaded

    def resume_timers(self) -> None:
        """Start the alarms of every game after a restart: loaded or not (a dormant game is
        loaded when its alarm goes off)."""
        self._timers_running = True
        dormant, self._dormant = self._dormant, {}
        for game_id, timers in dormant.items():
            if game_id not in self.tables:
                self.scheduler.set_game(game_id, timers.items())
        for table in self.tables.values():
            if table.status == "playing":
                self.scheduler.set_game(table.id, table.timers.items())

    async def _record(self, game_id: int) -> GameRecord:
        record = await self.store.get_game(game_id)
        if record is None:
            raise GameGone()
        return record

    async def table(self, game_id: int) -> Table:
        """The game's table, loaded from the store at its first use. Callers arriving while it
        loads wait for that one load, so a game never has two tables."""
        table = self.tables.get(game_id)
        if table is not None:
            return table
        loading = self._loading.get(game_id)
        if loading is None:
            loading = asyncio.ensure_future(self._load_by_id(game_id))
            self._loading[game_id] = loading
            loading.add_done_callback(lambda _: self._loading.pop(game_id, None))
        return await asyncio.shield(loading)

    async def _load_by_id(self, game_id: int) -> Table:
        record = await self.store.get_game(game_id)
        if record is None or record.status not in ("lobby", "playing"):
            raise _gone(record.status if record is not None else None)
        if record.slug not in GAMES:
            raise GameGone()
        table = await self._load(record)
        if table.status == "playing" and self._timers_running:
            self.scheduler.set_game(table.id, table.timers.items())
        return table

    async def table_in_channel(self, channel_id: int) -> Table | None:
        for table in self.tables.values():
            if table.game.channel_id == channel_id and table.status in ("lobby", "playing"):
                return table
        record = await self.store.active_game_in_channel(channel_id)
        return None if record is None else await self.table(record.id)

    # -- lobby -------------------------------------------------------------------------------
    async def _open(
        self,
        slug: str,
        *,
        guild_id: int | None,
        channel_id: int,
        user_id: int,
        name: str,
        options: Mapping[str, str] | None = None,
        seats: Sequence[LobbySeat] = (),
    ) -> Table:
        if slug not in GAMES:
            raise UnknownGame()  # not echoed: it came from the client, and may be anything
        cls = GAMES[slug]
        resolved = cls.resolve_options(options)
        record = await self.store.create_lobby(
            slug=slug,
            guild_id=guild_id,
            channel_id=channel_id,
            creator_id=user_id,
            creator_name=name,
            options=resolved,
            seed=secrets.randbits(62),
            seats=seats,
        )
        table = Table(record, cls, await self.store.seats(record.id))
        self.tables[record.id] = table
        return table

    open = _through_gate(_open)
    """A new lobby (``_open`` within a change already begun, as a rematch)."""

    @_through_gate
    async def rematch(self, game_id: int, user_id: int, name: str) -> Table:
        """A new lobby in a finished game's channel: same game, options and seat order.

        The member who asked opens it and sits in, bots sit in again, and every other player's
        seat is held until they press Join (docs/rulings.md P-12). A channel that already has a
        game refuses it (ChannelBusy).
        """
        record = await self._record(game_id)
        if record.status != "finished":
            raise GameGone("Only a finished game can be played again.")
        seats = await self.store.seats(game_id)
        if not any(s.user_id == user_id and not s.is_bot for s in seats):
            raise NotAPlayer()
        return await self._open(
            record.slug,
            guild_id=record.guild_id,
            channel_id=record.channel_id,
            user_id=user_id,
            name=name,
            options=record.options,
            seats=[
                LobbySeat(
                    s.user_id,
                    name if s.user_id == user_id else s.name,
                    is_bot=s.is_bot,
                    confirmed=s.is_bot or s.user_id == user_id,
                )
                for s in seats
            ],
        )

    @_through_gate
    async def join(self, game_id: int, user_id: int, name: str, *, is_bot: bool = False) -> Table:
        """Take a lobby seat; during play, take back one's own seat from its bot (P-30)."""
        table = await self.table(game_id)
        async with self._guarded(table):
            if table.status == "playing" and table.seat_of(user_id) is not None:
                await self._set_away_locked(table, user_id, away=False, why="back")
            elif table.status != "lobby":
                raise AlreadyStarted("The game has already started; wait for the next one.")
            else:
                table.seats = await self.store.join(
                    game_id,
                    user_id=user_id,
                    name=name,
                    max_players=table.engine_cls.max_players,
                    is_bot=is_bot,
                )
                table.game = await self._record(game_id)
        await self._notify(table, None)
        return table

    @_through_gate
    async def add_bot(self, game_id: int, user_id: int, *, privileged: bool = False) -> Table:
        """Seat a bot player (random legal play). Bots take negative user ids: -1, -2, ..."""
        table = await self.table(game_id)
        async with self._guarded(table):
            self._check_privileged(table, user_id, privileged)
            if table.status != "lobby":
                raise AlreadyStarted()
            taken = {s.user_id for s in table.seats}
            number = next(n for n in range(1, 100) if -n not in taken)
            table.seats = await self.store.join(
                game_id,
                user_id=-number,
                name=f"🤖 Bot {number}",
                max_players=table.engine_cls.max_players,
                is_bot=True,
            )
            table.game = await self._record(game_id)
        await self._notify(table, None)
        return table

    @_through_gate
    async def leave(self, game_id: int, user_id: int) -> Table:
        """Give up a lobby seat; during play, hand one's seat to a bot until `/bugs join`
        (P-30)."""
        table = await self.table(game_id)
        async with self._guarded(table):
            if table.status == "playing":
                await self._set_away_locked(table, user_id, away=True, why="left")
            elif table.status != "lobby":
                raise GameGone()
            else:
                table.seats = await self.store.leave(game_id, user_id)
                table.game = await self._record(game_id)
        await self._notify(table, None)
        return table

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
        table.seats = await self.store.set_away(table.id, user_id, away=away)
        table.game = await self._record(table.id)
        table.clock_strikes.pop(seat, None)
        table.seat_changes.append(SeatChange(seat, why, strikes))

    def _check_privileged(self, table: Table, user_id: int, privileged: bool) -> None:
        if not privileged and user_id != table.game.creator_id:
            raise NotAllowed()

    @_through_gate
    async def start(self, game_id: int, user_id: int, *, privileged: bool = False) -> Table:
        table = await self.table(game_id)
        await self._locked(table, lambda: self._start_locked(table, user_id, privileged))
        self.scheduler.set_game(game_id, table.timers.items())
        await self._notify(table, None)
        return table

    async def _start_locked(self, table: Table, user_id: int, privileged: bool) -> None:
        game_id = table.id
        self._check_privileged(table, user_id, privileged)
        if table.status != "lobby":
            raise AlreadyStarted()
        cls = table.engine_cls
        seated = table.confirmed()  # held rematch seats nobody confirmed are given up
        count = len(seated)
        if not cls.min_players <= count <= cls.max_players:
            raise HostError(
                f"{cls.title} needs {cls.min_players} to {cls.max_players} players; "
                f"{count} {'has' if count == 1 else 'have'} joined."
            )
        engine = cls.new(count, table.game.seed, table.game.options)
        snapshot = engine.to_dict()
        timers = self._timer_specs(engine, {}, self.clock())
        record = await self.store.start(
            game_id,
            expected_version=table.game.version,
            seat_order=[s.user_id for s in seated],
            snapshot=snapshot,
            timers=timers,
        )
        table.game = record
        table.seats = await self.store.seats(game_id)
        table.engine, table.committed, table.tail = engine, snapshot, []
        table.timers = {t.key: t.due_at for t in timers}

    @_through_gate
    async def cancel(self, game_id: int, user_id: int, *, privileged: bool = False) -> Table:
        table = await self.table(game_id)
        async with self._guarded(table):
            self._check_privileged(table, user_id, privileged)
            if table.status not in ("lobby", "playing"):
                raise GameGone()
            table.game = await self.store.cancel(game_id)
        self.scheduler.drop_game(game_id)
        self.tables.pop(game_id, None)
        await self._notify(table, None)
        return table

    # -- play --------------------------------------------------------------------------------
    @_through_gate
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
                raise _gone(table.status)
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
        outcome = await self._apply_locked(table, SYSTEM, deadline.action, fired_key=key)
        await self._count_clock_locked(table, deadline, acting)
        return outcome

    async def _count_clock_locked(
        self, table: Table, deadline: Deadline, acting: int | None
    ) -> None:
        """A member's own clock ran out (a platform timer waiting on that one seat): one more
        in a row; at ``afk_limit`` a bot takes the seat over until they come back (P-31)."""
        if deadline.setting is None or len(deadline.seats) != 1:
            return  # a rule's own time (a countdown), or one that waits on everyone
        (seat,) = deadline.seats
        if seat == acting or not 0 <= seat < len(table.names()) or table.bot_plays(seat):
            return
        strikes = table.clock_strikes[seat] = table.clock_strikes.get(seat, 0) + 1
        limit = self.settings.afk_limit
        if not limit or strikes < limit or table.running().is_over:
            return
        try:
            user_id = table.user_at(seat).user_id
            await self._set_away_locked(table, user_id, away=True, why="clock", strikes=strikes)
        except Exception:  # the timer's own move is committed; the hand-over waits for the next
            log.exception("could not hand seat %s of game %s to a bot", seat, table.id)

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
        timers = self._timer_specs(engine, table.timers, now, fired_key=fired_key)
        # A snapshot costs more than most moves: made only when the store will write it (every
        # SNAPSHOT_EVERY actions and at the end, P-33); the table keeps the moves since.
        due = self.store.snapshot_due(table.game, ending=engine.is_over)
        snapshot = engine.to_dict() if due else None
        results = self._results(table) if engine.is_over else None
        try:
            record = await self.store.record_action(
                table.id,
                expected_version=table.game.version,
                seat=seat,
                action=action,
                snapshot=snapshot,
                # Most actions leave the deadlines as they were: skip rewriting them.
                timers=None if {t.key: t.due_at for t in timers} == table.timers else timers,
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
        table.timers = {t.key: t.due_at for t in timers}
        if engine.is_over:
            self.scheduler.drop_game(table.id)
        else:
            self.scheduler.set_game(table.id, table.timers.items())
        return Outcome(table, seat, action, events, engine.is_over, turn_before, engine.turn)

    def _rollback(self, table: Table) -> None:
        """Back to what the database holds: the stored snapshot plus the moves since."""
        if table.committed is not None:
            engine = table.engine_cls.from_dict(table.committed)
            for seat, action in table.tail:
                engine.apply(seat, action)
            table.engine = engine

    def _timer_specs(
        self,
        engine: Engine,
        current: Mapping[str, datetime],
        now: datetime,
        *,
        fired_key: str | None = None,
    ) -> list[TimerSpec]:
        """The deadlines the engine wants now; a key already running keeps its due time."""
        specs: list[TimerSpec] = []
        if engine.is_over:
            return specs
        for deadline in engine.deadlines():
            if deadline.key == fired_key:
                log.warning("engine %s still wants fired timer %s", engine.slug, fired_key)
                continue
            due = current.get(deadline.key)
            if due is None:
                seconds = self.settings.deadline_seconds(deadline.setting, deadline.seconds)
                due = now + timedelta(seconds=seconds)
            specs.append(TimerSpec(key=deadline.key, due_at=due, action=deadline.action))
        return specs

    def _results(self, table: Table) -> list[ResultSpec]:
        result = final_result(table.running())
        scores, winners = result.scores, set(result.winners)
        out = []
        for seat, mine in enumerate(scores):
            if seat in winners:
                rank = 1
            else:
                better = sum(1 for score in scores if score > mine)
                tied_winners = sum(1 for s in winners if scores[s] == mine)
                rank = 1 + better + tied_winners
            out.append(
                ResultSpec(
                    user_id=table.user_at(seat).user_id,
                    seat=seat,
                    score=mine,
                    rank=rank,
                    winner=seat in winners,
                    breakdown=result.breakdowns[seat],
                )
            )
        return out

    # -- listeners ---------------------------------------------------------------------------
    async def _notify(self, table: Table, outcome: Outcome | None) -> None:
        for listener in self.listeners:
            try:
                maybe = listener.table_changed(table, outcome)
                if maybe is not None:
                    await maybe
            except Exception:
                log.exception("listener failed for game %s", table.id)
        table.seat_changes.clear()  # every listener has heard of them
        if table.status not in ("lobby", "playing"):
            self.tables.pop(table.id, None)

    async def close(self) -> None:
        await self.scheduler.close()


def _gone(status: str | None) -> GameGone:
    """Why a game cannot be played: it is over (P-6: its results are on its board), or it was
    cancelled or never existed."""
    return GameGone(
        "That game is over: the results are on its board." if status == "finished" else None
    )


def _replayed(table: Table, engine: Engine, entry: ActionRecord) -> Outcome:
    """Apply a stored action to ``engine`` again: what it did, as when it was committed."""
    before = engine.turn
    events = engine.apply(entry.seat, entry.action)
    return Outcome(table, entry.seat, entry.action, events, engine.is_over, before, engine.turn)
