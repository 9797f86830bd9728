"""The emulator's REST routes and gateway, driven with raw HTTP and a raw websocket client."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

import aiohttp
import pytest

from bot.emulator import (
    Channel,
    ChannelLimit,
    Emulator,
    GlobalLimit,
    Guild,
    InteractionResult,
    User,
)
from bot.emulator.errors import EmulatorError
from bot.emulator.models import MANAGE_CHANNELS
from tests.support.wait import until

TOKEN = "test-token"


@dataclass
class Reply:
    status: int
    headers: Any
    body: Any


class RawBot:
    """A bot without discord.py: enough to read dispatches and call REST by hand."""

    def __init__(self, emu: Emulator, http: aiohttp.ClientSession) -> None:
        self.emu = emu
        self.http = http
        self.ws: aiohttp.ClientWebSocketResponse | None = None
        self.frames: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self._reader: asyncio.Task[None] | None = None

    async def call(
        self,
        method: str,
        path: str,
        body: Any = None,
        *,
        token: str | None = TOKEN,
        params: dict[str, str] | None = None,
    ) -> Reply:
        headers = {"Authorization": f"Bot {token}"} if token else {}
        data = None if body is None else json.dumps(body)
        if data is not None:
            headers["Content-Type"] = "application/json"
        async with self.http.request(
            method, self.emu.api_base + path, data=data, headers=headers, params=params
        ) as resp:
            text = await resp.text()
            parsed = (
                json.loads(text) if resp.headers.get("Content-Type") == "application/json" else text
            )
            return Reply(resp.status, resp.headers, parsed)

    async def open(self, query: str = "?v=10&encoding=json&compress=zlib-stream") -> dict[str, Any]:
        self.ws = await self.http.ws_connect(self.emu.gateway_url + query)
        hello = await self.ws.receive_json(timeout=5)
        return hello

    async def identify(self, *, token: str = TOKEN, intents: int = 1) -> dict[str, Any]:
        assert self.ws is not None
        await self.ws.send_json(
            {"op": 2, "d": {"token": token, "intents": intents, "properties": {}}}
        )
        self._reader = asyncio.create_task(self._read())
        return await self.next("READY")

    async def _read(self) -> None:
        assert self.ws is not None
        async for msg in self.ws:
            if msg.type is aiohttp.WSMsgType.TEXT:
                await self.frames.put(json.loads(msg.data))

    async def next(self, event: str | None = None, *, op: int | None = None) -> dict[str, Any]:
        while True:
            frame = await asyncio.wait_for(self.frames.get(), timeout=5)
            if (event is None or frame.get("t") == event) and (op is None or frame["op"] == op):
                return frame

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()
        if self._reader is not None:
            await self._reader


@dataclass
class Scene:
    emu: Emulator
    guild: Guild
    chan: Channel
    alice: User
    bob: User


@pytest.fixture
def emu_options() -> dict[str, Any]:
    """Emulator keyword arguments; a test overrides it with ``parametrize``."""
    return {}


@pytest.fixture
async def scene(emu_options: dict[str, Any]) -> AsyncIterator[Scene]:
    emu = Emulator(TOKEN, **emu_options)
    guild = emu.add_guild("Bug Club")
    chan = emu.add_text_channel(guild, "games")
    alice = emu.add_user("alice")
    bob = emu.add_user("bob", dms_open=False)
    async with emu:
        yield Scene(emu, guild, chan, alice, bob)
    assert emu.internal_errors == []


@pytest.fixture
async def raw(scene: Scene) -> AsyncIterator[RawBot]:
    async with aiohttp.ClientSession() as http:
        client = RawBot(scene.emu, http)
        yield client
        await client.close()


COMMANDS = [
    {
        "name": "bugs",
        "description": "games",
        "type": 1,
        "options": [
            {
                "type": 1,
                "name": "new",
                "description": "new game",
                "options": [
                    {"type": 3, "name": "game", "description": "which", "required": True},
                    {"type": 4, "name": "seats", "description": "how many", "min_value": 2},
                    {"type": 6, "name": "rival", "description": "who"},
                ],
            }
        ],
    },
    {
        "name": "close",
        "description": "mods only",
        "type": 1,
        "default_member_permissions": "16",
    },
]


async def connected(scene: Scene, raw: RawBot) -> None:
    reply = await raw.call("PUT", f"/applications/{scene.emu.application_id}/commands", COMMANDS)
    assert reply.status == 200
    await raw.open()
    await raw.identify()
    await raw.next("GUILD_CREATE")


async def start_slash(
    scene: Scene, raw: RawBot, user: User, path: str, **options: Any
) -> tuple[asyncio.Task[InteractionResult], dict[str, Any]]:
    task = asyncio.create_task(scene.emu.slash(user, scene.chan, path, **options))
    frame = await raw.next("INTERACTION_CREATE")
    return task, frame["d"]


def callback_path(interaction: dict[str, Any]) -> str:
    return f"/interactions/{interaction['id']}/{interaction['token']}/callback"


# --- REST basics ------------------------------------------------------------------------------


async def test_json_content_type_exactly_and_identity_routes(scene: Scene, raw: RawBot) -> None:
    me = await raw.call("GET", "/users/@me")
    assert me.status == 200 and me.headers["Content-Type"] == "application/json"
    assert {"id", "username", "discriminator", "avatar"} <= me.body.keys() and me.body["bot"]
    app = await raw.call("GET", "/oauth2/applications/@me")
    assert {
        "id",
        "name",
        "description",
        "icon",
        "bot_public",
        "bot_require_code_grant",
        "owner",
        "verify_key",
        "flags",
    } <= app.body.keys()
    assert app.body["id"] == str(scene.emu.application_id)
    gateway = await raw.call("GET", "/gateway/bot")
    assert gateway.body["url"] == scene.emu.gateway_url and gateway.body["shards"] == 1
    assert (await raw.call("GET", "/gateway")).body == {"url": scene.emu.gateway_url}


async def test_wrong_or_missing_token_is_401(scene: Scene, raw: RawBot) -> None:
    for token in ("other-token", None):
        reply = await raw.call("GET", "/users/@me", token=token)
        assert reply.status == 401
        assert reply.body == {"message": "401: Unauthorized", "code": 0}


async def test_unknown_route_is_a_logged_json_404(scene: Scene, raw: RawBot) -> None:
    reply = await raw.call("GET", "/no/such/route")
    assert reply.status == 404 and reply.body == {"message": "404: Not Found", "code": 0}
    assert scene.emu.requests[-1][:3] == ("GET", "/no/such/route", 404)


async def test_command_sync_is_stored_counted_and_keeps_ids(scene: Scene, raw: RawBot) -> None:
    path = f"/applications/{scene.emu.application_id}/commands"
    first = await raw.call("PUT", path, COMMANDS)
    second = await raw.call("PUT", path, COMMANDS)
    assert [c["id"] for c in first.body] == [c["id"] for c in second.body]
    assert scene.emu.sync_count == 2
    assert [c["name"] for c in scene.emu.commands] == ["bugs", "close"]
    assert (await raw.call("GET", path)).body == second.body
    guild_path = f"/applications/{scene.emu.application_id}/guilds/{scene.guild.id}/commands"
    guild = await raw.call("PUT", guild_path, [COMMANDS[1]])
    assert guild.body[0]["guild_id"] == str(scene.guild.id)
    assert scene.emu.sync_count == 3

    bad = await raw.call("PUT", path, [{"name": "Bad Name", "description": "x", "type": 1}])
    assert bad.status == 400 and bad.body["code"] == 50035
    assert "name" in bad.body["errors"]["0"]


async def test_dm_channel_and_closed_dms(scene: Scene, raw: RawBot) -> None:
    opened = await raw.call("POST", "/users/@me/channels", {"recipient_id": str(scene.bob.id)})
    assert opened.status == 200 and opened.body["type"] == 1
    assert opened.body["recipients"][0]["id"] == str(scene.bob.id)
    sent = await raw.call("POST", f"/channels/{opened.body['id']}/messages", {"content": "hi"})
    assert sent.status == 403
    assert sent.body == {"code": 50007, "message": "Cannot send messages to this user"}
    scene.emu.set_dms_open(scene.bob, True)
    sent = await raw.call("POST", f"/channels/{opened.body['id']}/messages", {"content": "hi"})
    assert sent.status == 200
    assert [m.content for m in scene.emu.dms(scene.bob)] == ["hi"]


async def test_message_create_edit_list_delete(scene: Scene, raw: RawBot) -> None:
    base = f"/channels/{scene.chan.id}/messages"
    created = await raw.call("POST", base, {"content": "one"})
    assert created.status == 200
    assert {"id", "type", "content", "author", "channel_id"} <= created.body.keys()
    mid = created.body["id"]
    await raw.call("POST", base, {"content": "two"})
    edited = await raw.call("PATCH", f"{base}/{mid}", {"embeds": [{"title": "Board"}]})
    assert edited.body["content"] == "one" and edited.body["edited_timestamp"]
    message = scene.emu.get_message(int(mid))
    assert message.text() == "one\nBoard" and [v.content for v in message.history] == ["one"]
    listed = await raw.call("GET", base, params={"limit": "10"})
    assert [m["content"] for m in listed.body] == ["two", "one"]  # newest first, like Discord
    assert (await raw.call("DELETE", f"{base}/{mid}")).status == 204
    assert (await raw.call("GET", f"{base}/{mid}")).body["code"] == 10008
    assert [m.content for m in scene.emu.channel_messages(scene.chan)] == ["two"]
    assert message.deleted and message in scene.emu.visible_to(scene.alice, include_deleted=True)


async def test_limits_answer_50035_with_the_field_path(scene: Scene, raw: RawBot) -> None:
    base = f"/channels/{scene.chan.id}/messages"
    too_long = await raw.call("POST", base, {"content": "x" * 2001})
    assert too_long.status == 400 and too_long.body["code"] == 50035
    assert too_long.body["errors"]["content"]["_errors"][0]["code"] == "BASE_TYPE_MAX_LENGTH"
    assert (await raw.call("POST", base, {"content": "x" * 2000})).status == 200
    row = {"type": 1, "components": [{"type": 2, "style": 1, "label": "ok", "custom_id": "a"}]}
    six_rows = await raw.call("POST", base, {"content": "x", "components": [row] * 6})
    assert six_rows.status == 400 and "components" in six_rows.body["errors"]
    empty = await raw.call("POST", base, {"content": ""})
    assert empty.status == 400 and empty.body["code"] == 50006
    assert len(scene.emu.channel_messages(scene.chan)) == 1


async def test_a_held_request_lands_after_one_sent_later(scene: Scene, raw: RawBot) -> None:
    """``hold`` keeps the requests it matches (by route and body) in transit until released:
    a slow path, so an edit sent first lands after one sent later, as on Discord."""
    base = f"/channels/{scene.chan.id}/messages"
    mid = (await raw.call("POST", base, {"content": "v1"})).body["id"]
    released = scene.emu.hold(
        "PATCH", rf"/messages/{mid}$", where=lambda body: body.get("content") == "v2"
    )
    older = asyncio.create_task(raw.call("PATCH", f"{base}/{mid}", {"content": "v2"}))
    await asyncio.sleep(0.05)
    assert not older.done()
    newer = await raw.call("PATCH", f"{base}/{mid}", {"content": "v3"})  # not matched: lands
    assert newer.status == 200 and scene.emu.get_message(int(mid)).content == "v3"
    released.set()
    assert (await older).status == 200
    message = scene.emu.get_message(int(mid))
    assert [v.content for v in message.history] + [message.content] == ["v1", "v3", "v2"]
    again = await raw.call("PATCH", f"{base}/{mid}", {"content": "v2"})  # held once only
    assert again.status == 200


async def test_rate_limit_on_demand(scene: Scene, raw: RawBot) -> None:
    scene.emu.rate_limit("POST", r"/channels/\d+/messages$", times=1, retry_after=0.25)
    base = f"/channels/{scene.chan.id}/messages"
    limited = await raw.call("POST", base, {"content": "a"})
    assert limited.status == 429
    assert limited.body["retry_after"] == 0.25 and limited.body["global"] is False
    assert limited.headers["Via"] and limited.headers["X-RateLimit-Remaining"] == "0"
    assert float(limited.headers["X-RateLimit-Reset-After"]) == 0.25
    assert (await raw.call("POST", base, {"content": "a"})).status == 200
    assert scene.emu.count_requests("POST", r"/messages$", status=429) == 1
    assert scene.emu.count_requests("POST", r"/messages$") == 2


async def test_each_channel_takes_five_sends_and_five_edits_per_five_seconds(
    scene: Scene, raw: RawBot
) -> None:
    """Discord's per-channel buckets, on by default: a sixth send (or edit) within 5 s is a 429
    saying how long to wait; sends and edits count apart, and each channel (a DM too) alone."""
    assert scene.emu.channel_limit == ChannelLimit(5, 5.0)
    other = scene.emu.add_text_channel(scene.guild, "other")
    base = f"/channels/{scene.chan.id}/messages"
    sent = [await raw.call("POST", base, {"content": str(i)}) for i in range(5)]
    assert [r.status for r in sent] == [200] * 5
    sixth = await raw.call("POST", base, {"content": "6"})
    assert sixth.status == 429 and sixth.body["global"] is False
    assert 0 < sixth.body["retry_after"] <= 5.0
    assert float(sixth.headers["X-RateLimit-Reset-After"]) == pytest.approx(
        sixth.body["retry_after"], abs=0.01
    )
    message = sent[0].body["id"]
    edits = [await raw.call("PATCH", f"{base}/{message}", {"content": "e"}) for _ in range(6)]
    assert [r.status for r in edits] == [200] * 5 + [429]
    assert (
        await raw.call("POST", f"/channels/{other.id}/messages", {"content": "x"})
    ).status == 200
    dm = await raw.call("POST", "/users/@me/channels", {"recipient_id": str(scene.alice.id)})
    to_dm = [
        await raw.call("POST", f"/channels/{dm.body['id']}/messages", {"content": "hi"})
        for _ in range(6)
    ]
    assert [r.status for r in to_dm] == [200] * 5 + [429]
    assert len(scene.emu.channel_messages(scene.chan)) == 5  # the refused send made nothing


async def test_mentions_notify_as_allowed_mentions_say_and_edits_notify_nobody(
    scene: Scene, raw: RawBot
) -> None:
    base = f"/channels/{scene.chan.id}/messages"
    alice, bob = scene.alice.id, scene.bob.id
    text = f"<@{alice}> and <@!{bob}>"
    bodies = [
        {"content": text},
        {"content": text, "allowed_mentions": {"parse": []}},
        {"content": text, "allowed_mentions": {"parse": [], "users": [str(bob)]}},
        {"content": text, "allowed_mentions": {"parse": ["users"]}},
        {"content": "none", "embeds": [{"description": f"<@{alice}>"}]},
    ]
    sent = [await raw.call("POST", base, body) for body in bodies]
    messages = [scene.emu.get_message(int(r.body["id"])) for r in sent]
    assert [m.notified for m in messages] == [(alice, bob), (), (bob,), (alice, bob), ()]
    edited = messages[1]
    await raw.call("PATCH", f"{base}/{edited.id}", {"content": f"<@{alice}> now"})
    assert edited.notified == ()


@pytest.mark.parametrize("emu_options", [{"channel_limit": ChannelLimit(2, 0.3)}])
async def test_a_channel_slot_frees_up_when_its_window_has_passed(
    scene: Scene, raw: RawBot
) -> None:
    base = f"/channels/{scene.chan.id}/messages"
    assert [(await raw.call("POST", base, {"content": "a"})).status for _ in range(2)] == [200] * 2
    limited = await raw.call("POST", base, {"content": "a"})
    assert limited.status == 429
    await asyncio.sleep(limited.body["retry_after"] + 0.05)
    assert (await raw.call("POST", base, {"content": "a"})).status == 200
    scene.emu.channel_limit = None
    statuses = [(await raw.call("POST", base, {"content": "b"})).status for _ in range(9)]
    assert statuses == [200] * 9


@pytest.mark.parametrize("emu_options", [{"channel_limit": None}])
async def test_the_bot_token_takes_fifty_requests_per_second_and_then_a_global_429(
    scene: Scene, raw: RawBot
) -> None:
    """Discord's global limit, on by default: the 51st request with the bot token within a
    second, whatever its route, is a 429 of the global scope, shaped as Discord's."""
    assert scene.emu.global_limit == GlobalLimit(50, 1.0)
    base = f"/channels/{scene.chan.id}/messages"
    first = await raw.call("POST", base, {"content": "first"})
    message = first.body["id"]
    # Bursts that Discord would take far slower: each one's window starts at its first request.
    statuses = [(await raw.call("PATCH", f"{base}/{message}", {"content": "e"})).status]
    statuses += [(await raw.call("GET", "/users/@me")).status for _ in range(48)]
    assert statuses == [200] * 49 and scene.emu.global_refusals == 0
    limited = await raw.call("POST", base, {"content": "too many"})
    assert limited.status == 429
    assert limited.body == {
        "message": "You are being rate limited.",
        "retry_after": limited.body["retry_after"],
        "global": True,
    }
    assert 0 < limited.body["retry_after"] <= 1.0
    assert limited.headers["X-RateLimit-Global"] == "true"
    assert limited.headers["X-RateLimit-Scope"] == "global"
    assert scene.emu.global_refusals == 1
    assert len(scene.emu.channel_messages(scene.chan)) == 1  # the refused send made nothing
    assert (await raw.call("GET", "/users/@me")).status == 429  # refusals do not count either
    assert scene.emu.global_refusals == 2
    await asyncio.sleep(limited.body["retry_after"] + 0.05)
    assert (await raw.call("GET", "/users/@me")).status == 200


