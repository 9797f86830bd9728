"""Bug Off!'s hard search compares only the hard player's best-weighed choices (P-81, P-83), so
a small budget still gives each of them enough imagined games to tell them apart; the hard
player's pick is always among them."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from rules.bug_off import BugOff
from rules.bug_off import bots as bug_off
from rules.core import Action, Engine, Rng
from rules.core.bots import WAIT, bots_for
from rules.core.search import candidates

from .bot_positions import position


def weigh_bug_off(engine: Engine, seat: int, actions: list[Action]) -> list[tuple[float, Action]]:
    assert isinstance(engine, BugOff)
    return bug_off.hard_weigh(engine.state, seat, actions)


Weigh = Callable[[Engine, int, list[Action]], list[tuple[float, Action]]]
WEIGH: dict[str, Weigh] = {"bug-off": weigh_bug_off}
SEARCHED = {"bug-off": bug_off.SEARCHED}


@pytest.mark.parametrize("slug", sorted(WEIGH))
@pytest.mark.parametrize("seed", range(12))
def test_the_search_weighs_the_best_weighed_choices_and_the_hard_pick(slug: str, seed: int) -> None:
    found = None
    for steps in range(20 + 9 * seed, 200):
        found = position(slug, seed, steps)
        if found is None:
            continue
        engine, seat = found.engine, found.bot.seat
        legal = engine.legal_actions(seat)
        if len(legal) > SEARCHED[slug] and all("type" in a and a["type"] != "draw" for a in legal):
            break
    else:
        pytest.skip("no position with more choices than are searched")
    assert found is not None
    game = bots_for(slug)
    assert game.options is not None
    searched = game.options(engine, seat)
    assert len(searched) == SEARCHED[slug]
    assert all(action in legal for action in searched)
    worth = [(value, action) for value, action in WEIGH[slug](engine, seat, legal)]
    best_left_out = max(value for value, action in worth if action not in searched)
    assert all(value >= best_left_out for value, action in worth if action in searched)
    pick = game.heuristic("hard")(engine, seat, found.bot.memory, Rng(seed))
    assert pick in [*searched, WAIT]
    weighed = candidates(game, engine, seat, found.bot.memory, Rng(seed))
    assert weighed[0] == pick
    assert len(weighed) == SEARCHED[slug] + (1 if game.may_wait else 0)
