"""``public_scores()``: what everyone may see of the standings, at every step of whole games;
the final ``scores()`` once a game is over (issue #20)."""

from __future__ import annotations

import pytest

import rules  # noqa: F401  (registers the games)
from rules.core import GAMES, SYSTEM, Rng, get_game

ALL_PUBLIC = {"bag-of-bugs", "bug-off"}
"""Games whose running score hides nothing: every collection (BB-21) and points-pile size
(BO-15) is on the table."""


def _three(slug: str) -> int:
    cls = get_game(slug)
    return min(max(3, cls.min_players), cls.max_players)


@pytest.mark.parametrize(
    ("slug", "players", "seed"),
    [(slug, _three(slug), seed) for seed, slug in enumerate(sorted(GAMES), start=1)]
    + [("bug-run", 2, 5)],
)
def test_public_scores_at_every_step_and_the_final_scores_at_the_end(
    slug: str, players: int, seed: int
) -> None:
    engine = get_game(slug).new(players, seed)
    rng = Rng(seed)
    while True:
        public = engine.public_scores()
        assert len(public) == players and all(type(score) is int for score in public)
        if slug in ALL_PUBLIC or engine.is_over:
            assert public == engine.scores()
        elif slug == "bugs-and-co":  # trophies only (BC-X4)
            assert public == [s["trophy"] or 0 for s in engine.view(None)["seats"]]
        if engine.is_over:
            break
        movers = [s for s in sorted(engine.waiting_for()) if engine.legal_actions(s)]
        deadlines = engine.deadlines()
        if deadlines and (not movers or rng.random() < 0.05):
            engine.apply(SYSTEM, rng.choice(deadlines).action)
        else:
            seat = rng.choice(movers)
            engine.apply(seat, rng.choice(engine.legal_actions(seat)))
    assert engine.public_scores() == engine.scores()


def test_bug_run_public_scores_are_what_the_public_view_shows() -> None:
    """Trinkets face up, the roof and the coins, from ``view(None)`` alone (BR-50, P-17)."""
    from rules.bug_run import content as C

    engine = get_game("bug-run").new(3, 8)
    rng = Rng(8)
    checked = 0
    while not engine.is_over:
        view = engine.view(None)
        for seat in range(3):
            heroes = [h for h in view["heroes"] if h["seat"] == seat]
            seen = sum(
                int(C.card(card)["vp"])
                for h in heroes
                for card in h["faceup"]
                if C.card(card)["effect"] == "trinket"
            )
            seen += sum(C.ROOF_VP[h["roof"] or 0] + h["coins"] // 3 for h in heroes)
            assert engine.public_scores()[seat] == seen
            checked += 1
        seat = next(iter(engine.waiting_for()))
        engine.apply(seat, rng.choice(engine.legal_actions(seat)))
    assert checked > 100
