"""Bug Run end to end, through the emulator and the real bot process.

Members play whole games by clicks only. Each step, the member whose decision it is picks one
of their legal actions and finds its control where a player would: a public choice on the board
and in their one Bug Run DM by turns (so every game uses both, whatever its random play), a
secret one in the DM, or, with DMs closed, in the ephemeral **My hand** answer. The test keeps
its own copy of the engine (from the stored seed and log once), applies what was clicked, and at
the end checks it against the stored snapshot, the stored log, the results and the final board.

The leak scan reads every version of every message each member could see and checks that no
secret (a seat's VP, a secret loot card in a hand, the loot cards a seat chooses between) was
shown to anyone else; ``planted_leaks_are_caught`` proves the scan can fail.
"""

from __future__ import annotations

import io
import json
import random
import re
from dataclasses import dataclass, field
from typing import Any

import pytest
from PIL import Image

from bot.discord.codec import encode_action, game_button_id
from bot.emulator.models import Message, walk_components
from bot.store import Store
from bot.ui.games.bug_run import is_private
from bot.ui.presenter import SETTLED
from rules.bug_run import content as C
from rules.bug_run.engine import BugRun
from rules.core import SYSTEM, replay

from .conftest import World
from .helpers import DEFERRED_UPDATE, WAIT, click, private, start_game, told

GAME = "bug-run"
FAST = {"board_edit_interval": 0.01}
SECRET_NAMES = sorted(
    {t["name"] for t in C.LOOT_TYPES if t["type"] == "secret"}, key=len, reverse=True
)
SECRET_IDS = re.compile(r'"(?:card|replace|extra)":"(LT(?:0[1-9]|1[0-3])-\d+)"')
OWNER = re.compile(r"Game #\d+ · (.+?) · only you can see this")
VP_LINE = re.compile(r"Your victory points \(secret\)\n\*\*(\d+)\*\* VP")


def bias(rng: random.Random, options: list[dict[str, Any]]) -> dict[str, Any]:
    """A member's pick: any legal action, ending trading more often than a uniform pick would
    (random trading turns are long and teach nothing more)."""
    ends = [a for a in options if a["type"] == "end_turn"]
    if ends and rng.random() < 0.6:
        return ends[0]
    return rng.choice(options)


@dataclass
class Step:
    seat: int
    turn: int
    action: dict[str, Any]
    where: str


