"""Interactions as Discord runs them: INTERACTION_CREATE, the 3 s acknowledgement deadline,
exactly one callback, the ``@original`` message and 15-minute followup webhooks.
"""

from __future__ import annotations

import asyncio
import logging
import re
import secrets
import time
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from .errors import (
    JSON,
    ApiError,
    EmulatorError,
    already_acknowledged,
    bad_request,
    invalid_webhook_token,
    unknown_interaction,
    unknown_message,
    unknown_webhook,
)
from .limits import (
    FLAG_EPHEMERAL,
    FLAG_LOADING,
    SELECT_TYPES,
    validate_message,
    validate_modal,
)
from .models import DM, Channel, Guild, Message, Role, User, World

log = logging.getLogger(__name__)

APPLICATION_COMMAND = 2
MESSAGE_COMPONENT = 3

PONG = 1
CHANNEL_MESSAGE = 4
DEFERRED_CHANNEL_MESSAGE = 5
DEFERRED_UPDATE_MESSAGE = 6
UPDATE_MESSAGE = 7
MODAL = 9

CHAT_INPUT_COMMAND_MESSAGE = 20
ATTACHMENT_SIZE_LIMIT = 10 * 1024 * 1024

Dispatcher = Callable[[str, JSON], Awaitable[bool]]


@dataclass(eq=False)
class InteractionResult:
    """What the user saw after a slash command or a click; updated live as the bot answers."""

    interaction_id: int
    token: str
    kind: int
    user: User
    channel: Channel
    acknowledged: bool = False
    failed: bool = False
    type: int | None = None
    message: Message | None = None
    ephemeral: bool = False
    followups: list[Message] = field(default_factory=list)
    modal: JSON | None = None
    delivered: bool = False
    stale: bool = False
    panel: Message | None = None
    """An ephemeral message of this user that the bot edited through another interaction's
    token while this one was being answered (a private panel, P-48), and its text then."""
    panel_text: str | None = None
    dispatched: float = float("nan")
    """``time.perf_counter()`` once the interaction's frame was handed to the bot's gateway
    connection."""
    taken_in: float = float("nan")
    """``time.perf_counter()`` when the emulator took in the bot's first answer (its callback),
    its request read: from ``dispatched`` to here is the bot's part of the acknowledgement,
    with the loopback both ways (a bench splits the ack with these two)."""
    answered: float = float("nan")
    """``time.perf_counter()`` once that answer was applied: the clicker sees it. The result
    itself may complete later, once the panel edits on their way with it have landed
    (``Interactions.arrived``)."""
    _done: asyncio.Event = field(default_factory=asyncio.Event, repr=False)
    _cursor: int = field(default=0, repr=False)

    @property
    def content(self) -> str | None:
        return None if self.message is None else self.message.content

    async def wait_followup(self, timeout: float = 30.0) -> Message:  # noqa: ASYNC109
        """The next followup not yet returned by this method (the first call: the first one)."""
        index = self._cursor
        await _poll(lambda: len(self.followups) > index, timeout, f"followup #{index + 1}")
        self._cursor = index + 1
        return self.followups[index]

    async def wait_message(self, timeout: float = 30.0) -> Message:  # noqa: ASYNC109
        """The response message once it exists and is no longer a "thinking" placeholder."""
        await _poll(
            lambda: self.message is not None and not self.message.loading,
            timeout,
            "a filled-in response message",
        )
        assert self.message is not None
        return self.message


async def _poll(predicate: Callable[[], bool], timeout: float, what: str) -> None:  # noqa: ASYNC109
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not predicate():
        if loop.time() >= deadline:
            raise TimeoutError(f"timed out after {timeout}s waiting for {what}")
        await asyncio.sleep(0.01)


FOLLOWUP_WAIT = 3.0
"""How long a click whose panel edit failed waits for the bot's followup in its place."""
EDIT_WAIT = 10.0
"""At most this long a click's result waits for the panel edits on their way with its answer
(an edit the emulator never handles, a held request a test forgot)."""
_CALLBACK = re.compile(r"/interactions/(\d+)/([^/]+)/callback")
_WEBHOOK_EDIT = re.compile(r"/webhooks/\d+/([^/]+)/messages/([^/]+)")


