"""Property tests over random legal Bug Run games, for every player count and both modes."""

from __future__ import annotations

import json
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules import GAMES
from rules.bug_run import content as C
from rules.bug_run.driver import FRAME_KINDS
from rules.bug_run.engine import BugRun
from rules.bug_run.stocks import CAPS
from rules.core import SYSTEM, Rng, random_action, random_playout, replay

ALL_CARDS = Counter(C.all_cards())
MODES = st.sampled_from(["normal", "powers"])
SEEDS = st.integers(min_value=0, max_value=2**32)


def cards_in_play(s: dict) -> Counter[str]:
    out: list[str] = []
    b = s["bazaar"]
    out += b["deck"] + b["market"] + b["discard"] + s["basics"] + s["limbo"]
    out += s["loot"]["deck"] + s["loot"]["discard"] + s["explore"]
    out += [m for deck in s["monsters"] for m in deck]
    out += s["stairs_stack"] + s["stairs_out"] + s["boxed"]
    for h in s["heroes"]:
        for k in ("sword", "bow", "shield", "stored", "faceup"):
            out += h[k]
    for seat in s["seats"]:
        out += seat["hand"]
    for col in s["board"][1:-1]:
        out += [slot["card"] for slot in col.values() if slot["card"]]
    return Counter(out)


def without_content(view: dict) -> dict:
    """The view minus the static content rows of board cards (card data, never a player's)."""
    out = dict(view)
    out["board"] = [
        {f: {k: v for k, v in slot.items() if k != "info"} for f, slot in col.items()}
        for col in view["board"]
    ]
    return out


def check_invariants(g: BugRun) -> None:
    s = g.to_dict()
    assert cards_in_play(s) == ALL_CARDS
    assert set(s["roof"]) <= set(s["stairs_stack"])
    for h in s["heroes"]:
        for stock, cap in CAPS.items():
            assert 0 <= h[stock] <= cap
        assert len(h["sword"]) <= 2 and len(h["bow"]) <= 2 and len(h["shield"]) <= 1
    assert all(seat["vp"] >= 0 for seat in s["seats"])
    for viewer in [None, *range(g.players)]:
        view = g.view(viewer)
        text = json.dumps(without_content(view))
        for other in range(g.players):
            if other == viewer:
                continue
            assert "vp" not in view["seats"][other]
            for card in s["seats"][other]["hand"]:
                assert card not in text
    waiting = g.waiting_for()
    assert len(waiting) == (0 if g.is_over else 1)


PUBLIC_VP_KEYS = {"gain", "award", "escape_end"}  # a gain of VP, never a total


def strings(data: object) -> list[str]:
    if isinstance(data, str):
        return [data]
    if isinstance(data, dict):
        return [x for k, v in data.items() for x in (*strings(k), *strings(v))]
    if isinstance(data, list | tuple):
        return [x for v in data for x in strings(v)]
    return []


def check_public_events(g: BugRun, events: list) -> None:
    """No public event names a card still hidden in a hand (or a Master Crocheter's pending
    choice), and none carries a VP total: only the size of a gain (BR-50)."""
    hidden = {c for seat in g.state.seats for c in seat.hand}
    if len(g.state.limbo) > 1:  # the two cards a Master Crocheter chooses between
        hidden |= set(g.state.limbo)
    for e in events:
        if not e.is_public:
            continue
        assert not hidden & set(strings(e.data)), e
        if e.type != "game_over":
            assert "vp" not in e.data or e.type in PUBLIC_VP_KEYS, e


