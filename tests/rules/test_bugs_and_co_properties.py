"""Bugs & Co property tests: random legal play for 2-8 players, checked at every step.

Invariants: no tile created or lost; a kept tile's symbol is shown to nobody (its owner
included) and a peeked symbol only to the peeker until the end; the removed tiles stay hidden;
every listed action is accepted; games end; replay and snapshots reproduce the game exactly.
"""

from __future__ import annotations

import json
import random
import re
from collections import Counter
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules import SYSTEM, RuleError, replay
from rules.bugs_and_co import BugsAndCo
from rules.bugs_and_co import components as box
from rules.bugs_and_co.scoring import breakdown
from rules.core import Action, Event, Rng, random_playout
from tests.support.examples import examples

SLUG = "bugs-and-co"
EXTRA = st.sampled_from(["random", "one-eyed", "three-eyed"])
SEEDS = st.integers(min_value=0, max_value=2**63)


def all_tiles(game: BugsAndCo) -> list[int]:
    tiles = [t for t in game.state.slots if t is not None] + list(game.state.removed)
    for p in game.state.seats:
        tiles += p.kept
        if p.held is not None:
            tiles.append(p.held.tile)
    return sorted(tiles)


_SYMBOL = re.compile(r'"symbol": (-?\d+|[^,}]+)')


def symbols_in(text: str) -> list[int]:
    """Every value under a "symbol" key anywhere in a JSON text."""
    return [int(v) for v in _SYMBOL.findall(text)]


def views(game: BugsAndCo) -> list[dict[str, Any]]:
    return [game.view(seat) for seat in [None, *range(game.players)]]


def hidden_shuffled(game: BugsAndCo, rnd: random.Random) -> BugsAndCo:
    """The same game with every tile nobody is looking at (table, left hands, box) shuffled
    among those places. Views must not change: they may show nothing of those tiles."""
    data = game.to_dict()
    slots = [i for i, t in enumerate(data["slots"]) if t is not None]
    pool = [data["slots"][i] for i in slots] + data["removed"]
    for p in data["seats"]:
        pool += p["kept"]
    rnd.shuffle(pool)
    it = iter(pool)
    for i in slots:
        data["slots"][i] = next(it)
    data["removed"] = [next(it) for _ in data["removed"]]
    for p in data["seats"]:
        p["kept"] = [next(it) for _ in p["kept"]]
    return BugsAndCo.from_dict(data)


def check_state(game: BugsAndCo, expected_tiles: list[int], slot_count: int) -> None:
    assert all_tiles(game) == expected_tiles  # nothing created, nothing lost
    assert len(game.state.slots) == slot_count
    assert len(game.state.removed) == box.REMOVED
    for p in game.state.seats:
        assert max(Counter(box.symbol_of(t) for t in p.kept).values(), default=0) <= 3
        assert (p.status == "trophy") == (p.trophy is not None)
        if p.held is not None:
            assert game.state.slots[p.held.slot] != p.held.tile
    taken = sorted((p.trophy for p in game.state.seats if p.trophy is not None), reverse=True)
    assert taken + game.state.trophies == list(box.TROPHIES[game.players])
    playing = frozenset(s for s, p in enumerate(game.state.seats) if p.status == "playing")
    live = game.state.phase in ("live", "final")
    assert game.waiting_for() == (playing if live else frozenset())
    if game.state.phase == "final":
        assert game.state.trophies == []


def check_views(game: BugsAndCo, rnd: random.Random) -> None:
    seen = views(game)
    texts = [json.dumps(view) for view in seen]
    assert [json.loads(text) for text in texts] == seen
    if game.is_over:
        return
    for seat, view, text in zip([None, *range(game.players)], seen, texts, strict=True):
        held = None if seat is None else game.state.seats[seat].held
        own = [] if held is None else [box.symbol_of(held.tile)]
        assert symbols_in(text) == own
        assert view["result"] is None
    assert views(hidden_shuffled(game, rnd)) == seen


