"""Bug Run's public view of the current decision: what the table sees beside the choice."""

from __future__ import annotations

import random

from rules.bug_run.engine import BugRun
from rules.bug_run.view import PUBLIC_FRAME_KEYS


def test_the_active_decision_shows_its_public_details() -> None:
    met: set[str] = set()
    for seed, players in [(0, 3), (1, 5), (15, 3), (2, 4), (3, 2)]:
        game = BugRun.new(players, seed, {"mode": "powers"})
        rng = random.Random(seed)
        while not game.is_over:
            (seat,) = game.waiting_for()
            public = game.view(None)
            active = public["active"]
            frame = game.context.top()
            assert frame is not None
            for key in PUBLIC_FRAME_KEYS.get(active["prompt"], ()):
                value = getattr(frame, key)
                if value is not None:
                    assert active[key] == value
                    met.add(f"{active['prompt']}.{key}")
            if active["prompt"] == "roll":
                assert len(active["dice"]) == active["n"] and all(
                    1 <= d <= 6 for d in active["dice"]
                )
            if active["prompt"] == "loot":
                # the card found is public only once it is being equipped
                assert ("card" in active) == (active["stage"] == "equip")
            assert game.view(seat)["active"] == active
            game.apply(seat, rng.choice(game.legal_actions(seat)))
    assert {"roll.dice", "toss.result", "bridge.card", "escape.reached", "trade.merchant"} <= met