async def test_interaction_routes_are_exempt_from_the_global_limit(
    scene: Scene, raw: RawBot
) -> None:
    """An interaction's callback and its token's webhook routes go through even while the bot
    token has used up its second; a wrong token is refused (401) and takes no place."""
    scene.emu.global_limit = GlobalLimit(3, 60.0)
    await connected(scene, raw)  # the command sync takes one place
    task, interaction = await start_slash(scene, raw, scene.alice, "bugs new", game="x")
    assert [(await raw.call("GET", "/users/@me")).status for _ in range(3)] == [200, 200, 429]
    assert (await raw.call("GET", "/users/@me", token="nope")).status == 401
    answered = await raw.call("POST", callback_path(interaction), {"type": 5}, token=None)
    assert answered.status == 204
    await task
    hook = f"/webhooks/{scene.emu.application_id}/{interaction['token']}"
    sent = await raw.call("POST", hook, {"content": "done"}, token=None, params={"wait": "1"})
    assert sent.status == 200
    edited = await raw.call(
        "PATCH", f"{hook}/messages/{sent.body['id']}", {"content": "edited"}, token=None
    )
    assert edited.status == 200
    assert scene.emu.global_refusals == 1
    scene.emu.global_limit = None
    assert [(await raw.call("GET", "/users/@me")).status for _ in range(60)] == [200] * 60


