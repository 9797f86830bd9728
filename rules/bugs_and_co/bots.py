"""Bugs & Co's bot players: imagining the face-down tiles from what a seat remembers.

The seat knows the symbol of the tile it holds and what its memory (memory.py) kept; every other
tile (face down on the table, in another hand, kept by others, or among the seven removed) is
dealt again from the symbols it has not accounted for. The normal player completes trios it has
started, goes back to slots it remembers, and takes a trophy once its kept tiles are whole trios.
"""

from __future__ import annotations

from collections import Counter

from rules.core import Action, Engine, Rng
from rules.core.bots import GameBots, Memory, best_of, fork, register_bots

from . import actions as act
from . import components as box
from . import scoring
from .engine import BugsAndCo
from .memory import TileMemory, tile_memory
from .state import FINAL_COUNT, LIVE, PLAYING, GameState


def _memory(memory: Memory) -> TileMemory:
    assert isinstance(memory, TileMemory)
    return memory


def known_symbols(state: GameState, seat: int, memory: TileMemory) -> tuple[dict[int, int], int]:
    """Slot -> symbol of the tiles the seat may place for sure, and its own held symbol (-1)."""
    held = state.seats[seat].held
    mine = -1 if held is None else box.symbol_of(held.tile)
    slots = {s: sym for s, sym in memory.slots.items() if state.slots[s] is not None}
    return slots, mine


def imagine(engine: Engine, seat: int, memory: Memory, rng: Rng) -> Engine:
    """Every tile the seat has not accounted for, dealt again at random to the places the seat
    cannot see, and a new generator."""
    world = fork(engine)
    assert isinstance(world, BugsAndCo)
    state = world.state
    notes = _memory(memory)
    slots, held = known_symbols(state, seat, notes)
    symbols = box.symbols_in_play(state.players, state.extra_set)
    pool = Counter({s: box.COPIES for s in symbols})
    placed: dict[tuple[str, int, int], int] = {}
    """(zone, owner or slot, index) -> symbol, for every place whose symbol the seat knows."""
    if held >= 0:
        placed[("held", seat, 0)] = held
    for slot, symbol in slots.items():
        placed[("slot", slot, 0)] = symbol
    for other, player in enumerate(state.seats):
        if other != seat and player.held is not None and other in notes.holding:
            placed[("held", other, 0)] = notes.holding[other]
        for i, symbol in enumerate(notes.kept.get(other, [])[: len(player.kept)]):
            placed[("kept", other, i)] = symbol
    pool.subtract(placed.values())
    unknown = [symbol for symbol in sorted(pool) for _ in range(max(0, pool[symbol]))]
    rng.shuffle(unknown)
    copies: Counter[int] = Counter()

    def tile(place: tuple[str, int, int]) -> int:
        symbol = placed[place] if place in placed else unknown.pop()
        copies[symbol] += 1
        return symbol * box.COPIES + copies[symbol] - 1

    for slot, old in enumerate(state.slots):
        if old is not None:
            state.slots[slot] = tile(("slot", slot, 0))
    for other, player in enumerate(state.seats):
        if player.held is not None:
            player.held.tile = tile(("held", other, 0))
        player.kept = [tile(("kept", other, i)) for i in range(len(player.kept))]
    state.removed = [tile(("removed", 0, i)) for i in range(len(state.removed))]
    state.rng = Rng(rng.next_u64())
    return world


def worth_keeping(symbol: int, mine: list[int], lost: int, known_elsewhere: bool) -> bool:
    """Keep a tile that adds to a trio the seat has started, or starts one whose other two
    copies are still to be had and one of which it knows where to find."""
    have = mine.count(symbol)
    if have >= 1:
        return have + lost < box.COPIES or have == box.COPIES - 1
    return lost == 0 and known_elsewhere


TARGET = 3
"""P-52: the score (a trio's worth) a normal player's whole trios and the next trophy must
reach before it stops with that trophy."""


def trophy_now(trophies: list[int], trios: int) -> bool:
    """Stop with the next trophy once it and the whole trios reach ``TARGET``, or when it is
    the last one (nobody may take a trophy after it)."""
    return 3 * trios + trophies[0] >= TARGET or (len(trophies) == 1 and trios >= 1)


