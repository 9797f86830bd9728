"""Loading tables: restoring after a restart, loading a game at its first use, the replay check
of its log, and reloading a table another process moved on (P-36), under the table's locks."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from contextlib import asynccontextmanager
from datetime import datetime
from typing import TypeVar

from rules.core import GAMES, Engine, RuleError, get_game

from ..store import StoreError, VersionConflict, WrongStatus
from ..store.records import ActionRecord, GameRecord
from .core import HostCore, gone, log
from .errors import GameGone, HostError
from .table import Outcome, Table
from .view import TableView

T = TypeVar("T")
STALE_RETRIES = 3
"""Reloads a stale table gets before its refusal stands: each try is judged on the game as the
database has it, and only another process committing again in between makes another needed."""
WAKE = "~wake"
"""The alarm of a resting game's next reminder (P-74): firing it loads the game, whose
publisher then pings on time. No engine's deadline key starts with ``~``."""


class Loading(HostCore):
    """Brings tables from the store into memory, and keeps them in step with it."""

    async def restore(
        self, *, changed_since: datetime | None = None, resting_since: datetime | None = None
    ) -> list[Table]:
        """After a restart: note every persisted deadline and load only the games a bot must
        move in (a bot seat, or a member's seat a bot plays). Every other game is loaded when
        first used (a click, a command, its deadline), so start-up does not grow with the number
        of games (P-32); so are those changed at ``changed_since`` or later, whose turn pings
        may still be due (P-46). The deadlines start with ``resume_timers()``, once the caller is
        ready for what they do (overdue ones fire at once). ``resting_since``: turn-based
        games changed since then are loaded too, their reminders may be due (P-74; they rest
        again once idle). Returns the games loaded now."""
        self._timers_running = False
        self._dormant = {}
        for timer in await self.store.all_timers():
            self._dormant.setdefault(timer.game_id, {})[timer.key] = timer.due_at
        restored = []
        records = await self.store.games_played_by_bots()
        if changed_since is not None:
            records += await self.store.games_changed_since(changed_since)
        if resting_since is not None:
            records += await self.store.games_changed_since(
                resting_since, time_control="turn-based"
            )
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
        loaders (the Discord layer rebuilds the public log and redraws the board). On a store
        other processes share, the game is read under its lock (P-36): its record, seats, log
        and timers are then one moment, so the table never holds moves its record has not
        counted (a move committed between two reads would leave the engine ahead of the
        version its next commit expects, and a reload would replay that move again)."""
        table = Table(record, get_game(record.slug), [])
        async with self.store.game_guard(record.id) as current:
            if current is not None and (current.version, current.status) != (
                record.version,
                record.status,
            ):
                record = await self._record(record.id)
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
        view = table.view()  # the table loaded: replayed lines never depend on the engine
        try:
            engine = table.engine_cls.new(table.engine.players, record.seed, record.options)
            if record.snapshot_seq == 0 and engine.to_dict() != record.snapshot:
                raise ValueError("the first snapshot is not the seed's")
            for entry in actions:
                outcomes.append(_replayed(view, engine, entry))
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
        view = table.view()  # the table reloaded, under its lock
        try:
            for entry in await self.store.actions_after(table.id, seen):
                outcomes.append(_replayed(view, known, entry))
        except Exception:  # the table is reloaded whatever: only the log lines are missing
            log.exception("game %s: could not replay what another process committed", table.id)
        return outcomes

    async def _locked(self, table: Table, attempt: Callable[[], Awaitable[T]]) -> T:
        """Run ``attempt`` holding the table's lock. If the database says the table is stale
        (a version or status it did not expect), reload the table and run it again (up to
        ``STALE_RETRIES`` times: another process may commit again between the reload and the
        try, a busy machine widening that gap), so a
        stale table never refuses every later click (P-22). On a store other processes share,
        the attempt is judged on what this process knows, holding no lock of the database: its
        commit takes the game's lock and checks the version in the group's transaction, and a
        refusal on a table another process moved on is judged again after a reload (P-56).
        Listeners hear of a reload."""
        reloaded = False
        try:
            async with table.lock:
                for tries_left in range(STALE_RETRIES, -1, -1):
                    try:
                        return await attempt()
                    except (VersionConflict, WrongStatus) as exc:
                        if not tries_left:
                            raise
                        log.warning(
                            "game %s changed in the database behind this process (%s): "
                            "reloading it",
                            table.id,
                            type(exc).__name__,
                        )
                    except (RuleError, HostError, StoreError):
                        if not tries_left or not await self._stale(table):
                            raise
                        log.info("game %s moved on in another process: judging again", table.id)
                    async with self.store.game_guard(table.id):
                        await self._reload_locked(table)
                    reloaded = True
                raise AssertionError("unreachable: the last try returns or raises")
        finally:
            if reloaded:
                await self._notify(table, None)

    async def _stale(self, table: Table) -> bool:
        """Whether another process committed to the game since this table was loaded (a
        shared store only: one round trip, paid by refusals alone)."""
        if not self.store.shared:
            return False
        current = await self.store.game_state(table.id)
        return current is not None and (current.version, current.status) != (
            table.game.version,
            table.status,
        )

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

    def rest(self, game_id: int, version: int, wake_at: datetime | None) -> bool:
        """Unload a game that only waits on its members (P-74: turn-based games wait days and
        hold nothing meanwhile): it is loaded again at its first use, as after a restart
        (P-32), or at ``wake_at`` (its next reminder ping), whichever comes first. Refused
        (False) if it is in use, moved on since ``version``, or has a bot to move. Nothing is
        awaited between the checks and the unloading."""
        table = self.tables.get(game_id)
        if (
            table is None
            or table.status != "playing"
            or table.lock.locked()
            or table.game.version != version
            or game_id in self._loading
            or any(table.bot_plays(seat) for seat in range(len(table.seats)))
        ):
            return False
        del self.tables[game_id]
        alarms = dict(table.timers)
        if wake_at is not None:
            alarms[WAKE] = wake_at
        self.scheduler.set_game(game_id, alarms.items())
        log.info("game %s rests until it is next used", game_id)
        return True

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
            raise gone(record.status if record is not None else None)
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


def _replayed(view: TableView, engine: Engine, entry: ActionRecord) -> Outcome:
    """Apply a stored action to ``engine`` again: what it did, as when it was committed."""
    before = engine.turn
    events = engine.apply(entry.seat, entry.action)
    return Outcome(view, entry.seat, entry.action, events, engine.is_over, before, engine.turn)