# --- gateway ----------------------------------------------------------------------------------


async def test_gateway_handshake(scene: Scene, raw: RawBot) -> None:
    hello = await raw.open()
    assert hello["op"] == 10 and hello["d"]["heartbeat_interval"] == 41250
    assert raw.ws is not None
    await raw.ws.send_json({"op": 1, "d": None})
    assert (await raw.ws.receive_json(timeout=5))["op"] == 11
    ready = await raw.identify()
    data = ready["d"]
    assert ready["s"] == 1
    assert {"user", "guilds", "session_id", "resume_gateway_url", "application"} <= data.keys()
    assert data["resume_gateway_url"] == scene.emu.gateway_url
    assert data["guilds"] == [{"id": str(scene.guild.id), "unavailable": True}]
    guild = (await raw.next("GUILD_CREATE"))["d"]
    assert [c["name"] for c in guild["channels"]] == ["games"]
    assert guild["roles"][0]["name"] == "@everyone"
    names = {m["user"]["username"] for m in guild["members"]}
    assert names == {"bugtable", "alice", "bob"}
    await scene.emu.wait_identified(timeout=1)
    assert scene.emu.connected


async def test_gateway_rejects_bad_token_and_privileged_intents(scene: Scene, raw: RawBot) -> None:
    await raw.open()
    assert raw.ws is not None
    await raw.ws.send_json({"op": 2, "d": {"token": "nope", "intents": 1}})
    closing = await raw.ws.receive(timeout=5)
    assert closing.type is aiohttp.WSMsgType.CLOSE and closing.data == 4004
    await raw.open()
    await raw.ws.send_json({"op": 2, "d": {"token": TOKEN, "intents": 1 << 15}})
    closing = await raw.ws.receive(timeout=5)
    assert closing.data == 4014
    assert scene.emu.identify_count == 0


