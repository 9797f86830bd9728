"""The emulator's face: a local web page where a person is each member in turn.

It serves one static page and JSON views of the emulator's state, and turns what the person
does into what a member does on Discord, through the same calls the end-to-end tests make
(``Emulator.slash``, ``click``, ``select``, ``dismiss``). Routes:

- ``GET /``: the page; ``GET /static/<file>``: its script, style and icon;
- ``GET /api/view?member=&channel=&after=``: a member's view of a channel (``views.View``),
  answered at once, or when it changes from the view whose digest ``after`` is (long poll);
- ``GET /api/complete?member=&channel=&text=``: completions for the command box;
- ``POST /api/command`` ``{member, channel, text}``: run a slash command;
- ``POST /api/click`` ``{member, message, custom_id}``; ``POST /api/select`` ``{…, values}``;
- ``POST /api/dismiss`` ``{member, message}``: dismiss an ephemeral reply;
- ``GET /attachments/<id>/<name>``: an uploaded file (a board picture).

Every answer to an action says whether Discord would have shown it as failed ("This
interaction failed": not acknowledged in time, or a click on a control the message no longer
has), or what Discord's client would have refused (a command typed wrong). A request the page
never sends (an unknown member, a message the member cannot see) is a 400. Either way one line
says why, and nothing in the world changes.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
import mimetypes
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from aiohttp import web

from ..errors import JSON, EmulatorError
from ..interactions import InteractionResult
from ..models import Channel, Message, User
from ..server import Emulator
from .commands import CommandError, complete, parse
from .views import build_view, digest

log = logging.getLogger(__name__)

STATIC = Path(__file__).resolve().parent / "static"
ASSETS: dict[str, str] = {
    "face.js": "text/javascript",
    "face.css": "text/css",
    "icon.svg": "image/svg+xml",
}
HEADERS = {
    # The page's own files only: nothing the bot sends (a name, a message) can run as script.
    "Content-Security-Policy": (
        "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; "
        "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
    ),
    "X-Content-Type-Options": "nosniff",
    "Cache-Control": "no-store",
}
LONG_POLL = 20.0
"""Seconds a view request waits for a change before it answers with the same view."""
POLL_EVERY = 0.05
"""How often a waiting view request looks for a change: the emulator has no change events
for edits, and building one member's view of one channel takes well under a millisecond."""

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


class BadInput(Exception):
    """A request the page would never send (an unknown member, a missing field)."""


@web.middleware
async def _headers(request: web.Request, handler: Handler) -> web.StreamResponse:
    try:
        response = await handler(request)
    except BadInput as exc:
        response = web.json_response({"ok": False, "error": str(exc)}, status=400)
    except (CommandError, EmulatorError) as exc:
        # What Discord's client itself refuses (a command typed wrong, a control no longer
        # there): an answer the page shows, not a broken request.
        response = web.json_response({"ok": False, "error": str(exc)})
    response.headers.update(HEADERS)
    return response


