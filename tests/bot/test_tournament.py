"""``python -m bot tournament`` and ``bench/bots.py`` (issue #23 item 6): seeded games among bot
players with the seats rotated, figures per level, ``--json`` for scripts, plain words for bad
arguments. Nothing here judges a timing or a strength: the figures are measured, not asserted."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from bot.__main__ import main
from bot.tournament import run_tournament, summarise, wilson
from rules.core.bots import Budget, Level
from rules.core.match import SeatRecord, play_match
from tests.support.processes import run

REPO = Path(__file__).resolve().parents[2]


def test_the_command_prints_json_per_level(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["tournament", "bug-off", "--players", "2", "--seats", "hard,easy"]
    code = main([*argv, "--games", "2", "--seed", "3", "--simulations", "4", "--json"])
    assert code == 0
    report = json.loads(capsys.readouterr().out)
    assert report["game"] == "bug-off" and report["games"] == 2
    rows = {row["level"]: row for row in report["levels"]}
    assert set(rows) == {"easy", "hard"}
    assert rows["hard"]["seats"] == 2 and rows["easy"]["seats"] == 2
    assert rows["hard"]["win_share"] + rows["easy"]["win_share"] == pytest.approx(1.0)
    assert rows["hard"]["win_low"] <= rows["hard"]["win_share"] <= rows["hard"]["win_high"]
    assert rows["hard"]["simulations_per_second"] > 0
    assert rows["easy"]["simulations_per_second"] is None


def test_the_table_names_every_figure(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["tournament", "bugs-and-co", "--players", "3", "--seats", "normal,easy,easy"]
    assert main([*argv, "--games", "3"]) == 0
    out = capsys.readouterr().out
    header = out.splitlines()[1].split()
    assert header[:3] == ["level", "seats", "win"] and "sims/s" in header
    assert [line.split()[0] for line in out.splitlines()[2:]] == ["easy", "normal"]


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["bug-off", "--players", "2", "--seats", "hard,wizard"], "unknown level 'wizard'"),
        (["bug-off", "--players", "3", "--seats", "hard,easy"], "2 levels for 3 players"),
        (["bag-of-bugs", "--players", "2", "--seats", "hard,easy"], "3 to 5 players"),
        (["chess", "--players", "2", "--seats", "hard,easy"], "no game 'chess'"),
        (["bug-off", "--players", "2", "--seats", "hard,easy", "--games", "0"], "at least 1"),
    ],
)
def test_bad_arguments_are_one_line_and_exit_2(
    argv: list[str], words: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["tournament", *argv]) == 2
    err = capsys.readouterr().err
    assert words in err and err.count("\n") == 1


def test_seats_rotate_so_each_level_plays_every_seat() -> None:
    """Game i starts the level list at seat i mod players: the report is exactly what the
    rotated matches give."""
    seats: list[Level] = ["normal", "easy", "easy"]
    report = run_tournament("bug-off", seats, 3, 5, simulations=2)
    records: dict[str, list[SeatRecord]] = {}
    for index in range(3):
        levels = [*seats[index:], *seats[:index]]
        result = play_match("bug-off", levels, 5 * 1_000_003 + index, Budget(simulations=2))
        for record in result.seats:
            records.setdefault(record.level, []).append(record)
    for row in report.levels:
        expected = summarise(row.level, records[row.level])
        assert (row.seats, row.win_share, row.mean_score) == (
            expected.seats,
            expected.win_share,
            expected.mean_score,
        )


def test_the_wilson_interval() -> None:
    low, high = wilson(13, 20)
    assert (round(low, 3), round(high, 3)) == (0.433, 0.819)
    assert wilson(0, 10)[0] == 0.0 and wilson(10, 10)[1] == 1.0


async def test_the_bench_prints_the_goal_table() -> None:
    finished = await run(
        [sys.executable, "bench/bots.py", "bug-off", "--games", "1", "--simulations", "2"],
        cwd=REPO,
        timeout=300,
    )
    assert finished.code == 0, finished.err
    lines = finished.out.splitlines()
    rows = [line for line in lines if line.startswith("bug-off")]
    assert [row.split()[1:5] for row in rows] == [
        ["1", "hard", "vs", "3"],
        ["1", "normal", "vs", "3"],
        ["1", "hard", "vs", "3"],
        ["hard", "vs", "normal,", "2p"],
    ]
    assert all(row.split()[-4] in {"MET", "MISSED", "OPEN"} for row in rows)