@dataclass
class BugRunGame:
    world: World
    board: Message
    users: list[Any]
    store: Store
    engine: BugRun
    game_id: int
    rng: random.Random
    closed: set[int] = field(default_factory=set)
    """Seats whose member has closed DMs (they play from the board and **My hand**)."""
    steps: list[Step] = field(default_factory=list)
    states: list[dict[str, Any]] = field(default_factory=list)
    used: dict[str, int] = field(default_factory=dict)
    public_steps: int = 0
    """Public choices made so far: they alternate between the board and the DM (``where``)."""

    @property
    def emu(self) -> Any:
        return self.world.emulator

    def control(self, message: Message, action: dict[str, Any]) -> tuple[str, str | None] | None:
        """The button (custom id) or select (custom id, value) on ``message`` for ``action``."""
        turn = self.engine.turn
        wanted = game_button_id(self.game_id, turn, action)
        for button in message.buttons():
            if button.custom_id == wanted and not button.disabled:
                return wanted, None
        value = encode_action(action)
        for select in message.selects():
            mine = select.custom_id.startswith(f"s:{self.game_id}:{turn}:")
            if mine and value in [o.get("value") for o in select.options]:
                return select.custom_id, value
        return None

    def where(self, seat: int, action: dict[str, Any]) -> str:
        """Where the member of ``seat`` clicks for ``action``: a secret choice in their DM (or
        **My hand** with DMs closed); a public one on the board, and now and then in **My hand**
        (which offers every choice), so every game uses all three (P-16)."""
        if is_private(action, self.engine.view(seat)):
            return "dm" if seat not in self.closed else "my_hand"
        self.public_steps += 1
        return "my_hand" if self.public_steps % 5 == 0 else "board"

    async def find(self, seat: int, action: dict[str, Any]) -> tuple[Message, str, str | None]:
        """The control the member of ``seat`` clicks for ``action`` now, where ``where`` says
        (waits for the message to offer it)."""
        user = self.users[seat]
        place = self.where(seat, action)
        if place != "my_hand":

            def look() -> tuple[Message, str, str | None] | None:
                messages = [self.board] if place == "board" else self.emu.dms(user)
                for message in messages:
                    found = self.control(message, action)
                    if found is not None:
                        return message, found[0], found[1]
                return None

            try:
                message, custom_id, value = await self.emu.wait_for(look, timeout=WAIT)
            except TimeoutError:
                shown = [self.board] if place == "board" else self.emu.dms(user)
                controls = [
                    (c.get("custom_id"), [o.get("value") for o in c.get("options", [])])
                    for m in shown
                    for c in walk_components(m.version().components)
                ]
                raise AssertionError(
                    f"no control for {action} at turn {self.engine.turn} in the {place}:\n"
                    f"{chr(10).join(m.text() for m in shown)}\ncontrols: {controls}"
                ) from None
        else:  # closed DMs and a secret choice: the ephemeral "My hand" answer has it
            result = await click(self.emu, user, self.board, "My hand")
            panel = private(result)
            assert panel is not None, result
            found = self.control(panel, action)
            assert found is not None, (action, panel.text())
            message, (custom_id, value) = panel, found
        self.used[place] = self.used.get(place, 0) + 1
        return message, custom_id, value

    async def step(self) -> None:
        engine = self.engine
        (seat,) = engine.waiting_for()
        action = bias(self.rng, engine.legal_actions(seat))
        message, custom_id, value = await self.find(seat, action)
        user = self.users[seat]
        if value is None:
            result = await self.emu.click(user, message, custom_id)
        else:
            result = await self.emu.select(user, message, custom_id, [value])
        assert result.acknowledged and not result.stale, result
        answer = told(result)
        # A panel settled (P-27) while this click waited for its answer reads as told to it:
        # the emulator cannot tell a settling edit from an answer (P-48).
        assert not answer or answer.startswith(("🤫", "🎁", "⭐", SETTLED)), answer
        self.steps.append(Step(seat, engine.turn, action, custom_id))
        engine.apply(seat, action)
        self.states.append(engine.to_dict())

    async def play(self, most: int = 10_000) -> None:
        for _ in range(most):
            if self.engine.is_over:
                return
            await self.step()


async def new_game(world: World, users: list[Any], seed: int, **opts: str) -> BugRunGame:
    """Start a game; the test's engine is the stored one: the game its seed and stored log give,
    which is also its stored snapshot (a decision clock may already have played: the log and the
    snapshot are read together, whatever the clock does meanwhile)."""
    board = await start_game(world.emulator, users[0], users[1:], world.channel, GAME, **opts)
    store = await Store.open(world.bot.db_url, migrate=False)
    record = await store.active_game_in_channel(world.channel.id)
    assert record is not None and record.snapshot is not None
    log = [(a.seat, a.action) for a in await store.actions(record.id)]
    snapshot = log[: record.snapshot_seq]  # the snapshot follows these (SNAPSHOT_EVERY=1)
    assert replay(GAME, len(users), record.seed, record.options, snapshot).to_dict() == (
        record.snapshot
    )
    engine = BugRun.new(len(users), record.seed, record.options)
    game = BugRunGame(world, board, users, store, engine, record.id, random.Random(seed))
    game.states.append(engine.to_dict())
    for seat, action in log:  # moves the test did not make (a clock's): its copy follows
        engine.apply(seat, action)
        game.states.append(engine.to_dict())
    return game


