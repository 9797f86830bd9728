"""Bugs & Co end to end: real-time play through the emulator and the real bot process.

Members only click what Discord shows them: the table's tile buttons (spread over two or three
messages), the Trophy button, and the Keep / Put back buttons of the ephemeral answer to a pick-up.
The game seed is random, so the tests play whatever comes and read the truth from the database.

The leak scan (``problems``) reads every version of every message each member could ever see
(deleted ones too) and allows a symbol name in two places only: the final results, and a member's
own pick-up answers, which must name exactly the tiles that member picked up, in order (the truth
comes from replaying the stored action log). ``test_the_leak_scan_catches_planted_leaks`` plants
leaks into a real transcript to prove it can fail.
"""

from __future__ import annotations

import asyncio
import json
import random
import re
import time
from collections import Counter
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from bot.discord.codec import encode_action
from bot.emulator import Emulator
from bot.emulator.errors import EmulatorError
from bot.emulator.interactions import InteractionResult
from bot.emulator.models import Button, Message, MessageVersion, walk_components
from bot.store import Store
from rules.bugs_and_co import BugsAndCo
from rules.bugs_and_co import components as box
from rules.core import SYSTEM

from .conftest import World
from .helpers import WAIT, deadlines, move_deadlines, private, start_game, until_text
from .helpers import told as _told

GAME = "bugs-and-co"
FAST = {"board_edit_interval": 0.02}
SCALE = 0.3
"""``TIMER_SCALE``: the 3 s start and the 10 s countdown take 0.9 s and 3 s here."""
SCALED = {**FAST, "timer_scale": SCALE}
COUNTDOWN = 10 * SCALE
ID = re.compile(r"^g:(?P<game>\d+):(?P<turn>\d+):(?P<action>\{.*\})$")
SYMBOL_RE = re.compile(
    "|".join(rf"\b{re.escape(n)}\b" for n in sorted(box.SYMBOL_NAMES, key=len, reverse=True))
)
TROPHY = {"type": "trophy"}
TOO_SLOW = "Too slow: that tile is not there any more."
HAND_FULL = "Keep or put back the tile in your hand first."
OVER = (
    "Too late: STOP has been called.",  # the engine's answer, while the bot still holds the game
    "That game is over: the results are on its board.",  # once it has been put away
)
STOPPED = "You took a trophy, so you have stopped playing."


def told(result: InteractionResult) -> str:
    """The private answer a member got; empty if the click was accepted silently (a deferred
    update, even on the member's panel, tells nothing)."""
    return _told(result)


def peek(slot: int) -> dict[str, Any]:
    return {"type": "peek", "slot": slot}


def put_into(slot: int) -> dict[str, Any]:
    return {"type": "return", "slot": slot}


# -- what members see and do ------------------------------------------------------------------


def controls(emu: Emulator, channel: Any) -> dict[str, tuple[Message, Button]]:
    """Every enabled game button on the channel, by its compact action JSON."""
    out: dict[str, tuple[Message, Button]] = {}
    for message in emu.channel_messages(channel):
        for button in message.buttons():
            match = ID.match(button.custom_id or "")
            if match and not button.disabled:
                out[match["action"]] = (message, button)
    return out


def slots_of(emu: Emulator, channel: Any, kind: str) -> list[int]:
    """Slots whose table button is a ``peek`` (face down) or a ``return`` (empty)."""
    found = []
    for key in controls(emu, channel):
        action = _decode(key)
        if action["type"] == kind and "slot" in action and "pickup" not in action:
            found.append(int(action["slot"]))
    return sorted(found)


def _decode(key: str) -> dict[str, Any]:
    value: dict[str, Any] = json.loads(key)
    return value


async def press(
    emu: Emulator, user: Any, channel: Any, action: dict[str, Any]
) -> InteractionResult | None:
    """Click the table button carrying ``action`` (``None`` if it is not on screen)."""
    found = controls(emu, channel).get(encode_action(action))
    if found is None:
        return None
    message, button = found
    try:
        return await emu.click(user, message, button)
    except EmulatorError:  # the page was deleted (the game ended) between looking and clicking
        return None


