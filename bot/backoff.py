"""How long to wait before trying again something that failed (a deadline, a board edit, a bot
player's move, connecting to Discord): doubling from half a second, never longer than a cap."""

from __future__ import annotations

FIRST = 0.5


def backoff(failures: int, cap: float) -> float:
    """Seconds to wait after ``failures`` failures in a row: 0.5, 1, 2, 4 … at most ``cap``."""
    return min(cap, FIRST * 2.0 ** min(max(failures, 1) - 1, 30))


def one_line(exc: BaseException, limit: int = 200) -> str:
    """An error as one short log line: its type and the first line of its message."""
    lines = str(exc).strip().splitlines()
    text = f"{type(exc).__name__}: {lines[0]}" if lines else type(exc).__name__
    return text if len(text) <= limit else text[: limit - 1] + "…"
