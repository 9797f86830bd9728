"""One private panel per player per game (P-48, issue #21 item 3).

A member's private answers in the channel go to one ephemeral message, edited in place: a click
on it updates it in its own response (type 7), a click elsewhere edits it through its stored
token and is answered without a new message; only a panel that can no longer be edited
(dismissed, its token expired) is replaced by a new one. Misuse answers stay plain replies.
Whole games of the four kinds count the ephemeral messages each member was sent.
"""

from __future__ import annotations

import asyncio
import json
import random
from pathlib import Path
from typing import Any

import pytest

from bot.emulator import Emulator
from bot.emulator.models import Message
from bot.ui.presenter import BOARD_COPY_FOOTER
from tests.conftest import TEST_GAME_MODULES
from tests.support.in_process import FakePolicies, bot_in_process

from . import test_bag_of_bugs as bag
from . import test_bug_off as bug_off
from . import test_bug_run as bug_run
from . import test_bugs_and_co as bugs_and_co
from .conftest import World
from .helpers import (
    SILENT,
    UPDATE_MESSAGE,
    WAIT,
    click,
    private,
    start_game,
    told,
    until_text,
)
from .test_bag_of_bugs import game  # noqa: F401  (the Bag of Bugs fixture)

MOST = 3
"""Private replies created per player per game, misuse answers aside (issue #21)."""
REFUSALS = (
    "earlier turn",
    "not your turn",
    "It is not your turn",
    "Too slow",
    "Not so fast",
    "Keep or put back the tile in your hand first",
    "Too late: STOP",
    "That game is over",
    "so you have stopped playing",
    "Your hand is empty",
    "not valid",
    "not playing in this game",
)
"""Words only misuse answers use: each is a plain reply of its own, never edited."""


def replies_created(emu: Emulator, user: Any) -> list[Message]:
    """The ephemeral messages the bot created for ``user`` (dismissed ones too), misuse
    answers aside: a panel is edited, or says none of ``REFUSALS``."""
    return [
        m
        for m in emu.ephemerals_created(user)
        if m.history or not any(r in m.text() for r in REFUSALS)
    ]


def new_reply(result: Any) -> bool:
    """The click's private answer came in a new ephemeral message (its response, or a
    followup: after the acknowledgement guard deferred it, or after the board was updated in
    the response while the panel's edit failed), not in an edit of a panel."""
    message = private(result)
    if message is None or message is result.panel:
        return False
    return result.type != UPDATE_MESSAGE or message in result.followups


def at_most_three_each(emu: Emulator, users: list[Any]) -> dict[str, int]:
    counts = {u.name: len(replies_created(emu, u)) for u in users}
    assert all(n <= MOST for n in counts.values()), counts
    return counts


def texts(message: Message) -> list[str]:
    return [v.text() for v in [*message.history, message.version()]]


# -- the mechanism, on the test game ---------------------------------------------------------


async def pick(emu: Emulator, user: Any, board: Message, seat: int, n: int = 1) -> Any:
    await until_text(emu, board, f"**to_pick**: {seat}")
    result = await click(emu, user, board, f"pick {n}")
    assert told(result) == f"you picked: n {n}", told(result)
    return result


async def claim(emu: Emulator, user: Any, board: Message) -> None:
    await emu.wait_for(lambda: board.has_button(label="claim"), timeout=WAIT)
    assert told(await click(emu, user, board, "claim")) == ""
    await until_text(emu, board, "**phase**: pick")


