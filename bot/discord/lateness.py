"""How late an interaction reached the bot, measured against Discord's clock without trusting
this machine's.

Discord accepts the first answer to an interaction only within 3 s of making it (its id's
time). An interaction that reaches the bot later than that (a gateway that lagged, a bot whose
event loop fell behind under load) can no longer be answered: acting on it would commit a move
the player was told failed. So the edge sheds it: nothing is done, one warning line (P-58).

An id's time is Discord's clock; ``now`` is this machine's, which may be off by seconds. So the
lateness of an interaction is its apparent age less the smallest apparent age seen lately (the
quickest delivery, clock offset included): a clock that is off shifts every age alike and
cancels out. The smallest age is kept per minute over the last ``WINDOW_MINUTES`` minutes, so a
clock that is corrected (or drifts) is followed within that long.
"""

from __future__ import annotations

from collections import deque
from datetime import datetime

import discord

WINDOW_MINUTES = 10
EXPIRED = 2.75
"""Seconds late past which an interaction is not acted on: Discord's 3 s, less the time the
answer itself takes to reach it."""


class Lateness:
    """Seconds each interaction reached the bot later than the quickest one lately."""

    def __init__(self) -> None:
        self._minutes: deque[tuple[int, float]] = deque()
        """(minute, the smallest apparent age seen in it), oldest first."""

    def of(self, interaction_id: int, now: datetime | None = None) -> float:
        """How late the interaction ``interaction_id`` is, in seconds (0 for the quickest)."""
        now = now or discord.utils.utcnow()
        age = (now - discord.utils.snowflake_time(interaction_id)).total_seconds()
        minute = int(now.timestamp() // 60)
        while self._minutes and self._minutes[0][0] <= minute - WINDOW_MINUTES:
            self._minutes.popleft()
        if self._minutes and self._minutes[-1][0] == minute:
            if age < self._minutes[-1][1]:
                self._minutes[-1] = (minute, age)
        else:
            self._minutes.append((minute, age))
        quickest = min(seen for _, seen in self._minutes)
        return max(0.0, age - quickest)

    def expired(self, interaction_id: int, now: datetime | None = None) -> bool:
        """Too late to be answered: act on nothing."""
        return self.of(interaction_id, now) > EXPIRED
