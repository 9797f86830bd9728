"""Bag of Bugs' hard player has a heuristic of its own (P-82): it judges a Grab token by what
it will take once the draw stops and the lower tokens have resolved, claims the best at once,
and values a collection by what it may still become, not by its score alone."""

from __future__ import annotations

from rules.bag_of_bugs import BagOfBugs
from rules.bag_of_bugs.bots import normal, waits
from rules.bag_of_bugs.hard import (
    BONUS_HOPE,
    equity,
    foresee,
    gain,
    hard,
    rest_of_draw,
)
from rules.bag_of_bugs.tokens import COLOURS, ROCK, Counts
from rules.core import Rng
from rules.core.bots import WAIT, Budget, Memory, bots_for
from rules.core.player import Bot
from rules.core.search import candidates

DRAWER, ME, OTHER, LAST = 0, 1, 2, 3


def table(
    pool: Counts, mine: Counts | None = None, holders: dict[int, int] | None = None
) -> BagOfBugs:
    """A 4-player draw with one Rock out and only Rocks left in the bag: the next reveal stops
    the draw, so the pool now is the pool the grabs will resolve on."""
    game = BagOfBugs.new(4, 7)
    state = game.state
    state.drawer = DRAWER
    state.pool = dict(pool)
    state.revealed, state.rocks_revealed = 3, 1
    state.bag = {ROCK: 9}
    state.collections[ME] = dict(mine or {})
    for token, seat in (holders or {}).items():
        state.grabs[token - 1] = seat
    return game


def pick(game: BagOfBugs, seat: int = ME, seed: int = 1) -> object:
    return hard(game, seat, Memory(seat, "hard"), Rng(seed))


def test_the_hard_player_is_the_hard_bots_anchor() -> None:
    game = bots_for(BagOfBugs.slug)
    assert game.heuristic("hard") is hard
    assert game.heuristic("normal") is normal


def test_the_rest_of_the_draw_stops_at_the_second_rock_and_sets_rocks_aside() -> None:
    game = table({"c1": 2})
    assert rest_of_draw(game.state, Rng(3)) == {"c1": 2}
    fresh = BagOfBugs.new(4, 7)
    fresh.apply(fresh.state.drawer, {"type": "draw"})
    for seed in range(20):
        final = rest_of_draw(fresh.state, Rng(seed))
        assert ROCK not in final
        assert sum(final.values()) <= fresh.state.setup.draw_limit


def test_lower_tokens_another_seat_holds_resolve_before_mine() -> None:
    """With c1 twice the pool's largest group, Grab token 3 takes the pair, unless another seat
    holds token 1: it takes one c1 first, and token 3 is left with a single token."""
    pool = {"c1": 2, "c2": 1}
    alone = foresee(table(pool, holders={4: OTHER, 5: LAST}).state, ME, Rng(1))
    after_one = foresee(table(pool, holders={1: OTHER, 5: LAST}).state, ME, Rng(1))
    assert alone[3] == gain(table(pool).state, ME, {"c1": 2})
    assert after_one[3] == gain(table(pool).state, ME, {"c2": 1})
    assert after_one[3] < alone[3]


def test_another_grabber_without_a_token_is_foreseen_to_claim_one() -> None:
    """Tokens 1 and 2, claimed by the last Grabber, would resolve before token 3 and take the
    pool's only pair apart half of the time."""
    pool = {"c1": 2, "c2": 1}
    alone = foresee(table(pool, holders={4: OTHER, 5: LAST}).state, ME, Rng(1))
    open_ = foresee(table(pool, holders={4: OTHER}).state, ME, Rng(1))
    assert open_[3] < alone[3]