async def test_resume_replays_and_unknown_session_is_invalid(scene: Scene, raw: RawBot) -> None:
    await connected(scene, raw)
    ready_session = next(iter(scene.emu.gateway.sessions))
    await scene.emu.drop_connection(code=4000)
    await raw.close()
    await scene.emu.wait_for(lambda: not scene.emu.connected)
    scene.emu.add_text_channel(scene.guild, "late")  # not connected: no live dispatch
    delivered = await scene.emu.gateway.dispatch("CHANNEL_CREATE", {"id": "1", "type": 0})
    assert not delivered

    await raw.open()
    assert raw.ws is not None
    await raw.ws.send_json({"op": 6, "d": {"token": TOKEN, "session_id": ready_session, "seq": 2}})
    replayed = await raw.ws.receive_json(timeout=5)
    assert (replayed["t"], replayed["s"]) == ("CHANNEL_CREATE", 3)
    assert (await raw.ws.receive_json(timeout=5))["t"] == "RESUMED"
    await raw.ws.close()

    await raw.open()
    await raw.ws.send_json({"op": 6, "d": {"token": TOKEN, "session_id": "gone", "seq": 1}})
    assert await raw.ws.receive_json(timeout=5) == {"op": 9, "d": False, "s": None, "t": None}


# --- interactions -----------------------------------------------------------------------------


