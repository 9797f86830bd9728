"""Bug Off!'s hard search compares only the normal player's best-weighed choices (P-81), so a
small budget still gives each of them enough imagined games to tell them apart."""

from __future__ import annotations

import pytest

from rules.bug_off import BugOff
from rules.bug_off.bots import SEARCHED, normal, options, weigh
from rules.core import Rng
from rules.core.bots import bots_for
from rules.core.search import candidates

from .bot_positions import position


@pytest.mark.parametrize("seed", range(12))
def test_the_search_weighs_the_best_weighed_choices_and_the_normal_pick(seed: int) -> None:
    found = position("bug-off", seed, 20 + 9 * seed)
    if found is None:
        pytest.skip("the game ended first")
    engine, seat = found.engine, found.bot.seat
    assert isinstance(engine, BugOff)
    legal = engine.legal_actions(seat)
    if len(legal) == 1:  # the draw: the choice comes after it
        found.bot.observe(engine.apply(seat, legal[0]))
        legal = engine.legal_actions(seat)
    if len(legal) < 2:
        pytest.skip("no choice here (a BUG OFF came up)")
    searched = options(engine, seat)
    assert len(searched) == min(SEARCHED, len(legal))
    assert all(action in legal for action in searched)
    worth = {str(action): value for value, action in weigh(engine.state, seat, legal)}
    left_out = [worth[str(a)] for a in legal if a not in searched]
    assert all(worth[str(a)] >= max(left_out, default=-1e9) for a in searched)
    pick = normal(engine, seat, found.bot.memory, Rng(seed))
    assert pick in searched
    weighed = candidates(bots_for("bug-off"), engine, seat, found.bot.memory, Rng(seed))
    assert weighed[0] == pick and len(weighed) == len(searched)
