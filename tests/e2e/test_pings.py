"""Turn pings (docs/rulings.md P-28, P-46): a member is pinged in the channel only once the game
has waited on them for `PING_AFTER` seconds, once per wait, in the game's one ping message (a new
one replaces it). The board names whom the game waits on without notifying anyone, and
`/bugs settings` turns a member's pings off. The delays are the bot's real ones, made short by
the settings; the tests wait for what they assert, never for time to pass."""

from __future__ import annotations

import random
from typing import Any

import pytest

from bot.emulator import Emulator
from bot.emulator.models import Message
from bot.store import Store
from tests.support.wait import until

from .conftest import World
from .helpers import WAIT, click, open_game, told, until_text
from .test_bug_off import FAST, Game, mixed, new_game

PATIENT = {**FAST, "ping_after": 600}
"""Far longer than any member of a test takes to answer: a ping would mean a bug."""
SLOW = {**FAST, "ping_after": 0.25, "timers__bugoff_turn": 4.0}
"""A ping falls due a quarter of a second into a wait, long before the turn clock (4 s) ends it:
a member who never answers shows how many pings one wait gets."""
AT_ONCE = {**FAST, "ping_after": 0}


def pings(emu: Emulator, channel: Any, *, deleted: bool = False) -> list[Message]:
    """The channel's turn pings, oldest first (``deleted``: those already gone too)."""
    return sorted(
        (
            m
            for m in emu.world.messages.values()
            if m.channel is channel
            and m.ephemeral_to is None
            and m.content.startswith("🔔 <@")
            and (deleted or not m.deleted)
        ),
        key=lambda m: m.id,
    )


async def first_to_draw(world: World, game: Game) -> tuple[Any, Any]:
    """Alice and Bob's game: who draws first, and the other one."""
    ready = await game.ready(0)
    assert ready is not None
    sleeper, _ = ready
    return sleeper, world.bob if sleeper is world.alice else world.alice


async def ping_for(game: Game, user: Any, after: int = 0) -> Message:
    """Until the one live ping, newer than message ``after``, notifies ``user`` (only them)."""
    emu, channel = game.emu, game.world.channel

    def found() -> Message | None:
        live = pings(emu, channel)
        ok = len(live) == 1 and live[0].notified == (user.id,) and live[0].id > after
        return live[0] if ok else None

    message: Message = await emu.wait_for(found, timeout=WAIT)
    return message


def pinged(game: Game, user: Any) -> int:
    """How many ping messages, live or deleted, have notified ``user``."""
    ever = pings(game.emu, game.world.channel, deleted=True)
    return sum(1 for m in ever if user.id in m.notified)


@pytest.mark.parametrize("world", [PATIENT], indirect=True)
async def test_a_game_where_everyone_answers_in_time_sends_no_ping(world: World) -> None:
    emu, channel = world.emulator, world.channel
    game = await new_game(world, [world.alice, world.bob, world.carol], seed=23)
    try:
        await game.play_to_end(mixed(game))
        assert game.turns > 10
        assert pings(emu, channel, deleted=True) == []
        # The board named each player in turn, in edits that notified nobody.
        versions = [*game.board.history, game.board.version()]
        for user in game.users:
            assert any(f"🔔 Your move: <@{user.id}>" in v.content for v in versions)
        assert game.board.notified == ()
    finally:
        await game.store.close()


@pytest.mark.parametrize("world", [SLOW], indirect=True)
async def test_a_slow_player_is_pinged_once_per_wait(world: World) -> None:
    emu = world.emulator
    game = await new_game(world, [world.alice, world.bob], seed=21)
    try:
        sleeper, other = await first_to_draw(world, game)
        # Nobody draws: PING_AFTER into the wait, one ping notifies the player (only them).
        first = await ping_for(game, sleeper)
        assert "your turn, press **Draw**" in first.content and "/bugs settings" in first.content
        assert f"🔔 Your move: <@{sleeper.id}>" in game.board.content
        assert game.board.notified == ()
        # They stay idle until the turn clock plays for them: that whole wait got one ping.
        await until_text(emu, game.board, f"⏰ {sleeper.name} ran out of time", timeout=WAIT)
        assert pinged(game, sleeper) == 1

        # The other player is slow too: their ping replaces the first (one per game).
        second = await ping_for(game, other, after=first.id)
        assert first.deleted
        ready = await game.ready(1)
        assert ready is not None and ready[0] is other
        # They draw (their own move ends that wait), then are slow to place: a new wait, and
        # one new ping for it, again replacing the last.
        drew = await click(emu, other, game.board, "Draw")
        assert drew.message is not None and "You drew" in told(drew), told(drew)
        third = await ping_for(game, other, after=second.id)
        assert second.deleted
        await until_text(emu, game.board, f"⏰ {other.name} ran out of time", timeout=WAIT)
        assert pinged(game, other) == 2 and pinged(game, sleeper) == 1
        assert third.notified == (other.id,)
    finally:
        await game.store.close()


