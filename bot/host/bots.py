"""Bot players: seats added from the lobby that play random legal moves, and stand-ins that
play a member's seat while the member is away (P-30, P-31).

A bot sees what any player may see: it picks from ``legal_actions(seat)`` only, never from hidden
state. It acts through ``Host.act`` like a member, so its moves are checked, logged, committed and
shown exactly like everyone's, and it loses races like anyone else.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import time
from collections.abc import Callable

from rules.core import RuleError

from ..backoff import backoff, one_line
from .errors import HostError
from .host import Host
from .table import Outcome, Table

log = logging.getLogger(__name__)


class BotPlayers:
    """A host listener that gives every bot seat the game is waiting on its move, after a
    short delay (so people can follow, and so bots do not win every race)."""

    def __init__(
        self,
        host: Host,
        delay: float,
        rng: random.Random | None = None,
        *,
        max_retry_delay: float = 60.0,
        thought: Callable[[str, float], None] | None = None,
    ) -> None:
        self.host = host
        self.thought = thought
        """Told how long each decision took, by game kind (the metrics)."""
        self.delay = delay
        self.rng = rng or random.Random()
        self.max_retry_delay = max_retry_delay
        self._pending: dict[tuple[int, int], asyncio.Task[None]] = {}

    def table_changed(self, table: Table, outcome: Outcome | None) -> None:
        engine = table.engine
        if engine is None or table.status != "playing" or engine.is_over:
            return
        for seat in engine.waiting_for():
            if seat < 0 or not table.bot_plays(seat):
                continue
            key = (table.id, seat)
            task = self._pending.get(key)
            # A bot that just moved is told about its own move from inside its task: it may
            # have to move again (draw, then place), so that task does not count as pending.
            if task is None or task.done() or task is asyncio.current_task():
                self._pending[key] = asyncio.create_task(
                    self._play(table, seat), name=f"bot:{table.id}:{seat}"
                )

    async def _play(self, table: Table, seat: int, failures: int = 0) -> None:
        retry = backoff(failures, self.max_retry_delay) if failures else 0.0
        await asyncio.sleep(self.delay * (0.5 + self.rng.random()) + retry)
        engine = table.engine
        if engine is None or table.status != "playing" or engine.is_over:
            return
        if not table.bot_plays(seat):  # its member took the seat back meanwhile (P-30)
            return
        started = time.perf_counter()
        actions = engine.legal_actions(seat)
        if not actions:
            return
        action = self.rng.choice(actions)
        if self.thought is not None:
            self.thought(table.slug, time.perf_counter() - started)
        user_id = table.user_at(seat).user_id
        try:
            await self.host.act(table.id, user_id, action, turn=engine.turn, by_bot=True)
        except (RuleError, HostError) as exc:
            # Lost a race or came too soon: try again with what the game offers then.
            log.debug("bot %s of game %s: %s", seat, table.id, exc)
            self._pending.pop((table.id, seat), None)
            self.table_changed(table, None)
        except Exception as exc:
            # The database (or something else) failed: the move is late, not lost, or the
            # game would wait on this bot for ever.
            log.warning("bot %s of game %s could not move (%s)", seat, table.id, one_line(exc))
            key = (table.id, seat)
            if self._pending.get(key) is asyncio.current_task():
                self._pending[key] = asyncio.create_task(
                    self._play(table, seat, failures + 1), name=f"bot:{table.id}:{seat}"
                )

    async def close(self) -> None:
        tasks = list(self._pending.values())
        self._pending.clear()
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