async def test_private_answers_edit_one_panel_until_it_is_dismissed_or_expires(
    world: World,
) -> None:
    emu, chan = world.emulator, world.channel
    alice, bob = world.alice, world.bob
    board = await start_game(emu, alice, [bob], chan)
    await claim(emu, alice, board)

    # The first private answer is a new reply: it becomes the panel.
    hand = await click(emu, alice, board, "My hand")
    panel = private(hand)
    assert new_reply(hand) and panel is not None and panel.ephemeral
    assert "my_card" in panel.text() and emu.ephemerals_created(alice) == [panel]
    # A click on the panel is answered by updating it in the click's own response.
    on_panel = await emu.click(alice, panel, panel.find_button(label="pick 1"))
    assert on_panel.type == UPDATE_MESSAGE and on_panel.message is panel
    assert told(on_panel) == "you picked: n 1" == panel.text()
    # A misuse answer is a plain reply of its own, and the panel is left as it is.
    await until_text(emu, board, "**to_pick**: 1")
    wrong = await click(emu, alice, board, "pick 2")
    assert "not your turn" in told(wrong) and private(wrong) is not panel
    assert panel.text() == "you picked: n 1"
    assert replies_created(emu, alice) == [panel]

    # Bob's first private answer is his panel; his next one edits it in place.
    first = await pick(emu, bob, board, 1)
    bobs = private(first)
    assert new_reply(first) and bobs is not None and bobs.ephemeral_to is bob
    await claim(emu, bob, board)
    again = await pick(emu, alice, board, 0, 2)
    assert again.type in SILENT and private(again) is panel
    assert panel.text() == "you picked: n 2" and "you picked: n 1" in texts(panel)
    later = await pick(emu, bob, board, 1, 3)
    assert later.type in SILENT and private(later) is bobs and bobs.text() == "you picked: n 3"
    assert replies_created(emu, alice) == [panel] and replies_created(emu, bob) == [bobs]

    # Dismissed by alice, expired for bob: the next answer of each is a new panel.
    emu.dismiss(panel)
    for result in (first, later):
        emu.expire_token(result)
    await claim(emu, alice, board)
    fresh = await pick(emu, alice, board, 0)
    assert new_reply(fresh) and private(fresh) not in (None, panel)
    renewed = await pick(emu, bob, board, 1)
    assert new_reply(renewed) and private(renewed) not in (None, bobs)
    await until_text(emu, board, "game over")
    assert at_most_three_each(emu, [alice, bob]) == {"alice": 2, "bob": 2}


def saying(words: str) -> Any:
    """A request body filter: the JSON mentions ``words``."""
    return lambda body: words in json.dumps(body)


async def warm_connections(bot: Any, count: int = 8) -> None:
    """``count`` requests at once, so the bot's HTTP session keeps that many connections the
    emulator already reads: a request over a connection made for it waits for its reply
    (P-95), and that must not decide what the test sees."""
    me = bot.user.id
    await asyncio.gather(*(bot.fetch_user(me) for _ in range(count)))


async def test_a_click_is_answered_while_its_panel_edit_is_on_its_way(tmp_path: Path) -> None:
    """P-95: once a panel edit of the game went through, a click made elsewhere whose private
    answer goes to the panel is answered (its board updated in its response) as soon as the
    panel's edit has left, not once Discord answered it; the first such edit of a game is
    answered first, so the click waits for it."""
    async with bot_in_process(
        tmp_path, FakePolicies(), extra_game_modules=TEST_GAME_MODULES, bot_processes=1
    ) as running:
        emu, bot = running.emu, running.bot
        guild = emu.add_guild("Bug Club")
        chan = emu.add_text_channel(guild, "games")
        alice, bob = emu.add_user("alice", guilds=[guild]), emu.add_user("bob", guilds=[guild])
        board = await start_game(emu, alice, [bob], chan)
        await claim(emu, alice, board)
        panel = private(await click(emu, alice, board, "My hand"))
        assert panel is not None
        edit = f"/webhooks/{emu.application_id}/[^/]+/messages/"

        # The game's first panel edit: the click waits for it, so a held edit holds it.
        released = emu.hold("PATCH", edit, where=saying("you picked: n 1"))
        await warm_connections(bot)
        first = asyncio.create_task(click(emu, alice, board, "pick 1"))
        await asyncio.sleep(0.5)
        assert not first.done() and "**to_pick**: 0" in board.text()
        released.set()
        result = await first
        assert result.type == UPDATE_MESSAGE and result.message is board
        assert private(result) is panel and told(result) == "you picked: n 1"
        await pick(emu, bob, board, 1)
        await claim(emu, bob, board)

        # Edits go through now: the next one is held, and the click is answered all the same;
        # its result, what the member saw, completes once the edit lands.
        released = emu.hold("PATCH", edit, where=saying("you picked: n 2"))
        await warm_connections(bot)
        second = asyncio.create_task(click(emu, alice, board, "pick 2"))
        try:
            await until_text(emu, board, "**to_pick**: 1")
            assert "you picked: n 2" not in panel.text() and not second.done()
        finally:
            released.set()
        result = await second
        assert result.type == UPDATE_MESSAGE and result.message is board
        assert private(result) is panel and told(result) == "you picked: n 2" == panel.text()