class Face:
    """The face of one emulator, served on ``host:port`` (0: any free port)."""

    def __init__(self, emulator: Emulator, *, host: str = "127.0.0.1", port: int = 0) -> None:
        self.emulator = emulator
        self.host = host
        self._requested_port = port
        self.port = 0
        self._runner: web.AppRunner | None = None
        self._closing = asyncio.Event()

    @property
    def url(self) -> str:
        return f"http://{self.host}:{self.port}/"

    def app(self) -> web.Application:
        app = web.Application(middlewares=[_headers])
        app.router.add_get("/", self._page)
        app.router.add_get("/static/{name}", self._asset)
        app.router.add_get("/api/view", self._view)
        app.router.add_get("/api/complete", self._complete)
        app.router.add_post("/api/command", self._command)
        app.router.add_post("/api/click", self._click)
        app.router.add_post("/api/select", self._select)
        app.router.add_post("/api/dismiss", self._dismiss)
        app.router.add_get("/attachments/{id}/{name}", self._attachment)
        return app

    async def start(self) -> None:
        # A page closed mid-poll ends its request (handler_cancellation); open ones end at stop.
        self._runner = web.AppRunner(
            self.app(),
            access_log=None,
            handle_signals=False,
            handler_cancellation=True,
            shutdown_timeout=2.0,
        )
        await self._runner.setup()
        site = web.TCPSite(self._runner, self.host, self._requested_port)
        await site.start()
        self.port = int(self._runner.addresses[0][1])

    async def stop(self) -> None:
        self._closing.set()  # every waiting view answers now
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    # -- reading -------------------------------------------------------------------------------

    async def _page(self, request: web.Request) -> web.StreamResponse:
        return web.FileResponse(STATIC / "face.html", headers={"Content-Type": "text/html"})

    async def _asset(self, request: web.Request) -> web.StreamResponse:
        name = request.match_info["name"]
        if name not in ASSETS:
            raise web.HTTPNotFound()
        return web.Response(body=(STATIC / name).read_bytes(), content_type=ASSETS[name])

    async def _attachment(self, request: web.Request) -> web.StreamResponse:
        data = self.emulator.world.files.get(request.match_info["id"])
        if data is None:
            raise web.HTTPNotFound()
        kind = mimetypes.guess_type(request.match_info["name"])[0] or "application/octet-stream"
        return web.Response(body=data, content_type=kind)

    async def _view(self, request: web.Request) -> web.StreamResponse:
        # A page left open across a restart names a member and channel this emulator never
        # had: it gets the first member's view, and goes on from there.
        try:
            member = self._member(request.query.get("member"))
            channel = self._channel(member, request.query.get("channel"))
        except BadInput:
            member = self._member(None)
            channel = self._channel(member, None)
        after = request.query.get("after")
        loop = asyncio.get_running_loop()
        deadline = loop.time() + LONG_POLL
        while True:
            payload = build_view(self.emulator, member, channel).to_json()
            mark = digest(payload)
            if mark != after or loop.time() >= deadline or self._closing.is_set():
                return web.json_response({"digest": mark, "view": payload})
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._closing.wait(), POLL_EVERY)

    async def _complete(self, request: web.Request) -> web.StreamResponse:
        member = self._member(request.query.get("member"))
        channel = self._channel(member, request.query.get("channel"))
        found = complete(
            self._commands(channel), request.query.get("text", ""), self._members(channel)
        )
        return web.json_response({"suggestions": [dataclasses.asdict(s) for s in found]})

    # -- acting --------------------------------------------------------------------------------

    async def _command(self, request: web.Request) -> web.StreamResponse:
        body = await self._body(request)
        member = self._member(body.get("member"))
        channel = self._channel(member, body.get("channel"))
        invocation = parse(
            self._commands(channel), str(body.get("text", "")), self._members(channel)
        )
        result = await self.emulator.slash(member, channel, invocation.path, **invocation.options)
        return _answer(result)

    async def _click(self, request: web.Request) -> web.StreamResponse:
        body = await self._body(request)
        member = self._member(body.get("member"))
        message = self._message(member, body.get("message"))
        result = await self.emulator.click(member, message, _text(body, "custom_id"))
        return _answer(result)

    async def _select(self, request: web.Request) -> web.StreamResponse:
        body = await self._body(request)
        member = self._member(body.get("member"))
        message = self._message(member, body.get("message"))
        values = body.get("values")
        if not isinstance(values, list) or not all(isinstance(v, str) for v in values):
            raise BadInput("values: a list of the chosen options' values")
        result = await self.emulator.select(member, message, _text(body, "custom_id"), values)
        return _answer(result)

    async def _dismiss(self, request: web.Request) -> web.StreamResponse:
        body = await self._body(request)
        member = self._member(body.get("member"))
        message = self._message(member, body.get("message"))
        if message.ephemeral_to is not member:
            raise BadInput("only a member's own private reply can be dismissed")
        self.emulator.dismiss(message)
        return web.json_response({"ok": True})

    # -- what a request names ------------------------------------------------------------------

    async def _body(self, request: web.Request) -> JSON:
        try:
            body = await request.json()
        except ValueError:
            raise BadInput("the body is not JSON") from None
        if not isinstance(body, dict):
            raise BadInput("the body is not a JSON object")
        return body

    def _member(self, raw: object) -> User:
        """The member a request names (none: the first one, whom the page opens as)."""
        if raw in (None, "") and self.emulator.users:
            return self.emulator.users[0]
        for user in self.emulator.users:
            if str(user.id) == str(raw):
                return user
        raise BadInput(f"no member {raw!r}")

    def _channel(self, member: User, raw: object) -> Channel:
        """A text channel of ``member``'s server, or ``dm``: their DM with the bot (none: the
        first text channel they see, else their DM)."""
        if raw in (None, ""):
            for guild in self.emulator.guilds:
                if self.emulator.world.is_member(guild, member) and guild.channels:
                    return guild.channels[0]
        if raw in (None, "", "dm"):
            return self.emulator.dm_channel(member)
        for guild in self.emulator.guilds:
            for channel in guild.channels:
                if str(channel.id) == str(raw) and self.emulator.world.is_member(guild, member):
                    return channel
        dm = self.emulator.world.dm_channels.get(member.id)
        if dm is not None and str(dm.id) == str(raw):
            return dm
        raise BadInput(f"no channel {raw!r} for this member")

    def _message(self, member: User, raw: object) -> Message:
        try:
            message = self.emulator.get_message(int(str(raw)))
        except (KeyError, ValueError):
            raise BadInput(f"no message {raw!r}") from None
        if message not in self.emulator.visible_to(member):
            raise BadInput("that message is not one this member sees")
        return message

    def _commands(self, channel: Channel) -> list[JSON]:
        """The commands offered in ``channel``: its server's own first, then global ones."""
        mine = [
            c
            for c in self.emulator.commands
            if "guild_id" not in c
            or (channel.guild is not None and c["guild_id"] == str(channel.guild.id))
        ]
        return sorted(mine, key=lambda c: "guild_id" not in c)

    def _members(self, channel: Channel) -> list[User]:
        guild = channel.guild
        return [
            u
            for u in self.emulator.users
            if guild is None or self.emulator.world.is_member(guild, u)
        ]


def _text(body: JSON, key: str) -> str:
    value = body.get(key)
    if not isinstance(value, str) or not value:
        raise BadInput(f"{key}: missing")
    return value


def _answer(result: InteractionResult) -> web.StreamResponse:
    """What Discord's client shows about an interaction once it is answered, or not."""
    payload: dict[str, Any] = {"ok": not result.failed, "error": None}
    if result.stale:
        payload["error"] = "This interaction failed: the message changed before the click."
    elif result.failed:
        payload["error"] = "This interaction failed: the bot did not answer within 3 seconds."
    return web.json_response(payload)
