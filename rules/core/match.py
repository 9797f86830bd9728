"""One game among bot players in simulated time, for tournaments and tests.

Real-time games are raced as at a table: each seat acts when its reaction time (``REACTIONS``
of its level) has passed since it last could, a paced action (Bag of Bugs' reveals) waits for
its gap, and a deadline fires when its time comes first. Turn-based games simply take turns.
Everything is seeded; a clock, when given, only measures how long decisions took.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from .bots import REACTIONS, Budget, Clock, Level, bots_for
from .engine import SYSTEM, Deadline, Engine
from .events import Event
from .player import Bot
from .registry import get_game
from .rng import Rng

MAX_ACTIONS = 20_000


@dataclass
class SeatRecord:
    """What one seat did in a match: its level, score, win share and decisions."""

    level: Level
    score: int = 0
    win: float = 0.0
    decisions: list[float] = field(default_factory=list)
    """Seconds per decision (empty without a clock)."""
    simulations: int = 0
    thinking: float = 0.0
    """Seconds spent in decisions that ran simulations."""


@dataclass
class MatchResult:
    slug: str
    seats: list[SeatRecord]
    actions: int


def _seconds(engine: Engine, deadline: Deadline) -> float:
    if deadline.seconds is not None:
        return deadline.seconds
    defaults = {timer.name: timer.seconds for timer in engine.timers}
    return defaults[str(deadline.setting)]


class _Table:
    """The simulated table: the engine, the bots, their next moments and the running timers."""

    def __init__(self, engine: Engine, bots: Sequence[Bot], rng: Rng) -> None:
        self.engine = engine
        self.bots = bots
        self.rng = rng
        self.now = 0.0
        self.ready: dict[int, float] = {}
        self.due: dict[str, float] = {}
        self.paced: dict[str, float] = {}

    def tell(self, events: list[Event]) -> None:
        for bot in self.bots:
            bot.observe(events)

    def refresh(self) -> tuple[list[int], list[Deadline]]:
        """Who may act now (and when each will look), and the deadlines with their due times."""
        engine = self.engine
        movers = [s for s in sorted(engine.waiting_for()) if s >= 0 and engine.legal_actions(s)]
        for seat in list(self.ready):
            if seat not in movers:
                del self.ready[seat]
        for seat in movers:
            if seat not in self.ready:
                self.ready[seat] = self.now + self.react(seat)
        deadlines = engine.deadlines()
        keys = {d.key for d in deadlines}
        self.due = {k: t for k, t in self.due.items() if k in keys}
        for deadline in deadlines:
            self.due.setdefault(deadline.key, self.now + _seconds(engine, deadline))
        return movers, deadlines

    def react(self, seat: int) -> float:
        return REACTIONS[self.bots[seat].level].sample(self.rng)

    def gap_until(self, kind: str) -> float:
        setting = self.engine.pacing.get(kind)
        if setting is None or setting not in self.paced:
            return 0.0
        gap = {timer.name: timer.seconds for timer in self.engine.timers}[setting]
        return self.paced[setting] + gap

    def pace(self, kind: str) -> None:
        setting = self.engine.pacing.get(kind)
        if setting is not None:
            self.paced[setting] = self.now


def play_match(
    slug: str,
    levels: Sequence[Level],
    seed: int,
    budget: Budget | None = None,
    clock: Clock | None = None,
) -> MatchResult:
    """Play one whole game of ``slug`` with one bot per entry of ``levels`` (seat order)."""
    seeds = Rng(seed)
    engine = get_game(slug).new(len(levels), seeds.next_u64() >> 1)
    game = bots_for(slug)
    plan = budget or Budget()
    bots = [Bot(game, s, lvl, Rng(seeds.next_u64()), plan) for s, lvl in enumerate(levels)]
    records = [SeatRecord(lvl) for lvl in levels]
    table = _Table(engine, bots, Rng(seeds.next_u64()))
    actions = 0
    while not engine.is_over and actions < MAX_ACTIONS:
        movers, deadlines = table.refresh()
        seat = min(movers, key=lambda s: (table.ready[s], s)) if movers else None
        timer = min(deadlines, key=lambda d: table.due[d.key]) if deadlines else None
        if timer is not None and (seat is None or table.due[timer.key] <= table.ready[seat]):
            table.now = max(table.now, table.due[timer.key])
            table.tell(engine.apply(SYSTEM, timer.action))
            table.pace(timer.action["type"])
            actions += 1
            continue
        if seat is None:
            raise RuntimeError(f"{slug}: nobody can act and no deadline is pending")
        table.now = table.ready[seat]
        started = clock() if clock is not None else 0.0
        decision = bots[seat].decide(engine)
        if clock is not None:
            spent = clock() - started
            records[seat].decisions.append(spent)
            if decision.simulations:
                records[seat].thinking += spent
        records[seat].simulations += decision.simulations
        action = decision.action
        if action is None:
            table.ready[seat] = table.now + table.react(seat)
            continue
        table.now = max(table.now, table.gap_until(action["type"]))
        table.tell(engine.apply(seat, action))
        table.pace(action["type"])
        table.ready[seat] = table.now + table.react(seat)
        actions += 1
    if not engine.is_over:
        raise RuntimeError(f"{slug}: not over after {MAX_ACTIONS} actions")
    scores, winners = engine.scores(), engine.winners()
    for seat, record in enumerate(records):
        record.score = scores[seat]
        record.win = 1.0 / len(winners) if seat in winners else 0.0
    return MatchResult(slug, records, actions)
