"""What a seat knows (issue #23 item 1): an imagined game gives the seat the same view as the
real one, deals the hidden parts anew each time, every consistent deal about equally often,
and Bugs & Co's and Bug Run's memories hold what their seat saw."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.bug_off import BugOff
from rules.bug_run import BugRun
from rules.bug_run.memory import VpMemory
from rules.bugs_and_co import BugsAndCo
from rules.bugs_and_co import components as box
from rules.bugs_and_co.memory import NORMAL_SLOTS, TileMemory
from rules.core import SYSTEM, Engine, Rng
from rules.core.bots import bots_for
from tests.support.examples import examples

from .bot_positions import SHIPPED, position


def hidden(engine: Engine, seat: int) -> Any:
    """What the seat may not know of this game, as comparable data."""
    data = engine.to_dict()
    if isinstance(engine, BugOff):
        hands = [h for s, h in enumerate(data["hands"]) if s != seat]
        return (hands, data["deck"], data["rng"])
    if isinstance(engine, BugsAndCo):
        slots = data["slots"]
        others = [p for s, p in enumerate(data["seats"]) if s != seat]
        return (slots, others, data["removed"], data["rng"])
    if isinstance(engine, BugRun):
        seats = [p for s, p in enumerate(data["seats"]) if s != seat]
        return (seats, data["loot"]["deck"], data["bazaar"]["deck"], data["rng"])
    return data["rng"]


@pytest.mark.parametrize("slug", SHIPPED)
@settings(max_examples=examples(40), deadline=None)
@given(seed=st.integers(0, 10**6), steps=st.integers(0, 150), draw=st.integers(0, 2**32))
def test_an_imagined_game_shows_the_seat_exactly_its_view(
    slug: str, seed: int, steps: int, draw: int
) -> None:
    found = position(slug, seed, steps)
    if found is None:
        return
    engine, bot = found.engine, found.bot
    before = engine.to_dict()
    world = bots_for(slug).imagine(engine, bot.seat, bot.memory, Rng(draw))
    assert engine.to_dict() == before, "imagining changed the real game"
    assert world.view(bot.seat) == engine.view(bot.seat)
    assert world.legal_actions(bot.seat) == engine.legal_actions(bot.seat)
    assert world.view(None) == engine.view(None)


@pytest.mark.parametrize("slug", SHIPPED)
def test_hidden_parts_are_dealt_anew_each_time(slug: str) -> None:
    found = position(slug, 3, 6)
    assert found is not None
    engine, bot = found.engine, found.bot
    deals = [
        repr(hidden(bots_for(slug).imagine(engine, bot.seat, bot.memory, Rng(k)), bot.seat))
        for k in range(12)
    ]
    assert len(set(deals)) == 12
    assert repr(hidden(engine, bot.seat)) not in deals


def _two_unknown_slots() -> tuple[BugsAndCo, TileMemory, list[int], Counter[int]]:
    """A live 2-player table whose seat 0 knows every slot but two, and the symbols left to
    deal: those two slots and the seven removed tiles."""
    game = BugsAndCo.new(2, 11)
    game.apply(SYSTEM, {"type": "start"})
    memory = TileMemory(0, "hard")
    occupied = [s for s, t in enumerate(game.state.slots) if t is not None]
    unknown = occupied[:2]
    for slot in occupied[2:]:
        tile = game.state.slots[slot]
        assert tile is not None
        memory.slots[slot] = box.symbol_of(tile)
    left = Counter(box.symbol_of(t) for t in game.state.removed)
    for slot in unknown:
        tile = game.state.slots[slot]
        assert tile is not None
        left[box.symbol_of(tile)] += 1
    return game, memory, unknown, left


def test_every_consistent_deal_comes_up_about_equally_often() -> None:
    """Two unknown slots filled from nine unaccounted tiles: each ordered pair of symbols comes
    up as often as drawing two of those nine without replacement says (chi-square, fixed
    seeds, so the statistic is the same on every run)."""
    game, memory, unknown, left = _two_unknown_slots()
    imagine = bots_for("bugs-and-co").imagine
    draws = 3000
    seen: Counter[tuple[int, int]] = Counter()
    for k in range(draws):
        world = imagine(game, 0, memory, Rng(k))
        assert isinstance(world, BugsAndCo)
        first, second = (world.state.slots[s] for s in unknown)
        assert first is not None and second is not None
        seen[(box.symbol_of(first), box.symbol_of(second))] += 1
    total = sum(left.values())
    expected = {
        (a, b): draws * left[a] / total * (left[b] - (a == b)) / (total - 1)
        for a in left
        for b in left
        if left[b] - (a == b) > 0
    }
    assert set(seen) <= set(expected)
    chi2 = sum((seen[pair] - e) ** 2 / e for pair, e in expected.items())
    freedom = len(expected) - 1
    assert chi2 < freedom + 4 * (2 * freedom) ** 0.5, (chi2, freedom)


def test_hard_bugs_and_co_memory_follows_a_peeked_tile_back_to_its_slot() -> None:
    game = BugsAndCo.new(3, 5)
    game.apply(SYSTEM, {"type": "start"})
    memories = {level: TileMemory(0, level) for level in ("easy", "normal", "hard")}

    def play(seat: int, action: dict[str, Any]) -> None:
        events = game.apply(seat, action)
        for memory in memories.values():
            memory.observe([e for e in events if e.visible_to(0)])

    tile = game.state.slots[4]
    assert tile is not None
    play(0, {"type": "peek", "slot": 4})
    play(0, {"type": "return", "pickup": 1, "slot": 4})
    assert memories["hard"].slots == {4: box.symbol_of(tile)}
    assert memories["normal"].slots == {4: box.symbol_of(tile)}
    assert memories["easy"].slots == {}
    # Another player picks it up and keeps it: hard knows what they kept, normal only where
    # it went.
    play(1, {"type": "peek", "slot": 4})
    play(1, {"type": "keep", "pickup": 2})
    assert memories["hard"].kept == {1: [box.symbol_of(tile)]}
    assert memories["normal"].kept == {}
    imagine = bots_for("bugs-and-co").imagine
    for k in range(20):
        world = imagine(game, 0, memories["hard"], Rng(k))
        assert isinstance(world, BugsAndCo)
        assert box.symbol_of(world.state.seats[1].kept[0]) == box.symbol_of(tile)


def test_a_normal_bugs_and_co_bot_forgets_its_oldest_slots() -> None:
    game = BugsAndCo.new(2, 8)
    game.apply(SYSTEM, {"type": "start"})
    memory = TileMemory(0, "normal")
    for pickup, slot in enumerate(range(NORMAL_SLOTS + 2), start=1):
        for action in ({"type": "peek", "slot": slot}, {"type": "return", "pickup": pickup}):
            memory.observe([e for e in game.apply(0, action) if e.visible_to(0)])
    assert list(memory.slots) == list(range(2, NORMAL_SLOTS + 2))


@pytest.mark.parametrize("seed", range(6))
def test_bug_run_memory_works_out_every_seats_vp_from_public_history(seed: int) -> None:
    found = position("bug-run", seed, 60 + 15 * seed)
    assert found is not None
    engine, bot = found.engine, found.bot
    assert isinstance(engine, BugRun) and isinstance(bot.memory, VpMemory)
    state = engine.state
    owners = [hero.seat for hero in state.heroes]
    start = 10 if state.two else 5
    assert [bot.memory.vp(start, owners, s) for s in range(state.players)] == [
        seat.vp for seat in state.seats
    ]
