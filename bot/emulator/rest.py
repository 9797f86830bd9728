"""The REST routes the bot uses, with Discord's status codes and error bodies.

Every answer carries ``Content-Type: application/json`` exactly: discord.py parses JSON only when
the header is that string, with no charset.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import math
import re
import time
from collections import Counter, deque
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, NamedTuple, TypeVar

from aiohttp import BodyPartReader, web

from .errors import (
    JSON,
    ApiError,
    bad_request,
    cannot_dm,
    missing_access,
    missing_permissions,
    not_author,
    not_found_route,
    unauthorized,
    unknown_application,
    unknown_channel,
    unknown_guild,
    unknown_member,
    unknown_message,
    unknown_user,
)
from .gateway import Gateway
from .interactions import Interactions
from .limits import validate_commands, validate_message
from .models import DM, Channel, Guild, Message, World

log = logging.getLogger(__name__)


INTERACTION = "interaction"
"""Requests through an interaction's token (callback, follow-ups, their edits): Discord exempts
them from the bot's global rate limit."""
GLOBAL = "global"
"""Every other request: they share the bot's global budget (about 50 per second)."""


class RequestRecord(NamedTuple):
    """One request the bot made: ``time`` is ``time.monotonic()`` when it was answered;
    ``route`` is its route template ("PATCH /channels/{channel}/messages/{message}", "?" for
    an unknown route) and ``klass`` :data:`INTERACTION` or :data:`GLOBAL`."""

    method: str
    path: str
    status: int
    time: float
    route: str = "?"
    klass: str = GLOBAL


@dataclass
class RestRequest:
    method: str
    path: str
    params: dict[str, str]
    query: Mapping[str, str]
    body: Any
    attachments: list[JSON] = field(default_factory=list)

    def json_object(self) -> JSON:
        if self.body is None:
            return {}
        if not isinstance(self.body, dict):
            raise bad_request("Expected a JSON object")
        return self.body

    def flag(self, name: str) -> bool:
        return self.query.get(name, "").lower() in ("1", "true", "yes")


Result = tuple[int, Any]
Handler = Callable[[RestRequest], Awaitable[Result]]


@dataclass
class Route:
    method: str
    pattern: re.Pattern[str]
    handler: Handler
    auth: bool = True
    template: str = ""

    @property
    def klass(self) -> str:
        """Routes without the bot token are the interaction's own (its token is the key)."""
        return GLOBAL if self.auth else INTERACTION


@dataclass
class RequestRule:
    """Something the emulator does to the next ``remaining`` requests whose method is
    ``method`` (``*``: any) and whose path ``pattern`` finds."""

    method: str
    pattern: re.Pattern[str]
    remaining: int

    def matches(self, method: str, path: str, body: Any = None) -> bool:
        return (self.method in ("*", method)) and self.pattern.search(path) is not None


R = TypeVar("R", bound=RequestRule)


def take_rule(rules: list[R], method: str, path: str, body: Any = None) -> R | None:
    """The first rule that applies to this request, counted down (and dropped once spent)."""
    for rule in rules:
        if rule.remaining > 0 and rule.matches(method, path, body):
            rule.remaining -= 1
            if rule.remaining == 0:
                rules.remove(rule)
            return rule
    return None


@dataclass
class RateLimitRule(RequestRule):
    """The next ``remaining`` requests matching this rule are answered 429."""

    retry_after: float = 0.2
    is_global: bool = False


@dataclass
class FaultRule(RequestRule):
    """The next ``remaining`` requests matching this rule fail with ``status`` and ``code``
    (a 403 on one DM, a 5xx on one board), as Discord answers a request it refuses."""

    status: int = 500
    code: int = 0
    message: str = "Refused"


MAX_TRANSIT = 30.0
"""The longest a held request waits for its release (a test that forgot it still ends)."""


@dataclass
class DelayRule(RequestRule):
    """The next ``remaining`` requests matching this rule stay in transit until ``released``
    is set (at most ``MAX_TRANSIT`` seconds) before Discord takes them: a slow path, so a
    request lands after others sent later."""

    released: asyncio.Event = field(default_factory=asyncio.Event)
    where: Callable[[Any], bool] | None = None
    """Only requests whose JSON body this accepts (None: any)."""

    def matches(self, method: str, path: str, body: Any = None) -> bool:
        return super().matches(method, path) and (self.where is None or self.where(body))