async def test_interaction_create_payload_and_callback_response(scene: Scene, raw: RawBot) -> None:
    await connected(scene, raw)
    task, interaction = await start_slash(
        scene, raw, scene.alice, "bugs new", game="bag-of-bugs", seats=3, rival=scene.bob
    )
    assert {
        "id",
        "type",
        "token",
        "version",
        "application_id",
        "attachment_size_limit",
        "channel",
        "member",
        "data",
        "guild_id",
        "app_permissions",
    } <= interaction.keys()
    assert interaction["channel"]["type"] == 0
    assert interaction["member"]["user"]["id"] == str(scene.alice.id)
    (sub,) = interaction["data"]["options"]
    assert sub["name"] == "new" and sub["type"] == 1
    assert {o["name"]: o["value"] for o in sub["options"]} == {
        "game": "bag-of-bugs",
        "seats": 3,
        "rival": str(scene.bob.id),
    }
    assert str(scene.bob.id) in interaction["data"]["resolved"]["members"]

    reply = await raw.call(
        "POST",
        callback_path(interaction),
        {"type": 4, "data": {"content": "hello", "flags": 64}},
        token=None,
        params={"with_response": "1"},
    )
    assert reply.status == 200
    assert reply.body["interaction"]["id"] == interaction["id"]
    assert reply.body["interaction"]["response_message_ephemeral"] is True
    assert reply.body["resource"]["type"] == 4
    message_id = reply.body["resource"]["message"]["id"]
    assert reply.body["interaction"]["response_message_id"] == message_id

    res = await task
    assert res.acknowledged and res.ephemeral and res.content == "hello"
    again = await raw.call("POST", callback_path(interaction), {"type": 5}, token=None)
    assert again.status == 400
    assert again.body == {"code": 40060, "message": "Interaction has already been acknowledged."}
    # Ephemeral messages are not reachable through channel routes.
    fetched = await raw.call("GET", f"/channels/{scene.chan.id}/messages/{message_id}")
    assert fetched.status == 404


async def test_invalid_response_does_not_acknowledge(scene: Scene, raw: RawBot) -> None:
    await connected(scene, raw)
    task, interaction = await start_slash(scene, raw, scene.alice, "bugs new", game="x")
    bad = await raw.call(
        "POST", callback_path(interaction), {"type": 4, "data": {"content": "y" * 2001}}
    )
    assert bad.status == 400 and bad.body["code"] == 50035
    wrong = await raw.call(
        "POST", callback_path(interaction), {"type": 7, "data": {"content": "z"}}
    )
    assert wrong.status == 400
    ok = await raw.call(
        "POST", callback_path(interaction), {"type": 4, "data": {"content": "fine"}}
    )
    assert ok.status == 204  # without ?with_response
    assert (await task).content == "fine"


@pytest.mark.parametrize("emu_options", [{"ack_deadline": 0.3}])
async def test_late_callback_is_unknown_interaction(scene: Scene, raw: RawBot) -> None:
    await connected(scene, raw)
    task, interaction = await start_slash(scene, raw, scene.alice, "bugs new", game="x")
    res = await task
    assert res.failed and not res.acknowledged
    late = await raw.call(
        "POST", callback_path(interaction), {"type": 4, "data": {"content": "hi"}}
    )
    assert late.status == 404
    assert late.body == {"code": 10062, "message": "Unknown interaction"}
    hook = f"/webhooks/{scene.emu.application_id}/{interaction['token']}"
    assert (await raw.call("POST", hook, {"content": "x"}, token=None)).body["code"] == 10015


async def test_deferred_then_followups_and_original(scene: Scene, raw: RawBot) -> None:
    await connected(scene, raw)
    task, interaction = await start_slash(scene, raw, scene.alice, "bugs new", game="x")
    await raw.call("POST", callback_path(interaction), {"type": 5, "data": {"flags": 64}})
    res = await task
    assert res.type == 5 and res.ephemeral and res.message is not None and res.message.loading

    hook = f"/webhooks/{scene.emu.application_id}/{interaction['token']}"
    first = await raw.call("POST", hook, {"content": "filled"}, token=None, params={"wait": "1"})
    assert first.body["id"] == str(res.message.id)  # fills the thinking placeholder
    assert (await res.wait_message()).content == "filled"
    second = await raw.call(
        "POST", hook, {"content": "public"}, token=None, params={"wait": "true"}
    )
    assert second.body["id"] != first.body["id"]
    assert [m.content for m in res.followups] == ["filled", "public"]
    assert [m.content for m in scene.emu.channel_messages(scene.chan)] == ["public"]
    assert (await res.wait_followup()).content == "filled"
    assert (await res.wait_followup()).content == "public"

    edited = await raw.call(
        "PATCH", f"{hook}/messages/@original", {"content": "edited"}, token=None
    )
    assert edited.status == 200 and res.message.content == "edited"
    got = await raw.call("GET", f"{hook}/messages/{second.body['id']}", token=None)
    assert got.body["content"] == "public"
    assert (await raw.call("DELETE", f"{hook}/messages/@original", token=None)).status == 204
    assert scene.emu.ephemerals(scene.alice) == []
    unknown = await raw.call("POST", f"/webhooks/{scene.emu.application_id}/nope", {"content": "x"})
    assert unknown.status == 404 and unknown.body["code"] == 10015


@pytest.mark.parametrize("emu_options", [{"followup_ttl": 0.2}])
async def test_followups_expire(scene: Scene, raw: RawBot) -> None:
    await connected(scene, raw)
    task, interaction = await start_slash(scene, raw, scene.alice, "bugs new", game="x")
    await raw.call("POST", callback_path(interaction), {"type": 4, "data": {"content": "a"}})
    await task
    await asyncio.sleep(0.3)
    hook = f"/webhooks/{scene.emu.application_id}/{interaction['token']}"
    expired = await raw.call("POST", hook, {"content": "late"}, token=None)
    assert expired.status == 401 and expired.body["code"] == 50027