async def wait_live(emu: Emulator, channel: Any, board: Message, slots: int) -> None:
    # Generous timeouts: conditions, not timing (a loaded machine is slow, not wrong).
    await until_text(emu, board, "**Play!**", timeout=60)
    await emu.wait_for(lambda: len(slots_of(emu, channel, "peek")) == slots, timeout=60)


async def settled(emu: Emulator, reply: Message, went: str) -> None:
    """Until a pick-up answer has lost its buttons and the tile's face (P-27) and says where the
    tile went (``went``, P-61)."""
    await emu.wait_for(lambda: not reply.buttons() and went in reply.text(), timeout=WAIT)
    assert not SYMBOL_RE.search(reply.text()), reply.text()


async def no_buttons_left(emu: Emulator, users: list[Any]) -> None:
    """Once the game is over, no private answer of anyone keeps a button (P-27)."""
    answers = [m for u in users for m in emu.ephemerals(u) if "picked up tile" in m.all_text()]
    assert answers
    await emu.wait_for(lambda: not any(m.buttons() for m in answers), timeout=WAIT)


def game_pages(emu: Emulator, channel: Any) -> list[Message]:
    return [
        m
        for m in emu.channel_messages(channel)
        if any(ID.match(b.custom_id or "") for b in m.buttons())
    ]


def picked_symbol(result: InteractionResult) -> str | None:
    text = told(result)
    if "You picked up tile" not in text:
        return None
    names = SYMBOL_RE.findall(text)
    assert len(names) == 1, text
    return str(names[0])


async def play_a_while(
    emu: Emulator, user: Any, channel: Any, rng: random.Random, rounds: int
) -> None:
    """Pick up random tiles; keep, put back, or drop into an empty slot of the table."""
    for _ in range(rounds):
        face_down = slots_of(emu, channel, "peek")
        if not face_down:
            return
        result = await press(emu, user, channel, peek(rng.choice(face_down)))
        if result is None or result.stale:
            continue
        if picked_symbol(result) is None:
            assert told(result) in (TOO_SLOW, HAND_FULL, *OVER), told(result)
            continue
        reply = private(result)
        assert reply is not None and reply.ephemeral
        roll = rng.random()
        if roll < 0.5:
            label = "✋ Keep"
        else:
            empty = slots_of(emu, channel, "return")
            if roll < 0.8 and empty:
                moved = await press(emu, user, channel, put_into(rng.choice(empty)))
                if moved is not None and not moved.stale and told(moved) == "":
                    continue
            label = "↩"
        button = next((b for b in reply.buttons() if (b.label or "").startswith(label)), None)
        if button is None:  # STOP came first: the answer lost its buttons (P-27)
            continue
        result = await emu.click(user, reply, button)
        assert result.stale or told(result) in ("", *OVER), told(result)


# -- the truth and the leak scan --------------------------------------------------------------


async def truth(world: World, game_id: int) -> tuple[dict[int, list[str]], BugsAndCo, Any]:
    """Each member's picked-up symbols in order (by user id), the final engine, the record."""
    store = await Store.open(world.bot.db_url, migrate=False)
    try:
        game = await store.get_game(game_id)
        assert game is not None
        seats = {s.seat: s.user_id for s in await store.seats(game_id)}
        actions = await store.actions(game_id)
    finally:
        await store.close()
    engine = BugsAndCo.new(game.players or 0, game.seed, game.options)
    peeks: dict[int, list[str]] = {uid: [] for uid in seats.values()}
    for record in actions:
        for event in engine.apply(record.seat, record.action):
            if event.type == "peeked":
                assert record.seat != SYSTEM and event.to == frozenset({record.seat})
                peeks[seats[record.seat]].append(str(event.data["name"]))
    assert engine.to_dict() == game.snapshot
    return peeks, engine, game


def versions(message: Message) -> list[MessageVersion]:
    return [*message.history, message.version()]


def version_text(version: MessageVersion) -> str:
    labels = [
        str(c[k])
        for c in walk_components(version.components)
        for k in ("label", "placeholder")
        if c.get(k)
    ]
    return "\n".join([version.text(), *labels])


