"""What every part of the Host shares: its state, the gate decorator, and telling the listeners.

The parts (loading, play, lobby) build on ``HostCore``; ``bot.host.host.Host`` puts them
together and sets the state up.
"""

from __future__ import annotations

import asyncio
import functools
import logging
from collections.abc import Awaitable, Callable
from datetime import datetime
from typing import Concatenate, ParamSpec, Protocol, TypeVar

from ..settings import Settings
from ..store import Store
from .errors import GameGone
from .gate import Gate
from .policy import BotLevel, Policies
from .table import Outcome, Table
from .timers import TimerScheduler

# Every part logs as the one Host module did, so log records keep their names.
log = logging.getLogger("bot.host.host")
T = TypeVar("T")
P = ParamSpec("P")
HostT = TypeVar("HostT", bound="HostCore")


def through_gate(
    method: Callable[Concatenate[HostT, P], Awaitable[T]],
) -> Callable[Concatenate[HostT, P], Awaitable[T]]:
    """A change a member (or a bot) begins: refused once a graceful stop closed the gate,
    waited for by the stop otherwise."""

    @functools.wraps(method)
    async def through(self: HostT, *args: P.args, **kwargs: P.kwargs) -> T:
        with self.gate.through():
            return await method(self, *args, **kwargs)

    return through


class Listener(Protocol):
    """Told about every committed change (the Discord layer redraws boards and sends DMs)."""

    def table_changed(self, table: Table, outcome: Outcome | None) -> Awaitable[None] | None: ...


Loader = Callable[[Table, list[Outcome]], Awaitable[None] | None]
Reloader = Callable[[Table, list[Outcome]], None]
"""Hears of a game loaded from the store, with the outcomes of replaying its whole log."""
OnScreen = Callable[[int, int], float | None]
"""``(game_id, turn)`` → seconds the game's board has shown that turn (0.0: it still shows an
earlier one), or None when this process does not show the game's messages (P-84)."""


class HostCore:
    """The state of one bot process's Host (set up by ``Host.__init__``) and its listeners."""

    store: Store
    settings: Settings
    policies: Policies
    clock: Callable[[], datetime]
    monotonic: Callable[[], float]
    tables: dict[int, Table]
    listeners: list[Listener]
    loaders: list[Loader]
    reloaders: list[Reloader]
    on_screen: OnScreen | None
    _loading: dict[int, asyncio.Future[Table]]
    _dormant: dict[int, dict[str, datetime]]
    _timers_running: bool
    gate: Gate
    scheduler: TimerScheduler

    def stand_in_level(self, table: Table) -> BotLevel:
        """The level of a stand-in seated now: its server's choice when the game opened
        (P-64), else ``STAND_IN_LEVEL``."""
        return table.policy.stand_in_level or self.settings.stand_in_level

    async def _notify(self, table: Table, outcome: Outcome | None) -> None:
        for listener in self.listeners:
            try:
                maybe = listener.table_changed(table, outcome)
                if maybe is not None:
                    await maybe
            except Exception:
                log.exception("listener failed for game %s", table.id)
        table.seat_changes.clear()  # every listener has heard of them
        if table.status not in ("lobby", "playing"):
            self.tables.pop(table.id, None)

    async def close(self) -> None:
        await self.scheduler.close()


def gone(status: str | None) -> GameGone:
    """Why a game cannot be played: it is over (P-6: its results are on its board), or it was
    cancelled or never existed."""
    return GameGone(
        "That game is over: the results are on its board." if status == "finished" else None
    )
