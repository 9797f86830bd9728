"""The hard bot overrules its normal pick only when the search clearly beats it on the same
imagined worlds (P-51): the best of several noisy options wins by chance alone otherwise."""

from __future__ import annotations

from rules.core.search import clearly_better


def test_a_consistent_gain_overrules_the_pick() -> None:
    pick = [0.2, 0.5, 0.1, 0.4]
    best = [p + 0.1 for p in pick]  # better in every world
    assert clearly_better(best, pick)


def test_a_gain_within_the_noise_does_not() -> None:
    pick = [0.5, 0.5, 0.5, 0.5]
    best = [1.0, 0.0, 1.0, 0.2]  # a higher mean (0.55), but two worlds of four much worse
    assert sum(best) > sum(pick)
    assert not clearly_better(best, pick)


def test_no_gain_never_overrules() -> None:
    same = [0.3, 0.7, 0.1]
    assert not clearly_better(same, list(same))
    assert not clearly_better([0.4], [0.4])
    assert clearly_better([0.5], [0.4])  # one world: the mean alone says
