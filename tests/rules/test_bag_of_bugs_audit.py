"""Bag of Bugs audit: the engine against independent readings of the rulebook and RULINGS §1.

Each check here restates a rule in a different shape from the engine's own code and compares:

- the grab options (BB-3, BB-4, BB-25, RULINGS §1.3) against a brute-force enumeration of every
  handful of pool tokens, filtered by the rule's wording;
- scores and winners (RULINGS §1.4, BB-17, BB-18) against a plain formula;
- a whole turn (draw, Rocks, G1 → G5, Wind, leftovers, cleanup) against a small reference
  implementation of RULINGS §1.2, on hand-built positions with every choice driven the same way;
- the contract: ``legal_actions`` is exactly what ``apply`` accepts (over a universe of candidate
  requests, odd JSON included), a refusal changes nothing, a snapshot taken anywhere replays the
  same events, and SYSTEM applies exactly the listed deadline actions.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from itertools import combinations_with_replacement
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.bag_of_bugs import BagOfBugs, flow, scoring
from rules.bag_of_bugs.grabs import take_options
from rules.bag_of_bugs.tokens import COLOURS, FULL_SET, GRABBABLE, TYPES
from rules.core import SYSTEM, Action, Rng, RuleError
from tests.support.examples import examples

SEEDS = st.integers(min_value=0, max_value=2**63)
PLAYERS = st.sampled_from([3, 4, 5])
LIMITS = {5: 9, 4: 8, 3: 6}
PAIRS_NEEDED = {5: 6, 4: 5, 3: 4}


def key(option: Any) -> str:
    return json.dumps(option, sort_keys=True)


@contextmanager
def rigged(tokens: list[str]) -> Iterator[list[str]]:
    """Reveal exactly ``tokens`` (in order) instead of random draws."""
    queue = list(tokens)

    def scripted(t: Any) -> str:
        assert queue, "not enough scripted reveals"
        return queue.pop(0)

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(flow, "draw_token", scripted)
        yield queue


# -- the grab effects, by brute force (RULINGS §1.3) --------------------------------------------
def oracle_options(grab: int, pool: dict[str, int]) -> list[dict[str, int]]:
    """Every handful of at most 3 pool tokens that the rule text allows, found by enumeration."""
    present = [t for t in GRABBABLE if pool.get(t, 0) > 0]
    handfuls = []
    for size in (1, 2, 3):
        for combo in combinations_with_replacement(present, size):
            taken = Counter(combo)
            if all(taken[t] <= pool[t] for t in taken):
                handfuls.append(dict(taken))
    counts = [pool[t] for t in present]

    def allowed(h: dict[str, int]) -> bool:
        size, kinds = sum(h.values()), len(h)
        if grab == 1:  # 1 token of a largest group (ties: any of them)
            return size == 1 and pool[next(iter(h))] == max(counts)
        if grab == 2:  # 1 token of a smallest group (ties: any of them)
            return size == 1 and pool[next(iter(h))] == min(counts)
        if grab == 3:  # 2 identical; if no 2 identical, only 1 token
            if max(counts) >= 2:
                return size == 2 and kinds == 1
            return size == 1
        if grab == 4:  # 2 different; if a single type is left, just 1 token
            if len(present) >= 2:
                return size == 2 and kinds == 2
            return size == 1
        # grab 5: 3 different; with fewer types, 1 token of each available type
        if len(present) >= 3:
            return size == 3 and kinds == 3
        return kinds == len(present) and size == kinds

    return [h for h in handfuls if allowed(h)] if present else []


POOLS = st.dictionaries(
    st.sampled_from(GRABBABLE), st.integers(min_value=0, max_value=9), max_size=8
).map(lambda d: {t: n for t, n in d.items() if n and (t != "wind" or n <= 2)})


@settings(max_examples=examples(400), deadline=None)
@given(pool=POOLS, grab=st.sampled_from([1, 2, 3, 4, 5]))
def test_bb3_bb4_bb25_grab_options_match_a_brute_force_reading_of_the_rules(
    pool: dict[str, int], grab: int
) -> None:
    engine = sorted(map(key, take_options(grab, pool)))
    assert engine == sorted(map(key, oracle_options(grab, pool)))
    assert len(engine) == len(set(engine))  # distinct options: a real choice or none


def test_bb3_wind_counts_as_a_group_for_g5_and_g2_ties() -> None:
    assert take_options(5, {"wind": 1, "c1": 3}) == [{"c1": 1, "wind": 1}]
    assert take_options(2, {"wind": 1, "scary": 1, "c1": 2}) == [{"scary": 1}, {"wind": 1}]
    assert take_options(1, {"wind": 2, "c1": 2}) == [{"c1": 1}, {"wind": 1}]


# -- scoring, as a formula (RULINGS §1.4) -------------------------------------------------------
COLLECTIONS = st.lists(
    st.fixed_dictionaries(
        {t: st.integers(min_value=0, max_value=6) for t in (*COLOURS, "scary", "larva")}
    ).map(lambda d: {t: n for t, n in d.items() if n}),
    min_size=3,
    max_size=5,
)


def formula(collections: list[dict[str, int]]) -> list[int]:
    top_scary = max(c.get("scary", 0) for c in collections)
    out = []
    for c in collections:
        colour = sum({1: 1, 2: 3, 3: 6}.get(c.get(k, 0), 0) for k in COLOURS)
        rainbow = 5 if all(c.get(k, 0) > 0 for k in COLOURS) else 0
        scary = c.get("scary", 0)
        worst = -2 if top_scary > 0 and scary == top_scary else 0
        out.append(colour + rainbow + 3 * c.get("larva", 0) - scary + worst)
    return out


@settings(max_examples=examples(300), deadline=None)
@given(collections=COLLECTIONS)
def test_scoring_matches_the_rulebook_formula_for_any_collections(
    collections: list[dict[str, int]],
) -> None:
    expected = formula(collections)
    assert scoring.totals(collections) == expected
    top = max(expected)
    assert scoring.best(expected) == [s for s, v in enumerate(expected) if v == top]
    e = BagOfBugs.new(len(collections), 1)
    e.state.collections = [dict(c) for c in collections]
    e.state.phase = "over"
    assert e.scores() == expected and e.winners() == scoring.best(expected)
    for seat, parts in enumerate(scoring.breakdowns(collections)):
        assert list(parts) == list(scoring.BREAKDOWN_KEYS)
        assert parts["total"] == expected[seat] == e.score_breakdown(seat)["total"]


# -- a whole turn against a reference implementation (RULINGS §1.2) -----------------------------
@dataclass
class Ref:
    """RULINGS §1.2 steps 1-5, written plainly, for one turn."""

    players: int
    drawer: int
    collections: list[Counter[str]]
    bag: Counter[str]
    pairs: int
    picks: list[int]
    questions: list[tuple[str, int, list[str]]] = field(default_factory=list)
    log: list[tuple[Any, ...]] = field(default_factory=list)

    def pick(self, kind: str, seat: int, options: list[Any]) -> Any:
        """A question only when there are 2+ options (BB-X1); the same pick as the engine's."""
        if len(options) == 1:
            return options[0]
        keys = sorted(map(key, options))
        self.questions.append((kind, seat, keys))
        chosen = keys[self.picks.pop(0) % len(keys)] if self.picks else keys[0]
        return json.loads(chosen)

    def collect(self, seat: int, tokens: dict[str, int]) -> None:
        self.collections[seat].update({t: n for t, n in tokens.items() if t != "wind"})
        for _ in range(tokens.get("wind", 0)):  # each Wind, one after the other (BB-12)
            held = sorted(t for t, n in self.collections[seat].items() if n > 0)
            left = (seat + 1) % self.players
            if held:
                given = self.pick("give", seat, held)
                self.collections[seat][given] -= 1
                self.collections[left][given] += 1
                self.log.append(("wind", seat, left, given))
            else:
                self.log.append(("wind", seat, left, None))
            self.bag["wind"] += 1

    def turn(self, reveals: list[str], claims: dict[int, int]) -> list[str]:
        limit = LIMITS[self.players]
        pool: Counter[str] = Counter()
        shown = []
        for token in reveals:
            shown.append(token)
            self.bag[token] -= 1
            pool[token] += 1
            if pool["rock"] == 2 or len(shown) == limit:
                break
        rocks = pool.pop("rock", 0)
        if rocks == 1:
            self.bag["rock"] += 1
        elif rocks == 2:
            self.pairs += 1
        for grab in (1, 2, 3, 4, 5):
            if grab not in claims:
                continue
            seat = claims[grab]
            current = {t: n for t, n in pool.items() if n > 0}
            options = oracle_options(grab, current)
            taken = self.pick("take", seat, options) if options else {}
            pool.subtract(taken)
            self.log.append(("take", seat, grab, key(taken)))
            self.collect(seat, taken)
        rest = {t: n for t, n in pool.items() if n > 0}
        if rest:
            choice = self.pick("leftovers", self.drawer, ["return_all", "take_all"])
            self.log.append(("leftovers", self.drawer, choice, key(rest)))
            if choice == "take_all":
                self.collect(self.drawer, rest)
            else:
                self.bag.update(rest)
        return shown


