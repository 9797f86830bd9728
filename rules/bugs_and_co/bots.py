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


def _position(
    engine: Engine, seat: int, memory: Memory
) -> tuple[list[Action], GameState, TileMemory] | None:
    """What both heuristics start from: the seat's legal actions, the game's state and the
    seat's memory; ``None`` when the seat has no move."""
    actions = engine.legal_actions(seat)
    if not actions:
        return None
    assert isinstance(engine, BugsAndCo)
    return actions, engine.state, _memory(memory)


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
    found = _position(engine, seat, memory)
    if found is None:
        return None
    actions, state, notes = found
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
    return fresh_peek(notes, actions, rng)


def fresh_peek(notes: TileMemory, actions: list[Action], rng: Rng) -> Action:
    """A slot the seat knows nothing of, else any slot, else whatever is legal."""
    peeks = [a for a in actions if a["type"] == act.PEEK]
    fresh = [a for a in peeks if a["slot"] not in notes.slots]
    if fresh or peeks:
        return rng.choice(fresh or peeks)
    return best_of([(0.0, a) for a in actions], rng)


STOP_AT = 9
"""P-80: what a hard player's tiles (trios less stray tiles) and the next trophy must be worth
before it stops with a trophy that is not the last one. Stopping early hands the rest of the
game to players who remember less and move slower; normal's 3 makes it take the first trophy
at once, and a hard bot playing so won 6 % of 200 games against three normal ones."""

RIVAL_PLAYS_ON = 3
"""What a rival still playing may add in the 10 s count after the last trophy (a trio)."""


def rival_best(state: GameState, seat: int) -> int:
    """A guess at the best final score among the other seats, from what the table sees: a
    trophy, and one point per kept tile (kept as whole trios, as a careful player stops), plus
    a trio more for a seat that may play on through the count."""
    guesses = [
        (player.trophy or 0)
        + len(player.kept)
        + (RIVAL_PLAYS_ON if player.status == PLAYING else 0)
        for other, player in enumerate(state.seats)
        if other != seat
    ]
    return max(guesses, default=0)


def worth_stopping(state: GameState, seat: int, trios: int, incomplete: int) -> bool:
    """Whether the hard player takes the next trophy with these kept tiles: ``STOP_AT`` for an
    early one, and the last one (which ends the game 10 s later) once its score would beat the
    others' best guess."""
    if state.phase != LIVE:
        return False
    now = 3 * trios - incomplete + state.trophies[0]
    return now >= (rival_best(state, seat) if len(state.trophies) == 1 else STOP_AT)


def hard(engine: Engine, seat: int, memory: Memory, rng: Rng) -> Action | None:
    """The hard player's own pick, which its search must clearly beat. With its whole memory
    it knows where many tiles lie, so it opens a new trio only where it can finish it (two
    copies known on the table, or one while no other trio is open), goes back for the tiles it
    needs, then for a whole trio or a pair it knows, before an unknown slot; and it stops with a
    trophy only when worth stopping on (``worth_stopping``)."""
    found = _position(engine, seat, memory)
    if found is None:
        return None
    actions, state, notes = found
    counts = Counter(notes.mine())
    table = {s: symbol for s, symbol in notes.slots.items() if state.slots[s] is not None}
    known = Counter(table.values())
    lost = Counter(symbol for other, kept in notes.kept.items() if other != seat for symbol in kept)
    opened = open_trios(counts, lost)
    held = state.seats[seat].held
    if held is not None:
        symbol = box.symbol_of(held.tile)
        if finishable(counts[symbol], known[symbol], lost[symbol], opened):
            return act.keep(held.pickup)
        return act.put_back(held.pickup)
    incomplete = sum(n for n in counts.values() if n < box.COPIES)
    trios = sum(1 for n in counts.values() if n == box.COPIES)
    if worth_stopping(state, seat, trios, incomplete):
        return act.take_trophy()
    wanted = [
        s for s, symbol in table.items() if 0 < counts[symbol] < box.COPIES and not lost[symbol]
    ]
    for enough in (box.COPIES, box.COPIES - 1):
        if wanted:
            break
        wanted = [
            s
            for s, symbol in table.items()
            if known[symbol] >= enough
            and not counts[symbol]
            and finishable(0, known[symbol] - 1, lost[symbol], opened)
        ]
    if wanted:
        return act.peek(rng.choice(wanted))
    return fresh_peek(notes, actions, rng)


def open_trios(counts: Counter[int], lost: Counter[int]) -> int:
    """The seat's unfinished trios that may still be whole (no copy in another hand)."""
    return sum(1 for symbol, n in counts.items() if n < box.COPIES and not lost[symbol])


OPEN_TRIOS = 2
"""How many unfinished trios the hard player has before it opens another on a hunch (its third
copy may be among the seven tiles out of the game): one left it stuck on a pair it could not
finish, none limit drowned it in stray tiles."""


def finishable(have: int, on_table: int, lost: int, opened: int) -> bool:
    """Whether the hard player keeps a tile of a symbol it has ``have`` of, knows ``on_table``
    more of on the table, and saw others keep ``lost`` of, with ``opened`` trios unfinished:
    one that adds to its trio while no copy is in another hand, or opens one whose other two
    copies it knows, or whose other copy it knows while it has fewer than ``OPEN_TRIOS`` open."""
    if lost:
        return False  # a copy in another hand: this trio can never be whole
    if have:
        return True
    return on_table >= box.COPIES - 1 or (on_table >= 1 and opened < OPEN_TRIOS)


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
    """What the search weighs against the hard player's pick: nothing, so its pick stands.
    Searched, the playouts misjudged both questions the search could ask: whether to keep a
    held tile (their rougher habits kept stray tiles the heuristic would not) and whether to
    stop with a trophy now (a playout cut off after ``playout_steps`` counts unfinished trios
    as stray tiles, and plays the seat neither as fast nor with as much memory as it has), so
    it stopped early. Hard vs 3 normal, 24 simulations a decision: 22 % of 100 games with both
    searched, 51 % of 40 with only the trophy, 80 % of 200 with neither (P-80)."""
    return []


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
        anchor=hard,
        options=options,
        deadline_chance=final_count_runs_out,
        estimate=estimate,
        playout_steps=80,
    )
)
