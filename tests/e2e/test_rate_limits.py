"""Discord's per-channel limits with Discord's own numbers (5 sends and 5 edits per 5 s per
channel, enforced by the emulator with 429s): the bot keeps within them by itself, and the board
still ends up showing the newest state (docs/rulings.md P-26)."""

from __future__ import annotations

import asyncio
import random
import re
from typing import Any

import pytest

from bot.emulator import Emulator

from .conftest import World
from .helpers import WAIT, start_game, until_text
from .test_bugs_and_co import GAME, ID, game_pages, play_a_while, slots_of, truth, wait_live

REAL = {"board_edit_interval": 0.05, "channel_edit_window": 5.0, "ping_after": 0}
"""Discord's window, and a board edit interval far below what the channel allows: only the
pacing keeps the bot within the limit. Turn pings go at once (P-46): the start of play's ping
is one of the requests the pacing keeps within the limit."""


def busiest_window(emu: Emulator, method: str, path: str, window: float = 5.0) -> int:
    """The most requests of ``method`` to paths matching ``path`` answered within any
    ``window`` seconds (a little slack for the time between arrival and answer)."""
    pattern = re.compile(path)
    times = sorted(r.time for r in emu.requests if r.method == method and pattern.search(r.path))
    return max(
        (sum(1 for t in times[i:] if t - start < window - 0.1) for i, start in enumerate(times)),
        default=0,
    )


@pytest.mark.parametrize("world", [REAL], indirect=True)
async def test_eight_players_racing_keep_each_channel_within_discords_limit(
    world: World,
) -> None:
    emu, chan = world.emulator, world.channel
    players: list[Any] = [world.alice, world.bob, world.carol, world.dave, world.eve, world.mod]
    players += [emu.add_user(n, guilds=[world.guild]) for n in ("fay", "gus")]
    board = await start_game(emu, players[0], players[1:], chan, GAME)
    await wait_live(emu, chan, board, 68)
    game_id = int(ID.match(board.find_button(label="🂠 1").custom_id or "")["game"])  # type: ignore[index]
    # One turn ping for the start of play, notifying all eight (P-28, P-46).
    ping = await emu.wait_for(
        lambda: next(
            (m for m in emu.channel_messages(chan) if m.content.startswith("🔔 <@")), None
        ),
        timeout=WAIT,
    )
    assert sorted(ping.notified) == sorted(u.id for u in players)

    # Everyone clicks at once, far faster than the table's three messages may be edited.
    rng = random.Random(11)
    await asyncio.gather(
        *(play_a_while(emu, u, chan, random.Random(rng.random()), 6) for u in players)
    )

    # The table converges on the newest state: the face-down tiles and the kept counts shown
    # are the stored game's.
    _, engine, _ = await truth(world, game_id)
    view = engine.view(None)
    face_down = [slot for slot, full in enumerate(view["slots"]) if full]

    def shows_newest() -> bool:
        text = board.text()
        return slots_of(emu, chan, "peek") == face_down and all(
            f"{info['kept']} tile" in text for info in view["seats"]
        )

    await emu.wait_for(shows_newest, timeout=WAIT)
    await until_text(emu, board, f"{len(face_down)} tile")

    messages = rf"^/channels/{chan.id}/messages"
    assert emu.count_requests("PATCH", messages, status=429) == 0
    assert emu.count_requests("POST", messages, status=429) == 0
    assert busiest_window(emu, "PATCH", messages + r"/\d+$") <= 5
    assert busiest_window(emu, "POST", messages + "$") <= 5
    # The race was edited, not just shown once: the table's pages by the clicks' own answers
    # (P-45, most of them: measured 35-52 edits in all) and by the pump's paced edits, which
    # alone count against the channel's limit (5-7 of them, too few to count on 5).
    assert sum(len(page.history) for page in game_pages(emu, chan)) >= 15
    assert emu.count_requests("PATCH", messages) >= 1