def test_hard_claims_the_token_foreseen_best_at_once() -> None:
    """The normal player waits for a gain of 3 on the pool as it is; the hard player claims the
    token whose take at the draw's end is worth most to it."""
    fresh = BagOfBugs.new(4, 4)
    drawer = fresh.state.drawer
    fresh.apply(drawer, {"type": "draw"})
    seat = (drawer + 1) % 4
    assert normal(fresh, seat, Memory(seat, "normal"), Rng(1)) is None
    chosen = hard(fresh, seat, Memory(seat, "hard"), Rng(1))
    assert chosen is not None and chosen["type"] == "grab"
    worth = foresee(fresh.state, seat, Rng(1))
    assert worth[chosen["token"]] == max(worth.values())


def test_hard_claims_nothing_when_every_take_would_spoil_its_collection() -> None:
    full = dict.fromkeys(COLOURS, 3)
    game = table({"c1": 1, "c2": 1, "c3": 1}, mine=full)
    assert pick(game) is None


def test_the_hard_drawer_draws() -> None:
    game = table({"c1": 1})
    assert pick(game, DRAWER) == {"type": "draw"}


def test_equity_hopes_for_the_bonus_less_as_the_game_ends() -> None:
    game = table({})
    state = game.state
    four = {c: 1 for c in COLOURS[:4]}
    early = equity(state, ME, four)
    assert early == 4 + 5 * BONUS_HOPE[4]
    state.pairs = state.setup.pairs_needed - 1
    assert equity(state, ME, four) < early
    state.final = True
    assert equity(state, ME, four) == 4
    assert equity(state, ME, {**four, COLOURS[4]: 1}) == 10


def test_a_colour_at_three_is_worth_a_little_less_than_its_six_points() -> None:
    state = table({}, mine={"c1": 3}).state
    assert 3 < equity(state, ME, {"c1": 3}) < 6 + 5 * BONUS_HOPE[1]
    assert gain(state, ME, {"c1": 1}) < 0  # a fourth of c1 would cost the six


def test_a_wind_is_worth_the_gift_it_makes() -> None:
    """Taking a Wind makes the taker give a token away: a fourth of a colour given back makes
    the three score again, so the Wind gains; with one token of each colour it costs one."""
    state = table({}).state
    state.collections[ME] = {"c1": 4, "c2": 1}
    assert gain(state, ME, {"wind": 1}) > 4
    state.collections[ME] = {"c1": 1, "c2": 1}
    assert gain(state, ME, {"wind": 1}) < 0


def test_foresight_is_seeded_and_reads_no_hidden_order() -> None:
    """The same seed foresees the same; the game's own generator (the bag's order) does not
    matter."""
    game = BagOfBugs.new(4, 9)
    game.apply(game.state.drawer, {"type": "draw"})
    seat = (game.state.drawer + 1) % 4
    before = foresee(game.state, seat, Rng(5))
    game.state.rng = Rng(12345)
    assert foresee(game.state, seat, Rng(5)) == before


def test_only_a_grabber_in_the_draw_may_wait_and_the_hard_drawer_does_not_search() -> None:
    game = table({"c1": 1})
    assert waits(game, ME) and not waits(game, DRAWER)
    bots = bots_for(BagOfBugs.slug)
    drawer = Bot(bots, DRAWER, "hard", Rng(1), Budget(simulations=8))
    assert drawer.step(game) == "normal"
    assert drawer.decide(game).action == {"type": "draw"}
    assert candidates(bots, game, DRAWER, drawer.memory, Rng(1)) == [{"type": "draw"}]


def test_the_search_weighs_only_waiting_against_the_pick() -> None:
    fresh = BagOfBugs.new(4, 4)
    drawer = fresh.state.drawer
    fresh.apply(drawer, {"type": "draw"})
    seat = (drawer + 1) % 4
    bots = bots_for(BagOfBugs.slug)
    memory = Memory(seat, "hard")
    chosen = hard(fresh, seat, memory, Rng(2))
    assert chosen is not None
    assert candidates(bots, fresh, seat, memory, Rng(2)) == [chosen, WAIT]
