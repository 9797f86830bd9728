"""Bot players: seats added from the lobby at a level, and stand-ins that play a member's seat
while the member is away (P-30, P-31), each played by ``rules.core.player.Bot`` at its seat's
level (issue #23).

A bot sees what its seat may see: its decision reads the seat's view and legal actions, its
memory only the events addressed to its seat or to all (``bot.host.minds``), and a hard bot's
look ahead happens in imagined games (``rules.core.search``), in a worker process
(``bot.host.thinking``). It acts through ``Host.act`` like a member, so its moves are checked,
logged, committed and shown exactly like everyone's, and it loses races like anyone else.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import time
from collections.abc import Callable

from rules.core import Action, RuleError
from rules.core.bots import REACTIONS, Level

from ..backoff import backoff, one_line
from .errors import HostError
from .host import Host
from .minds import Minds
from .table import Outcome, Table
from .thinking import Thinking, Thought

log = logging.getLogger(__name__)

REFERENCE_DELAY = 2.0
"""``BOT_PLAYER_DELAY`` at which the levels react in P-51's times; others scale them (P-75)."""


class BotPlayers:
    """A host listener that gives every bot seat the game is waiting on its move, after its
    level's reaction time (so people can follow, and so bots do not win every race)."""

    def __init__(
        self,
        host: Host,
        delay: float,
        rng: random.Random | None = None,
        *,
        max_retry_delay: float = 60.0,
        thought: Callable[[str, str, float], None] | None = None,
        thinking: Thinking | None = None,
        think: float = 1.0,
    ) -> None:
        self.host = host
        self.thought = thought
        """Told how long each decision took, by game kind and how it was made (the metrics)."""
        self.delay = delay
        self.rng = rng or random.Random()
        self.max_retry_delay = max_retry_delay
        self.thinking = thinking or Thinking(1)
        self.minds = Minds(host.store, think, self.rng)
        self.decisions: list[tuple[int, int, Thought]] = []
        """The last decisions (game, seat, how): what the tests read, kept short."""
        self._pending: dict[tuple[int, int], asyncio.Task[None]] = {}

    def reaction(self, level: Level) -> float:
        """Seconds a bot of ``level`` takes to react (P-75): P-51's times, scaled."""
        span = REACTIONS[level]
        return (span.low + (span.high - span.low) * self.rng.random()) * (
            self.delay / REFERENCE_DELAY
        )

    def table_changed(self, table: Table, outcome: Outcome | None) -> None:
        self.minds.heard(table, outcome)
        if table.status in ("lobby", "playing") and any(
            (s.is_bot or s.away) and s.bot_level == "hard" for s in table.seats
        ):
            self.thinking.warm()  # its first search should not wait for a worker to start
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
        await asyncio.sleep(self.reaction(table.bot_level(seat)) + retry)
        try:
            decided = await self._decide(table, seat)
            if decided is None:
                return
            action, turn = decided
            user_id = table.user_at(seat).user_id
            await self.host.act(table.id, user_id, action, turn=turn, by_bot=True)
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

    async def _decide(self, table: Table, seat: int) -> tuple[Action, int] | None:
        """The bot's move and the turn it is for; ``None`` when it has none to make (the game
        ended, its member is back, or the seat has nothing to do)."""
        while True:
            engine = table.engine
            if engine is None or table.status != "playing" or engine.is_over:
                return None
            if not table.bot_plays(seat):  # its member took the seat back meanwhile (P-30)
                return None
            level = table.bot_level(seat)
            bot = await self.minds.of(table, seat)  # its memory rebuilt if not in step
            engine = table.running()
            options = [] if engine.is_over else engine.legal_actions(seat)
            if not options:
                return None
            seq, turn = table.game.last_seq, engine.turn
            started = time.perf_counter()
            action: Action | None
            how = "quick"
            if bot is None:  # a game without bot players: a random legal move
                action = self.rng.choice(options)
            else:
                try:
                    thought = await self.thinking.decide(bot, engine)
                except Exception:  # a heuristic's bug must not stall the game on this seat
                    log.exception("bot %s of game %s could not decide", seat, table.id)
                    action, how = self.rng.choice(options), "quick"
                else:
                    self._note(table.id, seat, thought)
                    action, how = thought.decision.action, thought.how
            if self.thought is not None:
                self.thought(table.slug, how, time.perf_counter() - started)
            if table.game.last_seq != seq:
                continue  # the game moved while it thought: look again at what it is now
            if action is None:  # it waits (a real-time window): looks again after a moment
                await asyncio.sleep(self.reaction(level))
                continue
            return action, turn

    def _note(self, game_id: int, seat: int, thought: Thought) -> None:
        self.decisions.append((game_id, seat, thought))
        del self.decisions[:-1000]

    async def close(self) -> None:
        tasks = list(self._pending.values())
        self._pending.clear()
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        self.thinking.close()
