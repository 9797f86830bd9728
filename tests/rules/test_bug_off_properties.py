"""Bug Off! property tests: random legal games for every player count (2–6).

Each game is played by ``random_playout`` (which also fires turn clocks now and then), then
replayed step by step from its log while the invariants are checked after every action.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.bug_off import COLOURS, BugOff
from rules.bug_off.cards import bug_off, is_bug_off
from rules.core import SYSTEM, Event, Rng, random_playout, replay
from rules.core.events import Action

from .test_bug_off import assert_conserved, copy

PUBLIC_EVENTS = {"drew", "bug_off", "placed", "scored", "turn", "timeout", "game_over"}
PRIVATE_EVENTS = {"drew_card"}


def scramble_secrets(game: BugOff, viewer: int | None, rng: Rng) -> BugOff:
    """A copy where everything ``viewer`` may not know is redrawn at random (same sizes)."""
    other = copy(game)
    rng.shuffle(other.deck)
    for seat in range(other.players):
        if seat == viewer:
            continue
        for zone in (other.hands, other.points):
            size = sum(zone[seat].values())
            zone[seat] = dict.fromkeys(COLOURS, 0)
            for _ in range(size):
                zone[seat][rng.choice(COLOURS)] += 1
        if seat == other.active and other.drawn is not None:
            other.drawn = rng.choice([c for c in COLOURS if other.hands[seat][c]])
    return other


def check_invariants(game: BugOff) -> None:
    assert_conserved(game)
    undrawn = [c for c in COLOURS if c not in game.bug_offs]
    assert sorted(card for card in game.deck if is_bug_off(card)) == sorted(
        bug_off(c) for c in undrawn
    )
    sizes = [sum(h.values()) for h in game.hands]
    if game.is_over:
        assert len(game.bug_offs) == 6
        assert all(not any(t.values()) for t in game.tableaux)
        assert game.winners() and game.deadlines() == []
        assert all(game.legal_actions(s) == [] for s in range(game.players))
        return
    assert game.deck  # BO-10
    expected = [3] * game.players
    if game.phase == "choose":
        expected[game.active] = 4
        assert game.drawn is not None and game.hands[game.active][game.drawn] > 0
    assert sizes == expected
    assert game.winners() == []
    assert [d.action for d in game.deadlines()] == [{"type": "timeout", "turn": game.turn}]


def check_legal_actions(game: BugOff) -> None:
    for seat in range(game.players):
        actions = game.legal_actions(seat)
        assert bool(actions) == (seat in game.waiting_for())
        for action in actions:
            copy(game).apply(seat, action)
    for deadline in game.deadlines():
        copy(game).apply(SYSTEM, deadline.action)


def check_no_leaks(game: BugOff, rng: Rng) -> None:
    """A view must not change when only other players' secrets change."""
    if game.is_over:
        return
    for viewer in [None, *range(game.players)]:
        view = game.view(viewer)
        json.dumps(view)
        assert scramble_secrets(game, viewer, rng).view(viewer) == view


def check_events(events: list[Event], seat: int, actor: int) -> None:
    for event in events:
        json.dumps(event.to_dict())
        if event.is_public:
            assert event.type in PUBLIC_EVENTS
            assert not (event.type == "drew" and "colour" in event.data)
        else:
            assert event.type in PRIVATE_EVENTS
            assert event.to == frozenset({actor})
    if seat == SYSTEM:
        assert events[0].type == "timeout" and events[0].is_public


def check_wipes(game: BugOff, events: list[Event], actor: int) -> None:
    """After a BUG OFF no tableau holds a bugged-off colour, except a card placed after it."""
    if not any(e.type == "bug_off" for e in events):
        return
    placed = [e.data["colour"] for e in events if e.type == "placed"]
    for colour in game.bug_offs:
        for seat, tableau in enumerate(game.tableaux):
            expected = 1 if colour in placed and seat == actor else 0
            assert tableau[colour] == expected, (colour, seat, events)


def play_and_check(players: int, seed: int, policy_seed: int, deep: bool) -> None:
    game = BugOff.new(players, seed)
    played = random_playout(game, Rng(policy_seed), deadline_chance=0.1)
    assert game.is_over
    log: list[tuple[int, Action]] = played.log
    rebuilt = replay("bug-off", players, seed, None, log)
    assert rebuilt.to_dict() == game.to_dict()

    step_game = BugOff.new(players, seed)
    checker_rng = Rng(policy_seed ^ 0xB06)
    all_events: list[Event] = []
    for seat, action in log:
        check_invariants(step_game)
        if deep:
            check_legal_actions(step_game)
            check_no_leaks(step_game, checker_rng)
        actor = step_game.active
        before_turn = step_game.turn
        clone = copy(step_game)
        events = step_game.apply(seat, action)
        assert clone.apply(seat, action) == events
        assert clone.to_dict() == step_game.to_dict()
        assert step_game.turn != before_turn
        check_events(events, seat, actor)
        check_wipes(step_game, events, actor)
        all_events.extend(events)
    check_invariants(step_game)
    assert step_game.to_dict() == game.to_dict()
    assert all_events == played.events
    assert [e.type for e in all_events].count("bug_off") == 6
    assert all_events[-1].type == "game_over"
    assert all_events[-1].data["winners"] == game.winners()
    assert all_events[-1].data["scores"] == game.scores()
    final: dict[str, Any] = game.view(None)["final"]
    assert final["points"] == [dict(p) for p in game.points]
    assert [game.score_breakdown(s)["total"] for s in range(players)] == game.scores()


seeds = st.integers(min_value=0, max_value=2**63 - 1)
PLAYER_COUNTS = pytest.mark.parametrize("players", range(2, 7))


@PLAYER_COUNTS
@settings(max_examples=2, deadline=None)
@given(seed=seeds, policy_seed=seeds)
def test_random_games_keep_every_invariant(players: int, seed: int, policy_seed: int) -> None:
    """Legal actions, leaks and snapshots checked at every step (slow, so few examples)."""
    play_and_check(players, seed, policy_seed, deep=True)


@PLAYER_COUNTS
@settings(max_examples=6, deadline=None)
@given(seed=seeds, policy_seed=seeds)
def test_random_games_conserve_cards_and_replay(players: int, seed: int, policy_seed: int) -> None:
    play_and_check(players, seed, policy_seed, deep=False)