@pytest.mark.parametrize("world", [AT_ONCE], indirect=True)
async def test_pings_switched_off_in_settings_leave_the_board_naming_the_member(
    world: World,
) -> None:
    emu, channel, bob = world.emulator, world.channel, world.bob
    shown = told(await emu.slash(bob, channel, "bugs settings"))
    assert "Turn pings: on" in shown
    off = await emu.slash(bob, channel, "bugs settings", pings=False)
    assert off.ephemeral and "Saved. 🔕 **Turn pings: off.**" in told(off)
    assert "Turn pings: off" in told(await emu.slash(bob, channel, "bugs settings"))

    game = await new_game(world, [world.alice, bob], seed=22)
    try:
        turn: int | None = 0
        for _ in range(2):  # alice's turn and bob's, in either order
            assert turn is not None
            turn = await game.play_turn(turn, lambda user: "reply")
        await emu.wait_for(lambda: pinged(game, world.alice), timeout=WAIT)
        ever = pings(emu, channel, deleted=True)
        assert all(m.notified == (world.alice.id,) for m in ever)
        assert not any(f"<@{bob.id}>" in m.content for m in ever)
        # The board named bob while it was his turn, and that edit notified nobody.
        versions = [*game.board.history, game.board.version()]
        assert any(f"🔔 Your move: <@{bob.id}>" in v.content for v in versions)
        assert game.board.notified == ()

        back = await emu.slash(bob, channel, "bugs settings", pings=True)
        assert "Turn pings: on" in told(back)
        while not pinged(game, bob):
            assert turn is not None
            turn = await game.play_turn(turn, lambda user: "reply")
    finally:
        await game.store.close()


RESTART = {**FAST, "ping_after": 0.25, "timers__bugoff_turn": 10.0}
"""As ``SLOW``, with a turn clock that outlasts a restart of the bot."""


@pytest.mark.parametrize("world", [RESTART], indirect=True)
async def test_a_restart_does_not_ping_a_wait_again(world: World) -> None:
    """Killed while the game waits on a slow player who was pinged: the restarted bot loads the
    game at its first use (the other player's My hand) and does not ping that wait again; the
    next wait is pinged as always, replacing the ping of the dead process."""
    emu = world.emulator
    game = await new_game(world, [world.alice, world.bob], seed=24)
    try:
        sleeper, other = await first_to_draw(world, game)
        first = await ping_for(game, sleeper)
        record = await game.store.active_game_in_channel(world.channel.id)
        assert record is not None

        async def stored() -> bool:
            ping = (await game.store.messages(record.id)).get("ping")
            return ping is not None and ping.message_id == first.id

        await until(stored, timeout=WAIT, what="the ping stored")  # killed once it is known
        await world.bot.kill()
        await world.bot.start()
        hand = await click(emu, other, game.board, "My hand")
        assert hand.ephemeral, told(hand)
        await until_text(emu, game.board, f"⏰ {sleeper.name} ran out of time", timeout=WAIT)
        second = await ping_for(game, other, after=first.id)
        assert first.deleted and pinged(game, sleeper) == 1
        assert second.notified == (other.id,)
    finally:
        await game.store.close()


def global_requests(emu: Emulator, method: str, path: str) -> int:
    """Requests made with the bot's own token (the global budget's) to exactly ``path``."""
    return sum(
        1 for r in emu.requests if r.method == method and r.path == path and r.klass == "global"
    )