@dataclass(eq=False)
class TokenEdit:
    """An edit of a user's ephemeral message through an interaction's token, from the moment
    its request arrived: the clicks of that user then waiting for their answer are ``linked``
    to it (none, for a board or a lobby edited through a click). A bot answers a click whose
    private answer goes to the member's panel by sending the panel's edit and then the click's
    answer, without waiting for the edit's reply (P-95):
    the edit arrives first, so a test reads it as that click's private answer, whichever of
    the two the emulator finishes first."""

    token: str
    ref: str
    message: Message | None
    linked: list[InteractionRecord]


@dataclass(eq=False)
class InteractionRecord:
    """The server side of one interaction."""

    id: int
    token: str
    kind: int
    user: User
    channel: Channel
    guild: Guild | None
    created: float
    result: InteractionResult
    name: str = ""
    source: Message | None = None
    original: Message | None = None
    filled_deferral: bool = False
    messages: list[Message] = field(default_factory=list)
    deadline: asyncio.TimerHandle | None = None
    forged_message: JSON | None = None
    """The ``message`` a forged interaction claims to come from (see ``Interactions.forged``)."""
    answer_arrived: bool = False
    """Its callback's request has arrived (its bytes read, before it is handled)."""
    edits_due: int = 0
    """Edits of its user's ephemeral messages that arrived while it waited for its answer and
    are not handled yet: its result completes once they are."""
    followup_due: bool = False
    """One of those edits failed: the bot may answer through this interaction's own token
    instead (a followup), which the result waits for, at most ``FOLLOWUP_WAIT``."""

    def metadata(self) -> JSON:
        data: JSON = {
            "id": str(self.id),
            "type": self.kind,
            "user": self.user.payload(),
            "authorizing_integration_owners": _owners(self.guild, self.user),
        }
        if self.kind == APPLICATION_COMMAND:
            data["name"] = self.name
            data["command_type"] = 1
        if self.source is not None:
            data["interacted_message_id"] = str(self.source.id)
        return data


def _owners(guild: Guild | None, user: User) -> JSON:
    return {"0": str(guild.id)} if guild is not None else {"1": str(user.id)}


