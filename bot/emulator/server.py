"""The ``Emulator``: a local Discord (REST + gateway) that tests drive as users.

The bot under test is the real discord.py client pointed at ``api_base`` and ``gateway_url``;
tests call ``slash``/``click``/``select`` as users and read channels, DMs and ephemeral replies.
"""

from __future__ import annotations

import asyncio
import inspect
import logging
import re
from collections import Counter
from collections.abc import Awaitable, Callable, Coroutine, Iterable
from typing import Any, TypeVar

from aiohttp import web

from .arrivals import ReportingRunner
from .errors import JSON, EmulatorError
from .gateway import Gateway
from .interactions import InteractionResult, Interactions
from .models import Button, Channel, Guild, Message, Role, User, World
from .rest import (
    ChannelLimit,
    DelayRule,
    FaultRule,
    GlobalLimit,
    RateLimitRule,
    RequestRecord,
    RestApi,
)

log = logging.getLogger(__name__)

T = TypeVar("T")


class Emulator:
    """One application with one bot user, in guilds of users the test creates."""

    def __init__(
        self,
        token: str = "test-token",
        *,
        host: str = "127.0.0.1",
        port: int = 0,
        app_name: str = "bugtable",
        ack_deadline: float = 3.0,
        followup_ttl: float = 15 * 60.0,
        heartbeat_interval: float = 41.25,
        privileged_intents: bool = False,
        deliver_stale_clicks: bool = False,
        channel_limit: ChannelLimit | None = ChannelLimit(),  # noqa: B008 - frozen, shared safely
        global_limit: GlobalLimit | None = GlobalLimit(),  # noqa: B008 - frozen, shared safely
    ) -> None:
        self.token = token
        self.host = host
        self._requested_port = port
        self.port = 0
        self.world = World(app_name=app_name)
        self.gateway = Gateway(
            self.world,
            token,
            heartbeat_interval=heartbeat_interval,
            privileged_intents=privileged_intents,
            gateway_url=lambda: self.gateway_url,
        )
        self.interactions = Interactions(
            self.world,
            self.gateway.dispatch,
            ack_deadline=ack_deadline,
            followup_ttl=followup_ttl,
            deliver_stale_clicks=deliver_stale_clicks,
        )
        self.rest = RestApi(
            self.world,
            self.interactions,
            self.gateway,
            token,
            gateway_url=lambda: self.gateway_url,
            api_base=lambda: self.api_base,
        )
        self.rest.channel_limit = channel_limit
        self.rest.global_limit = global_limit
        self._runner: ReportingRunner | None = None
        self._tasks: set[asyncio.Task[Any]] = set()

    # --- lifecycle ----------------------------------------------------------------------------

    async def start(self) -> None:
        app = web.Application(client_max_size=64 * 1024 * 1024)
        app.router.add_get("/gateway", self.gateway.handle)
        app.router.add_get("/gateway/", self.gateway.handle)
        app.router.add_route("*", "/api/{version}/{tail:.*}", self.rest.handle)
        app.router.add_route("*", "/{tail:.*}", self._unknown)
        self._runner = ReportingRunner(
            app, self.interactions.arrived, access_log=None, handle_signals=False
        )
        await self._runner.setup()
        site = web.TCPSite(self._runner, self.host, self._requested_port)
        await site.start()
        self.port = int(self._runner.addresses[0][1])
        log.info("Discord emulator on %s (gateway %s)", self.api_base, self.gateway_url)

    async def stop(self) -> None:
        for task in list(self._tasks):
            task.cancel()
        await self.gateway.close_all()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def __aenter__(self) -> Emulator:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()

    async def _unknown(self, request: web.Request) -> web.StreamResponse:
        log.warning("emulator: unknown path %s %s", request.method, request.path)
        return web.Response(
            status=404,
            body=b'{"message": "404: Not Found", "code": 0}',
            headers={"Content-Type": "application/json"},
        )

    @property
    def api_base(self) -> str:
        return f"http://{self.host}:{self.port}/api/v10"

    @property
    def gateway_url(self) -> str:
        return f"ws://{self.host}:{self.port}/gateway"

    # --- the bot's side -----------------------------------------------------------------------

    @property
    def application_id(self) -> int:
        return self.world.application_id

    @property
    def bot_user(self) -> User:
        return self.world.bot

    @property
    def identify_count(self) -> int:
        """IDENTIFYs accepted so far: one per bot process start (RESUMEs do not count)."""
        return self.gateway.identify_count

    @property
    def connected(self) -> bool:
        return self.gateway.connected

    async def wait_identified(self, timeout: float = 60.0, *, count: int = 1) -> None:  # noqa: ASYNC109
        """Until ``count`` IDENTIFYs were answered with READY and every GUILD_CREATE.

        Interactions sent after this reach the bot after its guilds; on_ready fires seconds
        later (guild_ready_timeout), so tests should not wait for it.
        """
        await self.wait_for(lambda: self.gateway.identify_count >= count, timeout=timeout)

    async def drop_connection(self, *, code: int = 4000, forget_session: bool = False) -> None:
        """Closes the bot's socket: it RESUMEs (and gets missed events), or re-IDENTIFYs."""
        await self.gateway.drop(code=code, forget_session=forget_session)

    @property
    def requests(self) -> list[RequestRecord]:
        return self.rest.requests

    @property
    def internal_errors(self) -> list[BaseException]:
        """Emulator bugs hit while answering (each was answered 400 to fail fast)."""
        return self.rest.internal_errors

    def count_requests(self, method: str, path_regex: str, *, status: int | None = None) -> int:
        pattern = re.compile(path_regex)
        return sum(
            1
            for r in self.requests
            if r.method == method.upper()
            and pattern.search(r.path)
            and (status is None or r.status == status)
        )

    def request_counts(self, since: int = 0) -> Counter[str]:
        """Requests from ``self.requests[since:]`` by class: ``"interaction"`` (exempt from
        the global limit) and ``"global"`` (everything else), as Discord counts them."""
        return Counter(r.klass for r in self.requests[since:])

    def route_counts(self, since: int = 0, *, klass: str | None = None) -> Counter[str]:
        """Requests from ``self.requests[since:]`` by route template, e.g.
        ``"PATCH /channels/{channel}/messages/{message}"``; ``klass`` keeps one class."""
        return Counter(r.route for r in self.requests[since:] if klass is None or r.klass == klass)

    def watch_messages(self, watcher: Callable[[Message], None]) -> None:
        """Call ``watcher`` with every message created from now on (channel, DM, ephemeral,
        response or followup); edits change the same ``Message`` in place."""
        self.world.message_watchers.append(watcher)

    def dm_opens(self, user_id: int) -> int:
        """How often the bot opened (``POST /users/@me/channels``) a DM with this user."""
        return self.rest.dm_opens[user_id]

    @property
    def commands(self) -> list[JSON]:
        """Every synced command as stored (guild commands carry ``guild_id``)."""
        return self.interactions.all_commands()

    @property
    def sync_count(self) -> int:
        return self.interactions.sync_count

    @property
    def channel_limit(self) -> ChannelLimit | None:
        """Discord's per-channel limits on message sends and edits (5 of each per 5 s by
        default); ``None`` lifts them. Tests that speed time up may shorten the window."""
        return self.rest.channel_limit

    @channel_limit.setter
    def channel_limit(self, value: ChannelLimit | None) -> None:
        self.rest.channel_limit = value

    @property
    def global_limit(self) -> GlobalLimit | None:
        """Discord's global limit on the bot token's requests (50 per second by default;
        interaction callbacks and webhooks are exempt); ``None`` lifts it."""
        return self.rest.global_limit

    @global_limit.setter
    def global_limit(self, value: GlobalLimit | None) -> None:
        self.rest.global_limit = value

    @property
    def global_refusals(self) -> int:
        """Requests answered 429 because the bot went past the global limit."""
        return self.rest.global_refusals

    def rate_limit(
        self,
        method: str,
        path_regex: str,
        *,
        times: int = 1,
        retry_after: float = 0.2,
        global_: bool = False,
    ) -> None:
        """The next ``times`` requests whose path (under api_base) matches get a 429."""
        self.rest.rules.append(
            RateLimitRule(
                method=method.upper(),
                pattern=re.compile(path_regex),
                remaining=times,
                retry_after=retry_after,
                is_global=global_,
            )
        )

    def fail(
        self,
        method: str,
        path_regex: str,
        *,
        status: int,
        code: int = 0,
        message: str = "Refused",
        times: int = 1,
    ) -> None:
        """The next ``times`` requests whose path (under api_base) matches fail with
        ``status`` and Discord's error ``code`` (e.g. 403 50007 on one member's DM channel,
        503 on one board)."""
        self.rest.faults.append(
            FaultRule(
                method=method.upper(),
                pattern=re.compile(path_regex),
                remaining=times,
                status=status,
                code=code,
                message=message,
            )
        )

    def hold(
        self,
        method: str,
        path_regex: str,
        *,
        times: int = 1,
        where: Callable[[Any], bool] | None = None,
    ) -> asyncio.Event:
        """The next ``times`` requests whose path (under api_base) matches, and whose JSON
        body ``where`` accepts, stay in transit until the event returned is set, so they land
        after requests sent later (one process's edit overtaken by another's). They have
        passed the rate limits; Discord takes them when released."""
        released = asyncio.Event()
        self.rest.delays.append(
            DelayRule(
                method=method.upper(),
                pattern=re.compile(path_regex),
                remaining=times,
                released=released,
                where=where,
            )
        )
        return released

    # --- building the world -------------------------------------------------------------------

    def _spawn(self, coro: Coroutine[Any, Any, Any]) -> None:
        """Gateway events for world changes made while the bot is connected."""
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            coro.close()
            return
        task = loop.create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def add_guild(self, name: str, *, shard: tuple[int, int] | None = None) -> Guild:
        """A new guild (``shard``: (id, count) to put it on that gateway shard)."""
        guild = self.world.add_guild(name, shard=shard)
        if self.gateway.connected:
            self._spawn(
                self.gateway.dispatch("GUILD_CREATE", self.world.guild_create_payload(guild))
            )
        return guild

    def add_text_channel(self, guild: Guild, name: str) -> Channel:
        channel = self.world.add_text_channel(guild, name)
        if self.gateway.connected:
            self._spawn(self.gateway.dispatch("CHANNEL_CREATE", channel.payload()))
        return channel

    def add_user(
        self,
        name: str,
        *,
        dms_open: bool = True,
        manage_channels: bool = False,
        guilds: Iterable[Guild] | None = None,
    ) -> User:
        """A member of ``guilds`` (default: every guild); ``manage_channels`` gives a role with
        MANAGE_CHANNELS."""
        guild_ids = None if guilds is None else frozenset(g.id for g in guilds)
        return self.world.add_user(
            name, dms_open=dms_open, manage_channels=manage_channels, guild_ids=guild_ids
        )

    async def settle(self) -> None:
        """Wait until every event the emulator began sending (a new guild, channel or role)
        has gone out, so the bot knows of it before the test's next interaction."""
        await asyncio.gather(*list(self._tasks))

    def add_role(self, guild: Guild, name: str, *, permissions: int = 0) -> Role:
        """A role an admin made in ``guild`` (GUILD_ROLE_CREATE, as Discord sends it)."""
        role = self.world.add_role(guild, name, permissions)
        if self.gateway.connected:
            payload = {"guild_id": str(guild.id), "role": role.payload()}
            self._spawn(self.gateway.dispatch("GUILD_ROLE_CREATE", payload))
        return role

    def give_role(self, user: User, role: Role) -> None:
        """An admin gives ``user`` the role: their interactions carry it from then on (a bot
        without the members intent hears nothing else of it, as on Discord)."""
        user.role_ids.add(role.id)

    def set_dms_open(self, user: User, open_: bool) -> None:
        user.dms_open = open_

    def set_bot_permissions(
        self, channel: Channel, *, view: bool = True, send: bool = True
    ) -> None:
        """What an admin's channel overwrites let the bot do in ``channel`` (View Channel, Send
        Messages); the REST API answers 403 as Discord does while one is off."""
        channel.bot_can_view, channel.bot_can_send = view, send

    def delete_message(self, message: Message) -> None:
        """A member (a moderator, or the author of a DM's other side) deletes ``message``: later
        requests for it are 404 Unknown Message, and nobody can click its buttons."""
        message.deleted = True

    def dismiss(self, message: Message) -> None:
        """The member an ephemeral message was for dismisses it: it is gone for them, and the
        bot's edits of it answer 404 Unknown Message."""
        if message.ephemeral_to is None:
            raise EmulatorError(f"message {message.id} is not ephemeral: only ephemerals dismiss")
        message.deleted = True

    def expire_token(self, result: InteractionResult) -> None:
        """Let the 15 minutes of ``result``'s interaction token pass (``followup_ttl``): its
        webhook routes then answer 401 Invalid Webhook Token, as on Discord."""
        self.interactions.token_age(result.token, self.interactions.followup_ttl + 1.0)

    def dm_channel(self, user: User) -> Channel:
        return self.world.dm_channel(user)

    @property
    def guilds(self) -> list[Guild]:
        return list(self.world.guilds.values())

    @property
    def users(self) -> list[User]:
        return list(self.world.members)

    # --- acting as users ----------------------------------------------------------------------

    async def slash(
        self, user: User, channel: Channel, command: str, /, **options: Any
    ) -> InteractionResult:
        """Runs ``/command`` (``"group sub"`` for subcommands); returns once acknowledged or
        failed (no acknowledgement within the deadline)."""
        return await self.interactions.command(user, channel, command, options)

    async def click(
        self, user: User, message: Message, custom_id: str | Button
    ) -> InteractionResult:
        """Clicks a button. One that only an earlier version of the message had (or that is
        disabled now) fails at once with ``stale`` set, as Discord refuses it; with
        ``deliver_stale_clicks`` it reaches the bot with the current message instead."""
        if isinstance(custom_id, Button):
            if custom_id.custom_id is None:
                raise EmulatorError("a link button cannot be clicked in the emulator")
            custom_id = custom_id.custom_id
        return await self.interactions.component(user, message, custom_id, None, select=False)

    async def select(
        self, user: User, message: Message, custom_id: str, values: list[str]
    ) -> InteractionResult:
        return await self.interactions.component(user, message, custom_id, values, select=True)

    async def forge_click(
        self,
        user: User,
        message: Message,
        custom_id: str,
        values: list[str] | None = None,
        *,
        on_message: bool = True,
    ) -> InteractionResult:
        """A click no Discord client would send: any ``custom_id`` (and select ``values``), as a
        scripted client could forge. With ``on_message`` the message it claims to come from
        carries that component, so discord.py hands it to the bot's items."""
        select = values is not None
        kind = 3 if select else 2
        data: JSON = {"custom_id": custom_id, "component_type": kind}
        if select:
            data["values"] = list(values or [])
        payload = message.payload()
        if on_message:
            component: JSON = {"type": kind, "custom_id": custom_id}
            if select:
                component["options"] = [{"label": "?", "value": v} for v in values or ["?"]]
            else:
                component.update(style=2, label="?")
            payload["components"] = [{"type": 1, "components": [component]}]
        return await self.interactions.forged(
            3, user, message.channel, data, message=payload, source=message
        )

    async def forge_slash(
        self, user: User, channel: Channel, command: str, /, **options: Any
    ) -> InteractionResult:
        """A slash command Discord's client would not send (a guild-only command in a DM, a
        value that is not one of the choices, an option the command does not declare), as a
        scripted client could."""
        data, name = self.interactions.build_command_data(
            user, channel, command, options, checked=False
        )
        return await self.interactions.forged(2, user, channel, data, name=name)

    # --- reading what users see ---------------------------------------------------------------

    def channel_messages(self, channel: Channel) -> list[Message]:
        """Public messages, current state, oldest first (no ephemerals, no deleted)."""
        return self.world.channel_messages(channel)

    def attachment_bytes(self, attachment: JSON) -> bytes:
        """What was uploaded as ``attachment`` (one of a message's ``attachments``)."""
        return self.world.files[str(attachment["id"])]

    def dms(self, user: User) -> list[Message]:
        channel = self.world.dm_channels.get(user.id)
        return [] if channel is None else self.world.channel_messages(channel)

    def ephemerals_created(self, user: User) -> list[Message]:
        """Every ephemeral message ever created for ``user``, dismissed ones included."""
        return sorted(
            (m for m in self.world.messages.values() if m.ephemeral_to is user),
            key=lambda m: m.id,
        )

    def ephemerals(self, user: User) -> list[Message]:
        return sorted(
            (m for m in self.world.messages.values() if m.ephemeral_to is user and not m.deleted),
            key=lambda m: m.id,
        )

    def visible_to(self, user: User, *, include_deleted: bool = False) -> list[Message]:
        """Everything ``user`` can see: guild channels, own DMs, own ephemerals (oldest first).

        ``include_deleted`` adds messages deleted after the user may have seen them; each
        message's ``history`` holds its earlier versions.
        """
        seen: list[Message] = []
        for message in self.world.messages.values():
            if message.deleted and not include_deleted:
                continue
            channel = message.channel
            if message.ephemeral_to is not None:
                visible = message.ephemeral_to is user
            elif channel.recipient is not None:
                visible = channel.recipient is user
            else:
                visible = channel.guild is not None and self.world.is_member(channel.guild, user)
            if visible:
                seen.append(message)
        return sorted(seen, key=lambda m: m.id)

    def get_message(self, message_id: int) -> Message:
        message = self.world.messages.get(int(message_id))
        if message is None:
            raise KeyError(f"no message {message_id}")
        return message

    def last_message(self, channel: Channel) -> Message | None:
        messages = self.channel_messages(channel)
        return messages[-1] if messages else None

    async def wait_for(
        self,
        predicate: Callable[[], T | Awaitable[T]],
        timeout: float = 30.0,  # noqa: ASYNC109
        *,
        interval: float = 0.01,
    ) -> T:
        """Polls until ``predicate()`` is truthy and returns its value; TimeoutError otherwise.
        The defaults of this and the other waits are generous: a loaded machine is slow."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            value = predicate()
            if inspect.isawaitable(value):
                value = await value
            if value:
                return value
            if loop.time() >= deadline:
                raise TimeoutError(f"condition not met within {timeout}s")
            await asyncio.sleep(interval)
