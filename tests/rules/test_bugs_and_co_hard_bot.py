"""Bugs & Co's hard player has a heuristic of its own (P-80), the pick its search must clearly
beat: it does not stop with an early trophy for a trophy's worth, it takes the last one when
that wins on the table's evidence, and it goes for a pair it remembers before an unknown slot."""

from __future__ import annotations

from typing import Any

from rules.bugs_and_co import BugsAndCo
from rules.bugs_and_co import actions as act
from rules.bugs_and_co import components as box
from rules.bugs_and_co.bots import OPEN_TRIOS, STOP_AT, finishable, hard, normal, rival_best
from rules.bugs_and_co.memory import TileMemory
from rules.core import SYSTEM, Rng
from rules.core.bots import bots_for
from rules.core.player import Bot


def started(players: int, seed: int) -> BugsAndCo:
    game = BugsAndCo.new(players, seed)
    game.apply(SYSTEM, {"type": "start"})
    return game


def play(game: BugsAndCo, memory: TileMemory, seat: int, action: dict[str, Any]) -> None:
    memory.observe([e for e in game.apply(seat, action) if e.visible_to(memory.seat)])


def test_at_the_start_of_four_players_normal_stops_with_the_first_trophy_and_hard_plays_on() -> (
    None
):
    game = started(4, 3)
    for seed in range(10):
        assert normal(game, 0, TileMemory(0, "normal"), Rng(seed)) == act.take_trophy()
        pick = hard(game, 0, TileMemory(0, "hard"), Rng(seed))
        assert pick is not None and pick["type"] == act.PEEK


def test_hard_takes_the_only_trophy_of_two_players_at_once() -> None:
    """At 2 players the one trophy is the last: taking it leaves the other 10 s to beat 3."""
    game = started(2, 3)
    assert rival_best(game.state, 0) == 3
    assert hard(game, 0, TileMemory(0, "hard"), Rng(1)) == act.take_trophy()


def test_hard_stops_early_only_with_a_score_worth_stopping_on() -> None:
    game = started(4, 11)
    memory = TileMemory(0, "hard")
    state = game.state
    by_symbol: dict[int, list[int]] = {}
    for slot, tile in enumerate(state.slots):
        assert tile is not None
        by_symbol.setdefault(box.symbol_of(tile), []).append(slot)
    trios = [slots for slots in by_symbol.values() if len(slots) == box.COPIES]
    assert len(trios) >= 2  # one trio (6) is not worth stopping on, two (9) are
    for kept_trios, slots in enumerate(trios[:3], start=1):
        for slot in slots:
            play(game, memory, 0, act.peek(slot))
            play(game, memory, 0, act.keep(state.pickups))
        worth = 3 * kept_trios + state.trophies[0]
        pick = hard(game, 0, memory, Rng(kept_trios))
        assert (pick == act.take_trophy()) == (worth >= STOP_AT), (kept_trios, worth)


def test_hard_goes_for_a_remembered_pair_before_an_unknown_slot() -> None:
    game = started(4, 5)
    memory = TileMemory(0, "hard")
    state = game.state
    first: dict[int, int] = {}
    pair: tuple[int, int] | None = None
    for slot, tile in enumerate(state.slots):
        assert tile is not None
        symbol = box.symbol_of(tile)
        if symbol in first:
            pair = (first[symbol], slot)
            break
        first[symbol] = slot
    assert pair is not None
    for slot in pair:  # looked at and put back: the seat now knows a pair on the table
        play(game, memory, 0, act.peek(slot))
        play(game, memory, 0, act.put_back(state.pickups))
    for seed in range(10):
        pick = hard(game, 0, memory, Rng(seed))
        assert pick is not None and pick["type"] == act.PEEK and pick["slot"] in pair


def test_a_hard_bot_falls_back_to_its_own_heuristic_and_the_others_to_normal() -> None:
    game = started(4, 3)
    bots = bots_for("bugs-and-co")
    assert bots.heuristic("hard") is hard
    assert bots.heuristic("normal") is normal
    fallback = Bot(bots, 0, "hard", Rng(4)).fallback(game).action
    assert fallback is not None and fallback["type"] == act.PEEK
    assert Bot(bots, 0, "normal", Rng(4)).fallback(game).action == act.take_trophy()


def test_hard_keeps_a_tile_only_where_its_trio_can_be_finished() -> None:
    assert finishable(have=1, on_table=0, lost=0, opened=5)  # adds to an open trio
    assert not finishable(have=1, on_table=1, lost=1, opened=1)  # its third copy is kept
    assert finishable(have=0, on_table=2, lost=0, opened=5)  # both other copies known
    assert finishable(have=0, on_table=1, lost=0, opened=OPEN_TRIOS - 1)
    assert not finishable(have=0, on_table=1, lost=0, opened=OPEN_TRIOS)  # too many open
    assert not finishable(have=0, on_table=0, lost=0, opened=0)  # nothing known of it


def test_the_hard_bots_search_leaves_its_pick_standing() -> None:
    """Searched, the playouts misjudged keeping and stopping (P-80), so nothing is weighed."""
    game = started(4, 3)
    bot = Bot(bots_for("bugs-and-co"), 0, "hard", Rng(4))
    for _ in range(6):
        expected = hard(game, 0, bot.memory, Rng.from_state(bot.rng.state()))
        decision = bot.decide(game)
        assert decision.action == expected and decision.simulations == 0
        assert decision.action is not None
        bot.observe(game.apply(0, decision.action))