def problems(
    user: Any, messages: list[Message], peeked: list[str], final_marker: str = "— game over"
) -> list[str]:
    """Every symbol a member was shown that they may not see (see the module docstring)."""
    found: list[str] = []
    shown: list[str] = []
    for message in messages:
        own = message.ephemeral_to is user
        for version in versions(message):
            text = version_text(version)
            names = SYMBOL_RE.findall(text)
            if final_marker in text:
                # The results reveal everything, on the board and in the copy of it that a
                # private panel settled after the last move carries (P-85).
                continue
            if own and "You picked up tile" in text:
                if len(names) != 1:
                    found.append(f"{user.name}: pick-up answer names {names}: {text!r}")
                continue
            if names:
                found.append(f"{user.name} saw {names} in {text!r}")
        if not own:
            continue
        # Each pick-up answer as first shown (it loses the face once settled, P-27); the
        # member's panel shows one answer after another (P-48).
        before = ""
        for version in versions(message):
            text = version.text()
            if "You picked up tile" in text and text != before:
                shown += SYMBOL_RE.findall(text)[:1]
            before = text
    if shown != peeked:
        found.append(f"{user.name} was shown {shown}, picked up {peeked}")
    return found


async def scan(world: World, game_id: int, users: list[Any]) -> list[str]:
    peeks, _, _ = await truth(world, game_id)
    out: list[str] = []
    for user in users:
        seen = world.emulator.visible_to(user, include_deleted=True)
        out += problems(user, seen, peeks.get(user.id, []))
        if world.emulator.dms(user):
            out.append(f"{user.name} got a DM")
    return out


def check_final(text: str, engine: BugsAndCo, names: list[str]) -> None:
    """The final message reveals every hand with its score, the box and the winners."""
    scores = engine.scores()
    for seat in range(engine.players):
        crown = "🏆 " if seat in engine.winners() else ""
        points = f"{scores[seat]} point{'' if scores[seat] == 1 else 's'}"
        assert f"{crown}{names[seat]} — {points}" in text, (names[seat], text)
        for symbol, n in Counter(engine.kept_symbols(seat)).items():
            if n != 3:
                name = box.SYMBOL_NAMES[symbol]
                assert f"{name} ×{n}" in text if n > 1 else name in text
    removed = Counter(box.symbol_of(t) for t in engine.state.removed)
    box_line = ", ".join(
        f"{box.SYMBOL_NAMES[s]}{f' ×{n}' if n > 1 else ''}" for s, n in sorted(removed.items())
    )
    assert f"Back in the box, never in play (7): {box_line}" in text
    won = [f"**{names[s]}**" for s in engine.winners()]
    assert all(w in text.split("\n", 2)[1] for w in won), text


# -- the tests --------------------------------------------------------------------------------