REVEALS = st.lists(st.sampled_from(TYPES), min_size=9, max_size=9).filter(
    lambda r: r.count("wind") <= 2
)


def engine_log(events: list[Any]) -> list[tuple[Any, ...]]:
    out: list[tuple[Any, ...]] = []
    for ev in events:
        d = ev.data
        if ev.type == "take":
            out.append(("take", d["seat"], d["grab"], key(d["tokens"])))
        elif ev.type == "wind":
            out.append(("wind", d["seat"], d["to"], d["token"]))
        elif ev.type == "leftovers":
            out.append(("leftovers", d["seat"], d["choice"], key(d["tokens"])))
    return out


@settings(max_examples=examples(250), deadline=None)
@given(
    players=PLAYERS,
    drawer=st.integers(min_value=0, max_value=4),
    reveals=REVEALS,
    claim_order=st.permutations([1, 2, 3, 4, 5]),
    claimers=st.lists(st.booleans(), min_size=5, max_size=5),
    start=st.lists(COLLECTIONS.map(lambda cs: cs[0]), min_size=5, max_size=5),
    picks=st.lists(st.integers(min_value=0, max_value=50), max_size=12),
    pairs=st.integers(min_value=0, max_value=5),
)
def test_bb10_to_bb16_a_whole_turn_matches_a_reference_reading(
    players: int,
    drawer: int,
    reveals: list[str],
    claim_order: list[int],
    claimers: list[bool],
    start: list[dict[str, int]],
    picks: list[int],
    pairs: int,
) -> None:
    drawer %= players
    pairs %= PAIRS_NEEDED[players]
    e = BagOfBugs.new(players, 5)
    t = e.state
    t.drawer = drawer
    t.pairs = pairs
    t.bag["rock"] = 2 * PAIRS_NEEDED[players] + 1 - 2 * pairs
    t.collections = [dict(start[s]) for s in range(players)]
    grabbers = [s for s in range(players) if s != drawer]
    claims = {
        grab: seat
        for grab, seat, wants in zip(claim_order, grabbers, claimers, strict=False)
        if wants
    }
    ref = Ref(
        players,
        drawer,
        [Counter(c) for c in t.collections],
        Counter(t.bag),
        pairs,
        list(picks),
    )
    shown = ref.turn(reveals, claims)

    engine_picks = list(picks)
    questions: list[tuple[str, int, list[str]]] = []
    events = []
    with rigged(reveals):
        events += e.apply(drawer, {"type": "draw"})
        for grab, seat in claims.items():  # any claim order: resolution is G1 → G5 (BB-16)
            events += e.apply(seat, {"type": "grab", "token": grab})
        while t.phase == "draw" and t.turn_number == 1:
            events += e.apply(drawer, {"type": "draw"})
    while t.choice is not None and t.turn_number == 1 and not e.is_over:
        seat = t.choice.seat
        actions = e.legal_actions(seat)
        assert len(actions) >= 2  # BB-X1: only real choices are asked
        by_key = {key(_option(a)): a for a in actions}
        keys = sorted(by_key)
        kind = {"take": "take", "give": "give"}.get(actions[0]["type"], "leftovers")
        questions.append((kind, seat, keys))
        chosen = keys[engine_picks.pop(0) % len(keys)] if engine_picks else keys[0]
        events += e.apply(seat, by_key[chosen])

    assert [ev.data["token"] for ev in events if ev.type == "reveal"] == shown
    assert questions == ref.questions
    assert engine_log(events) == ref.log
    assert t.collections == [{k: n for k, n in c.items() if n > 0} for c in ref.collections]
    assert t.bag == {k: ref.bag[k] for k in TYPES if ref.bag[k] > 0}
    assert t.pairs == ref.pairs and t.pool == {} and t.held_winds == 0
    if ref.pairs >= PAIRS_NEEDED[players]:
        assert e.is_over and e.scores() == formula([dict(c) for c in ref.collections])
    else:
        assert t.phase == "draw" and t.drawer == (drawer + 1) % players
        assert t.turn_number == 2 and t.grabs == [None] * 5 and t.revealed == 0


