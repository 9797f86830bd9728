"""A bot seat's memory is what its seat saw, kept in step with the log (issue #23 item 5, P-79):
heard live, it equals the memory rebuilt from the stored log by another process after a
restart; a rebuild never sees what the seat did not (a hard Bugs & Co bot remembers the tiles
it peeked and where they went, and nothing of tiles only others peeked)."""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

from bot.host.bots import BotPlayers
from bot.host.host import Host
from bot.host.minds import Minds
from bot.host.table import Outcome, Table
from bot.host.thinking import Thinking
from bot.settings import Settings
from bot.store import Store
from rules.bugs_and_co.memory import TileMemory
from rules.core import Event, RuleError
from rules.core.bots import Memory
from tests.support.wait import until
from tests.support.workers import no_resource_tracker

from .conftest import FakeClock

__all__ = ["no_resource_tracker"]  # the module's fixture: its workers end, then the tracker

GAME = "bugs-and-co"
"""The game whose memory matters: a peeked tile is put back face down."""
CHANNEL = 710
ALICE = 1
BOT = 1
"""The hard bot's seat (Alice opened and sat first)."""


class Ears:
    """A host listener handing every committed change to ``minds``, as BotPlayers does, and
    keeping what the bot's seat was shown (to check the memory against)."""

    def __init__(self, minds: Minds) -> None:
        self.minds = minds
        self.shown: list[Event] = []
        self.hidden: list[Event] = []
        self.all: list[Event] = []

    def table_changed(self, table: Table, outcome: Outcome | None) -> None:
        self.minds.heard(table, outcome)
        for event in [] if outcome is None else outcome.events:
            self.all.append(event)
            (self.shown if event.visible_to(BOT) else self.hidden).append(event)


def state(memory: Memory) -> dict[str, Any]:
    assert isinstance(memory, TileMemory)
    return {"slots": memory.slots, "holding": memory.holding, "kept": memory.kept}


async def play_a_while(host: Host, table: Table, steps: int, rng: random.Random) -> None:
    """Random legal moves for both seats (the bot's by_bot, as BotPlayers acts); a deadline
    fires when nobody can act."""
    for _ in range(steps):
        engine = table.running()
        if engine.is_over:
            return
        movers = [s for s in sorted(engine.waiting_for()) if s >= 0 and engine.legal_actions(s)]
        if not movers:
            await host.fire_timer(table.id, min(table.timers, key=lambda k: table.timers[k]))
            continue
        seat = rng.choice(movers)
        user = table.user_at(seat).user_id
        try:
            await host.act(table.id, user, rng.choice(engine.legal_actions(seat)), by_bot=True)
        except RuleError:  # paced, or a window just closed: another move
            continue


async def test_memory_heard_live_equals_memory_rebuilt_from_the_log_after_a_restart(
    host: Host, store: Store, settings: Settings, clock: FakeClock
) -> None:
    table = await host.open(GAME, guild_id=9, channel_id=CHANNEL, user_id=ALICE, name="alice")
    await host.add_bot(table.id, ALICE, "hard")
    await host.start(table.id, ALICE)
    assert table.bot_level(BOT) == "hard" and table.names()[BOT] == "🤖 Hard bot"

    live = Minds(store, think=1.0, rng=random.Random(1))
    ears = Ears(live)
    host.listeners.append(ears)
    bot = await live.of(table, BOT)
    assert bot is not None and bot.level == "hard"
    await play_a_while(host, table, 120, random.Random(4))
    assert live.rebuilds == 1, "an outcome was missed: the live memory had to be rebuilt"
    remembered = state(bot.memory)
    peeks = [e for e in ears.shown if e.type == "peeked" and e.data["seat"] == BOT]
    assert peeks and (remembered["slots"] or remembered["kept"]), "the bot remembers nothing"
    # Exactly what its seat was shown: the tiles others peeked (hidden from it) would have
    # changed what it remembers, had they reached it.
    seen, told_all = TileMemory(BOT, "hard"), TileMemory(BOT, "hard")
    seen.observe(ears.shown)
    assert ears.hidden, "nothing was hidden from the bot: the check below would be vacuous"
    told_all.observe(ears.all)
    assert state(seen) == remembered != state(told_all)

    # Another process after a restart: the table loaded from the store, the bot's memory
    # rebuilt by replaying the log and showing its seat what it saw.
    other = Host(store, settings, clock=clock)
    try:
        restored = {t.id: t for t in await other.restore()}[table.id]
        again = Minds(store, think=1.0, rng=random.Random(2))
        rebuilt = await again.of(restored, BOT)
        assert rebuilt is not None and again.rebuilds == 1
        assert state(rebuilt.memory) == remembered
        assert rebuilt.memory.level == "hard"
    finally:
        await other.close()

    # An easy bot at that seat (a stand-in's level differs) forgets: a rebuild, nothing kept.
    table.seats = [replace(s, bot_level="easy") if s.seat == BOT else s for s in table.seats]
    easy = Minds(store, think=1.0, rng=random.Random(3))
    forgetful = await easy.of(table, BOT)
    assert forgetful is not None and state(forgetful.memory) == {
        "slots": {},
        "holding": {},
        "kept": {},
    }


async def test_a_hard_bot_resumes_its_game_after_a_restart(
    host: Host, store: Store, settings: Settings, clock: FakeClock
) -> None:
    """Another process loads the game, its bot players rebuild the hard bot's memory from the
    log and the bot moves on: searched in a worker, or as normal if none is free in time."""
    table = await host.open(GAME, guild_id=9, channel_id=CHANNEL, user_id=ALICE, name="alice")
    await host.add_bot(table.id, ALICE, "hard")
    await host.start(table.id, ALICE)
    await play_a_while(host, table, 40, random.Random(5))
    assert not table.running().is_over
    before = len(await store.actions(table.id))

    other = Host(store, settings, clock=clock)
    players = BotPlayers(
        other, delay=0.01, rng=random.Random(7), thinking=Thinking(1, grace=60.0), think=0.05
    )
    other.listeners.append(players)
    alice = random.Random(8)
    try:
        restored = {t.id: t for t in await other.restore()}[table.id]
        players.table_changed(restored, None)  # as the Discord layer's loader does

        async def the_bot_moved() -> bool:
            moves = (await store.actions(table.id))[before:]
            if any(move.seat == BOT for move in moves) or restored.running().is_over:
                return True
            if BOT not in restored.running().waiting_for():  # Alice's move, or a deadline
                await play_a_while(other, restored, 1, alice)
            return False

        await until(the_bot_moved, timeout=120, what="the bot's first move after the restart")
        assert players.minds.rebuilds >= 1
        assert {
            how for _, seat, thought in players.decisions if seat == BOT for how in [thought.how]
        }
    finally:
        await players.close()
        await other.close()