@pytest.mark.parametrize("world", [SCALED], indirect=True)
async def test_two_players_race_misuse_countdown_stop_and_results(world: World) -> None:
    emu, chan = world.emulator, world.channel
    alice, bob, carol = world.alice, world.bob, world.carol
    loop = asyncio.get_running_loop()
    board = await start_game(emu, alice, [bob], chan, GAME)

    # "1, 2, 3": a live timestamp, every button disabled until the signal
    text = await until_text(emu, board, "**1… 2… 3…**")
    assert re.search(r"play starts <t:\d+:R>", text)
    game_id = next(int(m["game"]) for b in board.buttons() if (m := ID.match(b.custom_id or "")))
    signal = min(deadlines(world.bot.db_path, game_id).values())
    await emu.wait_for(lambda: len(game_pages(emu, chan)) == 2, timeout=WAIT)
    assert all(
        b.disabled
        for m in game_pages(emu, chan)
        for b in m.buttons()
        if b.label not in ("My hand", "How to play")
    )
    await wait_live(emu, chan, board, 38)
    # Live no sooner than the signal's stored time, by the board's own history: a loaded
    # machine only makes it later (the emulator stamps each edit with the wall time).
    went_live = next(v for v in [*board.history, board.version()] if "**Play!**" in v.text())
    assert went_live.edited_at is not None and went_live.edited_at >= signal.timestamp() - 0.01
    assert "🔔 1, 2, 3… go! 38 tiles face down; trophies 3." in board.text()
    pages = game_pages(emu, chan)
    # the Trophy, My hand and How to play, then slots 1–20, 21–38
    assert [len(m.buttons()) for m in pages] == [23, 18]

    # two members grab the same tile at the same instant: one gets it, the other is told
    message, button = controls(emu, chan)[encode_action(peek(0))]
    results = await asyncio.gather(
        emu.click(alice, message, button), emu.click(bob, message, button)
    )
    got = [r for r in results if picked_symbol(r)]
    lost = [told(r) for r in results if not picked_symbol(r)]
    assert len(got) == 1 and lost == [TOO_SLOW], [told(r) for r in results]
    first = got[0]
    winner, loser = (alice, bob) if first is results[0] else (bob, alice)
    reply = private(first)
    assert reply is not None and reply.ephemeral
    assert [b.label for b in reply.buttons()] == ["✋ Keep", "↩ Put back (1)"]
    await emu.wait_for(lambda: board.has_button(label=f"✋ 1 {winner.name}"), timeout=WAIT)

    # misuse, each answered ephemerally
    hand_full = await press(emu, winner, chan, peek(1))
    assert hand_full is not None and told(hand_full) == HAND_FULL
    empty_hand = await press(emu, loser, chan, put_into(0))
    assert empty_hand is not None and told(empty_hand).startswith("Your hand is empty")
    stranger = await press(emu, carol, chan, peek(2))
    assert stranger is not None and told(stranger) == "You are not playing in this game."

    keep = reply.find_button(label="✋ Keep")
    assert told(await emu.click(winner, reply, keep)) == ""
    # The answer loses its buttons, and with them the tile's face (P-27, BC-8): Discord refuses
    # a second click on the Keep that is gone.
    await settled(emu, reply, "✋ You kept the tile from slot 1: it is face down in your hand")
    assert (await emu.click(winner, reply, keep)).stale
    await until_text(emu, board, f"✋ {winner.name} kept the tile from 1 (1 kept)")

    # the loser picks up tile 2 and drops it into the empty slot 1 from the table
    second = await press(emu, loser, chan, peek(1))
    assert second is not None and picked_symbol(second)
    panel = private(second)
    assert panel is not None
    await emu.wait_for(lambda: board.has_button(label="1 · empty"), timeout=WAIT)
    moved = await press(emu, loser, chan, put_into(0))
    assert moved is not None and told(moved) == ""
    await until_text(emu, board, f"↩ {loser.name} moved the tile from 2 into 1")
    # the tile left by the table: its answer settled, saying so
    await settled(emu, panel, "↩ You put the tile from slot 2 face down into slot 1.")
    # an old Keep for an earlier tile never acts on a later one; the later answer goes to
    # the same panel, edited in place (P-48)
    third = await press(emu, loser, chan, peek(0))
    assert third is not None and picked_symbol(third) and private(third) is panel
    put_back = panel.find_button(label="↩ Put back (1)")
    assert told(await emu.click(loser, panel, put_back)) == ""
    await until_text(emu, board, f"↩ {loser.name} put tile 1 back")
    await settled(emu, panel, "↩ You put the tile back face down into slot 1.")

    # the loser takes the only trophy: the final countdown starts, live on the board
    took = await press(emu, loser, chan, TROPHY)
    clicked_at, wall = loop.time(), time.time()
    assert took is not None and told(took) == (
        "🏆 You took the **3** trophy and stopped playing.\n"
        "It was the last trophy: everyone else has 10 seconds until STOP."
    )
    text = await until_text(emu, board, "The last trophy is gone")
    stamp = re.search(r"STOP <t:(\d+):R>", text)
    assert stamp and abs(int(stamp[1]) - (wall + COUNTDOWN)) <= 2
    assert board.find_button(label="🏆 No trophy left").disabled
    stopped = await press(emu, loser, chan, peek(5))
    assert stopped is not None and told(stopped) == STOPPED

    # the other member plays on during the countdown, and is holding a tile at STOP
    late = await press(emu, winner, chan, peek(6))
    assert late is not None and picked_symbol(late)
    late_panel = private(late)
    assert late_panel is not None
    assert told(await emu.click(winner, late_panel, late_panel.find_button(label="✋ Keep"))) == ""
    held = await press(emu, winner, chan, peek(7))
    assert held is not None and picked_symbol(held)
    held_panel = private(held)
    assert held_panel is not None

    text = await until_text(emu, board, "— game over", timeout=WAIT)
    # Never early; how late a loaded machine is is not this test's business (no upper bound).
    assert loop.time() - clicked_at >= COUNTDOWN - 1.0 * SCALE
    # actions after STOP are refused
    # STOP settled the answer whose tile went back
    await settled(emu, held_panel, "🛑 STOP sent the tile from slot 8 back face down into slot 8.")
    await emu.wait_for(lambda: not game_pages(emu, chan), timeout=WAIT)  # the pages are gone

    game_id = int(ID.match(keep.custom_id or "")["game"])  # type: ignore[index]
    _, engine, _ = await truth(world, game_id)
    # STOP is the system's, logged no earlier than the deadline the trophy set.
    store = await Store.open(world.bot.db_url, migrate=False)
    try:
        log = await store.actions(game_id)
    finally:
        await store.close()
    trophy = next(a for a in log if a.action == TROPHY)
    assert log[-1].seat == SYSTEM and log[-1].at >= trophy.at + timedelta(seconds=COUNTDOWN - 0.5)
    names = [alice.name, bob.name]  # seats in join order
    assert engine.state.seats[names.index(loser.name)].trophy == 3
    assert len(engine.state.seats[names.index(winner.name)].kept) == 2
    assert f"↩ STOP: {winner.name}'s tile from 8 went back into 8" in board.all_text()
    check_final(text, engine, names)
    assert await scan(world, game_id, [alice, bob, carol, world.dave]) == []
    await no_buttons_left(emu, [alice, bob])