def _option(action: Action) -> Any:
    if action["type"] == "take":
        return action["tokens"]
    if action["type"] == "give":
        return action["token"]
    return action["type"]


# -- the contract: listed ⇔ accepted, refusals change nothing, snapshots replay -------------------
def candidate_requests(e: BagOfBugs) -> list[Any]:
    """Every plausible request now, legal or not, plus malformed ones."""
    t = e.state
    out: list[Any] = [{"type": "draw"}, {"type": "draw", "x": 1}, {"type": "stop"}, "draw", None]
    out += [{"type": "grab", "token": k} for k in (0, 1, 2, 3, 4, 5, 6, True, 1.0, "1", None)]
    for step in (t.step - 1, t.step, t.step + 1, True, float(t.step), str(t.step)):
        out += [{"type": "take_all", "step": step}, {"type": "return_all", "step": step}]
        out += [{"type": "give", "step": step, "token": k} for k in (*TYPES, None, 1)]
    for step in (t.step - 1, t.step):
        for size in (1, 2, 3):
            for combo in combinations_with_replacement(TYPES, size):
                out.append({"type": "take", "step": step, "tokens": dict(Counter(combo))})
    out += [
        {"type": "take", "step": t.step, "tokens": {"c1": 1, "c2": 0}},
        {"type": "take", "step": t.step, "tokens": {"c1": True}},
        {"type": "take", "step": t.step, "tokens": [["c1", 1]]},
        {"type": "take", "step": t.step},
    ]
    return out


