"""The Host: lobby operations and arrival-order actions, each committed before anyone sees it.

Every change to a game takes that game's lock, checks, applies, commits, and only then returns
(and tells the listeners). Checks and the state change happen with no ``await`` in between.

``Host`` is put together from parts with one job each: ``loading`` (restore, load, replay
check, reload), ``play`` (act, timers, AFK strikes and stand-ins), ``lobby`` (open, rematch,
join, leave, add_bot, start, cancel) and ``results`` (final results), on ``core``.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from datetime import datetime

from ..settings import Settings
from ..store import Store
from .core import Listener, Loader, OnScreen, Reloader
from .core import through_gate as _through_gate
from .gate import Gate
from .lobby import Lobby
from .policy import DefaultPolicies, Policies
from .table import Table
from .timers import Sleep, TimerScheduler, utcnow

__all__ = ["Host", "Listener", "Loader", "OnScreen", "Reloader", "_through_gate"]


class Host(Lobby):
    """Owns the live tables of one bot process."""

    def __init__(
        self,
        store: Store,
        settings: Settings,
        *,
        clock: Callable[[], datetime] = utcnow,
        monotonic: Callable[[], float] = time.monotonic,
        sleep: Sleep = asyncio.sleep,
        policies: Policies | None = None,
    ) -> None:
        self.store = store
        self.settings = settings
        self.policies = policies or DefaultPolicies()
        """Each server's admins' settings (``/bugtable``): a game keeps a copy from when it
        opens (P-64); the speeds a lobby may take (P-71) and moderation (P-72) read them."""
        self.clock = clock
        self.monotonic = monotonic
        self.tables: dict[int, Table] = {}
        self.listeners: list[Listener] = []
        self.loaders: list[Loader] = []
        """Told when a game is loaded from the store (at its first use after a restart), with
        what replaying its log did."""
        self.reloaders: list[Reloader] = []
        """Told what another process's commits did when a table is reloaded (P-36)."""
        self.on_screen: OnScreen | None = None
        """How long a game's board has shown a turn (the publisher's, P-84): a member's clock
        that ran out on a move barely on screen is no strike."""
        self._loading: dict[int, asyncio.Future[Table]] = {}
        self._dormant: dict[int, dict[str, datetime]] = {}
        # Alarms run from the start, or after a restart from ``resume_timers()``.
        self._timers_running = True
        self.policies = policies or DefaultPolicies()
        self.gate = Gate()
        """Closed by a graceful stop: nothing new begins, what began finishes."""
        self.scheduler = TimerScheduler(
            self.fire_timer, clock, max_delay=settings.retry_max_delay, sleep=sleep
        )
