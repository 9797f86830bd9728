"""Bag of Bugs through the emulator and the real bot process: the grab race, every misuse, the
idle Drawer's timer, and a crash mid-draw and mid-resolution.

The game's seed is secret (the host draws it), so tests read the committed state from the
database to decide what to do, and then do it the way a member would: by clicking the control
the board shows for it. Timers are long unless a test is about them.
"""

from __future__ import annotations

import asyncio
import random
import re
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

import pytest

from bot.discord.codec import encode_action, game_button_id
from bot.emulator import Emulator
from bot.emulator.interactions import InteractionResult
from bot.emulator.models import Message
from bot.store import Store
from rules.bag_of_bugs import BagOfBugs
from rules.core import SYSTEM, replay

from .conftest import World
from .helpers import SILENT, WAIT, start_game, told, until_text

BAG = "bag-of-bugs"
FAST = {"timers__bag_min_gap": 0.05, "timers__bag_idle_draw": 120, "timers__bag_choice": 120}
TOO_FAST = "Not so fast"


@dataclass
class Game:
    """One running Bag of Bugs game as the test sees it: board, members by seat, the store."""

    emu: Emulator
    board: Message
    store: Store
    id: int
    users: list[Any]

    async def engine(self) -> BagOfBugs:
        record = await self.store.get_game(self.id)
        assert record is not None and record.snapshot is not None
        return BagOfBugs.from_dict(record.snapshot)

    async def logged(self) -> int:
        return len(await self.store.actions(self.id))

    async def control(self, turn: int, action: dict[str, Any]) -> tuple[str, str | None]:
        """The board's control for ``action`` at ``turn`` (waits for the board to show it)."""
        wanted = game_button_id(self.id, turn, action)
        value = encode_action(action)

        def find() -> tuple[str, str | None] | None:
            for button in self.board.buttons():
                if button.custom_id == wanted and not button.disabled:
                    return wanted, None
            for menu in self.board.selects():
                values = [o.get("value") for o in menu.options]
                if menu.custom_id.startswith(f"s:{self.id}:{turn}:") and value in values:
                    return menu.custom_id, value
            return None

        try:
            await self.emu.wait_for(lambda: find() is not None, timeout=WAIT)
        except TimeoutError:
            raise AssertionError(
                f"no control for {action} at turn {turn}: {self.board.buttons()}\n{self.board.text()}"
            ) from None
        found = find()
        assert found is not None
        return found

    async def press(self, seat: int, turn: int, action: dict[str, Any]) -> InteractionResult:
        custom_id, value = await self.control(turn, action)
        user = self.users[seat]
        if value is None:
            result = await self.emu.click(user, self.board, custom_id)
        else:
            result = await self.emu.select(user, self.board, custom_id, [value])
        assert result.acknowledged and not result.failed, (action, result)
        return result

    async def draw(self, seat: int, turn: int) -> InteractionResult:
        """The Drawer's reveal, waiting out the minimum gap if the host says it came too soon."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + WAIT
        while loop.time() < deadline:
            result = await self.press(seat, turn, {"type": "draw"})
            if TOO_FAST not in told(result):
                return result
            await asyncio.sleep(0.05)  # a poll: it returns on the answer, not on time
        raise AssertionError(f"the Draw button never got through in {WAIT} s")


@pytest.fixture
async def game(world: World) -> AsyncIterator[Game]:
    emu, chan = world.emulator, world.channel
    board = await start_game(emu, world.alice, [world.bob, world.carol], chan, game=BAG)
    await until_text(emu, board, "holds the bag")
    store = await Store.open(world.bot.db_url, migrate=False)
    try:
        record = await store.active_game_in_channel(chan.id)
        assert record is not None and record.slug == BAG
        by_id = {u.id: u for u in (world.alice, world.bob, world.carol)}
        seats = sorted(await store.seats(record.id), key=lambda s: s.seat or 0)
        yield Game(emu, board, store, record.id, [by_id[s.user_id] for s in seats])
    finally:
        await store.close()


def grabbers(engine: BagOfBugs) -> list[int]:
    return [s for s in range(engine.players) if s != engine.state.drawer]


# -- a whole game --------------------------------------------------------------------------


@pytest.mark.parametrize("world", [FAST], indirect=True)
async def test_a_whole_three_player_game_by_clicks(world: World, game: Game) -> None:
    rng = random.Random(7)
    choices = grabs = 0
    for _ in range(1500):
        engine = await game.engine()
        if engine.is_over:
            break
        t = engine.state
        turn = engine.turn
        if t.phase == "draw":
            for seat in grabbers(engine):
                if t.revealed and t.grab_of(seat) is None and rng.random() < 0.35:
                    action = rng.choice(engine.legal_actions(seat))
                    result = await game.press(seat, turn, action)
                    assert told(result) == "" and result.type in SILENT
                    grabs += 1
                    engine = await game.engine()
                    t = engine.state
            assert told(await game.draw(t.drawer, turn)) == ""
        else:
            assert t.choice is not None
            seat = t.choice.seat
            action = rng.choice(engine.legal_actions(seat))
            result = await game.press(seat, turn, action)
            assert told(result).startswith("✅ You "), told(result)
            choices += 1
    engine = await game.engine()
    assert engine.is_over and grabs > 3 and choices > 3

    text = await until_text(game.emu, game.board, "game over")
    assert ("wins with" in text) or ("share the win" in text)
    assert "🌈 all colours" in text and "most 🕷️" in text
    assert [b.label for b in game.board.buttons()] == [
        "Rematch",
        "How to play",
    ] and game.board.selects() == []
    (record,) = await game.store.finished_games()
    results = await game.store.results(record.id)
    assert sorted(r.score for r in results) == sorted(engine.scores())
    assert {r.seat for r in results if r.winner} == set(engine.winners())
    log = [(a.seat, a.action) for a in await game.store.actions(record.id)]
    again = replay(BAG, 3, record.seed, record.options, log)
    assert again.to_dict() == record.snapshot


# -- the race and every misuse -------------------------------------------------------------


@pytest.mark.parametrize(
    "world",
    [{"timers__bag_min_gap": 0.8, "timers__bag_idle_draw": 120, "timers__bag_choice": 120}],
    indirect=True,
)
async def test_grab_race_and_every_misuse_get_clear_answers(world: World, game: Game) -> None:
    emu = game.emu
    engine = await game.engine()
    drawer = engine.state.drawer
    first, second = grabbers(engine)
    turn = engine.turn
    old_draw, _ = await game.control(turn, {"type": "draw"})

    async def refused(seat: int, custom_id: str, expected: str, on: Message | None = None) -> None:
        before = await game.logged()
        result = await emu.click(game.users[seat], on or game.board, custom_id)
        assert result.acknowledged and result.ephemeral, result
        assert expected in told(result), told(result)
        assert await game.logged() == before  # nothing changed

    def as_it_was(seat: int, version: Any) -> Message:
        """The board as a member's client still shows it (its click reached Discord before
        the edit did, so Discord lets it through)."""
        body = {"content": "", "components": version.components}
        return emu.world.new_message(emu.dm_channel(game.users[seat]), body)

    # Draw by someone else than the Drawer; then the Drawer reveals
    await refused(first, old_draw, "Only the Drawer reveals tokens.")
    before_reveal = game.board.version()
    assert told(await game.draw(drawer, turn)) == ""
    # ... and at once again, from a client that still shows Draw enabled: too soon
    await refused(drawer, old_draw, TOO_FAST, as_it_was(drawer, before_reveal))
    assert await game.logged() == 1

    # two members click Grab ③ at the same instant: exactly one gets it
    three, _ = await game.control(turn, {"type": "grab", "token": 3})
    window_open = game.board.version()
    results = await asyncio.gather(
        emu.click(game.users[first], game.board, three),
        emu.click(game.users[second], game.board, three),
    )
    assert all(r.acknowledged and not r.failed for r in results)
    answers = [told(r) for r in results]
    assert sorted(answers) == ["", "Grab token 3 is already taken."], answers
    winner, loser = (first, second) if answers[0] == "" else (second, first)
    engine = await game.engine()
    assert engine.state.grabs[2] == winner and await game.logged() == 2
    taken = f"③ {game.users[winner].name}"
    await emu.wait_for(lambda: game.board.has_button(label=taken), timeout=WAIT)
    assert game.board.find_button(label=taken).disabled

    # the loser's client still shows ③ free: a second click on the taken token is refused
    await refused(loser, three, "Grab token 3 is already taken.", as_it_was(loser, window_open))
    one, _ = await game.control(turn, {"type": "grab", "token": 1})
    await refused(winner, one, "You already hold a Grab token.")
    await refused(drawer, one, "The Drawer cannot grab.")

    # draw until the window closes; then ⑤ (free when the loser last looked) is too late
    five = game_button_id(game.id, turn, {"type": "grab", "token": 5})
    while (await game.engine()).turn == turn:
        await game.control(turn, {"type": "draw"})  # Draw is back after the pause (P-29)
        open_still = game.board.version()
        assert told(await game.draw(drawer, turn)) == ""
    await emu.wait_for(lambda: game.board.component(five) is None, timeout=WAIT)
    await refused(loser, five, "Too late: that draw is over.", as_it_was(loser, open_still))
    # the Draw button of that turn, from an earlier turn now
    old = as_it_was(drawer, open_still)
    await refused(drawer, old_draw, "That **Draw** button is from an earlier turn", old)
    assert (await game.engine()).state.grab_of(loser) is None


# -- the pause after a reveal --------------------------------------------------------------


@pytest.mark.parametrize(
    "world",
    [{"timers__bag_min_gap": 3.0, "timers__bag_idle_draw": 120, "timers__bag_choice": 120}],
    indirect=True,
)
async def test_draw_shows_its_cooldown_then_comes_back(world: World, game: Game) -> None:
    """During the pause after a reveal the board shows **Draw** disabled, with the time it
    comes back as a Discord timestamp; then it is enabled again by itself (P-29)."""
    emu = game.emu
    engine = await game.engine()
    drawer, turn = engine.state.drawer, engine.turn
    clicked = time.time()
    assert told(await game.draw(drawer, turn)) == ""

    def cooling() -> re.Match[str] | None:
        if not game.board.has_button(label="Draw"):
            return None
        if not game.board.find_button(label="Draw").disabled:
            return None
        return re.search(r"\*\*Draw\*\* again <t:(\d+):R>", game.board.text())

    shown = await emu.wait_for(cooling, timeout=WAIT)
    assert clicked + 2 <= int(shown[1]) <= clicked + 5
    assert "**Revealed 1 /" in game.board.text()
    # It comes back without anyone clicking, and the next reveal is accepted at once.
    await emu.wait_for(
        lambda: (
            not game.board.find_button(label="Draw").disabled
            and "again <t:" not in game.board.text()
        ),
        timeout=WAIT,
    )
    assert time.time() - clicked >= 2.5
    result = await game.press(drawer, turn, {"type": "draw"})
    assert told(result) == "" and await game.logged() == 2


# -- timers --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "world",
    [{"timers__bag_min_gap": 0.05, "timers__bag_idle_draw": 0.4, "timers__bag_choice": 120}],
    indirect=True,
)
async def test_an_idle_drawer_reveals_automatically(world: World, game: Game) -> None:
    text = await until_text(game.emu, game.board, "**Revealed 1 / 6:**")
    assert "was idle: the bag revealed" in text
    await until_text(game.emu, game.board, "**Revealed 2 / 6:**")
    actions = await game.store.actions(game.id)
    assert [(a.seat, a.action["type"]) for a in actions[:2]] == [(SYSTEM, "auto_draw")] * 2


# -- a crash -------------------------------------------------------------------------------


@pytest.mark.parametrize("world", [FAST], indirect=True)
async def test_killed_mid_draw_and_mid_resolution_the_game_goes_on(
    world: World, game: Game
) -> None:
    emu = game.emu
    engine = await game.engine()
    drawer = engine.state.drawer
    first, second = grabbers(engine)
    turn = engine.turn
    await game.draw(drawer, turn)
    await game.press(first, turn, {"type": "grab", "token": 2})
    taken = f"② {game.users[first].name}"
    await emu.wait_for(lambda: game.board.has_button(label=taken), timeout=WAIT)
    draw_id, _ = await game.control(turn, {"type": "draw"})
    four_id, _ = await game.control(turn, {"type": "grab", "token": 4})

    # mid-draw: the buttons rendered by the dead process work in the new one
    await world.bot.kill()
    await world.bot.start()
    result = await emu.click(game.users[second], game.board, four_id)
    assert result.acknowledged and told(result) == ""
    result = await emu.click(game.users[drawer], game.board, draw_id)
    assert result.acknowledged and told(result) == ""
    assert await game.logged() == 4
    # the public log of this turn was rebuilt from the stored actions
    text = await until_text(emu, game.board, f"**{game.users[second].name}** grabbed ④ after 1")
    assert f"**{game.users[first].name}** grabbed ② after 1 token" in text

    # mid-resolution: draw on until a choice is open (the leftovers, at the latest)
    for _ in range(200):
        engine = await game.engine()
        if engine.state.choice is not None:
            break
        if engine.state.phase == "draw":
            await game.draw(engine.state.drawer, engine.turn)
    engine = await game.engine()
    choice = engine.state.choice
    assert choice is not None
    action = engine.legal_actions(choice.seat)[-1]
    custom_id, value = await game.control(engine.turn, action)
    before = await game.logged()
    await world.bot.kill()
    await world.bot.start()
    user = game.users[choice.seat]
    if value is None:
        result = await emu.click(user, game.board, custom_id)
    else:
        result = await emu.select(user, game.board, custom_id, [value])
    assert result.acknowledged and told(result).startswith("✅ You ")
    assert await game.logged() == before + 1
    engine = await game.engine()
    assert engine.turn != choice.step
