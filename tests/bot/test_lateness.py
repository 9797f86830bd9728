"""Late clicks (P-58): lateness is measured against the quickest delivery, so this machine's
clock offset cancels out, and a click too late to be answered is not acted on."""

from __future__ import annotations

import logging
from datetime import UTC, datetime, timedelta
from types import SimpleNamespace
from typing import Any

import discord
import pytest

from bot.discord.edge import Edge
from bot.discord.lateness import EXPIRED, WINDOW_MINUTES, Lateness

T0 = datetime(2026, 12, 4, 12, 0, 0, tzinfo=UTC)


def made_at(when: datetime) -> int:
    """An interaction id Discord made at ``when`` (a whole millisecond, which an id holds)."""
    return discord.utils.time_snowflake(when)


def delivered(lateness: Lateness, made: datetime, transit: float, offset: float) -> float:
    """The lateness of an interaction made at ``made`` that took ``transit`` seconds to arrive,
    read on a clock ``offset`` seconds off Discord's."""
    return lateness.of(made_at(made), made + timedelta(seconds=transit + offset))


@pytest.mark.parametrize("offset", [0.0, 5.0, -7.5])
def test_lateness_is_measured_from_the_quickest_delivery_whatever_the_clock(offset: float) -> None:
    lateness = Lateness()
    assert delivered(lateness, T0, 0.05, offset) == 0.0
    assert delivered(lateness, T0 + timedelta(seconds=1), 1.55, offset) == pytest.approx(1.5)
    assert delivered(lateness, T0 + timedelta(seconds=2), 0.04, offset) == 0.0  # a new quickest
    late = delivered(lateness, T0 + timedelta(seconds=3), 3.04, offset)
    assert late == pytest.approx(3.0) and late > EXPIRED


def test_a_corrected_clock_is_followed_within_the_window() -> None:
    lateness = Lateness()
    assert delivered(lateness, T0, 0.05, offset=-10.0) == 0.0
    # The clock is set right: every click now looks 10 s older than the quickest one seen...
    later = T0 + timedelta(minutes=1)
    assert delivered(lateness, later, 0.05, offset=0.0) == pytest.approx(10.0)
    # ... until the minutes that saw the old offset have passed.
    later = T0 + timedelta(minutes=WINDOW_MINUTES + 1)
    assert delivered(lateness, later, 0.05, offset=0.0) == 0.0
    assert delivered(lateness, later + timedelta(seconds=1), 0.05, offset=0.0) == 0.0


class NeverActs:
    """A host that fails the test if it is asked to change anything."""

    def __getattr__(self, name: str) -> Any:
        raise AssertionError(f"the host was asked for {name} by a click too late to answer")


def click(made: datetime) -> Any:
    return SimpleNamespace(
        id=made_at(made), message=SimpleNamespace(id=7), user=SimpleNamespace(id=100)
    )


async def test_a_click_too_late_to_be_answered_changes_nothing(
    caplog: pytest.LogCaptureFixture,
) -> None:
    edge = Edge(NeverActs(), NeverActs(), NeverActs())  # type: ignore[arg-type]
    now = discord.utils.utcnow()
    assert edge.lateness.of(made_at(now - timedelta(seconds=0.02)), now) == 0.0  # the quickest
    with caplog.at_level(logging.WARNING, "bot.discord.edge"):
        await edge.game_action(click(now - timedelta(seconds=3.5)), 1, 4, {"type": "draw"})
        await edge.host_op(click(now - timedelta(seconds=3.5)), 1, "start")
    assert [r.levelname for r in caplog.records] == ["WARNING", "WARNING"]
    assert "late: not acted on" in caplog.text
