"""Bug Off! property tests: random legal games for every player count (2–6).

Each game is played by ``random_playout`` (which also fires turn clocks now and then), then
replayed step by step from its log while the invariants are checked after every action.
Then ``mid_game`` builds arbitrary positions (BUG OFFs already out, cards in every zone, BUG OFF
chains stacked on the deck) from which the engine is compared with an independent model of
RULINGS §3.2, fed garbage and near-miss actions, and checked for leaks.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.bug_off import COLOURS, BugOff
from rules.bug_off.cards import bug_off, is_bug_off
from rules.core import SYSTEM, Event, Rng, RuleError, random_playout, replay
from rules.core.events import Action
from tests.support.examples import examples

from .test_bug_off import assert_conserved, copy

PUBLIC_EVENTS = {"drew", "bug_off", "placed", "scored", "turn", "timeout", "game_over"}
PRIVATE_EVENTS = {"drew_card"}


def redraw(pile: dict[str, int], rng: Rng) -> None:
    """Give ``pile`` (an engine's own dict, changed in place) random colours, same size."""
    size = sum(pile.values())
    pile.update(dict.fromkeys(COLOURS, 0))
    for _ in range(size):
        pile[rng.choice(COLOURS)] += 1


def scramble_secrets(game: BugOff, viewer: int | None, rng: Rng) -> BugOff:
    """A copy where everything ``viewer`` may not know is redrawn at random (same sizes)."""
    other = copy(game)
    rng.shuffle(other.state.deck)
    for seat in range(other.players):
        if seat == viewer:
            continue
        for pile in (other.state.hands[seat], other.state.points[seat]):
            redraw(pile, rng)
        if seat == other.state.active and other.state.drawn is not None:
            other.state.drawn = rng.choice([c for c in COLOURS if other.state.hands[seat][c]])
    return other


def check_invariants(game: BugOff) -> None:
    assert_conserved(game)
    undrawn = [c for c in COLOURS if c not in game.state.bug_offs]
    assert sorted(card for card in game.state.deck if is_bug_off(card)) == sorted(
        bug_off(c) for c in undrawn
    )
    sizes = [sum(h.values()) for h in game.state.hands]
    if game.is_over:
        assert len(game.state.bug_offs) == 6
        assert all(not any(t.values()) for t in game.state.tableaux)
        assert game.winners() and game.deadlines() == []
        assert all(game.legal_actions(s) == [] for s in range(game.players))
        return
    assert game.state.deck  # BO-10
    expected = [3] * game.players
    if game.state.phase == "choose":
        expected[game.state.active] = 4
        assert (
            game.state.drawn is not None
            and game.state.hands[game.state.active][game.state.drawn] > 0
        )
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
    for colour in game.state.bug_offs:
        for seat, tableau in enumerate(game.state.tableaux):
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
        actor = step_game.state.active
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
    assert final["points"] == [dict(p) for p in game.state.points]
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


# -- a reference model written straight from RULINGS §3.2, run from arbitrary mid-game states ----


class Reference:
    """The §3.2 state machine on plain card lists, kept apart from the engine's code."""

    def __init__(self, game: BugOff) -> None:
        def cards(counts: dict[str, int]) -> list[str]:
            return sorted(c for c in COLOURS for _ in range(counts[c]))

        self.n = game.players
        self.deck = list(game.state.deck)
        self.hand = [cards(h) for h in game.state.hands]
        self.tableau = [cards(t) for t in game.state.tableaux]
        self.points = [cards(p) for p in game.state.points]
        self.score_pile = cards(game.state.score_pile)
        self.discard = cards(game.state.discard)
        self.stack = list(game.state.bug_offs)
        self.p = game.state.active
        self.drawn = game.state.drawn
        self.over = game.is_over

    def draw(self) -> None:
        while True:
            c = self.deck.pop(0)
            if not is_bug_off(c):
                self.hand[self.p].append(c)
                self.drawn = c
                return
            self.stack.append(c[len("off:") :])
            x = set(self.stack)
            for t in self.tableau:
                self.discard += [card for card in t if card in x]
                t[:] = [card for card in t if card not in x]
            if len(self.stack) == 6:
                self.over = True
                return

    def finish_turn(self, kind: str, colour: str) -> None:
        self.hand[self.p].remove(colour)
        if kind == "place":
            self.tableau[self.p].append(colour)
        else:
            self.score_pile.append(colour)
            for q in range(self.n):
                self.points[q] += [c for c in self.tableau[q] if c == colour]
                self.tableau[q] = [c for c in self.tableau[q] if c != colour]
        self.p = (self.p + 1) % self.n
        self.drawn = None

    def act(self, seat: int, action: Action) -> None:
        if seat == SYSTEM:
            if self.drawn is None:
                self.draw()
                if self.over:
                    return
            assert self.drawn is not None
            self.finish_turn("place", self.drawn)
        elif action["type"] == "draw":
            self.draw()
        else:
            self.finish_turn(action["type"], action["colour"])

    def winners(self) -> list[int]:
        def key(q: int) -> tuple[int, ...]:
            return (len(self.points[q]), *(self.points[q].count(c) for c in self.stack))

        best = max(key(q) for q in range(self.n))
        return [q for q in range(self.n) if key(q) == best]

    def matches(self, game: BugOff) -> None:
        def counts(cards: list[str]) -> dict[str, int]:
            return {c: cards.count(c) for c in COLOURS}

        assert game.state.deck == self.deck
        assert game.state.hands == [counts(h) for h in self.hand]
        assert game.state.tableaux == [counts(t) for t in self.tableau]
        assert game.state.points == [counts(p) for p in self.points]
        assert game.state.score_pile == counts(self.score_pile)
        assert game.state.discard == counts(self.discard)
        assert game.state.bug_offs == self.stack
        assert game.is_over == self.over
        assert game.scores() == [len(p) for p in self.points]
        if self.over:
            assert game.winners() == self.winners()
        else:
            assert game.state.active == self.p and game.state.drawn == self.drawn


@st.composite
def mid_game(draw: st.DrawFn) -> BugOff:
    """A game rebuilt into an arbitrary, rule-consistent mid-game position: some BUG OFFs out,
    every BUG card somewhere (tableaux may hold bugged-off colours placed since), and a deck
    whose top is chosen to hit BUG OFF chains, the 6th BUG OFF and SCOREs of face-up colours."""
    players = draw(st.integers(2, 6))
    game = BugOff.new(players, draw(seeds))
    table = game.state
    order = draw(st.permutations(COLOURS))
    out = draw(st.integers(0, 5))
    table.bug_offs = list(order[:out])
    rng = Rng(draw(seeds))
    bugs = [c for c in COLOURS for _ in range(20)]
    rng.shuffle(bugs)
    choosing = draw(st.booleans())
    table.active = draw(st.integers(0, players - 1))
    for seat in range(players):
        hand = table.seats[seat].hand = dict.fromkeys(COLOURS, 0)
        for _ in range(4 if choosing and seat == table.active else 3):
            hand[bugs.pop()] += 1
    table.phase = "choose" if choosing else "draw"
    table.drawn = None
    if choosing:
        table.drawn = rng.choice([c for c in COLOURS if table.hands[table.active][c]])
    # Where the other BUG cards are: weights for deck / tableaux / points / score pile / discard.
    weights = [draw(st.integers(1, 4)), *draw(st.lists(st.integers(0, 4), min_size=4, max_size=4))]
    zones = ["deck", "tableau", "points", "score", "discard"]
    pool = [z for z, w in zip(zones, weights, strict=True) for _ in range(w)]
    for piles in table.seats:
        piles.tableau = dict.fromkeys(COLOURS, 0)
        piles.points = dict.fromkeys(COLOURS, 0)
    table.score_pile = dict.fromkeys(COLOURS, 0)
    table.discard = dict.fromkeys(COLOURS, 0)
    deck: list[str] = []
    for card in bugs:
        zone = rng.choice(pool)
        if zone == "deck":
            deck.append(card)
        elif zone == "tableau":
            table.seats[rng.below(players)].tableau[card] += 1
        elif zone == "points":
            table.seats[rng.below(players)].points[card] += 1
        elif zone == "score":
            table.score_pile[card] += 1
        else:
            table.discard[card] += 1
    offs = [bug_off(c) for c in order[out:]]
    deck += offs
    rng.shuffle(deck)
    top = draw(st.lists(st.sampled_from(offs), unique=True, max_size=len(offs)))
    table.deck = top + [card for card in deck if card not in top]
    table.step = draw(st.integers(0, 500))
    return game


def garbage_actions() -> st.SearchStrategy[Any]:
    colours = st.sampled_from([*COLOURS, "pink", "", "RED", "off:red"]) | st.integers() | st.none()
    kinds = st.sampled_from(["draw", "place", "score", "timeout", "steal", "", "DRAW"])
    return (
        st.fixed_dictionaries({"type": kinds})
        | st.fixed_dictionaries({"type": kinds, "colour": colours})
        | st.fixed_dictionaries({"type": kinds, "turn": st.integers(-2, 600) | st.booleans()})
        | st.fixed_dictionaries({"type": kinds, "colour": colours, "extra": st.integers()})
        | st.fixed_dictionaries({"colour": colours})
        | st.sampled_from([None, "draw", 3, [], {"type": None}])
    )


@settings(max_examples=examples(150), deadline=None)
@given(game=mid_game(), policy_seed=seeds)
def test_engine_matches_the_reference_model_from_arbitrary_positions(
    game: BugOff, policy_seed: int
) -> None:
    """BO-2, BO-5 … BO-12, BO-14 and BO-17 against an independent model, action by action."""
    assert_conserved(game)
    restored = copy(game)  # through a JSON snapshot, as the host would hold it
    assert restored.to_dict() == game.to_dict()
    game = restored
    model = Reference(game)
    rng = Rng(policy_seed)
    for _ in range(40):
        if game.is_over:
            break
        moves = [(game.state.active, a) for a in game.legal_actions(game.state.active)]
        moves += [(SYSTEM, d.action) for d in game.deadlines()]
        seat, action = rng.choice(moves)
        actor = game.state.active
        events = game.apply(seat, action)
        model.act(seat, action)
        model.matches(game)
        assert_conserved(game)
        check_events(events, seat, actor)


@settings(max_examples=examples(100), deadline=None)
@given(game=mid_game(), junk=st.lists(garbage_actions(), min_size=1, max_size=8))
def test_apply_accepts_exactly_the_listed_actions_and_a_refusal_changes_nothing(
    game: BugOff, junk: list[Any]
) -> None:
    """Every seat (and SYSTEM, and non-seats) against listed, near-miss and garbage actions."""
    step = game.turn
    candidates: list[Any] = [
        *junk,
        {"type": "draw"},
        {"type": "timeout", "turn": step},
        {"type": "timeout", "turn": step - 1},
        {"type": "timeout", "turn": step + 1},
        {"type": "timeout", "turn": bool(step % 2)},
        *({"type": k, "colour": c} for k in ("place", "score") for c in COLOURS),
    ]
    before = json.dumps(game.to_dict(), sort_keys=True)
    for seat in [SYSTEM, -2, *range(game.players), game.players, True]:
        if seat == SYSTEM:
            allowed = [d.action for d in game.deadlines()]
        else:
            allowed = game.legal_actions(seat)  # type: ignore[arg-type]
        listed = {json.dumps(a, sort_keys=True) for a in allowed}
        for action in candidates:
            if json.dumps(action, sort_keys=True) in listed:
                trial = copy(game)
                trial.apply(seat, action)  # type: ignore[arg-type]
                assert trial.turn != step
                continue
            with pytest.raises(RuleError) as refused:  # on the game itself: nothing may change
                game.apply(seat, action)  # type: ignore[arg-type]
            assert refused.value.code and refused.value.message
            assert json.dumps(game.to_dict(), sort_keys=True) == before, (seat, action)


def scramble_hidden_zones(game: BugOff, keep: int, rng: Rng) -> BugOff:
    """A copy where every seat but ``keep`` has other hand and points colours (same sizes)."""
    other = copy(game)
    for seat in range(other.players):
        if seat == keep:
            continue
        for pile in (other.state.hands[seat], other.state.points[seat]):
            redraw(pile, rng)
    return other


@settings(max_examples=examples(100), deadline=None)
@given(game=mid_game(), policy_seed=seeds)
def test_views_and_public_events_hide_other_players_secrets_from_any_position(
    game: BugOff, policy_seed: int
) -> None:
    """BO-15 from arbitrary positions: no view changes when only others' secrets (or the deck
    order) change, and the public events of an action do not depend on bystanders' secrets."""
    rng = Rng(policy_seed)
    check_no_leaks(game, rng)
    actor = game.state.active
    moves = [(actor, a) for a in game.legal_actions(actor)] + [
        (SYSTEM, d.action) for d in game.deadlines()
    ]
    seat, action = rng.choice(moves)
    twin = scramble_hidden_zones(game, actor, rng)
    public = [e for e in game.apply(seat, action) if e.is_public and e.type != "game_over"]
    assert [e for e in twin.apply(seat, action) if e.is_public and e.type != "game_over"] == public
    check_no_leaks(game, rng)
