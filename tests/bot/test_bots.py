"""Bot players: seated from the lobby, they play random legal moves through the host."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator

import pytest

from bot.host.bots import BotPlayers
from bot.host.errors import AlreadyStarted, NotAllowed
from bot.host.host import Host
from bot.host.table import Table
from bot.host.thinking import Thinking
from bot.store import Store, TableFull
from tests.support.wait import until

CHANNEL = 900
ALICE, BOB = 1, 2


async def test_bots_take_seats_from_the_lobby(host: Host) -> None:
    table = await host.open(
        "ladybug-dash", guild_id=9, channel_id=CHANNEL, user_id=ALICE, name="alice"
    )
    await host.join(table.id, BOB, "bob")
    with pytest.raises(NotAllowed):
        await host.add_bot(table.id, BOB)
    await host.add_bot(table.id, ALICE)
    await host.add_bot(table.id, BOB, privileged=True)
    assert [(s.user_id, s.name, s.is_bot) for s in table.seats] == [
        (ALICE, "alice", False),
        (BOB, "bob", False),
        (-1, "🤖 Easy bot", True),
        (-2, "🤖 Easy bot 2", True),
    ]
    with pytest.raises(TableFull):
        await host.add_bot(table.id, ALICE)
    await host.start(table.id, ALICE)
    with pytest.raises(AlreadyStarted):
        await host.add_bot(table.id, ALICE)


async def test_a_bot_plays_its_turns_to_the_end_of_the_game(host: Host, store: Store) -> None:
    bots = BotPlayers(host, delay=0.01, rng=random.Random(5))
    host.listeners.append(bots)
    try:
        table = await host.open(
            "ladybug-dash", guild_id=9, channel_id=CHANNEL, user_id=ALICE, name="alice"
        )
        await host.add_bot(table.id, ALICE)
        await host.start(table.id, ALICE)

        async def alice_picks_until_the_end() -> bool:
            """Alice's picks; the bot plays its own turns. Waits on the game, not the clock,
            and for the end as committed (the engine shows a move before it is stored)."""
            engine = table.running()
            alices_pick = 0 in engine.waiting_for() and engine.view(None)["phase"] == "pick"
            if alices_pick and not engine.is_over:
                await host.act(table.id, ALICE, {"type": "pick", "n": 1})
            return table.status == "finished"

        await until(alice_picks_until_the_end, timeout=120, what="the end of the game")
        log = await store.actions(table.id)
        bot_moves = [a.action["type"] for a in log if a.seat == 1]
        assert bot_moves.count("pick") == 3  # the bot picked in each of the three rounds
        results = {r.user_id: r for r in await store.results(table.id)}
        assert set(results) == {ALICE, -1}
    finally:
        await bots.close()


class CountedWarming(Thinking):
    """The pool, counting the times it is told to warm (no worker is started)."""

    def __init__(self) -> None:
        super().__init__(1)
        self.warmed = 0

    def warm(self) -> None:
        self.warmed += 1


@pytest.fixture
async def warming(host: Host) -> AsyncIterator[CountedWarming]:
    """Bot players listening to ``host``, their pool counting its warmings."""
    thinking = CountedWarming()
    bots = BotPlayers(host, delay=0.01, rng=random.Random(5), thinking=thinking)
    host.listeners.append(bots)
    try:
        yield thinking
    finally:
        await bots.close()


async def open_table(host: Host) -> Table:
    return await host.open(
        "ladybug-dash", guild_id=9, channel_id=CHANNEL, user_id=ALICE, name="alice"
    )


async def test_a_hard_bot_taking_a_seat_warms_the_search_workers(
    host: Host, warming: CountedWarming
) -> None:
    table = await open_table(host)
    await host.add_bot(table.id, ALICE, "easy")
    await host.add_bot(table.id, ALICE, "normal")
    assert warming.warmed == 0  # neither searches: no worker is wanted
    await host.add_bot(table.id, ALICE, "hard")
    assert warming.warmed == 1  # in the lobby, before the game's first search


async def test_a_hard_stand_in_taking_a_seat_warms_the_search_workers(
    host: Host, warming: CountedWarming
) -> None:
    """P-76: a member who leaves mid-game is stood in for at the server's level (P-64); a hard
    stand-in will search, so its seat starts the workers as a hard bot player's does."""
    host.settings = host.settings.model_copy(update={"stand_in_level": "hard"})
    table = await open_table(host)
    await host.join(table.id, BOB, "bob")
    await host.start(table.id, ALICE)
    assert warming.warmed == 0  # members only: no worker is wanted
    await host.leave(table.id, BOB)
    assert table.user_at(1).bot_level == "hard" and warming.warmed >= 1