@pytest.mark.parametrize("world", [SCALED], indirect=True)
async def test_seven_players_a_whole_game_with_a_trophy_race(world: World) -> None:
    emu, chan = world.emulator, world.channel
    players = [world.alice, world.bob, world.carol, world.dave, world.eve]
    players += [emu.add_user(n, guilds=[world.guild]) for n in ("fay", "gus")]
    board = await start_game(emu, players[0], players[1:], chan, GAME, timeout=60)
    await wait_live(emu, chan, board, 68)
    pages = game_pages(emu, chan)
    assert [len(m.buttons()) for m in pages] == [23, 25, 23]
    slots = [
        int(_decode(ID.match(b.custom_id or "")["action"])["slot"])  # type: ignore[index]
        for m in pages
        for b in m.buttons()
        if "slot" in (b.custom_id or "")
    ]
    assert slots == list(range(68))

    rng = random.Random(7)
    await asyncio.gather(
        *(play_a_while(emu, u, chan, random.Random(rng.random()), 4) for u in players)
    )

    # everyone grabs a trophy at once: 3, 3, 2, 2, 1 go to five of them, two are told
    message, button = controls(emu, chan)[encode_action(TROPHY)]
    results = await asyncio.gather(*(emu.click(u, message, button) for u in players))
    values = Counter(
        int(m[1]) for r in results if (m := re.search(r"You took the \*\*(\d)\*\* trophy", told(r)))
    )
    assert values == Counter({3: 2, 2: 2, 1: 1}), [told(r) for r in results]
    refused = [r for r in results if "You took" not in told(r)]
    assert len(refused) == 2
    assert all(r.stale or told(r) == "Too slow: no trophy is left." for r in refused)
    await until_text(emu, board, "The last trophy is gone", timeout=60)
    rest = [u for u, r in zip(players, results, strict=True) if r in refused]

    async def until_stop(user: Any, seed: float) -> None:
        rnd = random.Random(seed)
        loop = asyncio.get_running_loop()
        deadline = loop.time() + 2 * WAIT
        while "— game over" not in board.text():
            assert loop.time() < deadline, f"no game over within {2 * WAIT} s"
            await play_a_while(emu, user, chan, rnd, 1)
            await asyncio.sleep(0.05)

    await asyncio.gather(*(until_stop(u, i) for i, u in enumerate(rest)))
    text = await until_text(emu, board, "— game over", timeout=60)

    game_id = int(ID.match(button.custom_id or "")["game"])  # type: ignore[index]
    _, engine, record = await truth(world, game_id)
    assert engine.is_over and record.status == "finished"
    names = [u.name for u in players]
    check_final(text, engine, names)
    assert sum(len(p.kept) for p in engine.state.seats) > 0
    assert await scan(world, game_id, [*players, world.shy]) == []
    await no_buttons_left(emu, players)