class Interactions:
    """Creates interactions for the test API and answers the bot's callbacks and webhooks."""

    def __init__(
        self,
        world: World,
        dispatch: Dispatcher,
        *,
        ack_deadline: float,
        followup_ttl: float,
        deliver_stale_clicks: bool = False,
    ) -> None:
        self.world = world
        self.deliver_stale_clicks = deliver_stale_clicks
        self.dispatch = dispatch
        self.ack_deadline = ack_deadline
        self.followup_ttl = followup_ttl
        self.by_id: dict[int, InteractionRecord] = {}
        self.by_token: dict[str, InteractionRecord] = {}
        self.unanswered: dict[int, list[InteractionRecord]] = {}
        """Per user id, their interactions not yet acknowledged (oldest first)."""
        self._edits: dict[tuple[str, str], deque[TokenEdit]] = {}
        """Webhook edits that arrived and are not handled yet, by (token, message)."""
        self.global_commands: list[JSON] = []
        self.guild_commands: dict[int, list[JSON]] = {}
        self.sync_count = 0

    # --- commands -----------------------------------------------------------------------------

    def store_commands(self, guild_id: int | None, payload: list[JSON]) -> list[JSON]:
        """PUT semantics: the new list replaces the old; ids survive for unchanged names."""
        old = self.global_commands if guild_id is None else self.guild_commands.get(guild_id, [])
        old_ids = {(c["name"], c.get("type", 1)): c["id"] for c in old}
        stored: list[JSON] = []
        for command in payload:
            kind = command.get("type", 1)
            data: JSON = {
                "id": old_ids.get((command["name"], kind)) or str(self.world.snowflakes.next()),
                "application_id": str(self.world.application_id),
                "version": str(self.world.snowflakes.next()),
                "type": kind,
                "name": command["name"],
                "description": command.get("description", ""),
                "options": command.get("options") or [],
                # A permission bit set is a string in Discord's answers, whatever was sent.
                "default_member_permissions": _opt_str(command.get("default_member_permissions")),
                "dm_permission": command.get("dm_permission", True),
                "nsfw": command.get("nsfw", False),
                "integration_types": command.get("integration_types") or [0],
                "contexts": command.get("contexts"),
                "name_localizations": command.get("name_localizations"),
                "description_localizations": command.get("description_localizations"),
            }
            if guild_id is not None:
                data["guild_id"] = str(guild_id)
            stored.append(data)
        if guild_id is None:
            self.global_commands = stored
        else:
            self.guild_commands[guild_id] = stored
        self.sync_count += 1
        return stored

    def all_commands(self) -> list[JSON]:
        return [*self.global_commands, *(c for cs in self.guild_commands.values() for c in cs)]

    def _find_command(self, channel: Channel, name: str) -> JSON:
        candidates = list(self.global_commands)
        if channel.guild is not None:
            candidates = [*self.guild_commands.get(channel.guild.id, []), *candidates]
        for command in candidates:
            if command["name"] == name and command.get("type", 1) == 1:
                return command
        known = sorted({c["name"] for c in candidates}) or ["none (did the bot sync?)"]
        raise EmulatorError(f"unknown slash command /{name}; synced: {', '.join(known)}")

    def build_command_data(
        self,
        user: User,
        channel: Channel,
        path: str,
        options: dict[str, Any],
        *,
        checked: bool = True,
    ) -> tuple[JSON, str]:
        """The ``data`` of an INTERACTION_CREATE, typed from the synced definitions. Unless
        ``checked``, as a forging client would: no visibility check, any choice value, and an
        option the command does not declare is sent as a string option."""
        parts = path.strip().lstrip("/").split()
        if not parts:
            raise EmulatorError("empty command path")
        command = self._find_command(channel, parts[0])
        if checked:
            self._check_visible(user, channel, command)
        data: JSON = {"id": command["id"], "name": command["name"], "type": 1, "options": []}
        if "guild_id" in command:
            data["guild_id"] = command["guild_id"]
        node = command
        target: list[JSON] = data["options"]
        for part in parts[1:]:
            sub = next(
                (
                    o
                    for o in node.get("options") or []
                    if o["name"] == part and o.get("type") in (1, 2)
                ),
                None,
            )
            if sub is None:
                names = [o["name"] for o in node.get("options") or [] if o.get("type") in (1, 2)]
                raise EmulatorError(f"/{path}: no subcommand {part!r} (has {names})")
            entry: JSON = {"name": part, "type": sub["type"], "options": []}
            target.append(entry)
            target = entry["options"]
            node = sub
        definitions = {o["name"]: o for o in node.get("options") or []}
        if any(o.get("type") in (1, 2) for o in definitions.values()):
            raise EmulatorError(f"/{path} needs a subcommand: {sorted(definitions)}")
        resolved: JSON = {}
        for name, value in options.items():
            definition = definitions.get(name)
            if definition is None and not checked:  # a forging client sends any name, as text
                target.append({"name": name, "type": 3, "value": str(value)})
                continue
            if definition is None:
                raise EmulatorError(f"/{path} has no option {name!r} (has {sorted(definitions)})")
            if not checked:
                definition = {k: v for k, v in definition.items() if k != "choices"}
            target.append(self._option_value(path, definition, value, channel, resolved))
        missing = [n for n, d in definitions.items() if d.get("required") and n not in options]
        if missing:
            raise EmulatorError(f"/{path}: missing required options {missing}")
        if resolved:
            data["resolved"] = resolved
        return data, " ".join(parts)

    def _check_visible(self, user: User, channel: Channel, command: JSON) -> None:
        """Discord's client hides commands a user may not use; the emulator refuses them."""
        contexts = command.get("contexts")
        in_guild = channel.guild is not None
        if isinstance(contexts, list) and (0 if in_guild else 1) not in contexts:
            raise EmulatorError(f"/{command['name']} is not available in this context")
        if not in_guild and command.get("dm_permission") is False:
            raise EmulatorError(f"/{command['name']} is not available in DMs")
        required = command.get("default_member_permissions")
        if in_guild and required is not None:
            assert channel.guild is not None
            needed = int(required)
            if self.world.permissions(channel.guild, user) & needed != needed:
                raise EmulatorError(
                    f"{user.name} lacks permissions {needed} for /{command['name']}"
                )

    def _option_value(
        self, path: str, definition: JSON, value: Any, channel: Channel, resolved: JSON
    ) -> JSON:
        kind = definition.get("type")
        name = definition["name"]
        out: JSON = {"name": name, "type": kind}
        if kind == 3:
            if not isinstance(value, str):
                raise EmulatorError(f"/{path} {name}: expected a string, got {value!r}")
            if "min_length" in definition and len(value) < definition["min_length"]:
                raise EmulatorError(f"/{path} {name}: shorter than {definition['min_length']}")
            if "max_length" in definition and len(value) > definition["max_length"]:
                raise EmulatorError(f"/{path} {name}: longer than {definition['max_length']}")
            out["value"] = value
        elif kind == 4:
            if isinstance(value, bool) or not isinstance(value, int):
                raise EmulatorError(f"/{path} {name}: expected an integer, got {value!r}")
            out["value"] = value
        elif kind == 10:
            if isinstance(value, bool) or not isinstance(value, int | float):
                raise EmulatorError(f"/{path} {name}: expected a number, got {value!r}")
            out["value"] = value
        elif kind == 5:
            if not isinstance(value, bool):
                raise EmulatorError(f"/{path} {name}: expected a boolean, got {value!r}")
            out["value"] = value
        elif kind in (6, 9) and isinstance(value, User):
            out["value"] = str(value.id)
            self._resolve_user(value, channel, resolved)
        elif kind in (8, 9) and isinstance(value, Role):
            out["value"] = str(value.id)
            resolved.setdefault("roles", {})[str(value.id)] = value.payload()
        elif kind == 7 and isinstance(value, Channel):
            out["value"] = str(value.id)
            payload = value.payload()
            payload["permissions"] = str(self._channel_permissions(value, None))
            resolved.setdefault("channels", {})[str(value.id)] = payload
        else:
            raise EmulatorError(f"/{path} {name}: option type {kind} cannot take {value!r}")
        if kind in (4, 10) and isinstance(value, int | float):
            if "min_value" in definition and value < definition["min_value"]:
                raise EmulatorError(f"/{path} {name}: below {definition['min_value']}")
            if "max_value" in definition and value > definition["max_value"]:
                raise EmulatorError(f"/{path} {name}: above {definition['max_value']}")
        choices = definition.get("choices")
        if choices and out["value"] not in [c["value"] for c in choices]:
            raise EmulatorError(
                f"/{path} {name}: {value!r} is not one of {[c['value'] for c in choices]}"
            )
        return out

    def _resolve_user(self, user: User, channel: Channel, resolved: JSON) -> None:
        resolved.setdefault("users", {})[str(user.id)] = user.payload()
        if channel.guild is not None and self.world.is_member(channel.guild, user):
            member = self.world.member_payload(channel.guild, user, with_permissions=True)
            member.pop("user")
            resolved.setdefault("members", {})[str(user.id)] = member

    def _channel_permissions(self, channel: Channel, user: User | None) -> int:
        if channel.guild is None:
            return 0
        return self.world.permissions(channel.guild, user or self.world.bot)

    # --- creating interactions ----------------------------------------------------------------

    def _new_record(
        self, kind: int, user: User, channel: Channel, *, source: Message | None = None
    ) -> InteractionRecord:
        interaction_id = self.world.snowflakes.next()
        token = "emu." + secrets.token_urlsafe(48)
        result = InteractionResult(
            interaction_id=interaction_id, token=token, kind=kind, user=user, channel=channel
        )
        return InteractionRecord(
            id=interaction_id,
            token=token,
            kind=kind,
            user=user,
            channel=channel,
            guild=channel.guild,
            created=time.monotonic(),
            result=result,
            source=source,
        )

    def _payload(self, record: InteractionRecord, data: JSON) -> JSON:
        world = self.world
        channel = record.channel
        channel_payload = channel.payload()
        payload: JSON = {
            "id": str(record.id),
            "application_id": str(world.application_id),
            "type": record.kind,
            "data": data,
            "token": record.token,
            "version": 1,
            "locale": "en-US",
            "attachment_size_limit": ATTACHMENT_SIZE_LIMIT,
            "entitlements": [],
            "entitlement_sku_ids": [],
            "authorizing_integration_owners": _owners(record.guild, record.user),
            "context": 0 if record.guild is not None else 1,
            "channel_id": str(channel.id),
            "channel": channel_payload,
            "app_permissions": str(self._channel_permissions(channel, None)),
        }
        if record.guild is not None:
            guild = record.guild
            channel_payload["permissions"] = str(world.permissions(guild, record.user))
            payload["guild_id"] = str(guild.id)
            payload["guild"] = {"id": str(guild.id), "locale": "en-US", "features": []}
            payload["guild_locale"] = "en-US"
            payload["member"] = world.member_payload(guild, record.user, with_permissions=True)
        else:
            payload["user"] = record.user.payload()
        if record.forged_message is not None:
            payload["message"] = record.forged_message
        elif record.source is not None:
            payload["message"] = record.source.payload()
        return payload

    # --- arrivals: what the bot sent, in the order its bytes came in ---------------------------

    def arrived(self, method: str, path: str) -> None:
        """A request's head was read: ``path`` is its route's (no ``/api/v10``, no query).
        ``server.py`` reports it as its bytes come in, before it is handled: two requests on
        two connections may be handled in the other order."""
        if method == "POST" and (found := _CALLBACK.fullmatch(path)):
            record = self.by_id.get(int(found[1]))
            if record is not None and record.token == found[2]:
                record.answer_arrived = True
        elif method == "PATCH" and (found := _WEBHOOK_EDIT.fullmatch(path)):
            edit = self._edit_arrived(found[1], found[2])
            self._edits.setdefault((edit.token, edit.ref), deque()).append(edit)

    def _edit_arrived(self, token: str, ref: str) -> TokenEdit:
        record = self.by_token.get(token)
        if record is None:
            return TokenEdit(token, ref, None, [])
        try:
            message: Message | None = self.webhook_message(record, ref)
        except ApiError:
            message = None
        if message is not None and message.ephemeral_to is not record.user:
            # A board or a lobby edited through a click: nobody's private answer.
            return TokenEdit(token, ref, message, [])
        linked = [
            waiting
            for waiting in self.unanswered.get(record.user.id, [])
            if waiting is not record and not waiting.answer_arrived
        ]
        for waiting in linked:
            waiting.edits_due += 1
        return TokenEdit(token, ref, message, linked)

    def edit_taken(self, method: str, path: str) -> TokenEdit | None:
        """The arrival of the webhook edit now handled, if ``path`` is one (one that was not
        seen arriving is linked now). Hand it back to ``edit_done`` however it ends."""
        found = _WEBHOOK_EDIT.fullmatch(path) if method == "PATCH" else None
        if found is None:
            return None
        token, ref = found[1], found[2]
        queue = self._edits.get((token, ref))
        if queue:
            edit = queue.popleft()
            if not queue:
                del self._edits[(token, ref)]
            return edit
        return self._edit_arrived(token, ref)

    def edit_done(self, edit: TokenEdit, landed: bool) -> None:
        """``edit`` was handled: it ``landed`` on its message, or failed. Each
        linked click notes it as what it told its user, unless the click was on that very
        message (answered in its own response); one whose edit failed waits for the bot's
        followup in its place."""
        message = edit.message if landed else None
        for waiting in edit.linked:
            if message is not None:
                if waiting.source is not message:
                    waiting.result.panel = message
                    waiting.result.panel_text = message.text()
            elif edit.message is None or waiting.source is not edit.message:
                waiting.followup_due = True
                asyncio.get_running_loop().call_later(FOLLOWUP_WAIT, self._no_followup, waiting)
            waiting.edits_due -= 1
            self._maybe_done(waiting)

    def _no_followup(self, record: InteractionRecord) -> None:
        if record.followup_due:
            record.followup_due = False
            self._maybe_done(record)

    def _maybe_done(self, record: InteractionRecord) -> None:
        """A click's result completes once it is answered and the panel edits on their way
        with it have landed (or, if one failed, the bot's followup in its place)."""
        result = record.result
        if not result.acknowledged or record.edits_due > 0:
            return
        if record.followup_due and (result.ephemeral and result.type == CHANNEL_MESSAGE):
            record.followup_due = False  # the answer itself was the new private message
        if not record.followup_due:
            result._done.set()

    def _edits_overdue(self, record: InteractionRecord) -> None:
        if not record.result._done.is_set():
            log.warning(
                "interaction %s: its panel edits did not land within %ss", record.id, EDIT_WAIT
            )
            record.edits_due = 0
            record.followup_due = False
            record.result._done.set()

    async def _run(self, record: InteractionRecord, data: JSON) -> InteractionResult:
        loop = asyncio.get_running_loop()
        self.by_id[record.id] = record
        self.by_token[record.token] = record
        self.unanswered.setdefault(record.user.id, []).append(record)
        record.deadline = loop.call_later(self.ack_deadline, self._expire, record)
        record.result.delivered = await self.dispatch(
            "INTERACTION_CREATE", self._payload(record, data)
        )
        record.result.dispatched = time.perf_counter()
        await record.result._done.wait()
        return record.result

    def _answered(self, record: InteractionRecord) -> None:
        waiting = self.unanswered.get(record.user.id, [])
        if record in waiting:
            waiting.remove(record)
        if not waiting:
            self.unanswered.pop(record.user.id, None)

    def _expire(self, record: InteractionRecord) -> None:
        self._answered(record)
        result = record.result
        if not result.acknowledged and not result.failed:
            result.failed = True
            log.warning(
                "interaction %s (%s) was not acknowledged within %ss: it failed for %s",
                record.id,
                record.name or "component",
                self.ack_deadline,
                record.user.name,
            )
            result._done.set()

    async def command(
        self, user: User, channel: Channel, path: str, options: dict[str, Any]
    ) -> InteractionResult:
        self._check_can_see_channel(user, channel)
        data, name = self.build_command_data(user, channel, path, options)
        record = self._new_record(APPLICATION_COMMAND, user, channel)
        record.name = name
        return await self._run(record, data)

    async def component(
        self,
        user: User,
        message: Message,
        custom_id: str,
        values: list[str] | None,
        *,
        select: bool,
    ) -> InteractionResult:
        if message.deleted:
            raise EmulatorError(f"message {message.id} was deleted")
        if message.ephemeral_to is not None and message.ephemeral_to is not user:
            raise EmulatorError(f"{user.name} cannot see an ephemeral message of another user")
        self._check_can_see_channel(user, message.channel)
        comp = message.component(custom_id)
        if comp is None or comp.get("disabled"):
            earlier = message.earlier_component(custom_id)
            if earlier is None:
                if comp is not None:
                    raise EmulatorError(f"component {custom_id!r} is disabled")
                ids = [c.custom_id for c in message.buttons()] + [
                    s.custom_id for s in message.selects()
                ]
                raise EmulatorError(
                    f"no component {custom_id!r} on message {message.id} (has {ids})"
                )
            if not self.deliver_stale_clicks:
                return self._refuse_stale(user, message, custom_id)
            comp = earlier
        kind = comp.get("type")
        data: JSON = {"custom_id": custom_id, "component_type": kind}
        if "id" in comp:
            data["id"] = comp["id"]
        if select:
            if kind not in SELECT_TYPES:
                raise EmulatorError(f"component {custom_id!r} is not a select menu")
            chosen = list(values or [])
            low, high = int(comp.get("min_values", 1)), int(comp.get("max_values", 1))
            if not low <= len(chosen) <= high:
                raise EmulatorError(f"select {custom_id!r} takes {low}..{high} values")
            if kind == 3:
                allowed = [o["value"] for o in comp.get("options") or []]
                bad = [v for v in chosen if v not in allowed]
                if bad:
                    raise EmulatorError(f"select {custom_id!r} has no options {bad}")
            data["values"] = chosen
            if kind == 5:
                resolved: JSON = {}
                for value in chosen:
                    picked = self.world.users.get(int(value))
                    if picked is not None:
                        self._resolve_user(picked, message.channel, resolved)
                data["resolved"] = resolved
        else:
            if kind != 2:
                raise EmulatorError(f"component {custom_id!r} is not a button")
            if comp.get("style") == 5:
                raise EmulatorError(f"button {custom_id!r} is a link")
        record = self._new_record(MESSAGE_COMPONENT, user, message.channel, source=message)
        return await self._run(record, data)

    async def forged(
        self,
        kind: int,
        user: User,
        channel: Channel,
        data: JSON,
        *,
        message: JSON | None = None,
        source: Message | None = None,
        name: str = "",
    ) -> InteractionResult:
        """An interaction as a broken or hostile client could send it: ``data`` (and the
        ``message`` it claims to come from, really ``source``) reach the bot unchecked."""
        record = self._new_record(kind, user, channel, source=source)
        record.name = name
        record.forged_message = message
        return await self._run(record, data)

    def _refuse_stale(self, user: User, message: Message, custom_id: str) -> InteractionResult:
        """Discord checks a click against the message's current components
        (COMPONENT_VALIDATION_FAILED): a stale one fails for the user and never reaches the bot."""
        log.warning(
            "%s clicked %r, no longer clickable on message %s: refused like Discord does",
            user.name,
            custom_id,
            message.id,
        )
        record = self._new_record(MESSAGE_COMPONENT, user, message.channel, source=message)
        record.result.failed = True
        record.result.stale = True
        return record.result

    def _check_can_see_channel(self, user: User, channel: Channel) -> None:
        if channel.type == DM:
            if channel.recipient is not user:
                raise EmulatorError(f"{user.name} is not in that DM channel")
        elif channel.guild is not None and not self.world.is_member(channel.guild, user):
            raise EmulatorError(f"{user.name} is not a member of {channel.guild.name}")

    # --- the bot's callback -------------------------------------------------------------------

    def callback(
        self, interaction_id: int, token: str, body: JSON, *, attachments: list[JSON] | None = None
    ) -> tuple[InteractionRecord, JSON]:
        """Handles POST /interactions/{id}/{token}/callback; returns the with_response body.
        ``attachments`` are the files uploaded with it (a new message's, or an update's)."""
        attachments = attachments or []
        record = self.by_id.get(interaction_id)
        if record is None or record.token != token:
            raise unknown_interaction()
        result = record.result
        if not result.acknowledged:
            result.taken_in = time.perf_counter()
        if result.failed or time.monotonic() - record.created > self.ack_deadline:
            self._expire(record)
            raise unknown_interaction()
        if result.acknowledged:
            raise already_acknowledged()
        kind = body.get("type")
        data = body.get("data") or {}
        if not isinstance(data, dict):
            raise bad_request("data must be an object")
        component = record.kind == MESSAGE_COMPONENT
        message: Message | None = None
        if kind == CHANNEL_MESSAGE:
            validate_message(data, creating=True, has_attachments=bool(attachments))
            message = self._create_response(record, data, loading=False)
            message.attachments.extend(attachments)
        elif kind == DEFERRED_CHANNEL_MESSAGE:
            message = self._create_response(record, data, loading=True)
        elif kind in (DEFERRED_UPDATE_MESSAGE, UPDATE_MESSAGE):
            if not component or record.source is None:
                raise bad_request(f"Interaction callback type {kind} is only valid for components")
            if record.source.deleted:
                raise unknown_message()
            message = record.source
            if kind == UPDATE_MESSAGE:
                validate_message(data, creating=False)
                message.apply_edit(data, now=time.time())
                message.attachments.extend(attachments)
            record.original = message
        elif kind == MODAL:
            validate_modal(data)
            result.modal = data
        elif kind == PONG:
            raise bad_request("PONG is only for HTTP interaction pings")
        else:
            raise bad_request(f"Unsupported interaction callback type {kind!r}")

        result.acknowledged = True
        result.type = kind
        self._answered(record)
        if message is not None:
            result.message = message
            result.ephemeral = message.ephemeral
        if record.deadline is not None:
            record.deadline.cancel()
        record.answer_arrived = True
        result.answered = time.perf_counter()
        self._maybe_done(record)
        if not result._done.is_set():
            asyncio.get_running_loop().call_later(EDIT_WAIT, self._edits_overdue, record)

        interaction: JSON = {"id": str(record.id), "type": record.kind}
        response: JSON = {"interaction": interaction, "resource": {"type": kind}}
        if message is not None:
            interaction["response_message_id"] = str(message.id)
            interaction["response_message_loading"] = message.loading
            interaction["response_message_ephemeral"] = message.ephemeral
            if kind in (CHANNEL_MESSAGE, DEFERRED_CHANNEL_MESSAGE, UPDATE_MESSAGE):
                response["resource"]["message"] = message.payload()
        return record, response

    def _create_response(self, record: InteractionRecord, data: JSON, *, loading: bool) -> Message:
        ephemeral = bool(int(data.get("flags") or 0) & FLAG_EPHEMERAL)
        body = dict(data)
        if loading:
            body = {"flags": FLAG_LOADING | (FLAG_EPHEMERAL if ephemeral else 0)}
        message = self.world.new_message(
            record.channel,
            body,
            ephemeral_to=record.user if ephemeral else None,
            type=CHAT_INPUT_COMMAND_MESSAGE if record.kind == APPLICATION_COMMAND else 0,
            interaction=record.metadata(),
            from_interaction=True,
        )
        record.original = message
        record.messages.append(message)
        return message

    # --- followup webhooks --------------------------------------------------------------------

    def webhook_record(self, application_id: int, token: str) -> InteractionRecord:
        """The interaction behind a followup webhook, if its token may still be used."""
        record = self.by_token.get(token)
        if application_id != self.world.application_id or record is None:
            raise unknown_webhook()
        if time.monotonic() - record.created > self.followup_ttl:
            raise invalid_webhook_token()
        if not record.result.acknowledged:
            raise unknown_webhook()
        return record

    def followup(
        self, record: InteractionRecord, body: JSON, *, attachments: list[JSON]
    ) -> Message:
        validate_message(body, creating=True, has_attachments=bool(attachments))
        original = record.original
        if (
            original is not None
            and record.result.type == DEFERRED_CHANNEL_MESSAGE
            and not record.filled_deferral
        ):
            # The first followup after a "thinking" deferral fills in the placeholder.
            record.filled_deferral = True
            edit: JSON = {k: body[k] for k in ("content", "embeds", "components") if k in body}
            original.apply_edit(edit, now=time.time())
            original.flags &= ~FLAG_LOADING
            if attachments:
                original.attachments.extend(attachments)
            message = original
        else:
            ephemeral = bool(int(body.get("flags") or 0) & FLAG_EPHEMERAL)
            metadata = record.metadata()
            if record.original is not None:
                metadata["original_response_message_id"] = str(record.original.id)
            message = self.world.new_message(
                record.channel,
                body,
                ephemeral_to=record.user if ephemeral else None,
                interaction=metadata,
                from_interaction=True,
                attachments=attachments,
            )
            record.messages.append(message)
        record.result.followups.append(message)
        if record.followup_due and message.ephemeral:
            record.followup_due = False
            self._maybe_done(record)
        return message

    def webhook_message(self, record: InteractionRecord, message_ref: str) -> Message:
        if message_ref == "@original":
            message = record.original
        else:
            try:
                wanted = int(message_ref)
            except ValueError:
                raise unknown_message() from None
            candidates = [*record.messages]
            if record.original is not None:
                candidates.append(record.original)
            message = next((m for m in candidates if m.id == wanted), None)
        if message is None or message.deleted:
            raise unknown_message()
        return message

    def edit_webhook_message(self, record: InteractionRecord, message: Message, body: JSON) -> None:
        validate_message(body, creating=False)
        message.apply_edit(body, now=time.time())
        if message.loading:
            message.flags &= ~FLAG_LOADING
            if message is record.original:
                record.filled_deferral = True

    def token_age(self, token: str, seconds: float) -> None:
        """Let ``seconds`` pass for one interaction's token (its webhook expires after
        ``followup_ttl``), without waiting."""
        record = self.by_token.get(token)
        if record is None:
            raise EmulatorError("no interaction with that token")
        record.created -= seconds


def _opt_str(value: Any) -> str | None:
    return None if value is None else str(value)