def check_events(game: BugsAndCo, seat: int, events: list[Event]) -> None:
    for event in events:
        text = json.dumps(event.data)
        assert json.loads(text) == event.data
        if event.type == "game_over":
            assert event.is_public and game.is_over
            continue
        shown = symbols_in(text)
        if event.type == "peeked":
            held = game.state.seats[seat].held
            assert held is not None
            assert event.to == frozenset({seat}) and shown == [box.symbol_of(held.tile)]
        else:
            assert event.is_public and shown == []


def check_listed_actions(game: BugsAndCo, rnd: random.Random, everything: bool) -> None:
    """Actions offered are accepted (on copies); SYSTEM accepts exactly its deadlines.

    Every listed action of every seat now and then, else one sampled action of two seats."""
    snapshot = game.to_dict()
    seats = range(game.players) if everything else rnd.sample(range(game.players), 2)
    for seat in seats:
        listed = game.legal_actions(seat)
        for action in listed if everything else rnd.sample(listed, min(1, len(listed))):
            BugsAndCo.from_dict(snapshot).apply(seat, action)
    for deadline in game.deadlines():
        BugsAndCo.from_dict(snapshot).apply(SYSTEM, deadline.action)


def check_final(game: BugsAndCo) -> None:
    assert game.is_over and game.deadlines() == []
    assert all(not game.legal_actions(s) for s in range(game.players))
    assert all(p.held is None and p.status != "playing" for p in game.state.seats)
    for seat, player in enumerate(game.state.seats):
        counts = Counter(box.symbol_of(t) for t in player.kept)
        trios = sum(1 for n in counts.values() if n == 3)
        others = len(player.kept) - 3 * trios
        trophy = player.trophy or 0
        assert game.score_breakdown(seat) == {
            "trios": 3 * trios,
            "other_tiles": -others,
            "trophy": trophy,
            "total": 3 * trios - others + trophy,
        }
        assert list(game.score_breakdown(seat)) == ["trios", "other_tiles", "trophy", "total"]
    best = max(game.scores())
    assert game.winners() == [s for s, v in enumerate(game.scores()) if v == best]
    assert game.view(None)["result"]["removed"] == sorted(
        box.symbol_of(t) for t in game.state.removed
    )


def replay_checked(
    players: int, seed: int, options: dict[str, str], log: list[tuple[int, Action]], check: int
) -> BugsAndCo:
    """Replays ``log`` step by step, checking every invariant after every action."""
    rnd = random.Random(check)
    game = BugsAndCo.new(players, seed, options)
    expected_tiles = all_tiles(game)
    slot_count = len(game.state.slots)
    check_state(game, expected_tiles, slot_count)
    check_views(game, rnd)
    for step, (seat, action) in enumerate(log):
        if seat == SYSTEM:
            assert action in [d.action for d in game.deadlines()]
        else:
            assert action in game.legal_actions(seat)
        before_turn, before_phase = game.turn, game.state.phase
        events = game.apply(seat, action)
        assert events
        check_events(game, seat, events)
        check_state(game, expected_tiles, slot_count)
        check_views(game, rnd)
        check_listed_actions(game, rnd, everything=step % 50 == 0)
        assert (game.turn != before_turn) == (
            game.state.phase != before_phase
            and {before_phase, game.state.phase} != {"live", "final"}
        )
    return game


def biased_playout(game: BugsAndCo, rng: Rng, trophy_chance: float) -> list[tuple[int, Action]]:
    """Memory-ish play that keeps a lot and rarely takes trophies, so tables empty and trios
    form; like the random policy it only uses ``legal_actions`` and ``deadlines``."""
    log: list[tuple[int, Action]] = []
    while not game.is_over:
        movers = [s for s in sorted(game.waiting_for()) if game.legal_actions(s)]
        deadlines = game.deadlines()
        chance = 0.03 if game.state.phase == "final" else 0.001
        if deadlines and (not movers or rng.random() < chance):
            seat, action = SYSTEM, deadlines[0].action
        else:
            seat = rng.choice(movers)
            listed = game.legal_actions(seat)
            trophy = [a for a in listed if a["type"] == "trophy"]
            keeps = [a for a in listed if a["type"] == "keep"]
            others = [a for a in listed if a["type"] not in ("trophy", "keep")]
            if trophy and (rng.random() < trophy_chance or (not others and not keeps)):
                action = trophy[0]
            elif keeps and rng.random() < 0.6:
                action = keeps[0]
            else:
                action = rng.choice(others or trophy)
        game.apply(seat, action)
        log.append((seat, action))
    return log