@dataclass(frozen=True)
class ChannelLimit:
    """Discord's per-channel buckets: at most ``limit`` message sends, and apart ``limit``
    message edits, in any ``window`` seconds, per channel (DM channels included)."""

    limit: int = 5
    window: float = 5.0


@dataclass(frozen=True)
class GlobalLimit:
    """Discord's global limit: at most ``limit`` requests with the bot token in any ``window``
    seconds, over every route but the interaction's own (:data:`INTERACTION`)."""

    limit: int = 50
    window: float = 1.0


CHANNEL_BUCKETS = {"POST": "send", "PATCH": "edit"}
"""Which message routes of ``/channels/{channel}/messages`` count against a channel bucket."""


def too_many_requests(
    retry_after: float, bucket: str, *, is_global: bool = False, limit: int = 5
) -> ApiError:
    """A 429 with the headers and body discord.py reads (it sleeps ``retry_after``, retries)."""
    headers = {
        "Via": "1.1 google",
        "Retry-After": str(max(1, math.ceil(retry_after))),
        "X-RateLimit-Limit": str(limit),
        "X-RateLimit-Remaining": "0",
        "X-RateLimit-Reset": f"{time.time() + retry_after:.3f}",
        "X-RateLimit-Reset-After": f"{retry_after:.3f}",
        "X-RateLimit-Bucket": bucket,
        "X-RateLimit-Scope": "global" if is_global else "user",
    }
    if is_global:
        headers["X-RateLimit-Global"] = "true"
    body: JSON = {
        "message": "You are being rate limited.",
        "retry_after": retry_after,
        "global": is_global,
    }
    return ApiError(429, 0, "You are being rate limited.", headers=headers, payload=body)


def json_response(status: int, data: Any, headers: Mapping[str, str] | None = None) -> web.Response:
    if status == 204 or data is None:
        return web.Response(status=204, headers=dict(headers or {}))
    return web.Response(
        status=status,
        body=json.dumps(data).encode(),
        headers={**(headers or {}), "Content-Type": "application/json"},
    )