# -- whole games of the four kinds -------------------------------------------------------------


@pytest.mark.parametrize("world", [bug_off.FAST], indirect=True)
async def test_bug_off_one_panel_each_and_the_hand_in_one_place(world: World) -> None:
    w = world
    users = [w.alice, w.bob, w.shy]
    played = await bug_off.new_game(w, users, seed=21)
    try:

        def how(user: Any) -> str:
            return "reply" if user is w.shy else played.rng.choice(["reply", "my_hand"])

        # The DMs are out before the first Draw: from then on the DM is where the hand is.
        emu = w.emulator
        await emu.wait_for(lambda: all(emu.dms(u) for u in users if u is not w.shy), timeout=WAIT)
        await played.play_to_end(how)
        await bug_off.finish_and_check(played)
        counts = at_most_three_each(w.emulator, users)
        assert all(counts.values()), counts  # every player drew, so had a panel
        for user in users:
            (panel, *_) = replies_created(w.emulator, user)
            shown = texts(panel)
            assert sum("You drew" in t for t in shown) >= 2  # later draws: the same panel
            if user is w.shy:  # DMs closed: the panel is where the hand is
                assert any("Your hand (" in t for t in shown)
            else:  # the DM shows the hand; the panel never repeats it
                assert not any("Your hand (" in t for t in shown), shown
                assert any("Your hand is in your DM" in t for t in shown)
    finally:
        await played.store.close()


@pytest.mark.parametrize("world", [bugs_and_co.SCALED], indirect=True)
async def test_bugs_and_co_one_panel_each_for_a_whole_game(world: World) -> None:
    emu, chan = world.emulator, world.channel
    players = [world.alice, world.bob, world.carol]
    board = await start_game(emu, players[0], players[1:], chan, bugs_and_co.GAME)
    await bugs_and_co.wait_live(emu, chan, board, 38)
    rng = random.Random(23)
    await asyncio.gather(
        *(bugs_and_co.play_a_while(emu, u, chan, random.Random(rng.random()), 8) for u in players)
    )
    loop = asyncio.get_running_loop()
    deadline = loop.time() + 2 * WAIT
    stopped: set[str] = set()  # took a trophy: they play no more
    while "— game over" not in board.text():
        assert loop.time() < deadline, f"no game over within {2 * WAIT} s"
        for user in [u for u in players if u.name not in stopped]:
            took = await bugs_and_co.press(emu, user, chan, bugs_and_co.TROPHY)
            if took is not None and "You took the" in told(took):
                stopped.add(user.name)
            else:
                await bugs_and_co.play_a_while(emu, user, chan, rng, 1)
        await asyncio.sleep(0.05)  # a poll: it returns on the board's news, not on time
    counts = at_most_three_each(emu, players)
    assert all(counts.values()), counts
    assert any(
        sum("You picked up tile" in t for t in texts(m)) >= 2
        for u in players
        for m in replies_created(emu, u)
    )  # later pick-ups: the same panel
    await bugs_and_co.no_buttons_left(emu, players)


@pytest.mark.parametrize("world", [bag.FAST], indirect=True)
async def test_bag_of_bugs_one_panel_each_for_a_whole_game(world: World, game: bag.Game) -> None:  # noqa: F811
    rng = random.Random(29)
    choices = 0
    for _ in range(1500):
        engine = await game.engine()
        if engine.is_over:
            break
        t = engine.state
        turn = engine.turn
        if t.phase == "draw":
            for seat in bag.grabbers(engine):
                if t.revealed and t.grab_of(seat) is None and rng.random() < 0.35:
                    await game.press(seat, turn, rng.choice(engine.legal_actions(seat)))
                    engine = await game.engine()
                    t = engine.state
            await game.draw(t.drawer, turn)
        else:
            assert t.choice is not None
            seat = t.choice.seat
            result = await game.press(seat, turn, rng.choice(engine.legal_actions(seat)))
            assert told(result).startswith("✅ You "), told(result)
            choices += 1
    assert (await game.engine()).is_over and choices > MOST
    await until_text(game.emu, game.board, "game over")
    at_most_three_each(game.emu, game.users)
    panels = [m for u in game.users for m in replies_created(game.emu, u)]
    assert any(m.history for m in panels)  # later choices: the same panels, edited


