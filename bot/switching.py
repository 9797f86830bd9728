"""How soon a thread of the bot gets the interpreter back from a busy event loop (issue #21).

The bot's threads (SQLite's writer and its checkpoints, aiosqlite's connections) spend nearly
all their time in SQLite's C code, which runs without the interpreter's lock; but each
statement that returns must take the lock again before its thread goes on. CPython hands the
lock over only when its holder blocks, or after the *switch interval* (5 ms by default) has
passed with another thread waiting. A loop busy with clicks seldom blocks, so a group commit of
a dozen actions (five statements each) could wait 5 ms per statement: measured through the
emulator at 200 games, commits that took 2 ms of work were answered 100-300 ms late, and every
click waited behind them. At ``SWITCH_INTERVAL`` a thread waits at most that long per
statement; the loop gives the lock up a little more often, only while another thread wants it.
"""

from __future__ import annotations

import sys

SWITCH_INTERVAL = 0.0005
"""Seconds a thread waits for the interpreter's lock before the holder is asked to let go."""


def tune() -> None:
    """Set the interval: at the start of the bot's process."""
    sys.setswitchinterval(SWITCH_INTERVAL)