@pytest.mark.parametrize("players", range(2, 9))
@settings(max_examples=examples(5), deadline=None)
@given(
    seed=SEEDS,
    play=SEEDS,
    extra=EXTRA,
    chance=st.sampled_from([0.004, 0.02, 0.1]),
    cut=st.floats(0, 1),
)
def test_random_games_keep_every_invariant(
    players: int, seed: int, play: int, extra: str, chance: float, cut: float
) -> None:
    options = {"extra_set": extra}
    game = BugsAndCo.new(players, seed, options)
    playout = random_playout(game, Rng(play), deadline_chance=chance)
    assert game.is_over
    final = game.to_dict()
    assert replay(SLUG, players, seed, options, playout.log).to_dict() == final
    # the events of the real run are the events of the replay, in order
    rerun = BugsAndCo.new(players, seed, options)
    assert [e for s, a in playout.log for e in rerun.apply(s, a)] == playout.events
    checked = replay_checked(players, seed, options, playout.log, play)
    assert checked.to_dict() == final
    check_final(checked)
    # a JSON snapshot taken anywhere continues identically
    k = int(cut * len(playout.log))
    head = replay(SLUG, players, seed, options, playout.log[:k])
    resumed = BugsAndCo.from_dict(json.loads(json.dumps(head.to_dict())))
    assert resumed.to_dict() == head.to_dict()
    for seat, action in playout.log[k:]:
        resumed.apply(seat, action)
    assert resumed.to_dict() == final


@pytest.mark.parametrize("players", range(2, 9))
@settings(max_examples=2, deadline=None)
@given(seed=SEEDS, play=SEEDS, extra=EXTRA, trophy_chance=st.sampled_from([0.0, 0.02]))
def test_long_memory_games_keep_every_invariant(
    players: int, seed: int, play: int, extra: str, trophy_chance: float
) -> None:
    options = {"extra_set": extra}
    game = BugsAndCo.new(players, seed, options)
    log = biased_playout(game, Rng(play), trophy_chance)
    checked = replay_checked(players, seed, options, log, play)
    assert checked.to_dict() == game.to_dict()
    check_final(checked)


# -- adversarial play: legal and illegal actions mixed, aimed at the tricky cases ---------------

KINDS = (
    "legal",  # something listed, so the game moves on
    "peek",  # any slot, full, empty or out of range
    "keep",  # with the held serial give or take one
    "home",  # default put back, serial give or take one
    "into",  # put_into an empty slot, often another holder's origin (BC-10, BC-X1)
    "into_pickup",  # the pickup form with a slot (BC-X11)
    "trophy",  # also while holding, after the last one, after stopping (BC-5, BC-6)
    "system",  # start / both stops, listed or not
)
WEIGHTS = {"legal": 4, "peek": 4, "keep": 2, "home": 2, "into": 3, "into_pickup": 3}
MOVES = st.lists(
    st.tuples(
        st.integers(0, 9),
        st.sampled_from([k for k in KINDS for _ in range(WEIGHTS.get(k, 1))]),
        st.integers(0, 200),
        st.integers(-1, 1),
    ),
    min_size=20,
    max_size=150,
)