@pytest.mark.parametrize("world", [bug_run.FAST], indirect=True)
async def test_bug_run_one_panel_each_with_dms_closed(world: World) -> None:
    w = world
    emu = w.emulator
    users = [w.alice, w.shy, w.bob]
    played = await bug_run.new_game(w, users, seed=11)
    played.closed = {1}
    try:
        await emu.wait_for(lambda: emu.dms(w.alice) and emu.dms(w.bob), timeout=WAIT)
        mine = await click(emu, w.shy, played.board, "My hand")
        panel = private(mine)
        assert new_reply(mine) and panel is not None and "only you can see this" in panel.text()
        await played.play(most=12)
        again = await click(emu, w.shy, played.board, "My hand")
        assert again.type in SILENT and private(again) is panel and panel.history
        await played.play()
        await bug_run.finish_and_check(played)
        counts = at_most_three_each(emu, users)
        assert counts["shy"] >= 1, counts
        assert bug_run.scan(bug_run.everything_seen(w, users), played) == []
    finally:
        await played.store.close()


async def test_a_panel_discord_refuses_to_edit_gives_way_to_a_new_one(world: World) -> None:
    """A failing edit of the panel never loses the answer: it comes in a new reply, which is
    the panel from then on."""
    emu, chan = world.emulator, world.channel
    alice, bob = world.alice, world.bob
    board = await start_game(emu, alice, [bob], chan)
    await claim(emu, alice, board)
    first = await pick(emu, alice, board, 0)
    panel = private(first)
    assert new_reply(first) and panel is not None
    await pick(emu, bob, board, 1)
    await claim(emu, bob, board)
    emu.fail("PATCH", rf"/webhooks/{emu.application_id}/[^/]+/messages/", status=403, code=50001)
    refused = await pick(emu, alice, board, 0, 2)
    fresh = private(refused)
    assert new_reply(refused) and fresh is not None and fresh is not panel
    assert panel.text() == "you picked: n 1" and fresh.text() == "you picked: n 2"
    await pick(emu, bob, board, 1)
    await claim(emu, alice, board)
    later = await pick(emu, alice, board, 0, 3)
    assert later.type in SILENT and private(later) is fresh and fresh.text() == "you picked: n 3"
    assert replies_created(emu, alice) == [panel, fresh]


@pytest.mark.parametrize("world", [bug_off.FAST], indirect=True)
async def test_a_move_on_the_panel_settles_it_with_the_board_it_left_beneath(
    world: World,
) -> None:
    """P-85: a Place or Score clicked on the member's panel is answered in the click's own
    response: the panel settles (its buttons gone), with a copy of the board as the move left
    it beneath; the channel's board then shows the same words."""
    w = world
    played = await bug_off.new_game(w, [w.alice, w.bob], seed=5)
    try:
        ready = await played.ready(0)
        assert ready is not None
        user, turn = ready
        reply = private(await click(w.emulator, user, played.board, "Draw"))
        assert reply is not None and "You drew" in reply.text(), reply
        (choice, *_) = bug_off.game_buttons(reply, turn + 1)
        done = await w.emulator.click(user, reply, choice)
        assert done.type == UPDATE_MESSAGE and done.message is reply and told(done) == ""
        assert not bug_off.game_buttons(reply, turn + 1)  # settled: its buttons are gone
        copy = reply.version().embeds[-1]
        assert copy["footer"]["text"] == BOARD_COPY_FOOTER

        def words(embed: dict[str, Any]) -> tuple[Any, ...]:
            return embed.get("title"), embed.get("description"), embed.get("fields")

        await w.emulator.wait_for(
            lambda: words(played.board.version().embeds[0]) == words(copy), timeout=WAIT
        )
    finally:
        await played.store.close()