@pytest.mark.parametrize("world", [SCALED], indirect=True)
async def test_a_restart_during_the_countdown_keeps_its_deadline_and_stop_still_comes(
    world: World,
) -> None:
    """The countdown's deadline outlives the process. While the bot is down the test moves the
    stored deadline (its clock for a process that is not running): first far ahead, so the bot
    surely comes back within the countdown however loaded the machine is; then into the past,
    as if the countdown ran out while the bot was down."""
    emu, chan = world.emulator, world.channel
    alice, bob = world.alice, world.bob
    db = world.bot.db_path

    board = await start_game(emu, alice, [bob], chan, GAME)
    await wait_live(emu, chan, board, 38)
    held = await press(emu, alice, chan, peek(0))
    assert held is not None and picked_symbol(held)
    held_panel = private(held)
    assert held_panel is not None
    keep = held_panel.find_button(label="✋ Keep")
    game_id = int(ID.match(keep.custom_id or "")["game"])  # type: ignore[index]
    took = await press(emu, bob, chan, TROPHY)
    assert took is not None and "10 seconds" in told(took)
    await until_text(emu, board, "The last trophy is gone")

    # killed, and back well within the countdown: the stored deadline is kept, not restarted
    await world.bot.kill()
    (key,) = await asyncio.to_thread(deadlines, db, game_id)  # STOP, and nothing else
    later = datetime.now(UTC) + timedelta(hours=1)
    await asyncio.to_thread(move_deadlines, db, game_id, later)
    await world.bot.start()
    # the buttons of the dead process still work in the new one, and the game is still live
    assert told(await emu.click(alice, held_panel, keep)) == ""
    await until_text(emu, board, f"✋ {alice.name} kept the tile from 1")
    assert await asyncio.to_thread(deadlines, db, game_id) == {key: later}

    # down past the deadline: STOP fires as soon as the bot is back
    await world.bot.kill()
    await asyncio.to_thread(move_deadlines, db, game_id, datetime.now(UTC) - timedelta(seconds=1))
    await world.bot.start()
    text = await until_text(emu, board, "— game over", timeout=WAIT)
    assert "🛑 STOP!" in text
    assert "🏆 bob — 3 points" in text and "alice — -1 points" in text
    assert told(await emu.click(alice, held_panel, keep)) in OVER
    store = await Store.open(world.bot.db_url, migrate=False)
    try:
        *_, stop = await store.actions(game_id)
    finally:
        await store.close()
    assert stop.seat == SYSTEM and await asyncio.to_thread(deadlines, db, game_id) == {}


def test_the_leak_scan_catches_planted_leaks() -> None:
    """``problems`` fails on a symbol in a public message, a wrong or extra pick-up answer, and
    a missing one; and accepts the results and a correct answer."""
    from bot.emulator.models import Channel, User

    ann, ben = User(1, "ann"), User(2, "ben")
    channel = Channel(10, "games", 0)
    ant, bee = box.SYMBOL_NAMES[0], box.SYMBOL_NAMES[1]

    def msg(mid: int, content: str, to: Any = None) -> Message:
        return Message(mid, channel, User(99, "bot", bot=True), content=content, ephemeral_to=to)

    answer = msg(1, f"You picked up tile 3\n**{ant}** 👁👁", ann)
    answer.flags = 64
    board = msg(2, "🐞 Bugs & Co\n👀 ann picked up tile 3")
    results = msg(3, f"🐞 Bugs & Co — game over\nann: {ant}, {bee}")
    assert problems(ann, [answer, board, results], [ant]) == []
    assert problems(ben, [board, results], []) == []
    settled = msg(5, f"↩ You put the tile back\n🐞 Bugs & Co — game over\nann: {ant}, {bee}", ben)
    settled.flags = 64
    assert problems(ben, [board, settled], []) == []

    board.apply_edit({"content": f"🐞 Bugs & Co\nann holds a {bee}"}, now=0)
    board.apply_edit({"content": "🐞 Bugs & Co"}, now=1)  # gone now, but it was seen
    assert problems(ben, [board], []) != []
    board.history.clear()
    assert problems(ann, [answer, board], [bee]) != []  # shown the wrong symbol
    assert problems(ann, [board], [ant]) != []  # never shown what was picked up
    assert problems(ann, [answer, answer], [ant]) != []  # shown more than picked up
    leaky = msg(4, f"You picked up tile 3\n**{ant}** and also {bee}", ann)
    assert problems(ann, [leaky], [ant]) != []