def picture(emu: Any, message: Message) -> Image.Image:
    """The board picture a member sees: the one attachment, shown in the embed."""
    (attachment,) = message.attachments
    assert attachment["filename"] == "bug-run.png"
    assert message.embeds[0]["image"]["url"] == "attachment://bug-run.png"
    return Image.open(io.BytesIO(emu.attachment_bytes(attachment)))


async def finish_and_check(game: BugRunGame) -> None:
    """Stored log, snapshot, results and final board agree with what was clicked."""
    store = game.store
    assert game.engine.is_over
    (record,) = await store.finished_games()
    log = [(a.seat, a.action) for a in await store.actions(record.id)]
    assert log == [(s.seat, s.action) for s in game.steps]
    replayed = replay(GAME, record.players or 0, record.seed, record.options, log)
    assert replayed.to_dict() == record.snapshot == game.engine.to_dict()
    results = {r.seat: r for r in await store.results(record.id)}
    scores, winners = game.engine.scores(), game.engine.winners()
    for seat, result in results.items():
        assert result.score == scores[seat] and result.winner == (seat in winners)
    await game.emu.wait_for(lambda: "game over" in game.board.text(), timeout=WAIT)
    text = game.board.text()
    for seat in winners:
        assert f"**{game.users[seat].name}**" in text
    for seat, user in enumerate(game.users):
        assert f"{user.name} — {scores[seat]} VP" in text
    assert [b.label for b in game.board.buttons()] == ["Rematch", "How to play"]
    # The final picture follows the words (P-57), and is never held back (P-86).
    await game.emu.wait_for(
        lambda: (
            [a.get("description", "") for a in game.board.attachments]
            and "game over" in game.board.attachments[0].get("description", "").lower()
        ),
        timeout=WAIT,
    )
    image = picture(game.emu, game.board)
    assert image.format == "PNG" and image.width >= 800


# -- the leak scan ----------------------------------------------------------------------------


@dataclass
class Seen:
    viewer: str
    own: bool
    text: str
    custom_ids: list[str]
    where: str


def everything_seen(world: World, users: list[Any]) -> list[Seen]:
    out = []
    for user in {*users, world.mod, world.shy, world.eve}:
        for message in world.emulator.visible_to(user, include_deleted=True):
            own = message.ephemeral_to is user or message.channel.recipient is user
            for number, version in enumerate([*message.history, message.version()]):
                comps = list(walk_components(version.components))
                labels = [str(c.get("label", "")) for c in comps]
                labels += [str(o.get("label", "")) for c in comps for o in c.get("options", [])]
                out.append(
                    Seen(
                        user.name,
                        own,
                        "\n".join([version.text(), *labels]),
                        [str(c["custom_id"]) for c in comps if c.get("custom_id")],
                        f"{message!r} v{number}",
                    )
                )
    return out


def scan(seen_all: list[Seen], game: BugRunGame) -> list[str]:
    """Every way a member could have learnt another seat's secrets. Empty when none leaked."""
    names = [u.name for u in game.users]
    vps = [{s["seats"][i]["vp"] for s in game.states} for i in range(len(names))]
    hands = [{c for s in game.states for c in s["seats"][i]["hand"]} for i in range(len(names))]
    problems = []
    for seen in seen_all:
        found = []
        owner = OWNER.search(seen.text)
        if not seen.own:
            if owner or VP_LINE.search(seen.text) or "Your secret loot" in seen.text:
                found.append("a private message is shown where others can see it")
            if SECRET_IDS.search(" ".join(seen.custom_ids)):
                found.append(f"a public control carries a secret card: {seen.custom_ids}")
            # a card played or sold is named by the log (the engine announces both), and a
            # merchant's private trading turn exists only once one was played
            rest = seen.text.replace("an Itinerant Merchant's private trading turn", "")
            for name in SECRET_NAMES:
                rest = rest.replace(f"plays {name}", "").replace(f"sold {name}", "")
            for name in SECRET_NAMES:
                if name in rest:
                    at = rest.index(name)
                    found.append(
                        f"secret loot {name!r} named in public: {rest[max(0, at - 80) : at + 40]!r}"
                    )
        else:
            if owner and owner[1] != seen.viewer:
                found.append(f"{seen.viewer} was shown {owner[1]}'s secrets")
            seat = names.index(seen.viewer) if seen.viewer in names else None
            vp = VP_LINE.search(seen.text)
            if vp and (seat is None or int(vp[1]) not in vps[seat]):
                found.append(f"{seen.viewer} was shown {vp[1]} VP, never theirs")
            for ids in SECRET_IDS.findall(" ".join(seen.custom_ids)):
                limbo = {c for s in game.states for c in s["limbo"]}
                if seat is None or (ids not in hands[seat] and ids not in limbo):
                    found.append(f"{seen.viewer} was offered {ids}, never in their hand")
        problems += [f"{seen.viewer} saw {seen.where}: {p}" for p in found]
    return problems


