"""P-92 through the emulator: a board that changes without a click on it (a Bug Off! card
placed from the member's private panel) is edited through the token of the newest click
answered on it, none of the bot's global budget; a token Discord refuses sends the edit
with the bot's own token, and the board still shows every move."""

from __future__ import annotations

import pytest

from bot.emulator import Emulator

from .conftest import World
from .helpers import WAIT, open_game, told, until_text
from .test_bug_off import FAST, new_game

TURNS = 4


def board_edits(
    emu: Emulator, channel_id: int, board_id: int, since: int
) -> list[tuple[str, str, int]]:
    """Every edit of the board since request ``since``, with the bot's token or through a
    click's (``@original`` of a click answered on the board): (class, path, status)."""
    edits = []
    for request in emu.requests[since:]:
        if request.method != "PATCH":
            continue
        own = request.path == f"/channels/{channel_id}/messages/{board_id}"
        through_click = False
        parts = request.path.split("/")  # /webhooks/{app}/{token}/messages/@original
        if request.path.startswith("/webhooks/") and parts[-1] == "@original":
            record = emu.interactions.by_token.get(parts[3])
            through_click = record is not None and getattr(record.original, "id", 0) == board_id
        if own or through_click:
            edits.append((request.klass, request.path, request.status))
    return edits


async def play(game: object, turns: int) -> None:
    turn: int | None = 0
    for _ in range(turns):
        assert turn is not None
        turn = await game.play_turn(turn, lambda user: "reply")  # type: ignore[attr-defined]
    assert turn is not None
    await game.ready(turn)  # type: ignore[attr-defined]  # the board shows the last move


@pytest.mark.parametrize("world", [FAST], indirect=True)
async def test_a_board_changed_from_a_panel_is_edited_through_its_newest_click(
    world: World,
) -> None:
    emu = world.emulator
    since = len(emu.requests)
    game = await new_game(world, [world.alice, world.bob], seed=31)
    try:
        await play(game, TURNS)
        edits = board_edits(emu, world.channel.id, game.board.id, since)
        # Each Place or Score is clicked on the panel (which its response updates): the board
        # learns of it through a token (of the Draw click, of a click before it, or of the
        # command that posted the lobby), never with the bot's own.
        assert [e for e in edits if e[0] == "global"] == [], edits
        through = [e for e in edits if e[1].startswith("/webhooks/")]
        assert len(through) >= TURNS and all(e[2] == 200 for e in through), edits
        assert emu.global_refusals == 0
    finally:
        await game.store.close()


@pytest.mark.parametrize("world", [FAST], indirect=True)
async def test_a_refused_token_leaves_the_board_to_the_bots_own(world: World) -> None:
    """Every token refused (401, as past its 15 minutes) from the start: each edit tried
    through a click's token goes at once with the bot's token, and the game plays on with
    its panels made anew (P-48)."""
    emu = world.emulator
    game = await new_game(world, [world.alice, world.bob], seed=31)
    ttl = emu.interactions.followup_ttl
    emu.interactions.followup_ttl = 0.0
    since = len(emu.requests)
    try:
        await play(game, TURNS)
        edits = board_edits(emu, world.channel.id, game.board.id, since)
        refused = [e for e in edits if e[1].startswith("/webhooks/")]
        assert refused and all(e[2] == 401 for e in refused), edits
        own = [e for e in edits if e[0] == "global"]
        assert len(own) >= TURNS and all(e[2] == 200 for e in own), edits
    finally:
        emu.interactions.followup_ttl = ttl
        await game.store.close()


@pytest.mark.parametrize("world", [FAST], indirect=True)
async def test_a_lobby_opened_joined_and_started_by_commands_is_edited_through_its_own_token(
    world: World,
) -> None:
    """Nobody clicks the lobby: ``/bugs join`` and ``/bugs start`` change it, and the
    publisher edits it (the board it becomes) through ``/bugs new``'s token, whose original
    response it is."""
    emu, channel = world.emulator, world.channel
    since = len(emu.requests)
    lobby = await open_game(emu, world.alice, channel, "bug-off")
    joined = await emu.slash(world.bob, channel, "bugs join")
    assert joined.acknowledged and "You joined" in told(joined), told(joined)
    await until_text(emu, lobby, "(2/", timeout=WAIT)
    await emu.wait_for(lambda: not lobby.find_button(label="Start").disabled, timeout=WAIT)
    started = await emu.slash(world.alice, channel, "bugs start")
    assert started.acknowledged and "has started" in told(started), told(started)
    await emu.wait_for(lambda: lobby.has_button(label="Draw"), timeout=WAIT)
    edits = board_edits(emu, channel.id, lobby.id, since)
    assert len(edits) >= 2 and all(e[:1] + e[2:] == ("interaction", 200) for e in edits), edits
