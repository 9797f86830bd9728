"""Timers as data (issue #22): engines declare them, the settings set them in one mapping
(``TIMERS``), and the start checks one against the other (bot/timers.py)."""

from __future__ import annotations

import logging
import os
import subprocess
import sys
from pathlib import Path
from typing import ClassVar

import pytest
from pydantic import ValidationError

from bot.games import game_for, games
from bot.settings import Settings, SettingsError
from bot.timers import check_timers, declared, warn_old_names
from rules.core import GAMES, Engine, Timer
from tests.support.testgame import DASH_GAP, LadybugDash

ROOT = Path(__file__).resolve().parents[2]


def engines(*, with_test_game: bool = True) -> list[type[Engine]]:
    return [g.engine for g in games() if with_test_game or g.shipped]


def test_a_misspelt_timer_stops_the_start_in_one_line(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("TIMERS", "DISCORD_"))}
    env |= {"TIMERS__BUGOF_TURN": "45", "PYTHONPATH": str(ROOT)}
    run = subprocess.run(
        [sys.executable, "-m", "bot"], cwd=tmp_path, env=env, capture_output=True, text=True
    )
    assert run.returncode == 2
    assert run.stdout == ""
    (line,) = run.stderr.splitlines()
    assert line.startswith("bugtable: TIMERS__BUGOF_TURN: no game has such a timer")
    assert "bugoff_turn" in line  # the known names, so the fix is at hand


def test_every_known_timer_runs_as_set_or_as_its_game_declares_it() -> None:
    settings = Settings(_env_file=None, timers={"bugoff_turn": 45})  # type: ignore[call-arg]
    table = check_timers(settings, engines())
    assert table["bugoff_turn"] == 45
    assert table["bugrun_turn"] == 90 and table["bag_min_gap"] == 1.5  # the engines' defaults
    assert set(table) == {t.name for cls in GAMES.values() for t in cls.timers}


def test_the_old_names_still_apply_under_timers(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    dotenv = tmp_path / ".env"
    dotenv.write_text("BUGOFF_TURN=45\nBCO_LIVE_CAP=600\nTIMERS__BCO_LIVE_CAP=300\n")
    monkeypatch.setenv("BAG_MIN_GAP", "0.2")
    settings = Settings(_env_file=dotenv)  # type: ignore[call-arg]
    assert settings.timer_seconds("bugoff_turn", None) == 45
    assert settings.timer_seconds("bag_min_gap", None) == 0.2
    assert settings.timer_seconds("bco_live_cap", None) == 300  # TIMERS wins over an old name
    assert check_timers(settings, engines())["bugoff_turn"] == 45
    assert settings.old_timer_names() == ["BAG_MIN_GAP", "BCO_LIVE_CAP", "BUGOFF_TURN"]


def test_old_names_are_said_once_and_new_ones_not_at_all(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.WARNING, logger="bot.timers")
    old = Settings(_env_file=None, bugoff_turn=45, bag_choice=20)  # type: ignore[call-arg]
    warn_old_names(old)
    (record,) = caplog.records
    assert record.getMessage() == (
        "BAG_CHOICE, BUGOFF_TURN: old timer names (they still apply); write them as "
        "TIMERS__BAG_CHOICE, TIMERS__BUGOFF_TURN"
    )
    caplog.clear()
    warn_old_names(Settings(_env_file=None, timers={"bugoff_turn": 45}))  # type: ignore[call-arg]
    assert caplog.records == []


def test_the_test_games_timer_comes_from_its_own_record(monkeypatch: pytest.MonkeyPatch) -> None:
    record = game_for(LadybugDash.slug)
    assert record is not None and record.timers == LadybugDash.timers
    assert [t.name for t in record.timers] == [DASH_GAP]
    assert Settings(_env_file=None).timer_seconds(DASH_GAP, None) == 0.5  # type: ignore[call-arg]
    monkeypatch.setenv("TIMERS__DASH_GAP", "2")
    settings = Settings(_env_file=None)  # type: ignore[call-arg]
    assert check_timers(settings, engines())[DASH_GAP] == 2
    # Without the test game registered, nothing declares its timer: the start refuses it.
    with pytest.raises(SettingsError, match="TIMERS__DASH_GAP: no game has such a timer"):
        check_timers(settings, engines(with_test_game=False))


def test_an_engine_must_declare_what_it_paces_with() -> None:
    class Paced(LadybugDash):
        pacing: ClassVar[dict[str, str]] = {"cheer": "dash_gapp"}

    with pytest.raises(SettingsError, match="paces with timer dash_gapp but does not declare"):
        declared([Paced])


def test_two_games_cannot_give_one_timer_two_defaults() -> None:
    class Other(LadybugDash):
        timers = (Timer(DASH_GAP, 9.0, "the same name, another length"),)

    with pytest.raises(SettingsError, match=r"declared twice, with 0\.5 s and 9\.0 s"):
        declared([LadybugDash, Other])


def test_a_timer_name_is_a_lower_case_identifier_and_its_length_not_negative() -> None:
    with pytest.raises(ValueError, match="lower-case identifier"):
        Timer("Bug-Turn", 5, "")
    with pytest.raises(ValueError, match="cannot last"):
        Timer("bug_turn", -1, "")
    with pytest.raises(ValidationError, match="greater than or equal to 0"):
        Settings(_env_file=None, timers={"bugoff_turn": -1})  # type: ignore[call-arg]
