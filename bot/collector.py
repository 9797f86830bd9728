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

A young collection walks every object of the youngest generation, the garbage and the live
ones alike, and every click in flight waits it out: ``YOUNG`` is a pause as much as a rate.
Measured through the emulator at 200 games (``bench/e2e.py --runs 200@200``, 60-120 s windows,
three pairs of runs): at 20,000 the young collections paused the loop 17-20 ms at the median
(up to 43 ms) and a middle one 61-71 ms; at 5,000 they paused it 5-7 ms (up to 25 ms) and a
middle one 20-26 ms (up to 33 ms), four to six times as often, for about 20 µs more of the
collector's CPU per move. The click ack's p99 was lower at 5,000 in all three pairs (78 / 46 /
38 ms against 103 / 97 / 59 ms); full collections were as few (3 in a 2-minute run either way).

Reference counting still frees everything acyclic at once; only cycles wait for a collection,
and a cycle is found as before, a little later. ``bench/collector.py`` measures the difference.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
from typing import Any

YOUNG = 5_000
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


def release_clicked_message(interaction: Any) -> None:
    """Drop a handled click's copy of the message it came from.

    discord.py's ``Interaction`` and its ``InteractionResponse`` refer to each other, so an
    interaction is freed by a collection, never by reference counting, and with it everything
    it holds: the clicked message as discord.py parsed it (its embeds, its buttons and their
    emoji, its author), about 80 objects a click. Measured through the emulator at 200 games,
    that was most of the garbage the collector found (72,652 objects in 5 s of about 900
    clicks), and it made young collections cost 8-22 ms and a middle one 125 ms, pauses every
    click in flight waited out. Once the click is answered nothing reads that message (a
    stored click is used for its token alone), so dropping it frees it at once and leaves the
    collector a handful of objects per click. ``Any``: keeps discord out of this module.
    """
    interaction.message = None


def forget_cancellation(task: asyncio.Task[Any]) -> None:
    """A done callback for tasks the bot cancels as a matter of course (a board's picture
    overtaken by a newer one): asyncio keeps the ``CancelledError`` a cancelled task raised,
    whose traceback holds the task's frames, which hold the task: a cycle that keeps whatever
    those frames refer to (the picture's scene, the click it answers) until a collection.
    Taking the error out frees it all at once. Anyone who awaits the task later still hears it
    was cancelled."""
    if task.cancelled():
        with contextlib.suppress(asyncio.CancelledError):
            task.result()