def planted_leaks_are_caught(seen_all: list[Seen], game: BugRunGame) -> None:
    own = [s for s in seen_all if s.own and OWNER.search(s.text)]
    assert own, "nobody saw their own secrets"
    for s in own[:10]:
        assert scan([Seen("carol", False, s.text, s.custom_ids, "plant")], game)
        other = next(u.name for u in game.users if u.name != s.viewer)
        assert scan([Seen(other, True, s.text, s.custom_ids, "plant")], game)
    button = 'g:1:5:{"card":"LT11-1","type":"play"}'
    assert scan([Seen("mod", False, "🏃 Bug Run", [button], "plant")], game)
    assert scan([Seen("mod", False, "🏃 Bug Run\nalice holds Dibs!", [], "plant")], game)
    assert not scan([Seen("mod", False, "🃏 🪲 beetle (alice) plays Dibs!", [], "plant")], game)


# -- whole games ------------------------------------------------------------------------------


@pytest.mark.parametrize("world", [FAST], indirect=True)
async def test_a_three_player_game_played_by_clicks(world: World) -> None:
    w = world
    users = [w.alice, w.bob, w.carol]
    game = await new_game(w, users, seed=3, mode="powers")
    try:
        await game.play()
        await finish_and_check(game)
        assert game.used.get("board") and game.used.get("my_hand"), game.used
        for user in users:  # one DM per player per game, edited in place
            (dm,) = w.emulator.dms(user)
            assert len(dm.history) > 0
        seen = everything_seen(w, users)
        assert scan(seen, game) == []
        planted_leaks_are_caught(seen, game)
    finally:
        await game.store.close()


@pytest.mark.parametrize("world", [FAST], indirect=True)
async def test_a_two_player_game_with_two_heroes_each(world: World) -> None:
    w = world
    game = await new_game(w, [w.alice, w.bob], seed=2)
    try:
        seen_heroes: dict[str, set[str]] = {"alice": set(), "bob": set()}
        while not game.engine.is_over:
            active = game.engine.view(None)["active"]
            if active["hero"] is not None and active["prompt"] != "activate":
                hero = game.engine.view(None)["heroes"][active["hero"]]
                name = game.users[active["seat"]].name
                wanted = f"▶ **{name}** ({hero['name']}"

                def shows(line: str = wanted, hero_name: str = hero["name"]) -> bool:
                    return any(
                        ln.startswith(line.split(" (")[0]) and hero_name in ln
                        for ln in game.board.text().splitlines()
                    )

                await w.emulator.wait_for(shows, timeout=WAIT)
                seen_heroes[name].add(hero["name"])
            await game.step()
        await finish_and_check(game)
        assert all(len(heroes) == 2 for heroes in seen_heroes.values()), seen_heroes
        assert scan(everything_seen(w, game.users), game) == []
    finally:
        await game.store.close()


