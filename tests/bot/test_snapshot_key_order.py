"""PostgreSQL keeps JSON documents as ``jsonb``, which forgets key order (shorter keys first, then
bytewise), except game snapshots, which stay ``json`` (text kept as written): Bug Run's state
walks some of its objects in insertion order, so a restored game would offer its moves in another
order (P-35). These tests are the evidence, both ways."""

from __future__ import annotations

import json
from typing import Any

import pytest

from rules import GAMES
from rules.core import SYSTEM, Rng

ORDER_SENSITIVE = {"bug-run"}
"""Games whose snapshots must keep their key order (why ``games.snapshot`` is not jsonb)."""


def jsonb_order(value: Any) -> Any:
    """``value`` with every object's keys in the order PostgreSQL's jsonb hands them back."""
    if isinstance(value, dict):
        keys = sorted(value, key=lambda k: (len(k.encode()), k.encode()))
        return {k: jsonb_order(value[k]) for k in keys}
    if isinstance(value, list):
        return [jsonb_order(v) for v in value]
    return value


def test_jsonb_order_really_reorders() -> None:
    assert list(jsonb_order({"bb": 1, "a": 2, "ab": 3})) == ["a", "ab", "bb"]


def play_alongside(slug: str, seed: int, *, reorder_snapshot: bool) -> None:
    """Play a random game twice in step: once in memory, once restored from its stored snapshot
    after every action and fed its actions as the store hands them back."""
    cls = GAMES[slug]
    reference = cls.new(cls.max_players, seed)
    restored = cls.new(cls.max_players, seed)
    rng = Rng(seed + 77)
    for _ in range(3000):
        if reference.is_over:
            break
        stored = json.loads(json.dumps(restored.to_dict()))
        restored = cls.from_dict(jsonb_order(stored) if reorder_snapshot else stored)
        movers = [
            s for s in sorted(reference.waiting_for()) if s != SYSTEM and reference.legal_actions(s)
        ]
        for s in movers:
            assert restored.legal_actions(s) == reference.legal_actions(s)
        deadlines = reference.deadlines()
        assert [d.key for d in restored.deadlines()] == [d.key for d in deadlines]
        if deadlines and (not movers or rng.random() < 0.05):
            seat, action = SYSTEM, rng.choice(deadlines).action
        else:
            seat = rng.choice(movers)
            action = rng.choice(reference.legal_actions(seat))
        assert restored.apply(seat, jsonb_order(action)) == reference.apply(seat, action)
        assert restored.to_dict() == reference.to_dict()
    assert reference.is_over and restored.is_over


@pytest.mark.parametrize("slug", sorted(GAMES))
@pytest.mark.parametrize("seed", range(2))
def test_actions_read_back_from_jsonb_play_identically(slug: str, seed: int) -> None:
    play_alongside(slug, seed, reorder_snapshot=False)


@pytest.mark.parametrize(
    "slug",
    [
        pytest.param(
            slug,
            marks=pytest.mark.xfail(
                strict=True, reason="its state is order-sensitive: snapshots stay json (P-35)"
            ),
        )
        if slug in ORDER_SENSITIVE
        else slug
        for slug in sorted(GAMES)
    ],
)
def test_snapshots_read_back_from_jsonb(slug: str) -> None:
    """Where this passes, a snapshot could be jsonb; Bug Run's fails, which is why none is. A
    strict xfail: if Bug Run stops depending on key order, this says so."""
    play_alongside(slug, 0, reorder_snapshot=True)
