"""What each bot seat remembers, kept in step with the game's log (issue #23 item 5).

A bot's memory (``rules.core.bots.Memory``: Bugs & Co's remembered peeks, say) is built only
from what its seat saw: the events of each committed action addressed to it or to everyone.
It lives in this process; after a restart, a reload, an outcome heard out of order or a seat
handed to a stand-in of another level it is rebuilt by replaying the game's log from its seed
and feeding the seat what each action showed it then (P-79). Nothing hidden reaches it: a
replay's events are filtered by ``Event.visible_to`` as live ones are.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Sequence
from dataclasses import dataclass

from rules.core import Engine
from rules.core.bots import Budget, bots_for
from rules.core.player import Bot
from rules.core.rng import Rng

from ..store import Store
from ..store.records import ActionRecord
from .table import Outcome, Table

SIMULATIONS = 100_000
"""A hard bot's search is bounded by ``BOT_THINK`` seconds; this cap is never the limit."""


@dataclass
class Mind:
    """One bot seat's player and the last log entry (``seq``) its memory has seen."""

    bot: Bot
    seen: int


class Minds:
    """The bot players of every bot seat this process moves, by (game, seat)."""

    def __init__(self, store: Store, think: float, rng: random.Random) -> None:
        self.store = store
        self.budget = Budget(SIMULATIONS, think)
        self.rng = rng
        self._minds: dict[tuple[int, int], Mind] = {}
        self.rebuilds = 0
        """Memories rebuilt from a log (for the tests)."""

    def heard(self, table: Table, outcome: Outcome | None) -> None:
        """A committed change: every bot of the table sees what it may see of it. One heard
        out of order (or one missed) leaves the memory behind, to be rebuilt when it acts."""
        if table.status != "playing":
            self.forget(table.id)
            return
        if outcome is None:
            return
        seq = outcome.view.game.last_seq
        for (game_id, _), mind in self._minds.items():
            if game_id == table.id and mind.seen == seq - 1:
                mind.bot.observe(outcome.events)
                mind.seen = seq

    def forget(self, game_id: int) -> None:
        for key in [key for key in self._minds if key[0] == game_id]:
            del self._minds[key]

    async def of(self, table: Table, seat: int) -> Bot | None:
        """The bot for ``seat`` with its memory in step with ``table`` (rebuilt from the log
        when it is not); ``None`` for a game with no bot players (they play at random)."""
        level = table.bot_level(seat)
        key = (table.id, seat)
        mind = self._minds.get(key)
        if mind is not None and mind.bot.level == level and mind.seen == table.game.last_seq:
            return mind.bot
        try:
            bot = Bot(bots_for(table.slug), seat, level, Rng(self.rng.getrandbits(64)), self.budget)
        except KeyError:
            return None
        # Heard outcomes do not reach it while it is rebuilt (each would skip an action of the
        # replay): it joins the others once in step, with no ``await`` in between.
        self._minds.pop(key, None)
        mind = Mind(bot, 0)
        await self._rebuild(table, mind)
        self._minds[key] = mind
        return bot

    async def _rebuild(self, table: Table, mind: Mind) -> None:
        """Replay the log from the seed, telling the bot what its seat saw of each action; then
        catch up with what was committed while the log was read (a few rounds at most)."""
        self.rebuilds += 1
        record = table.game
        replay = table.engine_cls.new(table.running().players, record.seed, record.options)
        entries = await self.store.actions(table.id)
        for _ in range(5):
            # A whole game's replay takes tens of milliseconds (Bug Run): in a thread, so the
            # event loop runs meanwhile. Only this task holds ``replay`` and ``mind``.
            await asyncio.to_thread(_replay, replay, entries, mind)
            if mind.seen >= table.game.last_seq:
                return
            entries = await self.store.actions_after(table.id, mind.seen)


def _replay(replay: Engine, entries: Sequence[ActionRecord], mind: Mind) -> None:
    """Apply the log entries after ``mind.seen`` and show the seat what each showed it."""
    for entry in entries:
        if entry.seq == mind.seen + 1:
            events = replay.apply(entry.seat, entry.action)
            # ``Bot.observe`` filters too; filtering here as well keeps the replay's unseen
            # events out of this module's hands entirely.
            mind.bot.observe([e for e in events if e.visible_to(mind.bot.seat)])
            mind.seen = entry.seq
