"""Bag of Bugs property tests: random legal games for 3, 4 and 5 players.

Checked at every step: no token created or lost, the Rock invariant (the bag cannot run out),
every listed action (and every listed SYSTEM action) is accepted on a copy, typical illegal
requests are refused without changing anything, views are JSON-safe and hide nothing (there are
no secrets: a seat's view is the public view plus its own ``you`` block), only real choices are
asked, and the ``turn`` counter holds through the grab window. At the end: the game is over,
replay of the log and a restored mid-game snapshot give the same state.
"""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from rules.bag_of_bugs import BagOfBugs
from rules.bag_of_bugs.tokens import FULL_SET
from rules.core import SYSTEM, Action, Event, Rng, RuleError, random_playout, replay
from tests.support.examples import examples

SEEDS = st.integers(min_value=0, max_value=2**63)
PLAYERS = st.sampled_from([3, 4, 5])


def copy_of(e: BagOfBugs) -> BagOfBugs:
    return BagOfBugs.from_dict(json.loads(json.dumps(e.to_dict())))


def check_table(e: BagOfBugs) -> None:
    t = e.state
    assert t.everything() == FULL_SET
    setup = t.setup
    if t.phase == "draw" and t.revealed == 0:
        rocks = t.bag.get("rock", 0)
        assert rocks == 2 * setup.pairs_needed + 1 - 2 * t.pairs >= 3
    assert "rock" not in t.pool or t.phase == "draw"
    check_pool_order(e)
    assert all("wind" not in c and "rock" not in c for c in t.collections)
    movers = {s for s in range(t.players) if e.legal_actions(s)}
    assert movers == set(e.waiting_for())
    if t.phase == "resolve":
        assert t.choice is not None and len(e.legal_actions(t.choice.seat)) >= 2
    for seat in range(t.players):
        parts = e.score_breakdown(seat)
        assert parts["total"] == sum(v for k, v in parts.items() if k != "total")
        assert parts["total"] == e.scores()[seat]


def check_pool_order(e: BagOfBugs) -> None:
    """The reveal order accounts for every reveal of this turn and for exactly the pool."""
    t = e.state
    order = e.view(None)["pool_order"]
    if t.phase != "over":
        assert len(order) == t.revealed
    still: dict[str, int] = {}
    for entry in order:
        if entry["status"] == "pool":
            still[entry["token"]] = still.get(entry["token"], 0) + 1
        if entry["token"] == "rock":
            expected = "pool" if t.phase == "draw" else ("returned", "paired")[t.rocks_revealed > 1]
            assert entry["status"] == expected
        else:
            assert entry["status"] in ("pool", "gone")
    assert still == t.pool


def check_views(e: BagOfBugs) -> None:
    public = e.view(None)
    assert json.loads(json.dumps(public)) == public
    assert public["turn"] == e.turn
    for seat in range(e.state.players):
        mine = e.view(seat)
        assert json.loads(json.dumps(mine)) == mine
        you = mine.pop("you")
        assert mine == public
        assert you["seat"] == seat and you["actions"] == e.legal_actions(seat)


def check_everything_listed_is_accepted(e: BagOfBugs) -> None:
    for seat in range(e.state.players):
        for action in e.legal_actions(seat):
            copy_of(e).apply(seat, action)
    for deadline in e.deadlines():
        copy_of(e).apply(SYSTEM, deadline.action)


def illegal_requests(e: BagOfBugs) -> list[tuple[int, Any]]:
    """Requests that must be refused in the current position."""
    t = e.state
    out: list[tuple[int, Any]] = [
        (t.drawer, {"type": "grab", "token": 1}),
        (SYSTEM, {"type": "timeout", "step": t.step + 1}),
        (0, {"type": "take", "step": t.step + 1, "tokens": {"c1": 1}}),
        (0, {"type": "nothing"}),
    ]
    for seat in range(t.players):
        if seat != t.drawer:
            out.append((seat, {"type": "draw"}))
        if not e.legal_actions(seat):
            out.append((seat, {"type": "grab", "token": 3}))
            out.append((seat, {"type": "return_all", "step": t.step}))
        held = t.grab_of(seat)
        if held is not None:
            out.append((seat, {"type": "grab", "token": held % 5 + 1}))
    if t.phase != "draw":
        out.append((t.drawer, {"type": "draw"}))
    return out


