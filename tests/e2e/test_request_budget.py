"""Discord's global request budget over whole games (issue #21): members of every kind of game,
at 3 and 5 players, play to the end by clicking what they see, and every request the bot makes
is counted by class. A change that adds a global (rate-limited) request per move fails here."""

from __future__ import annotations

import asyncio
import random

import pytest

from bot.emulator import GLOBAL, Emulator
from bot.games import games
from bot.store import Store
from tests.support.clicking import ClickingMembers

from .conftest import World
from .helpers import WAIT, start_game

BUDGET = 1.5
"""Global requests per committed move, on average over a whole game (issue #21)."""
SETTINGS = {"board_edit_interval": 0.01, "timer_scale": 0.25, "timers__bag_min_gap": 0.1}
"""Whole games in seconds: the clocks run 4 times faster (a Bugs & Co countdown is 2.5 s, a
ping waits 5 s), and Bag of Bugs' pause after a reveal is 0.1 s instead of 1.5 (still far longer
than the members take to click, so its Draw button is disabled and enabled again each time, as
at full length)."""
BOARD_ONLY_EDITS = 0.05
"""Edits with the bot's own token per committed move, in a game without a DM hand: once a
member has clicked the board, its edits go through that click's token (P-92), so the bot's
token edits it only a few times a game."""
GAMES = [(game.slug, players) for game in games() if game.shipped for players in (3, 5)]
"""Members' games (the test game proves the host, not the budget: ``Game.shipped``)."""


async def quiet(emu: Emulator, *, still: float = 0.3) -> None:
    """Until the bot has sent nothing for ``still`` seconds: the last edits have landed."""
    seen, at = len(emu.requests), asyncio.get_running_loop().time()
    deadline = at + WAIT
    while asyncio.get_running_loop().time() - at < still:
        await asyncio.sleep(0.05)
        if len(emu.requests) != seen:
            seen, at = len(emu.requests), asyncio.get_running_loop().time()
        assert asyncio.get_running_loop().time() < deadline, "the bot never went quiet"


@pytest.mark.parametrize("world", [SETTINGS], indirect=True)
@pytest.mark.parametrize(("slug", "players"), GAMES)
async def test_a_whole_game_keeps_within_the_global_budget(
    world: World, slug: str, players: int
) -> None:
    emu = world.emulator
    members = [world.alice, world.bob, world.carol, world.dave, world.eve][:players]
    await quiet(emu)
    before = len(emu.requests)
    dms_before = [len(emu.dms(member)) for member in members]
    board = await start_game(emu, members[0], members[1:], world.channel, slug)
    store = await Store.open(world.bot.db_url, migrate=False)
    try:
        table = ClickingMembers(emu, store, board, members, random.Random(players))
        await table.start(world.channel.id)
        played = await table.play(timeout=WAIT)
    finally:
        await store.close()
    await quiet(emu)
    counts = emu.request_counts(before)
    routes = emu.route_counts(before, klass=GLOBAL)
    per_move = counts[GLOBAL] / played.moves
    print(f"{slug} × {players}: {played.moves} moves, {per_move:.2f} global/move, {routes}")
    assert played.moves > 0
    assert per_move <= BUDGET, (per_move, played, routes)
    if [len(emu.dms(member)) for member in members] == dms_before:  # no DM hand
        edits = routes["PATCH /channels/{channel}/messages/{message}"] / played.moves
        assert edits <= BOARD_ONLY_EDITS, (edits, played, routes)
    assert routes["GET /users/{user}"] == 0, routes
    assert all(emu.dm_opens(member.id) <= 1 for member in members), routes
