"""The public log: kept by a host listener in the UI layer, handed to presenters to draw."""

from __future__ import annotations

import tests.support.testgame  # noqa: F401
from bot.host.table import SeatChange
from bot.ui.presenter import presenter_for
from bot.ui.public_log import PublicLog
from tests.support.tables import act, make_table


def test_committed_outcomes_and_seat_changes_become_log_lines() -> None:
    log = PublicLog()
    table = make_table("ladybug-dash", 2)
    assert log.lines(table.id) == ()
    log.table_changed(table, act(table, 0, {"type": "claim"}))
    assert log.lines(table.id) == ("p0: claimed: seat 0, round 1",)
    change = SeatChange(1, "left", view=table.view())
    table.seat_changes.append(change)
    log.table_changed(table, None)
    assert log.lines(table.id)[-1] == presenter_for(table.slug).seat_line(change.view, change)
    assert log.lines(table.id)[-1].startswith("🚪 **p1** left")
    (board,) = presenter_for(table.slug).boards(table.view(), log.lines(table.id))
    assert board.embed is not None and "p0: claimed" in str(board.embed.fields)


def test_private_events_never_reach_the_log() -> None:
    log = PublicLog()
    table = make_table("ladybug-dash", 2)
    act(table, 1, {"type": "claim"})
    log.table_changed(table, act(table, 0, {"type": "pick", "n": 2}))
    assert log.lines(table.id) == ("p0: picked: seat 0, timeout false",)  # not the number


def test_lines_rebuilt_after_a_restart_go_before_newer_ones_and_old_ones_drop() -> None:
    log = PublicLog(size=3)
    log.add(7, ["new"])
    log.restore(7, ["a", "b", "c", "d"])
    assert log.lines(7) == ("c", "d", "new")
    log.add(7, ["newer"])
    assert log.lines(7) == ("d", "new", "newer")
    log.forget(7)
    assert log.lines(7) == ()
