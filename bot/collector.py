"""Python's garbage collector, set for a long-running bot (issue #21).

The bot's heap is large: every loaded game's engine, discord.py's and SQLAlchemy's objects,
the command tree. CPython's default thresholds (700, 10, 10) collect the youngest generation
every 700 net allocations, so whatever a click has in flight at that instant (its views, its
message specs) is promoted as if it were long-lived, and the old generation fills with it until
a full collection walks the whole heap: measured through the emulator at 200 games, about ten
full collections a minute of up to 250 ms of CPU each, a pause every click in flight waits out.

So, as long-running Python services do:

- once the bot is up, everything alive is frozen (``gc.freeze``): modules, discord.py's and
  SQLAlchemy's objects, the games loaded at start are never garbage, and no collection walks
  them again;
- the youngest generation is collected every ``YOUNG`` allocations, so a move's short-lived
  objects are freed by reference counting before a collection sees them and few of them are
  promoted; the older generations keep CPython's ratios.

Reference counting still frees everything acyclic at once; only cycles wait for a collection,
and a cycle is found as before, a little later. ``bench/collector.py`` measures the difference.
"""

from __future__ import annotations

import gc

YOUNG = 20_000
"""Net allocations between two collections of the youngest generation (CPython's: 700)."""
MIDDLE = 10
"""Young collections between two of the middle generation (CPython's)."""
OLD = 10
"""Middle collections between two full ones, which CPython also holds back until a quarter of
the old generation is new (CPython's)."""


def tune() -> None:
    """Set the thresholds: at the start of the bot's process, before it loads anything."""
    gc.set_threshold(YOUNG, MIDDLE, OLD)


def settle() -> None:
    """Once the bot is up: collect what start-up left, then freeze the rest for good."""
    gc.collect()
    gc.freeze()