@pytest.mark.parametrize("world", [FAST], indirect=True)
async def test_a_five_player_game_on_the_two_floor_side(world: World) -> None:
    w = world
    users = [w.alice, w.bob, w.carol, w.dave, w.eve]
    game = await new_game(w, users, seed=5)
    try:
        view = game.engine.view(None)
        assert view["side"] == "large"
        assert any({"U", "D"} <= set(col) for col in view["board"])
        await w.emulator.wait_for(lambda: game.board.attachments, timeout=WAIT)
        first = picture(w.emulator, game.board)
        await game.play()
        await finish_and_check(game)
        # The phone picture keeps its width; its height follows the cards still ahead (P-55).
        assert first.width == picture(w.emulator, game.board).width
        assert scan(everything_seen(w, users), game) == []
    finally:
        await game.store.close()


@pytest.mark.parametrize("world", [FAST], indirect=True)
async def test_status_from_a_member_who_does_not_play_shows_only_visible_vp(world: World) -> None:
    """`/bugs status` is anyone's to ask: it gives each player's visible VP (P-38), never the
    face-down VP tokens that every total counts (5 each at the start, BR-68)."""
    w = world
    users = [w.alice, w.bob, w.carol]
    game = await new_game(w, users, seed=11)
    try:
        for _ in range(12):
            await game.step()
        engine = game.engine
        visible, totals = engine.public_scores(), engine.scores()
        assert all(v < t for v, t in zip(visible, totals, strict=True))
        text = told(await w.emulator.slash(w.dave, w.channel, "bugs status"))
        for seat, user in enumerate(users):
            assert f"{user.name} ({visible[seat]} visible VP)" in text, text
            assert f"{user.name} ({totals[seat]}" not in text, text
    finally:
        await game.store.close()


@pytest.mark.parametrize("world", [FAST], indirect=True)
async def test_details_and_the_full_board_are_a_private_click_away(world: World) -> None:
    """The phone board (P-55): a portrait picture with alt text in words, at most 15 lines
    beside it; Details and Full board answer whoever clicks, privately, through the click's
    own interaction (none of the global budget)."""
    w = world
    users = [w.alice, w.bob]
    game = await new_game(w, users, seed=3)
    try:
        await w.emulator.wait_for(lambda: game.board.attachments, timeout=WAIT)
        board = picture(w.emulator, game.board)
        assert board.height > board.width == 800
        (attachment,) = game.board.attachments
        assert str(attachment.get("description", "")).startswith("Bug Run, level 1 of 4")
        assert len(game.board.text().splitlines()) <= 15
        # The start's own DMs (each member's secrets) are out first: only the clicks count.
        await w.emulator.wait_for(
            lambda: all(any(m.id > game.board.id for m in w.emulator.dms(u)) for u in users),
            timeout=WAIT,
        )
        before = len(w.emulator.requests)
        details = await click(w.emulator, w.dave, game.board, "Details")
        shown = await details.wait_message(timeout=WAIT)
        assert shown.ephemeral and "Basic equipment (sword or bow +2)" in shown.text()
        full = await click(w.emulator, w.dave, game.board, "Full board")
        assert full.type == DEFERRED_UPDATE and not full.followups  # no message of its own
        # The same message shows the desktop picture now (P-62).
        await w.emulator.wait_for(lambda: "whole board" in shown.text(), timeout=WAIT)
        (desktop,) = shown.attachments
        image = Image.open(io.BytesIO(w.emulator.attachment_bytes(desktop)))
        assert image.width == 1280
        # Both answers went through the clicks' own tokens, never a channel post.
        posted = w.emulator.route_counts(before, klass="global")
        assert not [r for r in posted if r.startswith("POST")], posted
    finally:
        await game.store.close()


