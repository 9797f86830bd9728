"""Presenters read an immutable view of a table (``bot/host/view.py``), made under its lock.

For whole random games of every registered game: every presenter entry point draws the same
from one view whose answers are kept as from a fresh view per call, and a view drawn again after
later moves still draws its own moment. The view cannot be changed, holds neither the lock,
the timers dict nor the engine, and a moved-on game with no committed position is an error.
"""

from __future__ import annotations

import copy
import dataclasses
import weakref
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

import tests.support.testgame  # noqa: F401  (the test game registers like any other)
from bot.games import Game, games
from bot.host.table import Outcome, Table
from bot.host.view import StaleView, TableView
from bot.ui.specs import MessageSpec
from rules.core import Rng, random_playout
from tests.support.tables import make_table

SAMPLES = 6
"""Positions drawn per game: spread over the whole game, its end included."""
LATER = 3
"""Moves played before a view is drawn again."""


def players_of(game: Game) -> int:
    return min(game.engine.max_players, max(game.engine.min_players, 3))


def commit(table: Table, seat: int, action: dict[str, Any]) -> Outcome:
    """A move as the host keeps it between two stored snapshots: applied, then in the tail."""
    engine = table.running()
    before = engine.turn
    events = engine.apply(seat, action)
    table.tail.append((seat, action))
    return Outcome(table.view(), seat, action, events, engine.is_over, before, engine.turn)


Drawing = list[object]
EntryPoint = Callable[[TableView], object]


def entry_points(game: Game, players: int, outcome: Outcome | None) -> list[EntryPoint]:
    """Every presenter entry point of a running game, each drawing from the view it is given."""
    p = game.presenter
    spec = MessageSpec(content="a private answer")
    points: list[EntryPoint] = [
        lambda v: p.public_boards(v, ["a line"]),
        lambda v: p.ping_text(v, [0]),
    ]
    for s in range(players):
        points += [
            lambda v, s=s: p.hand(v, s),
            lambda v, s=s: p.my_hand(v, s),
            lambda v, s=s: p.private_hand(v, s, in_dm=False),
            lambda v, s=s: p.private_hand(v, s, in_dm=True),
            lambda v, s=s: p.answered(v, s, spec),
        ]
    if outcome is not None:
        o = outcome
        points += [
            lambda v: p.log_lines(v, o),
            lambda v: p.reply(v, o),
            lambda v: p.private_reply(v, o, in_dm=False),
            lambda v: p.private_reply(v, o, in_dm=True),
        ]
    return points


def draw(points: list[EntryPoint], view: TableView) -> Drawing:
    """Every entry point drawn from one view (its answers kept and shared between them)."""
    return [point(view) for point in points]


def fresh(points: list[EntryPoint], table: Table) -> Drawing:
    """Each entry point drawn from a view of its own: nothing kept is shared between them."""
    return [point(table.view()) for point in points]