def normal(engine: Engine, seat: int, memory: Memory, rng: Rng) -> Action | None:
    actions = engine.legal_actions(seat)
    if not actions:
        return None
    assert isinstance(engine, BugsAndCo)
    state = engine.state
    notes = _memory(memory)
    mine = notes.mine()
    held = state.seats[seat].held
    if held is not None:
        symbol = box.symbol_of(held.tile)
        lost = sum(kept.count(symbol) for s, kept in notes.kept.items() if s != seat)
        elsewhere = symbol in notes.slots.values()
        if worth_keeping(symbol, mine, lost, elsewhere):
            return act.keep(held.pickup)
        return act.put_back(held.pickup)
    counts = Counter(mine)
    incomplete = sum(n for n in counts.values() if n < box.COPIES)
    trios = sum(1 for n in counts.values() if n == box.COPIES)
    if state.phase == LIVE and incomplete == 0 and trophy_now(state.trophies, trios):
        return act.take_trophy()
    wanted = [
        s for s, symbol in notes.slots.items() if state.slots[s] is not None and symbol in counts
    ]
    if wanted:
        return act.peek(rng.choice(wanted))
    peeks = [a for a in actions if a["type"] == act.PEEK]
    fresh = [a for a in peeks if a["slot"] not in notes.slots]
    if fresh or peeks:
        return rng.choice(fresh or peeks)
    return best_of([(0.0, a) for a in actions], rng)


def rollout(world: Engine, seat: int, rng: Rng) -> Action | None:
    """Inside an imagined game, the normal player's habits with a fair memory: keep a tile that
    matches a kept one, stop with a trophy by the same rule, go back to a matching tile half the
    time."""
    assert isinstance(world, BugsAndCo)
    state = world.state
    player = state.seats[seat]
    if player.status != PLAYING or state.phase not in (LIVE, FINAL_COUNT):
        return None
    kept = Counter(box.symbol_of(t) for t in player.kept)
    if player.held is not None:
        symbol = box.symbol_of(player.held.tile)
        if 0 < kept[symbol] < box.COPIES or rng.random() < 0.25:
            return act.keep(player.held.pickup)
        return act.put_back(player.held.pickup)
    incomplete = sum(n for n in kept.values() if n < box.COPIES)
    trios = sum(1 for n in kept.values() if n == box.COPIES)
    if state.phase == LIVE and incomplete == 0 and trophy_now(state.trophies, trios):
        return act.take_trophy()
    occupied = [s for s, t in enumerate(state.slots) if t is not None]
    matching = [s for s in occupied if kept[box.symbol_of(state.slots[s] or 0)]]
    if matching and rng.random() < 0.5:
        return act.peek(rng.choice(matching))
    if occupied:
        return act.peek(rng.choice(occupied))
    return act.take_trophy() if state.phase == LIVE else None


def estimate(world: Engine) -> list[float]:
    """A cut-off playout's scores: kept tiles as they would score now, and the trophies."""
    assert isinstance(world, BugsAndCo)
    return [
        float(scoring.breakdown((box.symbol_of(t) for t in p.kept), p.trophy)["total"])
        for p in world.state.seats
    ]


def options(engine: Engine, seat: int) -> list[Action]:
    """What the search weighs against the normal player's pick: keep or put back a held tile,
    or stop with a trophy now rather than peek on. Which slot to peek is the normal player's
    call (every unknown slot looks alike over imagined deals), so one peek stands for playing
    on."""
    listed = engine.legal_actions(seat)
    peeks = [a for a in listed if a["type"] == act.PEEK][:1]
    kept = [a for a in listed if a["type"] in (act.KEEP, act.TAKE_TROPHY)]
    return kept + [a for a in listed if set(a) == {"type", "pickup"}] + peeks


def final_count_runs_out(world: Engine) -> float:
    """In a playout, the 10 s final count ends while players still peek."""
    assert isinstance(world, BugsAndCo)
    return 0.1 if world.state.phase == FINAL_COUNT else 0.0


BOTS = register_bots(
    GameBots(
        slug=BugsAndCo.slug,
        imagine=imagine,
        normal=normal,
        rollout=rollout,
        memory=tile_memory,
        options=options,
        deadline_chance=final_count_runs_out,
        estimate=estimate,
        playout_steps=80,
    )
)
