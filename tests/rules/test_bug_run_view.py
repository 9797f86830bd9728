"""Bug Run's public view of the current decision: what the table sees beside the choice."""

from __future__ import annotations

import json
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


def test_a_seat_view_made_beside_the_public_one_equals_the_seat_view_key_for_key() -> None:
    """P-91: ``view_beside`` shares the public view's parts; what it hands out is the very
    ``view(seat)``, keys in the same order (JSON alike), for every seat, at every position of
    whole games, the end included, and leaves the public view as it was."""
    checked = 0
    for seed, players in [(4, 2), (5, 3), (6, 4), (7, 5), (8, 6)]:
        game = BugRun.new(players, seed, {"mode": "powers" if seed % 2 else "normal"})
        rng = random.Random(seed)
        while True:
            public = game.view(None)
            before = json.dumps(public)
            for seat in [*range(players), players, -1]:
                beside = game.view_beside(public, seat)
                assert json.dumps(beside) == json.dumps(game.view(seat)), (seed, seat)
                checked += 1
                if not 0 <= seat < players:
                    assert beside == public
                    continue
                # Only the seat's own parts are its own: its VP beside its row, and "you".
                record = game.state.seats[seat]
                assert set(beside) - set(public) == {"you"}
                for key, value in public.items():
                    assert key == "seats" or beside[key] is value, key  # shared, not copied
                for i, row in enumerate(beside["seats"]):
                    if i == seat:
                        assert row == {**public["seats"][i], "vp": record.vp}
                    else:
                        assert row is public["seats"][i] and "vp" not in row
                you = beside["you"]
                assert (you["seat"], you["vp"], you["hand"]) == (seat, record.vp, record.hand)
                assert you["options"] == game.legal_actions(seat)
            assert json.dumps(public) == before
            if game.is_over:
                break
            (seat,) = game.waiting_for()
            game.apply(seat, rng.choice(game.legal_actions(seat)))
        assert "you" in game.view_beside(public, 0) and "scores" in public
    assert checked > 1000