def system_requests(e: BagOfBugs) -> list[Any]:
    t = e.state
    out: list[Any] = []
    for s in (t.step - 1, t.step, t.step + 1):
        out += [{"type": "timeout", "step": s}, {"type": "timeout", "step": float(s)}]
    for n in (t.turn_number - 1, t.turn_number, t.turn_number + 1):
        for r in (t.revealed, t.revealed + 1, t.revealed + 2):
            out.append({"type": "auto_draw", "turn_number": n, "reveal": r})
    out.append({"type": "auto_draw", "turn_number": t.turn_number, "reveal": True})
    out.append({"type": "timeout", "step": True})
    out += [{"type": "draw"}, {"type": "timeout"}]
    return out


def check_requests(e: BagOfBugs) -> None:
    snap = e.to_dict()
    for seat in (*range(e.state.players), e.state.players, -2):
        listed = e.legal_actions(seat)
        for request in candidate_requests(e):
            try:
                e.apply(seat, request)
            except RuleError:
                assert e.to_dict() == snap, (seat, request)
                assert all(key(request) != key(a) for a in listed), (seat, request)
                continue
            assert any(key(request) == key(a) for a in listed), (seat, request, listed)
            e = BagOfBugs.from_dict(snap)
        for action in listed:  # every listed action is accepted, on a copy
            BagOfBugs.from_dict(snap).apply(seat, action)
    due = [d.action for d in e.deadlines()]
    for request in system_requests(e) + due:
        copy = BagOfBugs.from_dict(snap)
        try:
            copy.apply(SYSTEM, request)
        except RuleError:
            assert copy.to_dict() == snap
            assert all(key(request) != key(a) for a in due), request
            continue
        assert any(key(request) == key(a) for a in due), request