def aimed_action(game: BugsAndCo, who: int, kind: str, a: int, b: int) -> tuple[int, Any]:
    """A concrete action aimed at the current state; most of them aim at a seat holding a
    tile, a real serial, and an empty slot (often another holder's origin)."""
    if kind == "system":
        stops = [{"type": "stop", "why": "cap"}, {"type": "stop", "why": "countdown"}]
        return SYSTEM, stops[a % 2] if a % 8 == 0 else {"type": "start"}
    holders = [s for s, p in enumerate(game.state.seats) if p.held is not None]
    if kind not in ("legal", "peek", "trophy") and holders and who % 4:
        seat = holders[a % len(holders)]
    else:
        seat = who % (game.players + 2) - 1  # SYSTEM, every seat, one seat too many
    held = game.state.seats[seat].held if 0 <= seat < game.players else None
    serial = (held.pickup if held is not None else game.state.pickups) + (b if who % 3 == 0 else 0)
    empty = [s for s, t in enumerate(game.state.slots) if t is None]
    origins = [p.held.slot for p in game.state.seats if p.held is not None and p.held is not held]
    targets = (origins if origins and a % 2 else empty) or [a % (len(game.state.slots) + 2) - 1]
    target = targets[a % len(targets)] if a % 7 else a % (len(game.state.slots) + 2) - 1
    if kind == "legal":
        listed = game.legal_actions(seat) if 0 <= seat < game.players else []
        return seat, listed[a % len(listed)] if listed else {"type": "trophy"}
    if kind == "peek":
        return seat, {"type": "peek", "slot": a % (len(game.state.slots) + 2) - 1}
    if kind == "keep":
        return seat, {"type": "keep", "pickup": serial}
    if kind == "home":
        return seat, {"type": "return", "pickup": serial}
    if kind == "into":
        return seat, {"type": "return", "slot": target}
    if kind == "into_pickup":
        return seat, {"type": "return", "pickup": serial, "slot": target}
    if who % 4:  # trophies are rare, so tables fill with moved tiles first
        return seat, {"type": "peek", "slot": a % (len(game.state.slots) + 2) - 1}
    return seat, {"type": "trophy"}


@settings(max_examples=examples(60), deadline=None)
@given(players=st.integers(2, 8), seed=SEEDS, extra=EXTRA, moves=MOVES)
def test_bc_x11_aimed_actions_are_accepted_exactly_when_listed(
    players: int, seed: int, extra: str, moves: list[tuple[int, str, int, int]]
) -> None:
    """Hand-aimed actions (stale serials, others' origin slots, trophies while holding, clocks
    out of phase): each is accepted iff listed, a refusal changes nothing, and every invariant
    (conservation, hidden symbols, trophy order) holds after each accepted one."""
    rnd = random.Random(seed)
    game = BugsAndCo.new(players, seed, {"extra_set": extra})
    expected_tiles, slot_count = all_tiles(game), len(game.state.slots)
    log: list[tuple[int, Action]] = []
    for who, kind, a, b in moves:
        if game.is_over:
            break
        if game.state.phase == "start" and kind != "system":
            seat, action = SYSTEM, {"type": "start"}
        else:
            seat, action = aimed_action(game, who, kind, a, b)
        if seat == SYSTEM:
            listed = [d.action for d in game.deadlines()]
        else:
            listed = game.legal_actions(seat)
        before = json.dumps(game.to_dict(), sort_keys=True)
        try:
            events = game.apply(seat, action)
        except RuleError:
            assert action not in listed, (seat, action)
            assert json.dumps(game.to_dict(), sort_keys=True) == before
            continue
        assert action in listed, (seat, action)
        log.append((seat, action))
        check_events(game, seat, events)
        check_state(game, expected_tiles, slot_count)
        check_views(game, rnd)
    while not game.is_over:
        action = game.deadlines()[0].action
        game.apply(SYSTEM, action)
        log.append((SYSTEM, action))
    check_state(game, expected_tiles, slot_count)
    check_final(game)
    assert replay(SLUG, players, seed, {"extra_set": extra}, log).to_dict() == game.to_dict()


@settings(max_examples=examples(200), deadline=None)
@given(
    counts=st.lists(st.integers(0, 3), min_size=25, max_size=25),
    trophy=st.sampled_from([None, 1, 2, 3]),
    order=st.randoms(use_true_random=False),
)
def test_bc_score_is_three_per_trio_minus_one_per_other_tile_plus_the_trophy(
    counts: list[int], trophy: int | None, order: random.Random
) -> None:
    """Rulebook "Score" (and BC-3: at most three of a symbol), in any order of the left hand."""
    symbols = [s for s, n in enumerate(counts) for _ in range(n)]
    order.shuffle(symbols)
    trios = counts.count(3)
    others = sum(n for n in counts if n != 3)
    parts = breakdown(symbols, trophy)
    assert parts == {
        "trios": 3 * trios,
        "other_tiles": -others,
        "trophy": trophy or 0,
        "total": 3 * trios - others + (trophy or 0),
    }
    assert parts["total"] == 3 * trios - (len(symbols) - 3 * trios) + (trophy or 0)
