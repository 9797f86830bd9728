"""Discord's global limit (50 requests per second with the bot token, interaction answers
exempt), enforced by the emulator: under a burst of board work in 200 games the bot keeps
within it by itself, and every board still ends up showing its newest state
(docs/rulings.md P-47)."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Iterable
from typing import TypeVar

import pytest

from bot.emulator import GlobalLimit

from .conftest import World
from .helpers import WAIT, open_game, told, until_text

GAMES = 200
AT_ONCE = 25
"""Members acting at the same moment (each waits for their answer before the next act)."""
T = TypeVar("T")


async def in_turns(acts: Iterable[Awaitable[T]], at_once: int = AT_ONCE) -> list[T]:
    """Run ``acts`` with at most ``at_once`` of them waiting for their answer at a time."""
    gate = asyncio.Semaphore(at_once)

    async def one(act: Awaitable[T]) -> T:
        async with gate:
            return await act

    return await asyncio.gather(*(one(act) for act in acts))


@pytest.mark.usefixtures("tokens_refused")  # else /bugs new's token edits each lobby (P-92)
async def test_a_burst_of_200_games_keeps_within_the_global_limit_and_every_board_converges(
    world: World,
) -> None:
    emu = world.emulator
    assert emu.global_limit == GlobalLimit(50, 1.0)
    channels = [world.channel]
    channels += [emu.add_text_channel(world.guild, f"games-{n}") for n in range(1, GAMES)]
    await asyncio.gather(*list(emu._tasks))  # the CHANNEL_CREATEs reach the bot first
    # 200 lobbies: each is the answer to its /bugs new (exempt from the global limit).
    boards = await in_turns(open_game(emu, world.alice, channel) for channel in channels)
    refused, before = emu.global_refusals, len(emu.requests)

    # Two members join every lobby by command, bob everywhere and then carol: each join is a
    # board edit the publisher makes with the bot token (every interaction token is refused
    # here, as after a restart none is known), 400 of them, far more than 50 a second
    # and each lobby changed twice while the first of its edits may still wait its turn.
    joins = [(member, channel) for member in (world.bob, world.carol) for channel in channels]
    answers = await in_turns(emu.slash(member, channel, "bugs join") for member, channel in joins)
    assert all(told(answer).startswith("You joined") for answer in answers)

    # Every board converges on its newest state: both members listed, in join order.
    for board in boards:
        await until_text(emu, board, "Players (3/", timeout=WAIT)
        assert "1. alice\n2. bob\n3. carol" in board.text(), board.text()
    # ... and no request was refused for the global scope.
    assert emu.global_refusals == refused
    # (Counted from this burst on: the emulator is shared with earlier tests, some of which
    # ask it for 429s on their own boards.)
    assert not [r for r in emu.requests[before:] if r.status == 429]
    edits = sum(
        1
        for r in emu.requests[before:]
        if r.method == "PATCH" and r.route == "PATCH /channels/{channel}/messages/{message}"
    )
    global_requests = emu.request_counts(before)["global"]
    times = sorted(r.time for r in emu.requests[before:] if r.klass == "global")
    busiest = max(sum(1 for t in times[i:] if t - start < 1.0) for i, start in enumerate(times))
    print(
        f"{len(joins)} joins over {GAMES} lobbies: {edits} board edits, {global_requests} global "
        f"requests in {times[-1] - times[0]:.1f} s, at most {busiest} in a second"
    )
    assert GAMES <= edits <= len(joins)