async def test_component_click_carries_the_message_and_deferred_update(
    scene: Scene, raw: RawBot
) -> None:
    await connected(scene, raw)
    base = f"/channels/{scene.chan.id}/messages"
    row = {"type": 1, "components": [{"type": 2, "style": 1, "label": "Go", "custom_id": "go:1"}]}
    created = await raw.call("POST", base, {"content": "board", "components": [row]})
    message = scene.emu.get_message(int(created.body["id"]))

    task = asyncio.create_task(scene.emu.click(scene.alice, message, "go:1"))
    interaction = (await raw.next("INTERACTION_CREATE"))["d"]
    assert interaction["type"] == 3
    assert interaction["data"] == {"custom_id": "go:1", "component_type": 2}
    assert interaction["message"]["components"] == [row]
    await raw.call("POST", callback_path(interaction), {"type": 6})
    res = await task
    assert res.type == 6 and res.message is message
    hook = f"/webhooks/{scene.emu.application_id}/{interaction['token']}"
    await raw.call("PATCH", f"{hook}/messages/@original", {"content": "board v2", "components": []})
    assert message.content == "board v2" and message.buttons() == []


async def test_concurrent_clicks_are_dispatched_back_to_back(scene: Scene, raw: RawBot) -> None:
    await connected(scene, raw)
    row = {"type": 1, "components": [{"type": 2, "style": 1, "label": "Go", "custom_id": "go"}]}
    created = await raw.call(
        "POST", f"/channels/{scene.chan.id}/messages", {"content": "b", "components": [row]}
    )
    message = scene.emu.get_message(int(created.body["id"]))
    both = asyncio.gather(
        scene.emu.click(scene.alice, message, "go"), scene.emu.click(scene.bob, message, "go")
    )
    first = (await raw.next("INTERACTION_CREATE"))["d"]
    second = (await raw.next("INTERACTION_CREATE"))["d"]
    assert {first["member"]["user"]["username"], second["member"]["user"]["username"]} == {
        "alice",
        "bob",
    }
    # Answer the second first: each result resolves on its own.
    await raw.call(
        "POST", callback_path(second), {"type": 4, "data": {"content": "2", "flags": 64}}
    )
    await raw.call("POST", callback_path(first), {"type": 4, "data": {"content": "1", "flags": 64}})
    results = await both
    by_user = {r.user.name: r.content for r in results}
    assert by_user[first["member"]["user"]["username"]] == "1"
    assert by_user[second["member"]["user"]["username"]] == "2"


async def test_command_visibility_follows_default_member_permissions(
    scene: Scene, raw: RawBot
) -> None:
    await connected(scene, raw)
    mod = scene.emu.add_user("mod", manage_channels=True)
    with pytest.raises(Exception, match="lacks permissions"):
        await scene.emu.slash(scene.alice, scene.chan, "close")
    task, interaction = await start_slash(scene, raw, mod, "close")
    assert int(interaction["member"]["permissions"]) & 16
    await raw.call("POST", callback_path(interaction), {"type": 4, "data": {"content": "ok"}})
    assert (await task).acknowledged


async def test_a_role_an_admin_makes_and_gives_carries_its_permissions(
    scene: Scene, raw: RawBot
) -> None:
    """A new role is announced (GUILD_ROLE_CREATE); given to a member, it shows in their
    interactions' roles and permissions, and the commands it lets them see."""
    await connected(scene, raw)
    admins = scene.emu.add_role(scene.guild, "helpers", permissions=MANAGE_CHANNELS)
    created = await raw.next("GUILD_ROLE_CREATE")
    assert created["d"]["guild_id"] == str(scene.guild.id)
    assert created["d"]["role"]["id"] == str(admins.id)
    with pytest.raises(Exception, match="lacks permissions"):
        await scene.emu.slash(scene.bob, scene.chan, "close")
    scene.emu.give_role(scene.bob, admins)
    task, interaction = await start_slash(scene, raw, scene.bob, "close")
    assert str(admins.id) in interaction["member"]["roles"]
    assert int(interaction["member"]["permissions"]) & MANAGE_CHANNELS
    await raw.call("POST", callback_path(interaction), {"type": 4, "data": {"content": "ok"}})
    assert (await task).acknowledged


async def _board_with_moved_on_button(scene: Scene, raw: RawBot) -> Any:
    row = {"type": 1, "components": [{"type": 2, "style": 1, "label": "Go", "custom_id": "t:1"}]}
    base = f"/channels/{scene.chan.id}/messages"
    created = await raw.call("POST", base, {"content": "turn 1", "components": [row]})
    moved = {"type": 1, "components": [{"type": 2, "style": 1, "label": "Go", "custom_id": "t:2"}]}
    await raw.call(
        "PATCH", f"{base}/{created.body['id']}", {"content": "turn 2", "components": [moved]}
    )
    return scene.emu.get_message(int(created.body["id"]))


async def test_stale_click_is_refused_like_discord(scene: Scene, raw: RawBot) -> None:
    await connected(scene, raw)
    board = await _board_with_moved_on_button(scene, raw)
    res = await scene.emu.click(scene.alice, board, "t:1")
    assert res.failed and res.stale and not res.delivered
    assert raw.frames.empty()
    with pytest.raises(Exception, match="no component"):
        await scene.emu.click(scene.alice, board, "never-there")