@pytest.mark.parametrize("game", games(), ids=lambda g: g.slug)
def test_a_view_draws_its_own_moment_whatever_happens_later(game: Game) -> None:
    players = players_of(game)
    for seed in (1, 2):
        log = random_playout(game.engine.new(players, seed), Rng(seed)).log
        table = make_table(game.slug, players, seed)
        sampled = {len(log) * k // SAMPLES for k in range(SAMPLES)} | {len(log) - 1}
        kept: list[tuple[TableView, list[EntryPoint], Drawing]] = []
        for step, (seat, action) in enumerate(log):
            outcome = commit(table, seat, action)
            if step not in sampled:
                continue
            points = entry_points(game, players, outcome)
            first = draw(points, outcome.view)
            assert first == draw(points, outcome.view) == fresh(points, table), (game.slug, step)
            kept.append((outcome.view, points, first))
        for view, points, first in kept:  # drawn again once the game has moved on (to its end)
            assert draw(points, view) == first
        assert table.running().is_over and kept


@pytest.mark.parametrize("game", games(), ids=lambda g: g.slug)
def test_a_view_asked_first_after_later_moves_answers_for_its_moment(game: Game) -> None:
    """Nothing asked before the game moved on: the view rebuilds its moment from the committed
    snapshot and tail, never reading the newer position."""
    players = players_of(game)
    log = random_playout(game.engine.new(players, 3), Rng(3)).log
    table = make_table(game.slug, players, 3)
    middle = len(log) // 2
    for seat, action in log[:middle]:
        commit(table, seat, action)
    points = entry_points(game, players, None)
    expected = fresh(points, table)
    untouched = table.view()
    for seat, action in log[middle : middle + LATER]:
        commit(table, seat, action)
    assert draw(points, untouched) == expected
    moment = untouched.running()
    engine = table.running()
    assert moment.turn != engine.turn or moment.view(None) != engine.view(None)


@pytest.mark.parametrize("game", games(), ids=lambda g: g.slug)
def test_what_an_engine_hands_out_is_not_changed_by_later_moves(game: Game) -> None:
    """A view keeps the answers it was given, so no game's view or legal actions may share a
    list or dict with its state (Bug Run's board marks did)."""
    span = game.engine.max_players - game.engine.min_players + 1
    for seed in range(1, 7):  # every seat count, and enough games to meet rare states
        players = game.engine.min_players + seed % span
        engine = game.engine.new(players, seed)
        for seat, action in random_playout(game.engine.new(players, seed), Rng(seed)).log:
            given = [engine.view(None), *map(engine.view, range(players))]
            given += [engine.legal_actions(s) for s in range(players)]
            given += [engine.public_scores(), sorted(engine.waiting_for())]
            before = copy.deepcopy(given)
            engine.apply(seat, action)
            assert given == before, f"{game.slug}: a later move changed what was handed out"


def test_a_view_cannot_be_changed_and_reaches_no_live_part() -> None:
    table = make_table("ladybug-dash", 2)
    table.timers["clock"] = datetime(2026, 1, 1, tzinfo=UTC)
    view = table.view()
    with pytest.raises(dataclasses.FrozenInstanceError):
        view.seats = ()  # type: ignore[misc]
    with pytest.raises(TypeError):
        view.timers["clock"] = datetime(2027, 1, 1, tzinfo=UTC)  # type: ignore[index]
    with pytest.raises(TypeError):
        view.pacing["claim"] = "dash_gap"  # type: ignore[index]
    with pytest.raises(AttributeError):
        view.running().turn = 7  # type: ignore[misc]
    names = {f.name for f in dataclasses.fields(view)}
    assert not names & {"lock", "engine", "engine_cls", "committed", "tail", "paced_at"}
    assert not hasattr(view, "lock") and not hasattr(view.running(), "apply")
    # The table's own later changes do not show in the view.
    table.timers["clock"] += timedelta(seconds=5)
    table.seats[0] = dataclasses.replace(table.seats[0], name="renamed")
    assert view.timers["clock"] == datetime(2026, 1, 1, tzinfo=UTC)
    assert view.names()[0] == "p0" and view.user_at(0).name == "p0"


def test_a_view_of_a_game_with_no_committed_position_refuses_to_read_a_later_one() -> None:
    table = make_table("ladybug-dash", 2)
    table.committed = None  # a table that keeps no rollback position (a page's replay)
    view = table.view()
    table.running().apply(0, {"type": "claim"})
    with pytest.raises(StaleView):
        view.running().view(None)


def test_kept_answers_are_asked_once() -> None:
    table = make_table("ladybug-dash", 2)
    moment = table.view().running()
    assert moment.view(None) is moment.view(None)
    assert moment.legal_actions(0) is moment.legal_actions(0)
    assert moment.view(0) is not moment.view(1)


def test_views_made_at_one_position_share_its_moment() -> None:
    """The log line, the click's answer and the pump's pass of one move ask the engine once
    between them; a move, or an engine put back after a failed commit, starts a new moment."""
    table = make_table("ladybug-dash", 2)
    first = table.view().running()
    assert table.view().running() is first
    assert table.view().running().view(None) is first.view(None)
    table.running().apply(0, {"type": "claim"})
    table.tail.append((0, {"type": "claim"}))
    moved = table.view().running()
    assert moved is not first
    assert moved.view(None) != first.view(None)
    # A rollback hands the table a new engine object at the committed position.
    table.engine = type(table.running()).from_dict(table.running().to_dict())
    assert table.view().running() is not moved


def test_a_moment_nobody_holds_is_not_kept() -> None:
    """Shared while held, freed once no view holds it: a move's views do not outlive its
    answers (the collector would carry them into its old generations)."""
    table = make_table("ladybug-dash", 2)
    held = weakref.ref(table.view().running())
    assert held() is None
    view = table.view()
    assert table.view().running() is view.running()


def test_a_move_that_fails_half_way_starts_a_new_moment() -> None:
    """``applied`` counts a move that raised after changing the game: its old answers go."""
    table = make_table("ladybug-dash", 2)
    moment = table.view().running()
    engine = table.running()
    engine.applied += 1  # as Engine.apply does before a move that then fails
    assert table.view().running() is not moment


def test_a_seat_view_asked_after_the_public_one_is_made_beside_it() -> None:
    """P-91: once a moment holds the table's view, a seat's view is the engine's
    ``view_beside`` it (Bug Run's board and the rest shared), equal to the engine's own
    ``view(seat)``; asked first, it is the engine's ``view(seat)`` as before."""
    table = make_table("bug-run", 3, 5)
    for seat, action in random_playout(table.running().copy(), Rng(5)).log[:40]:
        moment = table.view().running()
        alone = moment.view(1)  # no public view kept yet: made in full
        public = moment.view(None)
        for s in (0, 2):
            beside = moment.view(s)
            assert beside == table.running().view(s)
            assert beside["board"] is public["board"] and beside["heroes"] is public["heroes"]
        assert alone["board"] is not public["board"]
        table.running().apply(seat, action)
        table.tail.append((seat, action))