class RestApi:
    """Authenticates, rate-limits on demand, routes, and logs every request."""

    def __init__(
        self,
        world: World,
        interactions: Interactions,
        gateway: Gateway,
        token: str,
        *,
        gateway_url: Callable[[], str],
        api_base: Callable[[], str],
    ) -> None:
        self.world = world
        self.interactions = interactions
        self.gateway = gateway
        self.token = token
        self._gateway_url = gateway_url
        self._api_base = api_base
        self.requests: list[RequestRecord] = []
        self.dm_opens: Counter[int] = Counter()
        """``POST /users/@me/channels`` per recipient (user id)."""
        self.rules: list[RateLimitRule] = []
        self.faults: list[FaultRule] = []
        self.delays: list[DelayRule] = []
        self.channel_limit: ChannelLimit | None = ChannelLimit()
        """Discord's per-channel limits on message sends and edits (``None``: unlimited)."""
        self._channel_use: dict[tuple[str, str], deque[float]] = {}
        self.global_limit: GlobalLimit | None = GlobalLimit()
        """Discord's global limit on the bot token's requests (``None``: unlimited)."""
        self._global_use: deque[float] = deque()
        self.global_refusals = 0
        """Requests answered 429 for the global limit (a bot that keeps within it: 0)."""
        self.internal_errors: list[BaseException] = []
        self.routes: list[Route] = []
        self._add_routes()

    def _route(self, method: str, path: str, handler: Handler, *, auth: bool = True) -> None:
        regex = re.sub(r"\{(\w+)\}", r"(?P<\1>[^/]+)", path)
        self.routes.append(
            Route(method, re.compile(f"^{regex}$"), handler, auth, template=f"{method} {path}")
        )

    def _add_routes(self) -> None:
        r = self._route
        r("GET", "/users/@me", self.get_me)
        r("GET", "/oauth2/applications/@me", self.get_application)
        r("GET", "/applications/@me", self.get_application)
        r("GET", "/gateway", self.get_gateway)
        r("GET", "/gateway/bot", self.get_gateway_bot)
        r("GET", "/applications/{app}/commands", self.get_commands)
        r("PUT", "/applications/{app}/commands", self.put_commands)
        r("GET", "/applications/{app}/guilds/{guild}/commands", self.get_commands)
        r("PUT", "/applications/{app}/guilds/{guild}/commands", self.put_commands)
        r("POST", "/users/@me/channels", self.open_dm)
        r("GET", "/users/{user}", self.get_user)
        r("GET", "/channels/{channel}", self.get_channel)
        r("GET", "/channels/{channel}/messages", self.list_messages)
        r("POST", "/channels/{channel}/messages", self.create_message)
        r("GET", "/channels/{channel}/messages/{message}", self.get_message)
        r("PATCH", "/channels/{channel}/messages/{message}", self.edit_message)
        r("DELETE", "/channels/{channel}/messages/{message}", self.delete_message)
        r("POST", "/channels/{channel}/typing", self.typing)
        r("GET", "/guilds/{guild}", self.get_guild)
        r("GET", "/guilds/{guild}/channels", self.get_guild_channels)
        r("GET", "/guilds/{guild}/roles", self.get_guild_roles)
        r("GET", "/guilds/{guild}/members/{user}", self.get_member)
        r("POST", "/interactions/{interaction}/{token}/callback", self.callback, auth=False)
        r("POST", "/webhooks/{app}/{token}", self.followup, auth=False)
        r("GET", "/webhooks/{app}/{token}/messages/{message}", self.get_webhook_message, auth=False)
        r(
            "PATCH",
            "/webhooks/{app}/{token}/messages/{message}",
            self.edit_webhook_message,
            auth=False,
        )
        r(
            "DELETE",
            "/webhooks/{app}/{token}/messages/{message}",
            self.delete_webhook_message,
            auth=False,
        )

    # --- the pipeline -------------------------------------------------------------------------

    async def handle(self, request: web.Request) -> web.StreamResponse:
        method = request.method.upper()
        path = "/" + request.match_info.get("tail", "")
        status = 500
        route = self._find(method, path)
        edit = self.interactions.edit_taken(method, path)
        try:
            response = await self._handle(request, method, path)
            status = response.status
            return response
        except ApiError as exc:
            status = exc.status
            if exc.status == 404 and exc.code == 0:
                log.warning("emulator: unknown route %s %s", method, path)
            return json_response(exc.status, exc.body(), exc.headers)
        except Exception as exc:  # an emulator bug: answer fast (no discord.py 5xx retries)
            log.exception("emulator internal error on %s %s", method, path)
            self.internal_errors.append(exc)
            status = 400
            return json_response(400, {"message": f"Emulator internal error: {exc!r}", "code": 0})
        finally:
            if edit is not None:  # the clicks waiting on it learn what it did, however it ended
                self.interactions.edit_done(edit, landed=status == 200)
            template, klass = (route.template, route.klass) if route else ("?", GLOBAL)
            self.requests.append(
                RequestRecord(method, path, status, time.monotonic(), template, klass)
            )

    async def _handle(self, request: web.Request, method: str, path: str) -> web.Response:
        route, params = self._match(method, path)
        if route.auth and request.headers.get("Authorization") != f"Bot {self.token}":
            raise unauthorized()
        if route.klass == GLOBAL:
            self._check_global_limit()
        self._check_rate_limit(method, path)
        self._check_faults(method, path)
        self._check_channel_limit(method, path, params)
        body, attachments = await self._read_body(request)
        await self._in_transit(method, path, body)
        rest = RestRequest(method, path, params, request.query, body, attachments)
        status, data = await route.handler(rest)
        return json_response(status, data)

    def _match(self, method: str, path: str) -> tuple[Route, dict[str, str]]:
        for route in self.routes:
            if route.method != method:
                continue
            found = route.pattern.match(path)
            if found:
                return route, found.groupdict()
        raise not_found_route()

    def _find(self, method: str, path: str) -> Route | None:
        try:
            return self._match(method, path)[0]
        except ApiError:
            return None

    def _check_rate_limit(self, method: str, path: str) -> None:
        rule = take_rule(self.rules, method, path)
        if rule is not None:
            bucket = f"emu{abs(hash(rule.pattern.pattern)):x}"
            raise too_many_requests(rule.retry_after, bucket, is_global=rule.is_global)

    async def _in_transit(self, method: str, path: str, body: Any) -> None:
        rule = take_rule(self.delays, method, path, body)
        if rule is not None:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(rule.released.wait(), MAX_TRANSIT)

    def _check_faults(self, method: str, path: str) -> None:
        rule = take_rule(self.faults, method, path)
        if rule is not None:
            raise ApiError(rule.status, rule.code, rule.message)

    def _check_global_limit(self) -> None:
        """Like Discord: the bot token's requests, every route but the interaction's own,
        take at most ``limit`` places in any ``window`` seconds; one more is a global 429
        (``X-RateLimit-Global``), which discord.py answers by holding back every request.
        Refused requests do not count; a request let through counts even if it is refused
        later (a channel's limit, a fault)."""
        limits = self.global_limit
        if limits is None:
            return
        now = time.monotonic()
        used = self._global_use
        while used and now - used[0] >= limits.window:
            used.popleft()
        if len(used) >= limits.limit:
            self.global_refusals += 1
            retry = max(0.001, used[0] + limits.window - now)
            raise too_many_requests(retry, "global", is_global=True, limit=limits.limit)
        used.append(now)

    def _check_channel_limit(self, method: str, path: str, params: Mapping[str, str]) -> None:
        """Like Discord: a channel takes at most ``limit`` sends (and ``limit`` edits) in any
        ``window`` seconds; one more is answered 429 with the wait until a slot frees up.
        Refused requests do not count. The emulator sends no bucket headers in advance, so a bot
        must keep within the limits by itself (discord.py alone would only find out by a 429)."""
        limits = self.channel_limit
        kind = CHANNEL_BUCKETS.get(method)
        channel = params.get("channel")
        if limits is None or kind is None or channel is None:
            return
        if not re.fullmatch(r"/channels/[^/]+/messages(/[^/]+)?", path):
            return
        if (kind == "send") != path.endswith("/messages"):
            return
        now = time.monotonic()
        used = self._channel_use.setdefault((kind, channel), deque())
        while used and now - used[0] >= limits.window:
            used.popleft()
        if len(used) >= limits.limit:
            retry = max(0.001, used[0] + limits.window - now)
            raise too_many_requests(retry, f"channel-{kind}-{channel}")
        used.append(now)

    async def _read_body(self, request: web.Request) -> tuple[Any, list[JSON]]:
        if request.content_type.startswith("multipart/"):
            return await self._read_multipart(request)
        raw = await request.read()
        if not raw:
            return None, []
        try:
            return json.loads(raw), []
        except ValueError:
            raise ApiError(400, 50109, "The request body contains invalid JSON.") from None

    async def _read_multipart(self, request: web.Request) -> tuple[Any, list[JSON]]:
        body: Any = None
        attachments: list[JSON] = []
        reader = await request.multipart()
        while True:
            part = await reader.next()
            if part is None:
                break
            if not isinstance(part, BodyPartReader):
                continue
            data = await part.read()
            if part.name == "payload_json":
                body = json.loads(data)
            elif part.filename:
                attachment_id = self.world.snowflakes.next()
                self.world.files[str(attachment_id)] = data
                url = f"{self._api_base()}/attachments/{attachment_id}/{part.filename}"
                attachments.append(
                    {
                        "id": str(attachment_id),
                        "filename": part.filename,
                        "size": len(data),
                        "url": url,
                        "proxy_url": url,
                        "content_type": part.headers.get("Content-Type"),
                    }
                )
        # An upload's alt text comes in the payload (an interaction callback's in its data), by
        # the file's index, as Discord takes it.
        message = body.get("data", body) if isinstance(body, dict) else None
        declared = message.get("attachments") if isinstance(message, dict) else None
        for entry in declared if isinstance(declared, list) else []:
            index = entry.get("id") if isinstance(entry, dict) else None
            if (
                isinstance(index, int)
                and 0 <= index < len(attachments)
                and entry.get("description")
            ):
                attachments[index]["description"] = str(entry["description"])[:1024]
        return body, attachments

    # --- identity -----------------------------------------------------------------------------

    async def get_me(self, req: RestRequest) -> Result:
        me = self.world.bot.payload()
        me.update({"verified": True, "mfa_enabled": False, "email": None, "locale": "en-US"})
        return 200, me

    async def get_application(self, req: RestRequest) -> Result:
        world = self.world
        return 200, {
            "id": str(world.application_id),
            "name": world.bot.name,
            "description": "",
            "icon": None,
            "bot_public": True,
            "bot_require_code_grant": False,
            "owner": world.owner.payload(),
            "team": None,
            "verify_key": world.verify_key,
            "flags": 0,
            "summary": "",
            "bot": world.bot.payload(),
            "interactions_endpoint_url": None,
            "redirect_uris": [],
            "tags": [],
        }

    async def get_gateway(self, req: RestRequest) -> Result:
        return 200, {"url": self._gateway_url()}

    async def get_gateway_bot(self, req: RestRequest) -> Result:
        return 200, {
            "url": self._gateway_url(),
            "shards": 1,
            "session_start_limit": {
                "total": 1000,
                "remaining": 1000 - self.gateway.identify_count,
                "reset_after": 86_400_000,
                "max_concurrency": 1,
            },
        }

    # --- application commands -----------------------------------------------------------------

    def _command_scope(self, req: RestRequest) -> int | None:
        if _int(req.params["app"]) != self.world.application_id:
            raise unknown_application()
        if "guild" not in req.params:
            return None
        guild = self.world.guilds.get(_int(req.params["guild"]))
        if guild is None:
            raise unknown_guild()
        return guild.id

    async def get_commands(self, req: RestRequest) -> Result:
        guild_id = self._command_scope(req)
        if guild_id is None:
            return 200, self.interactions.global_commands
        return 200, self.interactions.guild_commands.get(guild_id, [])

    async def put_commands(self, req: RestRequest) -> Result:
        guild_id = self._command_scope(req)
        validate_commands(req.body)
        return 200, self.interactions.store_commands(guild_id, req.body)

    # --- users, channels, guilds --------------------------------------------------------------

    async def open_dm(self, req: RestRequest) -> Result:
        recipient = _int(req.json_object().get("recipient_id"))
        self.dm_opens[recipient] += 1
        user = self.world.users.get(recipient)
        if user is None or user.bot:
            raise unknown_user()
        return 200, self.world.dm_channel(user).payload()

    async def get_user(self, req: RestRequest) -> Result:
        user = self.world.users.get(_int(req.params["user"]))
        if user is None:
            raise unknown_user()
        return 200, user.payload()

    def _channel(self, req: RestRequest, *, send: bool = False) -> Channel:
        """The channel of the route, as the bot may use it: a guild channel it cannot view is
        403 50001 for everything, one it may not send in is 403 50013 for sends and edits."""
        channel = self.world.channels.get(_int(req.params["channel"]))
        if channel is None:
            raise unknown_channel()
        if channel.guild is not None:
            if not channel.bot_can_view:
                raise missing_access()
            if send and not channel.bot_can_send:
                raise missing_permissions()
        return channel

    def _guild(self, req: RestRequest) -> Guild:
        guild = self.world.guilds.get(_int(req.params["guild"]))
        if guild is None:
            raise unknown_guild()
        return guild

    async def get_channel(self, req: RestRequest) -> Result:
        return 200, self._channel(req).payload()

    async def typing(self, req: RestRequest) -> Result:
        self._channel(req, send=True)
        return 204, None

    async def get_guild(self, req: RestRequest) -> Result:
        guild = self._guild(req)
        data = self.world.guild_payload(guild)
        data["approximate_member_count"] = len(self.world.members) + 1
        return 200, data

    async def get_guild_channels(self, req: RestRequest) -> Result:
        return 200, [c.payload() for c in self._guild(req).channels]

    async def get_guild_roles(self, req: RestRequest) -> Result:
        return 200, [r.payload() for r in self._guild(req).roles]

    async def get_member(self, req: RestRequest) -> Result:
        guild = self._guild(req)
        user = self.world.users.get(_int(req.params["user"]))
        if user is None or not self.world.is_member(guild, user):
            raise unknown_member()
        return 200, self.world.member_payload(guild, user)

    # --- channel messages ---------------------------------------------------------------------

    def _message(self, req: RestRequest, *, send: bool = False) -> Message:
        channel = self._channel(req, send=send)
        message = self.world.messages.get(_int(req.params["message"]))
        if (
            message is None
            or message.channel is not channel
            or message.deleted
            or message.ephemeral_to is not None
        ):
            raise unknown_message()
        return message

    async def list_messages(self, req: RestRequest) -> Result:
        channel = self._channel(req)
        messages = self.world.channel_messages(channel)
        limit = max(1, min(100, _int(req.query.get("limit", "50"))))
        if "before" in req.query:
            before = _int(req.query["before"])
            messages = [m for m in messages if m.id < before][-limit:]
        elif "after" in req.query:
            after = _int(req.query["after"])
            messages = [m for m in messages if m.id > after][:limit]
        elif "around" in req.query:
            around = _int(req.query["around"])
            older = [m for m in messages if m.id <= around][-(limit // 2 + 1) :]
            newer = [m for m in messages if m.id > around][: limit - len(older)]
            messages = older + newer
        else:
            messages = messages[-limit:]
        return 200, [m.payload() for m in reversed(messages)]

    async def create_message(self, req: RestRequest) -> Result:
        channel = self._channel(req, send=True)
        body = req.json_object()
        if channel.type == DM:
            assert channel.recipient is not None
            if not channel.recipient.dms_open:
                raise cannot_dm()
        validate_message(body, creating=True, has_attachments=bool(req.attachments))
        message = self.world.new_message(channel, body, attachments=req.attachments)
        return 200, message.payload()

    async def get_message(self, req: RestRequest) -> Result:
        return 200, self._message(req).payload()

    async def edit_message(self, req: RestRequest) -> Result:
        message = self._message(req, send=True)
        if message.author is not self.world.bot:
            raise not_author()
        body = req.json_object()
        validate_message(body, creating=False)
        message.apply_edit(body, now=time.time())
        if req.attachments:
            message.attachments.extend(req.attachments)
        return 200, message.payload()

    async def delete_message(self, req: RestRequest) -> Result:
        self._message(req).deleted = True
        return 204, None

    # --- interactions -------------------------------------------------------------------------

    async def callback(self, req: RestRequest) -> Result:
        _, response = self.interactions.callback(
            _int(req.params["interaction"]),
            req.params["token"],
            req.json_object(),
            attachments=req.attachments,
        )
        if req.flag("with_response"):
            return 200, response
        return 204, None

    def _webhook(self, req: RestRequest) -> Any:
        return self.interactions.webhook_record(_int(req.params["app"]), req.params["token"])

    async def followup(self, req: RestRequest) -> Result:
        record = self._webhook(req)
        message = self.interactions.followup(record, req.json_object(), attachments=req.attachments)
        if req.flag("wait"):
            return 200, message.payload()
        return 204, None

    async def get_webhook_message(self, req: RestRequest) -> Result:
        record = self._webhook(req)
        return 200, self.interactions.webhook_message(record, req.params["message"]).payload()

    async def edit_webhook_message(self, req: RestRequest) -> Result:
        record = self._webhook(req)
        message = self.interactions.webhook_message(record, req.params["message"])
        self.interactions.edit_webhook_message(record, message, req.json_object())
        if req.attachments:
            message.attachments.extend(req.attachments)
        return 200, message.payload()

    async def delete_webhook_message(self, req: RestRequest) -> Result:
        record = self._webhook(req)
        self.interactions.webhook_message(record, req.params["message"]).deleted = True
        return 204, None


def _int(value: Any) -> int:
    """Snowflakes arrive as strings; a malformed one is a 404 on Discord, not a crash."""
    try:
        return int(value)
    except (TypeError, ValueError):
        return -1