def random_position(players: int, seed: int, policy: int, steps: int) -> BagOfBugs:
    e = BagOfBugs.new(players, seed)
    rng = Rng(policy)
    for _ in range(steps):
        if e.is_over:
            break
        movers = sorted(s for s in e.waiting_for() if e.legal_actions(s))
        due = e.deadlines()
        if due and (not movers or rng.random() < 0.1):
            e.apply(SYSTEM, rng.choice(due).action)
        else:
            seat = rng.choice(movers)
            e.apply(seat, rng.choice(e.legal_actions(seat)))
    return e


@settings(max_examples=examples(25), deadline=None)
@given(players=PLAYERS, seed=SEEDS, policy=SEEDS, steps=st.integers(0, 120))
def test_legal_actions_are_exactly_what_apply_accepts_and_refusals_change_nothing(
    players: int, seed: int, policy: int, steps: int
) -> None:
    check_requests(random_position(players, seed, policy, steps))


@settings(max_examples=40, deadline=None)
@given(players=PLAYERS, seed=SEEDS, policy=SEEDS, steps=st.integers(0, 200))
def test_a_snapshot_taken_anywhere_replays_the_same_events(
    players: int, seed: int, policy: int, steps: int
) -> None:
    e = random_position(players, seed, policy, steps)
    copy = BagOfBugs.from_dict(json.loads(json.dumps(e.to_dict())))
    rng = Rng(policy ^ 1)
    while not e.is_over:
        movers = sorted(s for s in e.waiting_for() if e.legal_actions(s))
        due = e.deadlines()
        if due and (not movers or rng.random() < 0.2):
            seat, action = SYSTEM, rng.choice(due).action
        else:
            seat = rng.choice(movers)
            action = rng.choice(e.legal_actions(seat))
        mine = [ev.to_dict() for ev in e.apply(seat, action)]
        assert [ev.to_dict() for ev in copy.apply(seat, action)] == mine
    assert copy.to_dict() == e.to_dict() and e.state.everything() == FULL_SET


# -- fixes found by the audit -------------------------------------------------------------------
def test_bb22_system_applies_a_listed_deadline_exactly_not_a_lookalike() -> None:
    e = BagOfBugs.new(3, 2)
    (due,) = e.deadlines()
    assert due.action == {"type": "auto_draw", "turn_number": 1, "reveal": 1}
    before = e.to_dict()
    for lookalike in (
        {"type": "auto_draw", "turn_number": True, "reveal": True},
        {"type": "auto_draw", "turn_number": 1.0, "reveal": 1},
        {"type": "auto_draw", "turn_number": 1, "reveal": True},
    ):
        with pytest.raises(RuleError) as info:
            e.apply(SYSTEM, lookalike)
        assert info.value.code == "not_due"
        assert e.to_dict() == before
    assert e.apply(SYSTEM, dict(due.action))[0].type == "reveal"