@pytest.mark.parametrize("world", [SLOW], indirect=True)
async def test_pings_go_through_a_clicks_token_and_cost_no_global_request(world: World) -> None:
    """P-88: the ping is a follow-up of the game's freshest click in its channel, and is
    deleted through that click's token too: none of it counts against the bot's 50 requests a
    second."""
    emu, channel = world.emulator, world.channel
    game = await new_game(world, [world.alice, world.bob], seed=21)
    try:
        sleeper, other = await first_to_draw(world, game)
        first = await ping_for(game, sleeper)
        assert first.webhook_id is not None  # a follow-up, not a message of the bot's token
        await until_text(emu, game.board, f"⏰ {sleeper.name} ran out of time", timeout=WAIT)
        second = await ping_for(game, other, after=first.id)
        assert first.deleted and second.webhook_id is not None
        assert global_requests(emu, "POST", f"/channels/{channel.id}/messages") == 0
        assert global_requests(emu, "DELETE", f"/channels/{channel.id}/messages/{first.id}") == 0
        deleted = [
            r
            for r in emu.requests
            if r.method == "DELETE" and r.path.endswith(f"/messages/{first.id}")
        ]
        assert [(r.klass, r.status) for r in deleted] == [("interaction", 204)]
    finally:
        await game.store.close()


@pytest.mark.parametrize("world", [SLOW], indirect=True)
async def test_a_game_started_by_commands_pings_through_a_commands_token(
    world: World,
) -> None:
    """``/bugs new``, ``join`` and ``start`` are interactions in the channel too: with no
    click since, the ping is a follow-up of one of them (of ``/bugs new`` here: a kept token
    gives way to a newer one only once it is a minute old, P-88)."""
    emu, channel = world.emulator, world.channel
    board = await open_game(emu, world.alice, channel, "bug-off")
    joined = await emu.slash(world.bob, channel, "bugs join")
    assert joined.acknowledged and "You joined" in told(joined), told(joined)
    await emu.wait_for(lambda: not board.find_button(label="Start").disabled, timeout=WAIT)
    started = await emu.slash(world.alice, channel, "bugs start")
    assert started.acknowledged and "has started" in told(started), told(started)
    store = await Store.open(world.bot.db_url, migrate=False)
    game = Game(world, board, [world.alice, world.bob], store, random.Random(25))
    try:
        sleeper, _ = await first_to_draw(world, game)
        ping = await ping_for(game, sleeper)
        assert ping.webhook_id is not None and ping.interaction is not None
        assert ping.interaction["type"] == 2, ping.interaction  # an application command
        assert ping.interaction["name"] in ("bugs new bug-off", "bugs join", "bugs start")
        assert global_requests(emu, "POST", f"/channels/{channel.id}/messages") == 0
    finally:
        await store.close()


LATER = {**FAST, "ping_after": 1.0, "timers__bugoff_turn": 6.0}
"""A ping a second into a wait, when every click's token is older than the emulator's TTL."""


@pytest.mark.parametrize("world", [LATER], indirect=True)
async def test_a_ping_whose_clicks_token_is_refused_goes_through_the_bots_own(
    world: World,
) -> None:
    """Discord refuses a token past its 15 minutes (401 Invalid Webhook Token), a lifetime the
    bot only estimates: the ping goes out with the bot's own token at once, and is deleted
    with it. Here every token lives half a second, and a ping falls due a second after the
    last click: every try through a token is refused, whatever the machine's speed."""
    emu, channel = world.emulator, world.channel
    ttl = emu.interactions.followup_ttl
    game = await new_game(world, [world.alice, world.bob], seed=21)
    emu.interactions.followup_ttl = 0.5
    try:
        sleeper, other = await first_to_draw(world, game)
        first = await ping_for(game, sleeper)
        assert first.webhook_id is None
        assert global_requests(emu, "POST", f"/channels/{channel.id}/messages") == 1
        tried = [r for r in emu.requests if r.method == "POST" and r.path.startswith("/webhooks/")]
        assert tried and all(r.status == 401 for r in tried)
        await until_text(emu, game.board, f"⏰ {sleeper.name} ran out of time", timeout=WAIT)
        second = await ping_for(game, other, after=first.id)
        assert second.webhook_id is None and first.deleted
        assert global_requests(emu, "DELETE", f"/channels/{channel.id}/messages/{first.id}") == 1
    finally:
        emu.interactions.followup_ttl = ttl
        await game.store.close()
