"""Each game's typed contract holds at run time, and its presenter has words for every event.

mypy checks the presenters against ``rules/<game>/contract.py``; here random games check that
the engines' real views, actions and events have those shapes, and that each presenter's
formatter table covers the contract's public event types (so a new event type an engine can
emit fails here, not in a live channel).
"""

from __future__ import annotations

from functools import cache
from typing import get_args

import pytest

from bot.ui.games import bag_of_bugs as bag_of_bugs_ui
from bot.ui.games import bug_off as bug_off_ui
from bot.ui.games import bug_run as bug_run_ui
from bot.ui.games import bug_run_words
from bot.ui.games import bugs_and_co as bugs_and_co_ui
from rules.bag_of_bugs import BagOfBugs
from rules.bag_of_bugs import contract as bag_of_bugs
from rules.bug_off import BugOff
from rules.bug_off import contract as bug_off
from rules.bug_run import BugRun, content
from rules.bug_run import contract as bug_run
from rules.bugs_and_co import BugsAndCo
from rules.bugs_and_co import contract as bugs_and_co
from tests.support.contracts import (
    Seen,
    check_contract,
    check_formatters,
    conforms,
    play_random,
)


@cache
def bug_off_games() -> Seen:
    return play_random(BugOff.new, [(players, seed) for players in range(2, 7) for seed in (1, 2)])


def test_bug_off_contract() -> None:
    check_contract(
        bug_off_games(),
        view=bug_off.BugOffView,
        actions=bug_off.BugOffAction,
        action_types=bug_off.ActionType,
        events=bug_off.EVENTS,
        event_types=bug_off.EventType,
    )
    assert set(bug_off.PublicEventType.__args__) <= set(bug_off.EVENTS)


def test_bug_off_formatters() -> None:
    check_formatters(
        bug_off_ui.FORMATTERS, bug_off.PublicEventType, bug_off.EVENTS, bug_off_games()
    )


def test_a_missing_formatter_fails(monkeypatch: pytest.MonkeyPatch) -> None:
    """The coverage check itself: without one formatter entry it fails."""
    table = dict(bug_off_ui.FORMATTERS)
    del table["scored"]
    with pytest.raises(AssertionError, match="no formatter: \\['scored'\\]"):
        check_formatters(table, bug_off.PublicEventType, bug_off.EVENTS)


@cache
def bag_of_bugs_games() -> Seen:
    return play_random(
        BagOfBugs.new, [(players, seed) for players in range(3, 6) for seed in (1, 2)]
    )


def test_bag_of_bugs_contract() -> None:
    check_contract(
        bag_of_bugs_games(),
        view=bag_of_bugs.BagOfBugsView,
        actions=bag_of_bugs.BagOfBugsAction,
        action_types=bag_of_bugs.ActionType,
        events=bag_of_bugs.EVENTS,
        event_types=bag_of_bugs.EventType,
    )


def test_bag_of_bugs_formatters() -> None:
    check_formatters(
        bag_of_bugs_ui.FORMATTERS, bag_of_bugs.EventType, bag_of_bugs.EVENTS, bag_of_bugs_games()
    )


@cache
def bugs_and_co_games() -> Seen:
    return play_random(BugsAndCo.new, [(players, seed) for players in range(2, 9) for seed in (1,)])


def test_bugs_and_co_contract() -> None:
    check_contract(
        bugs_and_co_games(),
        view=bugs_and_co.BugsAndCoView,
        actions=bugs_and_co.BugsAndCoAction,
        action_types=bugs_and_co.ActionType,
        events=bugs_and_co.EVENTS,
        event_types=bugs_and_co.EventType,
    )


def test_bugs_and_co_formatters() -> None:
    check_formatters(
        bugs_and_co_ui.FORMATTERS,
        bugs_and_co.PublicEventType,
        bugs_and_co.EVENTS,
        bugs_and_co_games(),
    )


def _bug_run(players: int, seed: int) -> BugRun:
    return BugRun.new(players, seed, {"mode": ("normal", "powers")[seed % 2]})


@cache
def bug_run_games() -> Seen:
    return play_random(_bug_run, [(players, players) for players in range(2, 7)])


def test_bug_run_contract() -> None:
    check_contract(
        bug_run_games(),
        view=bug_run.BugRunView,
        actions=bug_run.BugRunAction,
        action_types=bug_run.ActionType,
        events=bug_run.EVENTS,
        event_types=bug_run.EventType,
    )


def test_bug_run_formatters() -> None:
    check_formatters(bug_run_words.LINES, bug_run.PublicEventType, bug_run.EVENTS, bug_run_games())


def test_bug_run_choices_cover_every_player_action() -> None:
    """Every action a player can be offered has its own label (``afk`` is the clock's)."""
    offered = set(get_args(bug_run.ActionType)) - {"afk"}
    assert set(bug_run_ui.CHOOSERS) == offered, offered ^ set(bug_run_ui.CHOOSERS)


def test_bug_run_card_content_has_the_shapes_presenters_read() -> None:
    """The presenter reads card content by the contract's shapes (``bug_run_words.item_card``
    and the like cast to them): every card, stairs space, roof path and die face has them."""
    cards = [*content.BAZAAR_CARDS, *content.LOOT_CARDS, *content.BASIC_CARDS]
    wrong = [bad for card in cards for bad in conforms(content.card(card), bug_run.ItemCard, card)]
    for stairs in content.STAIRS.values():
        for i, space in enumerate(stairs["spaces"]):
            wrong += conforms(space, bug_run.StairsSpace, f"{stairs['id']} space {i}")
        for i, path in enumerate(stairs["roof"]):
            wrong += conforms(path, bug_run.RoofPath, f"{stairs['id']} roof {i}")
    for quest in content.QUESTS.values():
        wrong += conforms(quest.get("items", []), list[str], f"{quest['id']} items")
    for face in content.DICE:
        wrong += conforms(face, bug_run.DieFace, f"die face {face.get('face')}")
    assert not wrong, wrong[:20]
    assert bug_run_words.price_of("BASIC-1") > 0 and bug_run_words.die_face(6)["face"] == 6