async def test_details_and_full_board_clicks_reuse_one_message_per_member(world: World) -> None:
    """P-62: however often a member clicks Details and Full board, one message shows the newest
    answer, apart from the member's panel (P-48); a dismissed one is replaced once."""
    w = world
    users = [w.alice, w.bob]
    game = await new_game(w, users, seed=3)
    try:
        emu, board = w.emulator, game.board
        await emu.wait_for(lambda: board.attachments, timeout=WAIT)
        before = len(emu.requests)
        made = {user: len(emu.ephemerals_created(user)) for user in (w.alice, w.dave)}
        first = await click(emu, w.dave, board, "Details")
        look = await first.wait_message(timeout=WAIT)
        for label, says, pictures in [
            ("Full board", "whole board", 1),
            ("Details", "Basic equipment (sword or bow +2)", 0),
            ("Details", "Basic equipment (sword or bow +2)", 0),
            ("Full board", "whole board", 1),
            ("Full board", "whole board", 1),
            ("Details", "Basic equipment (sword or bow +2)", 0),
        ]:
            edits = len(look.history)
            result = await click(emu, w.dave, board, label)
            assert result.type == DEFERRED_UPDATE and not result.followups, label
            await emu.wait_for(lambda edits=edits: len(look.history) > edits, timeout=WAIT)
            assert says in look.text() and len(look.attachments) == pictures, label
        assert len(emu.ephemerals_created(w.dave)) == made[w.dave] + 1

        # A player's look is not their panel: My hand keeps its own message, and neither
        # click takes the other's place.
        hand = private(await click(emu, w.alice, board, "My hand"))
        assert hand is not None
        hand_text = hand.text()
        details = await click(emu, w.alice, board, "Details")
        alices = await details.wait_message(timeout=WAIT)
        assert alices is not hand and "Basic equipment" in alices.text()
        await click(emu, w.alice, board, "Full board")
        await emu.wait_for(lambda: "whole board" in alices.text(), timeout=WAIT)
        assert hand.text() == hand_text and not hand.deleted
        assert len(emu.ephemerals_created(w.alice)) == made[w.alice] + 2

        # Dismissed: the next click makes one new look, which later clicks edit.
        emu.dismiss(look)
        again = await click(emu, w.dave, board, "Full board")
        replaced = await again.wait_followup(timeout=WAIT)
        assert replaced.ephemeral and "whole board" in replaced.text() and replaced.attachments
        edits = len(replaced.history)
        await click(emu, w.dave, board, "Details")
        await emu.wait_for(lambda: len(replaced.history) > edits, timeout=WAIT)
        assert "Basic equipment" in replaced.text() and not replaced.attachments
        assert len(emu.ephemerals_created(w.dave)) == made[w.dave] + 2
        posted = emu.route_counts(before, klass="global")
        assert not [r for r in posted if r.startswith("POST")], posted
    finally:
        await game.store.close()


# -- restart, closed DMs, misuse --------------------------------------------------------------


@pytest.mark.parametrize("world", [FAST], indirect=True)
async def test_sigkill_mid_adventure_resumes_and_old_buttons_work(world: World) -> None:
    w = world
    users = [w.alice, w.bob, w.carol]
    game = await new_game(w, users, seed=7)
    try:
        while game.engine.view(None)["phase"] != "adventure" or len(game.steps) < 25:
            await game.step()
        (seat,) = game.engine.waiting_for()
        action = bias(game.rng, game.engine.legal_actions(seat))
        message, custom_id, value = await game.find(seat, action)
        await w.bot.kill()
        await w.bot.start()
        # the button seen before the crash still works: the same message, the same turn
        if value is None:
            result = await w.emulator.click(users[seat], message, custom_id)
        else:
            result = await w.emulator.select(users[seat], message, custom_id, [value])
        assert result.acknowledged and not result.stale, result
        assert not told(result) or told(result).startswith(("🤫", "🎁", "⭐")), told(result)
        game.steps.append(Step(seat, game.engine.turn, action, custom_id))
        game.engine.apply(seat, action)
        game.states.append(game.engine.to_dict())
        await game.play()
        await finish_and_check(game)
        for user in users:  # still one DM each: the restart adopted them
            assert len(w.emulator.dms(user)) == 1
    finally:
        await game.store.close()