def test_bb22_a_choice_timeout_with_a_lookalike_step_is_refused() -> None:
    e = BagOfBugs.new(3, 2)
    e.state.drawer = 0
    with rigged(["c1", "c1", "c2", "c2", "c3", "c3"]):
        for _ in range(6):
            e.apply(0, {"type": "draw"})
    (due,) = e.deadlines()
    step = due.action["step"]
    before = e.to_dict()
    with pytest.raises(RuleError):
        e.apply(SYSTEM, {"type": "timeout", "step": float(step)})
    assert e.to_dict() == before
    e.apply(SYSTEM, due.action)


def test_rulings_1_1_rock_invariant_is_asserted_when_a_turn_starts() -> None:
    e = BagOfBugs.new(3, 2)
    e.state.drawer = 0
    e.state.bag["rock"] -= 1  # a Rock lost: the bag could now run out before a 2nd Rock
    e.state.out_of_game["rock"] += 1
    with rigged(["c1", "c1", "c2", "c2", "c3", "c3"]):
        for _ in range(5):
            e.apply(0, {"type": "draw"})
        e.apply(0, {"type": "draw"})
    with pytest.raises(AssertionError, match="Rock invariant"):
        e.apply(0, {"type": "return_all", "step": e.state.step})


def test_rulings_1_1_rock_invariant_holds_in_a_normal_game() -> None:
    for players in (3, 4, 5):
        e = random_position(players, players, 9, 10_000)
        assert e.is_over and e.state.bag["rock"] == 1


# -- edge cases from the rulebook text ---------------------------------------------------------
def test_a_claimed_grab_must_be_resolved_even_when_it_takes_unwanted_tokens() -> None:
    e = BagOfBugs.new(3, 2)
    e.state.drawer = 0
    with rigged(["scary", "scary", "scary", "c1", "rock", "rock"]):
        e.apply(0, {"type": "draw"})
        e.apply(1, {"type": "grab", "token": 1})
        e.apply(2, {"type": "grab", "token": 3})
        events = []
        while e.state.phase == "draw":
            events += e.apply(0, {"type": "draw"})
    takes = [ev.data for ev in events if ev.type == "take"]
    assert takes == [
        {"seat": 1, "grab": 1, "tokens": {"scary": 1}, "how": "only"},
        {"seat": 2, "grab": 3, "tokens": {"scary": 2}, "how": "only"},
    ]
    assert e.state.collections[1] == {"scary": 1} and e.state.collections[2] == {"scary": 2}


def test_a_grabber_without_a_grab_token_takes_nothing_and_the_drawer_never_stops_early() -> None:
    e = BagOfBugs.new(5, 2)
    e.state.drawer = 4
    with rigged(["c1", "c2", "c3", "c4", "c5", "larva", "larva", "c1", "c2"]):
        e.apply(4, {"type": "draw"})
        for seat in range(4):
            assert e.legal_actions(seat) == [{"type": "grab", "token": k} for k in (1, 2, 3, 4, 5)]
        e.apply(0, {"type": "grab", "token": 2})
        for _ in range(7):
            assert e.legal_actions(4) == [{"type": "draw"}]  # no way to stop early
            e.apply(4, {"type": "draw"})
        assert e.state.revealed == 8 and e.state.phase == "draw"
        e.apply(4, {"type": "draw"})  # the 9th token: the 5-player limit
    assert e.state.revealed == 9 and e.state.phase == "resolve"
    assert e.state.collections[1] == e.state.collections[2] == e.state.collections[3] == {}