@pytest.mark.parametrize("emu_options", [{"deliver_stale_clicks": True}])
async def test_stale_click_can_be_delivered(scene: Scene, raw: RawBot) -> None:
    await connected(scene, raw)
    board = await _board_with_moved_on_button(scene, raw)
    task = asyncio.create_task(scene.emu.click(scene.alice, board, "t:1"))
    interaction = (await raw.next("INTERACTION_CREATE"))["d"]
    assert interaction["data"]["custom_id"] == "t:1"
    assert interaction["message"]["content"] == "turn 2"  # Discord sends the current message
    await raw.call(
        "POST",
        callback_path(interaction),
        {"type": 4, "data": {"content": "earlier turn", "flags": 64}},
    )
    assert (await task).content == "earlier turn"


def test_the_standalone_emulators_token_is_one_the_bot_accepts() -> None:
    """`python -m bot.emulator` prints lines for `.env`; the bot must accept the token in them."""
    from bot.emulator.__main__ import LOCAL_TOKEN
    from bot.settings import Settings

    settings = Settings(_env_file=None, discord_token=LOCAL_TOKEN)  # type: ignore[call-arg]
    assert settings.require_token() == LOCAL_TOKEN


def test_the_standalone_emulator_explains_its_options() -> None:
    """A newcomer's `python -m bot.emulator --help` says what each option does (issue #26)."""
    import subprocess
    import sys

    done = subprocess.run(
        [sys.executable, "-m", "bot.emulator", "--help"],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    for option, words in [
        ("--token", "token the emulator accepts"),
        ("--host", "address to listen on"),
        ("--port", "any free one"),
        ("--users", "members of its one server"),
        ("--face", "play as the members"),
    ]:
        line = next(line for line in done.stdout.splitlines() if line.strip().startswith(option))
        assert words in " ".join(done.stdout.split()), (option, line)
    assert ".env" in done.stdout


async def test_requests_are_classed_as_discord_counts_them_against_the_global_limit(
    scene: Scene, raw: RawBot
) -> None:
    """Interaction callbacks and the interaction token's webhook routes are exempt from the
    global limit; the rest is global, and DM opens are counted per recipient."""
    await connected(scene, raw)
    task, interaction = await start_slash(scene, raw, scene.alice, "bugs new", game="x")
    before = len(scene.emu.requests)
    await raw.call("POST", callback_path(interaction), {"type": 5}, token=None)
    await task
    hook = f"/webhooks/{scene.emu.application_id}/{interaction['token']}"
    await raw.call("POST", hook, {"content": "done"}, token=None)
    await raw.call("POST", f"/channels/{scene.chan.id}/messages", {"content": "hi"})
    await raw.call("POST", "/users/@me/channels", {"recipient_id": str(scene.alice.id)})
    await raw.call("GET", "/no/such/route")
    assert scene.emu.request_counts(before) == {"interaction": 2, "global": 3}
    assert scene.emu.route_counts(before, klass="global") == {
        "POST /channels/{channel}/messages": 1,
        "POST /users/@me/channels": 1,
        "?": 1,
    }
    assert scene.emu.route_counts(before, klass="interaction") == {
        "POST /interactions/{interaction}/{token}/callback": 1,
        "POST /webhooks/{app}/{token}": 1,
    }
    assert scene.emu.dm_opens(scene.alice.id) == 1 and scene.emu.dm_opens(scene.bob.id) == 0


# --- ephemeral panels (P-48) --------------------------------------------------------------------


async def test_a_panel_edit_that_arrived_before_a_clicks_answer_is_its_answer_once_landed(
    scene: Scene, raw: RawBot
) -> None:
    """P-95: a bot sends a panel's edit and then the click's answer without waiting for the
    edit's reply; the emulator may handle them in either order. What arrived first decides:
    the click's result completes once that edit landed, and notes it as what the click told
    its user; an edit that arrives after the answer is not the click's; a click whose edit
    failed waits for the followup the bot sends in its place."""
    emu = scene.emu
    await connected(scene, raw)
    go = {"type": 1, "components": [{"type": 2, "style": 1, "label": "Go", "custom_id": "go:1"}]}
    task, first = await start_slash(scene, raw, scene.alice, "bugs new", game="x")
    await raw.call(
        "POST", callback_path(first), {"type": 4, "data": {"content": "panel", "flags": 64}}
    )
    panel = (await task).message
    assert panel is not None
    board = await raw.call(
        "POST", f"/channels/{scene.chan.id}/messages", {"content": "board", "components": [go]}
    )
    via_panel = f"/webhooks/{emu.application_id}/{first['token']}/messages/@original"

    async def clicked() -> tuple[asyncio.Task[InteractionResult], dict[str, Any]]:
        task = asyncio.create_task(
            emu.click(scene.alice, emu.get_message(board.body["id"]), "go:1")
        )
        return task, (await raw.next("INTERACTION_CREATE"))["d"]

    # The edit arrives first and is held in transit; the answer comes and is applied.
    released = emu.hold("PATCH", "/webhooks/")
    task, click = await clicked()
    edit = asyncio.create_task(raw.call("PATCH", via_panel, {"content": "told"}, token=None))
    await until(lambda: not emu.rest.delays)  # it arrived, and is held
    await raw.call("POST", callback_path(click), {"type": 6})
    await asyncio.sleep(0.2)
    assert not task.done() and panel.content == "panel"
    released.set()
    assert (await edit).status == 200
    answered = await task
    assert answered.panel is panel and answered.panel_text == "told"
    assert answered.answered < time.perf_counter()

    # An edit that comes after the click's answer is not what the click told.
    task, click = await clicked()
    await raw.call("POST", callback_path(click), {"type": 6})
    later = await task
    await raw.call("PATCH", via_panel, {"content": "later"}, token=None)
    assert later.panel is None and panel.content == "later"

    # The panel dismissed: the edit fails, and the click waits for the bot's followup.
    emu.dismiss(panel)
    task, click = await clicked()
    refused = await raw.call("PATCH", via_panel, {"content": "gone"}, token=None)
    assert refused.status == 404
    await raw.call("POST", callback_path(click), {"type": 6})
    await asyncio.sleep(0.2)
    assert not task.done()
    followup = f"/webhooks/{emu.application_id}/{click['token']}"
    await raw.call("POST", followup, {"content": "new panel", "flags": 64}, token=None)
    renewed = await task
    assert [m.content for m in renewed.followups] == ["new panel"]


async def test_an_ephemeral_is_edited_only_by_tokens_that_made_it_or_were_clicked_on_it(
    scene: Scene, raw: RawBot
) -> None:
    """As on Discord: a click on an ephemeral message answered by UPDATE_MESSAGE updates it,
    and its token then edits it (``@original``); the token that created it edits it by id; any
    other token gets 404 Unknown Message; an expired token 401; a dismissed message 404."""
    emu = scene.emu
    await connected(scene, raw)
    go = {"type": 1, "components": [{"type": 2, "style": 1, "label": "Go", "custom_id": "go:1"}]}
    task, first = await start_slash(scene, raw, scene.alice, "bugs new", game="x")
    await raw.call(
        "POST",
        callback_path(first),
        {"type": 4, "data": {"content": "panel", "flags": 64, "components": [go]}},
    )
    created = await task
    panel = created.message
    assert panel is not None and panel.ephemeral and panel.ephemeral_to is scene.alice

    task = asyncio.create_task(emu.click(scene.alice, panel, "go:1"))
    clicked = (await raw.next("INTERACTION_CREATE"))["d"]
    await raw.call(
        "POST", callback_path(clicked), {"type": 7, "data": {"content": "v2", "components": [go]}}
    )
    on_panel = await task
    assert on_panel.type == 7 and on_panel.message is panel and on_panel.ephemeral
    assert panel.content == "v2" and len(emu.ephemerals_created(scene.alice)) == 1

    hook = f"/webhooks/{emu.application_id}"
    via_click = f"{hook}/{clicked['token']}/messages/@original"
    assert (await raw.call("PATCH", via_click, {"content": "v3"}, token=None)).status == 200
    via_creator = f"{hook}/{first['token']}/messages/{panel.id}"
    assert (await raw.call("PATCH", via_creator, {"content": "v4"}, token=None)).status == 200
    assert panel.content == "v4"

    task, other = await start_slash(scene, raw, scene.alice, "bugs new", game="y")
    await raw.call("POST", callback_path(other), {"type": 4, "data": {"content": "o"}})
    await task
    foreign = f"{hook}/{other['token']}/messages/{panel.id}"
    refused = await raw.call("PATCH", foreign, {"content": "no"}, token=None)
    assert refused.status == 404 and refused.body["code"] == 10008 and panel.content == "v4"

    # The panel edited while another click of its member waits: the test API says so.
    board = await raw.call(
        "POST", f"/channels/{scene.chan.id}/messages", {"content": "board", "components": [go]}
    )
    task = asyncio.create_task(emu.click(scene.alice, emu.get_message(board.body["id"]), "go:1"))
    elsewhere = (await raw.next("INTERACTION_CREATE"))["d"]
    await raw.call("PATCH", via_click, {"content": "answer"}, token=None)
    await raw.call("POST", callback_path(elsewhere), {"type": 6})
    answered = await task
    assert answered.panel is panel and answered.panel_text == "answer"
    assert on_panel.panel is None  # answered before: not its answer

    emu.expire_token(created)
    expired = await raw.call("PATCH", via_creator, {"content": "late"}, token=None)
    assert expired.status == 401 and expired.body["code"] == 50027

    emu.dismiss(panel)
    gone = await raw.call("PATCH", via_click, {"content": "gone"}, token=None)
    assert gone.status == 404 and gone.body["code"] == 10008 and panel.content == "answer"
    assert emu.ephemerals(scene.alice) == [] and emu.ephemerals_created(scene.alice) == [panel]
    with pytest.raises(EmulatorError):
        emu.dismiss(emu.get_message(board.body["id"]))


async def test_an_answered_click_carries_when_its_frame_went_out_and_its_answer_came_in(
    scene: Scene, raw: RawBot
) -> None:
    """A bench splits an ack at these two instants (``bench/e2e.py``): the frame handed to the
    bot's gateway, then the bot's first answer taken in; a second answer moves neither."""
    emu = scene.emu
    await connected(scene, raw)
    go = {"type": 1, "components": [{"type": 2, "style": 1, "label": "Go", "custom_id": "go:1"}]}
    board = await raw.call(
        "POST", f"/channels/{scene.chan.id}/messages", {"content": "board", "components": [go]}
    )
    before = time.perf_counter()
    task = asyncio.create_task(emu.click(scene.alice, emu.get_message(board.body["id"]), "go:1"))
    clicked = (await raw.next("INTERACTION_CREATE"))["d"]
    await asyncio.sleep(0.02)  # the bot takes its time: the answer comes in this much later
    await raw.call("POST", callback_path(clicked), {"type": 6})
    answered = await task
    after = time.perf_counter()
    assert before <= answered.dispatched < answered.taken_in <= after
    assert answered.taken_in - answered.dispatched >= 0.02
    taken_in = answered.taken_in
    again = await raw.call("POST", callback_path(clicked), {"type": 6})
    assert again.status == 400 and answered.taken_in == taken_in