@pytest.mark.parametrize("world", [FAST], indirect=True)
async def test_closed_dms_play_through_my_hand(world: World) -> None:
    w = world
    users = [w.alice, w.shy, w.bob]
    game = await new_game(w, users, seed=11)
    game.closed = {1}
    try:

        def notice() -> list[Message]:
            return [
                m
                for m in w.emulator.channel_messages(w.channel)
                if "can't send you direct messages" in m.text()
            ]

        await w.emulator.wait_for(notice, timeout=WAIT)
        mine = await click(w.emulator, w.shy, game.board, "My hand")
        assert mine.ephemeral and "only you can see this" in told(mine)
        assert "Your victory points (secret)" in told(mine)
        await game.play()
        await finish_and_check(game)
        assert w.emulator.dms(w.shy) == []
        seen = everything_seen(w, users)
        assert scan(seen, game) == []
    finally:
        await game.store.close()


@pytest.mark.parametrize("world", [FAST], indirect=True)
async def test_misuse_is_answered_privately_and_changes_nothing(world: World) -> None:
    w = world
    emu = w.emulator
    users = [w.alice, w.bob]
    game = await new_game(w, users, seed=13)
    try:
        (seat,) = game.engine.waiting_for()
        other = users[1 - seat]
        action = bias(game.rng, game.engine.legal_actions(seat))
        await emu.wait_for(lambda: game.control(game.board, action), timeout=WAIT)
        found = game.control(game.board, action)
        assert found is not None
        custom_id, value = found
        version = game.board.version()

        async def press(user: Any) -> str:
            if value is None:
                result = await emu.click(user, game.board, custom_id)
            else:
                result = await emu.select(user, game.board, custom_id, [value])
            assert result.acknowledged and result.ephemeral, result
            return told(result)

        assert await press(other) == "It is not your turn."
        assert await press(w.mod) == "You are not playing in this game."
        # a forged option value that the game never offered
        menus = [m for m in game.board.selects() if m.custom_id.startswith("s:")]
        if menus:
            forged = json.dumps({"type": "move", "col": 99, "floor": "C", "space": 0})
            result = await emu.select(users[seat], game.board, menus[0].custom_id, [forged])
            assert result.ephemeral and told(result), result
        assert game.board.version().components == version.components
        record = await game.store.active_game_in_channel(w.channel.id)
        assert record is not None and record.snapshot == game.engine.to_dict()
        # the real click works; then the same click again (a double click that Discord
        # delivers with the message as it is now) is from an earlier decision
        await game.step()
        emu.interactions.deliver_stale_clicks = True
        again = await press(users[seat])
        assert "earlier decision" in again, again
        emu.interactions.deliver_stale_clicks = False
        # a second game in a busy channel
        busy = await emu.slash(w.carol, w.channel, f"bugs new {GAME}")
        assert busy.ephemeral and told(busy) == "There is already a game in this channel."
        record = await game.store.active_game_in_channel(w.channel.id)
        assert record is not None and record.snapshot == game.engine.to_dict()
    finally:
        await game.store.close()


@pytest.mark.parametrize("world", [{**FAST, "timers__bugrun_turn": 0.3}], indirect=True)
async def test_the_decision_clock_takes_the_default_and_the_game_goes_on(world: World) -> None:
    w = world
    users = [w.alice, w.bob]
    game = await new_game(w, users, seed=17)
    try:
        await w.emulator.wait_for(lambda: "ran out of time" in game.board.text(), timeout=WAIT)
        line = next(ln for ln in game.board.text().splitlines() if "ran out of time" in ln)
        assert any(u.name in line for u in users), line
        record = await game.store.active_game_in_channel(w.channel.id)
        assert record is not None
        log = [(a.seat, a.action) for a in await game.store.actions(record.id)]
        assert log and all(seat == SYSTEM and action["type"] == "afk" for seat, action in log)
        # The clock plays on while this reads: the snapshot follows the actions read with it.
        replayed = replay(GAME, 2, record.seed, record.options, log[: record.snapshot_seq])
        assert replayed.to_dict() == record.snapshot
        fresh = BugRun.new(2, record.seed, record.options)
        assert replay(GAME, 2, record.seed, record.options, log).turn > fresh.turn  # went on
    finally:
        await game.store.close()
