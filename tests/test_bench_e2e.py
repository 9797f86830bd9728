"""``bench/e2e.py`` in its smallest configuration (one Bug Off! game, a one-second window) runs
end to end and prints every figure and goal. Nothing here judges a timing: the bench measures,
a test only proves that it can (issue 21)."""

from __future__ import annotations

import re
import sys
from pathlib import Path

from tests.support.processes import run

REPO = Path(__file__).resolve().parents[1]
FIGURES = (
    "committed click ack p50 ms",
    "committed click ack p99 ms",
    "board visible p50 ms",
    "board visible p99 ms",
    "committed moves/s",
    "interaction requests/move",
    "global requests/move",
    "global requests/s",
)
"""Each printed for the bot and the floor, with their ratio."""
NUMBER = r"(?:\d+\.\d+|nan|inf)"


async def test_the_smallest_run_prints_every_figure_beside_the_floor() -> None:
    finished = await run(
        [
            sys.executable,
            "bench/e2e.py",
            "--runs",
            "1",
            "--seconds",
            "1",
            "--kinds",
            "bug-off",
            "--drain",
            "1",
        ],
        cwd=REPO,
        timeout=90,
    )
    assert finished.code == 0, finished.err
    out = finished.out
    assert "== 1 game, offered as fast as the members can · 1 s window ==" in out
    for name in FIGURES:
        assert re.search(rf"^{re.escape(name)}\s+{NUMBER}\s+{NUMBER}\s+\S+$", out, re.M), name
    assert re.search(
        r"^bot clicks: \d+ committed, \d+ refused, \d+ late, \d+ unanswered within", out, re.M
    )
    assert re.search(r"^database: \d+ member actions committed in the window", out, re.M)
    assert "global requests per committed move, busiest routes:" in out
    # The ack in three: every part measured, for the bot and the floor alike.
    parts = rf"{NUMBER} \| {NUMBER} \| {NUMBER}"
    assert re.search(
        rf"^the committed click ack in three, .*: bot {parts}; floor {parts}; the bot's part",
        out,
        re.M,
    ), out
    goals = out[out.index("Goals (issue 21):") :].splitlines()[1:]
    verdicts = [line.split()[0] for line in goals if line.startswith("  ")]
    assert len(verdicts) == 5 and set(verdicts) <= {"PASS", "MISS", "not"}, goals
