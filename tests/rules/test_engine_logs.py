"""Stored games replay to the same states and refusals after engine refactors.

``fixtures/engine_logs.json`` was recorded from the engines as they stood before issue 13's
restructuring: for each game, a few random playouts (their action logs, every event, the final
``to_dict()``) and probes (an action tried by some seat at some step, with the engine's answer:
accepted, or the refusal's code and message). Replaying them now must give identical results,
so a stored game still loads and replays, and players still read the same refusals.

Regenerate only on purpose (a deliberate rules change): ``python -m tests.rules.test_engine_logs``.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import pytest

import rules  # noqa: F401  (registers the games)
from rules.core import SYSTEM, Engine, Rng, RuleError, get_game, random_playout

FIXTURE = Path(__file__).parent / "fixtures" / "engine_logs.json"

GAMES: list[tuple[str, int, dict[str, str]]] = [
    ("bag-of-bugs", 3, {}),
    ("bag-of-bugs", 5, {}),
    ("bugs-and-co", 2, {}),
    ("bugs-and-co", 6, {"extra_set": "three-eyed"}),
    ("bug-off", 2, {}),
    ("bug-off", 5, {"first_player": "3"}),
    ("bug-run", 2, {}),
    ("bug-run", 4, {"mode": "powers"}),
]
SEEDS = (11, 2026, 7)
ODD_ACTIONS: list[Any] = [
    {},
    "draw",
    {"type": "no-such-action"},
    {"type": "draw", "extra": 1},
    {"type": "timeout"},
    {"type": "timeout", "turn": True},
]


def _answer(engine: Engine, seat: int, action: Any) -> dict[str, Any]:
    """What the engine says to ``action``, tried on a copy rebuilt from the snapshot."""
    copy = type(engine).from_dict(json.loads(json.dumps(engine.to_dict())))
    try:
        events = copy.apply(seat, action)
    except RuleError as err:
        return {"code": err.code, "message": err.message}
    state = json.dumps(copy.to_dict()).encode()
    return {"accepted": [e.to_dict() for e in events], "state": hashlib.sha256(state).hexdigest()}


def _record(slug: str, players: int, options: dict[str, str], seed: int) -> dict[str, Any]:
    """One playout with probes, as stored in the fixture."""
    cls = get_game(slug)
    engine = cls.new(players, seed, options)
    playout = random_playout(cls.new(players, seed, options), Rng(seed + 1))
    probe_rng = Rng(seed + 2)
    pool: list[Any] = list(ODD_ACTIONS)
    probes: list[dict[str, Any]] = []
    events: list[dict[str, Any]] = []
    for step, (seat, action) in enumerate(playout.log):
        for s in range(players):
            pool.extend(a for a in engine.legal_actions(s) if a not in pool)
        pool.extend(d.action for d in engine.deadlines() if d.action not in pool)
        # One probe by the seat that acts next, one by anybody (SYSTEM and non-seats included).
        for probe_seat in (seat, probe_rng.choice([*range(players), SYSTEM, players, True])):
            probe_action = probe_rng.choice(pool)
            answer = _answer(engine, probe_seat, probe_action)
            probes.append(
                {"step": step, "seat": probe_seat, "action": probe_action, "answer": answer}
            )
        events.extend(e.to_dict() for e in engine.apply(seat, action))
    return {
        "slug": slug,
        "players": players,
        "options": options,
        "seed": seed,
        "log": [[seat, action] for seat, action in playout.log],
        "events": events,
        "final": engine.to_dict(),
        "probes": probes,
    }


def _cases() -> list[dict[str, Any]]:
    return list(json.loads(FIXTURE.read_text())) if FIXTURE.exists() else []


@pytest.mark.parametrize(
    "case", _cases(), ids=lambda c: f"{c['slug']}-{c['players']}p-seed{c['seed']}"
)
def test_stored_game_replays_to_the_same_states_and_refusals(case: dict[str, Any]) -> None:
    cls = get_game(case["slug"])
    engine = cls.new(case["players"], case["seed"], case["options"])
    probes: dict[int, list[dict[str, Any]]] = {}
    for probe in case["probes"]:
        probes.setdefault(probe["step"], []).append(probe)
    events: list[dict[str, Any]] = []
    for step, (seat, action) in enumerate(case["log"]):
        for probe in probes.get(step, []):
            answer = _answer(engine, probe["seat"], probe["action"])
            assert json.loads(json.dumps(answer)) == probe["answer"], (step, probe)
        events.extend(e.to_dict() for e in engine.apply(seat, action))
    assert json.loads(json.dumps(events)) == case["events"]
    assert json.dumps(engine.to_dict()) == json.dumps(case["final"])
    assert json.dumps(cls.from_dict(case["final"]).to_dict()) == json.dumps(case["final"])


def test_the_fixture_covers_every_game() -> None:
    """Every shipped game has recorded logs (a new one records its own: see the top)."""
    from bot.games import games

    assert {c["slug"] for c in _cases()} == {g.slug for g in games() if g.shipped}


if __name__ == "__main__":
    cases = [_record(slug, n, opts, seed) for slug, n, opts in GAMES for seed in SEEDS]
    FIXTURE.parent.mkdir(exist_ok=True)
    FIXTURE.write_text(json.dumps(cases, separators=(",", ":")) + "\n")
    print(f"wrote {len(cases)} games to {FIXTURE}")