def check_rejections(e: BagOfBugs) -> None:
    before = e.to_dict()
    for seat, action in illegal_requests(e):
        try:
            e.apply(seat, action)
        except RuleError:
            pass
        else:
            raise AssertionError(f"accepted {action} from {seat}")
        assert e.to_dict() == before


def pick(e: BagOfBugs, rng: Rng) -> tuple[int, Action]:
    """Like ``random_playout``: any seat may act; deadlines fire now and then."""
    movers = sorted(e.waiting_for())
    deadlines = e.deadlines()
    if deadlines and (not movers or rng.random() < 0.1):
        return SYSTEM, rng.choice(deadlines).action
    seat = rng.choice(movers)
    return seat, rng.choice(e.legal_actions(seat))


def play_checked(players: int, seed: int, policy: int, deep: bool) -> None:
    e = BagOfBugs.new(players, seed)
    rng = Rng(policy)
    log: list[tuple[int, Action]] = []
    events: list[Event] = []
    middle: dict[str, Any] | None = None
    while not e.is_over:
        assert len(log) < 3000, "game does not end"
        check_table(e)
        if deep:
            check_views(e)
            check_everything_listed_is_accepted(e)
            check_rejections(e)
        seat, action = pick(e, rng)
        turn, phase = e.turn, e.state.phase
        new = e.apply(seat, action)
        stopped = any(ev.type == "draw_stopped" for ev in new)
        if phase == "draw" and not stopped:
            assert e.turn == turn  # reveals and grabs never change the button counter
        else:
            assert e.turn != turn
        assert all(ev.is_public for ev in new)
        assert json.loads(json.dumps([ev.to_dict() for ev in new])) == [ev.to_dict() for ev in new]
        events += new
        log.append((seat, action))
        if middle is None and e.state.turn_number == 3:
            middle = {"snap": e.to_dict(), "at": len(log)}
    check_table(e)
    check_views(e)
    # the end: the last pair, one Rock left, winners share the top score
    assert e.state.pairs == e.state.setup.pairs_needed and e.state.bag["rock"] == 1
    scores = e.scores()
    assert e.winners() and all(scores[w] == max(scores) for w in e.winners())
    assert events[-1].type == "game_over" and events[-1].data["scores"] == scores
    assert e.legal_actions(0) == [] and e.deadlines() == [] and e.waiting_for() == frozenset()
    # replay of the log gives the same game, bit for bit
    assert replay("bag-of-bugs", players, seed, None, log).to_dict() == e.to_dict()
    # a mid-game snapshot continues identically
    if middle is not None:
        resumed = BagOfBugs.from_dict(json.loads(json.dumps(middle["snap"])))
        for s, a in log[middle["at"] :]:
            resumed.apply(s, a)
        assert resumed.to_dict() == e.to_dict()


@settings(max_examples=examples(4), deadline=None)
@given(seed=SEEDS, policy=SEEDS)
def test_deep_checks_three_players(seed: int, policy: int) -> None:
    play_checked(3, seed, policy, deep=True)


@settings(max_examples=examples(4), deadline=None)
@given(seed=SEEDS, policy=SEEDS)
def test_deep_checks_four_players(seed: int, policy: int) -> None:
    play_checked(4, seed, policy, deep=True)


@settings(max_examples=examples(4), deadline=None)
@given(seed=SEEDS, policy=SEEDS)
def test_deep_checks_five_players(seed: int, policy: int) -> None:
    play_checked(5, seed, policy, deep=True)


@settings(max_examples=examples(60), deadline=None)
@given(players=PLAYERS, seed=SEEDS, policy=SEEDS)
def test_conservation_end_and_replay(players: int, seed: int, policy: int) -> None:
    play_checked(players, seed, policy, deep=False)


@settings(max_examples=examples(30), deadline=None)
@given(players=PLAYERS, seed=SEEDS, policy=SEEDS)
def test_random_playout_replays_and_snapshots_round_trip(
    players: int, seed: int, policy: int
) -> None:
    e = BagOfBugs.new(players, seed)
    out = random_playout(e, Rng(policy))
    assert e.is_over and e.state.everything() == FULL_SET
    assert replay("bag-of-bugs", players, seed, None, out.log).to_dict() == e.to_dict()
    restored = BagOfBugs.from_dict(json.loads(json.dumps(e.to_dict())))
    assert restored.to_dict() == e.to_dict() and restored.scores() == e.scores()
    assert restored.winners() == e.winners()