def step(g: BugRun, rng: Rng) -> tuple[int, dict]:
    if g.deadlines() and rng.random() < 0.05:
        return SYSTEM, g.deadlines()[0].action
    (seat,) = g.waiting_for()
    action = random_action(g, seat, rng)
    assert action is not None
    return seat, action


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
@pytest.mark.parametrize("mode", ["normal", "powers"])
@settings(max_examples=2, deadline=None)
@given(seed=SEEDS, policy=SEEDS)
def test_random_games_keep_every_invariant(players: int, mode: str, seed: int, policy: int) -> None:
    g = BugRun.new(players, seed, {"mode": mode})
    rng = Rng(policy)
    log = []
    while not g.is_over:
        check_invariants(g)
        (seat,) = g.waiting_for()
        legal = g.legal_actions(seat)
        probe = legal if rng.random() < 0.05 else [rng.choice(legal)]
        for a in probe:  # every listed action is accepted, on a copy
            BugRun.from_dict(g.to_dict()).apply(seat, a)
        move = step(g, rng)
        check_public_events(g, g.apply(*move))
        log.append(move)
        assert len(log) < 5000
    check_invariants(g)
    assert g.winners() and set(g.winners()) <= set(range(players))
    assert replay("bug-run", players, seed, {"mode": mode}, log).to_dict() == g.to_dict()


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
@settings(max_examples=3, deadline=None)
@given(mode=MODES, seed=SEEDS, policy=SEEDS, cut=st.floats(0, 1))
def test_snapshots_round_trip_and_continue_identically(
    players: int, mode: str, seed: int, policy: int, cut: float
) -> None:
    g = BugRun.new(players, seed, {"mode": mode})
    played = random_playout(g, Rng(policy), deadline_chance=0.05)
    assert g.is_over
    assert replay("bug-run", players, seed, {"mode": mode}, played.log).to_dict() == g.to_dict()
    k = int(cut * len(played.log))
    a = replay("bug-run", players, seed, {"mode": mode}, played.log[:k])
    snap = json.loads(json.dumps(a.to_dict()))
    b = BugRun.from_dict(snap)
    assert b.to_dict() == snap
    for seat, action in played.log[k:]:
        ea = a.apply(seat, action)
        eb = b.apply(seat, action)
        assert [e.to_dict() for e in ea] == [e.to_dict() for e in eb]
    assert a.to_dict() == b.to_dict() == g.to_dict()


def test_bug_run_is_registered() -> None:
    assert GAMES["bug-run"] is BugRun


def test_events_are_json_safe_and_secret_cards_never_public() -> None:
    for players in (2, 4, 6):
        g = BugRun.new(players, 99, {"mode": "powers"})
        played = random_playout(g, Rng(5))
        secret = {c for c in C.LOOT_CARDS if C.card(c)["type"] == "secret"}
        drawn_secret: set[str] = set()
        for e in played.events:
            json.dumps(e.to_dict())
            if e.type == "loot_secret_card":
                assert not e.is_public
                drawn_secret.add(e.data["card"])
            if e.is_public and e.type.startswith("loot"):
                assert e.data.get("card") not in secret
        assert drawn_secret <= secret


@pytest.mark.parametrize(("players", "mode", "seed"), [(2, "powers", 3), (6, "powers", 4)])
def test_every_listed_action_is_accepted_at_every_step(players: int, mode: str, seed: int) -> None:
    g = BugRun.new(players, seed, {"mode": mode})
    rng = Rng(seed)
    while not g.is_over:
        (seat,) = g.waiting_for()
        legal = g.legal_actions(seat)
        assert legal and all(g.legal_actions(o) == [] for o in range(players) if o != seat)
        for a in legal:
            BugRun.from_dict(g.to_dict()).apply(seat, a)
        g.apply(seat, rng.choice(legal))


def test_every_frame_kind_is_registered_with_consistent_handlers() -> None:
    """The frame driver dispatches through FRAME_KINDS alone: a kind that waits lists its
    options and answers them; every kind pushed in a random game is registered."""
    for kind, handlers in FRAME_KINDS.items():
        assert (handlers.options is None) == (handlers.answer is None), kind
        assert handlers.options is not None or handlers.step is not None, kind
    game = BugRun.new(4, 5)
    rng = Rng(5)
    seen: set[str] = set()
    while not game.is_over:
        seen.update(frame.kind for frame in game.state.stack)
        (seat,) = game.waiting_for()
        game.apply(seat, rng.choice(game.legal_actions(seat)))
    assert seen <= set(FRAME_KINDS) and {"trade", "turn", "move"} <= seen