def test_bb20_a_wind_in_the_last_turns_leftovers_is_resolved_before_scoring() -> None:
    e = BagOfBugs.new(3, 2)
    e.state.drawer = 0
    e.state.pairs = 3
    e.state.bag["rock"] = 3
    e.state.collections[0] = {"c1": 1, "larva": 1}
    with rigged(["wind", "c2", "rock", "wind", "rock"]):
        while e.state.phase == "draw":
            e.apply(0, {"type": "draw"})
    assert e.state.final and not e.is_over
    e.apply(0, {"type": "take_all", "step": e.state.step})
    assert not e.is_over and e.state.choice is not None and e.state.choice.kind == "give"
    e.apply(0, {"type": "give", "step": e.state.step, "token": "larva"})
    assert not e.is_over  # the second Wind still has to be resolved
    events = e.apply(0, {"type": "give", "step": e.state.step, "token": "c2"})
    assert [ev.type for ev in events][-2:] == ["turn_end", "game_over"]
    assert e.state.collections[:2] == [{"c1": 1}, {"c2": 1, "larva": 1}]
    assert e.scores() == [1, 4, 0] and e.winners() == [1]
    assert e.state.bag["wind"] == 2


def test_turn_counter_semantics_are_documented_on_the_engine() -> None:
    doc = BagOfBugs.turn.__doc__ or ""
    assert "never during" in doc and "draw" in doc


# -- randomness (BB-X3, BB-X8) ------------------------------------------------------------------
def test_bb_x8_each_reveal_is_uniform_over_the_tokens_in_the_bag() -> None:
    seen: Counter[str] = Counter()
    t = BagOfBugs.new(3, 0).state
    t.bag = {"c1": 1, "larva": 2, "rock": 5}
    for seed in range(4000):
        t.rng = Rng(seed)
        seen[flow.draw_token(t)] += 1
    # 1/8, 2/8, 5/8 of 4000 = 500, 1000, 2500 (each well within 5 standard deviations)
    assert abs(seen["c1"] - 500) < 110 and abs(seen["larva"] - 1000) < 140
    assert abs(seen["rock"] - 2500) < 160 and sum(seen.values()) == 4000


def test_bb_x3_a_wind_timeout_weighs_each_token_not_each_type() -> None:
    e = BagOfBugs.new(3, 2)
    e.state.drawer = 0
    e.state.collections[1] = {"c1": 1, "scary": 3}
    with rigged(["wind", "c3", "c3", "c3", "c4", "c4"]):
        e.apply(0, {"type": "draw"})
        e.apply(1, {"type": "grab", "token": 2})
        while e.state.phase == "draw":
            e.apply(0, {"type": "draw"})
    snap = e.to_dict()
    given: Counter[str] = Counter()
    for seed in range(2000):
        copy = BagOfBugs.from_dict(snap)
        copy.state.rng = Rng(seed)
        (wind,) = [
            ev.data for ev in copy.apply(SYSTEM, copy.deadlines()[0].action) if ev.type == "wind"
        ]
        given[wind["token"]] += 1
    assert abs(given["scary"] - 1500) < 100 and given["c1"] + given["scary"] == 2000


def test_bb_x3_a_take_timeout_is_uniform_over_the_distinct_options() -> None:
    e = BagOfBugs.new(3, 2)
    e.state.drawer = 0
    with rigged(["c1", "c1", "c1", "c2", "c3", "rock"]):
        e.apply(0, {"type": "draw"})
        e.apply(1, {"type": "grab", "token": 3})  # no choice: c1 ×2 only
        e.apply(2, {"type": "grab", "token": 4})
        while e.state.phase == "draw":
            e.apply(0, {"type": "draw"})
    # after G3 took 🔴🔴 the pool is c1, c2, c3: G4 has three options
    assert len(e.legal_actions(2)) == 3
    snap = e.to_dict()
    picked: Counter[str] = Counter()
    for seed in range(1500):
        copy = BagOfBugs.from_dict(snap)
        copy.state.rng = Rng(seed)
        (take,) = [
            ev.data for ev in copy.apply(SYSTEM, copy.deadlines()[0].action) if ev.type == "take"
        ]
        picked[key(take["tokens"])] += 1
    assert len(picked) == 3 and all(abs(n - 500) < 100 for n in picked.values())
