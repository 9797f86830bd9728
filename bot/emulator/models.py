"""The emulated Discord world: users, guilds, channels, messages, and their JSON payloads.

Payloads carry every key discord.py 2.7.1 reads without a default (it raises KeyError otherwise).
"""

from __future__ import annotations

import copy
import datetime
import itertools
import re
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from .errors import JSON
from .limits import FLAG_EPHEMERAL, FLAG_LOADING, SELECT_TYPES

DISCORD_EPOCH_MS = 1420070400000

# Permission bits (https://discord.com/developers/docs/topics/permissions).
CREATE_INSTANT_INVITE = 1 << 0
ADMINISTRATOR = 1 << 3
MANAGE_CHANNELS = 1 << 4
MANAGE_GUILD = 1 << 5
ADD_REACTIONS = 1 << 6
VIEW_CHANNEL = 1 << 10
SEND_MESSAGES = 1 << 11
MANAGE_MESSAGES = 1 << 13
EMBED_LINKS = 1 << 14
ATTACH_FILES = 1 << 15
READ_MESSAGE_HISTORY = 1 << 16
USE_EXTERNAL_EMOJIS = 1 << 18
CHANGE_NICKNAME = 1 << 26
USE_APPLICATION_COMMANDS = 1 << 31
SEND_MESSAGES_IN_THREADS = 1 << 38
USE_EXTERNAL_APPS = 1 << 50

EVERYONE_PERMISSIONS = (
    CREATE_INSTANT_INVITE
    | ADD_REACTIONS
    | VIEW_CHANNEL
    | SEND_MESSAGES
    | EMBED_LINKS
    | ATTACH_FILES
    | READ_MESSAGE_HISTORY
    | USE_EXTERNAL_EMOJIS
    | CHANGE_NICKNAME
    | USE_APPLICATION_COMMANDS
    | SEND_MESSAGES_IN_THREADS
    | USE_EXTERNAL_APPS
)
MODERATOR_PERMISSIONS = MANAGE_CHANNELS
BOT_PERMISSIONS = MANAGE_MESSAGES | EMBED_LINKS | ATTACH_FILES | READ_MESSAGE_HISTORY

GUILD_TEXT = 0
DM = 1
USER_MENTION = re.compile(r"<@!?(\d+)>")


def notified_users(body: JSON) -> tuple[int, ...]:
    """Who a new message's user mentions notify, as Discord decides: the ``<@id>`` in its
    content that ``allowed_mentions`` lets through (all of them when it is absent). Embeds and
    edits never notify anyone."""
    mentioned = [int(m) for m in USER_MENTION.findall(str(body.get("content") or ""))]
    allowed = body.get("allowed_mentions")
    if isinstance(allowed, dict) and "users" not in (allowed.get("parse") or []):
        listed = {int(u) for u in allowed.get("users") or []}
        mentioned = [m for m in mentioned if m in listed]
    return tuple(dict.fromkeys(mentioned))


class Snowflakes:
    """Time-based ids, so discord.py's ``created_at`` and delete sub-limits see real times."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._last = 0

    def next(self) -> int:
        with self._lock:
            value = (int(time.time() * 1000) - DISCORD_EPOCH_MS) << 22
            if value <= self._last:
                value = self._last + 1
            self._last = value
            return value

    def next_on_shard(self, shard_id: int, shard_count: int) -> int:
        """The next id whose gateway shard is ``shard_id`` of ``shard_count`` (a guild's shard
        is ``(id >> 22) % shard_count``): at most ``shard_count`` ms ahead of the clock."""
        with self._lock:
            ms = max(int(time.time() * 1000) - DISCORD_EPOCH_MS, (self._last >> 22) + 1)
            ms += (shard_id - ms) % shard_count
            self._last = value = ms << 22
            return value


def iso(ts: float | None) -> str | None:
    if ts is None:
        return None
    return datetime.datetime.fromtimestamp(ts, datetime.UTC).isoformat()


@dataclass(eq=False)
class User:
    """A person (or the bot) as the emulator knows it; ``dms_open`` decides 50007 on DMs."""

    id: int
    name: str
    bot: bool = False
    dms_open: bool = True
    manage_channels: bool = False
    guild_ids: frozenset[int] | None = None
    """The guilds this user is a member of; ``None``: every guild."""
    role_ids: set[int] = field(default_factory=set)
    """Roles an admin gave them (``Emulator.give_role``), of whichever guild each belongs to."""

    def payload(self) -> JSON:
        return {
            "id": str(self.id),
            "username": self.name,
            "discriminator": "0",
            "global_name": None if self.bot else self.name,
            "avatar": None,
            "bot": self.bot,
            "public_flags": 0,
            "flags": 0,
            "banner": None,
            "accent_color": None,
            "avatar_decoration_data": None,
        }

    def __repr__(self) -> str:
        return f"<User {self.name} id={self.id}>"


@dataclass(eq=False)
class Role:
    id: int
    name: str
    permissions: int
    position: int = 0
    managed: bool = False

    def payload(self) -> JSON:
        return {
            "id": str(self.id),
            "name": self.name,
            "permissions": str(self.permissions),
            "position": self.position,
            "color": 0,
            "colors": {"primary_color": 0, "secondary_color": None, "tertiary_color": None},
            "hoist": False,
            "icon": None,
            "unicode_emoji": None,
            "managed": self.managed,
            "mentionable": False,
            "flags": 0,
        }


@dataclass(eq=False)
class Channel:
    """A guild text channel or a DM channel (``recipient`` set, ``guild`` None)."""

    id: int
    name: str
    type: int
    guild: Guild | None = None
    position: int = 0
    recipient: User | None = None
    last_message_id: int | None = None
    bot_can_view: bool = True
    """The bot's View Channel here: without it, Discord answers 403 50001 to everything."""
    bot_can_send: bool = True
    """The bot's Send Messages here: without it, sends and edits are 403 50013 (deletes of its
    own messages still work)."""

    def payload(self, *, with_guild_id: bool = True) -> JSON:
        if self.type == DM:
            assert self.recipient is not None
            return {
                "id": str(self.id),
                "type": DM,
                "last_message_id": _opt_str(self.last_message_id),
                "recipients": [self.recipient.payload()],
                "flags": 0,
            }
        data: JSON = {
            "id": str(self.id),
            "type": self.type,
            "name": self.name,
            "position": self.position,
            "permission_overwrites": [],
            "parent_id": None,
            "topic": None,
            "nsfw": False,
            "last_message_id": _opt_str(self.last_message_id),
            "rate_limit_per_user": 0,
            "flags": 0,
        }
        if with_guild_id and self.guild is not None:
            data["guild_id"] = str(self.guild.id)
        return data

    def __repr__(self) -> str:
        if self.recipient is not None:
            return f"<DM with {self.recipient.name} id={self.id}>"
        return f"<Channel #{self.name} id={self.id}>"


@dataclass(eq=False)
class Guild:
    id: int
    name: str
    owner_id: int
    everyone: Role
    moderators: Role
    bot_role: Role
    channels: list[Channel] = field(default_factory=list)
    created: float = field(default_factory=time.time)
    custom_roles: list[Role] = field(default_factory=list)
    """Roles an admin made (``Emulator.add_role``)."""

    @property
    def roles(self) -> list[Role]:
        return [self.everyone, self.moderators, self.bot_role, *self.custom_roles]

    def __repr__(self) -> str:
        return f"<Guild {self.name} id={self.id}>"


def _opt_str(value: int | None) -> str | None:
    return None if value is None else str(value)


@dataclass(frozen=True)
class Button:
    """A button as a user sees it on a message."""

    custom_id: str | None
    label: str | None
    emoji: str | None
    style: int
    disabled: bool
    url: str | None = None


@dataclass(frozen=True)
class SelectMenu:
    custom_id: str
    type: int
    placeholder: str | None
    options: list[JSON]
    min_values: int
    max_values: int
    disabled: bool


def _emoji_text(emoji: Any) -> str | None:
    if not isinstance(emoji, dict):
        return None
    name = emoji.get("name")
    if emoji.get("id"):
        return f"<{'a' if emoji.get('animated') else ''}:{name}:{emoji['id']}>"
    return name if isinstance(name, str) else None


def walk_components(components: list[JSON]) -> Iterator[JSON]:
    """Every component, however deeply nested (rows, v2 containers, section accessories)."""
    for comp in components:
        if not isinstance(comp, dict):
            continue
        yield comp
        children = comp.get("components")
        if isinstance(children, list):
            yield from walk_components(children)
        accessory = comp.get("accessory")
        if isinstance(accessory, dict):
            yield from walk_components([accessory])


def _embed_text(embed: JSON) -> list[str]:
    parts: list[str] = []
    author = embed.get("author")
    if isinstance(author, dict) and author.get("name"):
        parts.append(str(author["name"]))
    for key in ("title", "description"):
        if embed.get(key):
            parts.append(str(embed[key]))
    for fld in embed.get("fields") or []:
        if isinstance(fld, dict):
            parts.append(f"{fld.get('name', '')}: {fld.get('value', '')}")
    footer = embed.get("footer")
    if isinstance(footer, dict) and footer.get("text"):
        parts.append(str(footer["text"]))
    return parts


def _components_text(components: list[JSON]) -> list[str]:
    parts: list[str] = []
    for comp in walk_components(components):
        for key in ("label", "placeholder", "content"):
            if isinstance(comp.get(key), str) and comp[key]:
                parts.append(comp[key])
        for option in comp.get("options") or []:
            if isinstance(option, dict):
                parts.extend(str(option[k]) for k in ("label", "description") if option.get(k))
    return parts


@dataclass(frozen=True)
class MessageVersion:
    """One past state of a message, kept so tests can see everything a user was ever shown."""

    content: str
    embeds: list[JSON]
    components: list[JSON]
    flags: int
    edited_at: float | None

    def text(self) -> str:
        return "\n".join([self.content, *(p for e in self.embeds for p in _embed_text(e))]).strip()


@dataclass(eq=False)
class Message:
    """A message in its current state plus its ``history`` of earlier versions."""

    id: int
    channel: Channel
    author: User
    content: str = ""
    embeds: list[JSON] = field(default_factory=list)
    components: list[JSON] = field(default_factory=list)
    flags: int = 0
    attachments: list[JSON] = field(default_factory=list)
    created_at: float = field(default_factory=time.time)
    edited_at: float | None = None
    type: int = 0
    interaction: JSON | None = None
    webhook_id: int | None = None
    application_id: int | None = None
    ephemeral_to: User | None = None
    deleted: bool = False
    history: list[MessageVersion] = field(default_factory=list)
    notified: tuple[int, ...] = ()
    """The users this message's mentions notified when it was sent (``notified_users``)."""

    @property
    def channel_id(self) -> int:
        return self.channel.id

    @property
    def guild_id(self) -> int | None:
        return self.channel.guild.id if self.channel.guild else None

    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & FLAG_EPHEMERAL)

    @property
    def loading(self) -> bool:
        """A deferred "thinking" response not yet filled in."""
        return bool(self.flags & FLAG_LOADING)

    def version(self) -> MessageVersion:
        """The message as it is now. Its embeds and components are shared, not copied: an edit
        replaces them with copies of its own (``apply_edit``) and nothing changes them in
        place, so a version keeps what was shown (a deep copy of every board on every edit
        was a fifth of the emulator's CPU at 200 games)."""
        return MessageVersion(
            content=self.content,
            embeds=self.embeds,
            components=self.components,
            flags=self.flags,
            edited_at=self.edited_at,
        )

    def apply_edit(self, body: JSON, *, now: float) -> None:
        """Edits keep the old state in ``history``; absent keys keep their value, as on Discord."""
        self.history.append(self.version())
        if "content" in body:
            self.content = body["content"] or ""
        if "embeds" in body:
            self.embeds = copy.deepcopy(body["embeds"] or [])
        if "components" in body:
            self.components = copy.deepcopy(body["components"] or [])
        if "flags" in body and body["flags"] is not None:
            # Ephemeral and loading cannot be changed by an edit; other flags can.
            kept = self.flags & (FLAG_EPHEMERAL | FLAG_LOADING)
            self.flags = kept | (int(body["flags"]) & ~(FLAG_EPHEMERAL | FLAG_LOADING))
        if "attachments" in body and body["attachments"] is not None:
            keep = {str(a.get("id")) for a in body["attachments"] if isinstance(a, dict)}
            self.attachments = [a for a in self.attachments if str(a["id"]) in keep]
        self.edited_at = now

    def buttons(self) -> list[Button]:
        return [
            Button(
                custom_id=c.get("custom_id"),
                label=c.get("label"),
                emoji=_emoji_text(c.get("emoji")),
                style=int(c.get("style", 0)),
                disabled=bool(c.get("disabled", False)),
                url=c.get("url"),
            )
            for c in walk_components(self.components)
            if c.get("type") == 2
        ]

    def selects(self) -> list[SelectMenu]:
        return [
            SelectMenu(
                custom_id=str(c.get("custom_id")),
                type=int(c["type"]),
                placeholder=c.get("placeholder"),
                options=list(c.get("options") or []),
                min_values=int(c.get("min_values", 1)),
                max_values=int(c.get("max_values", 1)),
                disabled=bool(c.get("disabled", False)),
            )
            for c in walk_components(self.components)
            if c.get("type") in SELECT_TYPES
        ]

    def component(self, custom_id: str) -> JSON | None:
        for comp in walk_components(self.components):
            if comp.get("custom_id") == custom_id:
                return comp
        return None

    def earlier_component(self, custom_id: str) -> JSON | None:
        """An enabled component with ``custom_id`` from an earlier version: what a user whose
        client has not yet shown the latest edit could still click."""
        for version in reversed(self.history):
            for comp in walk_components(version.components):
                if comp.get("custom_id") == custom_id and not comp.get("disabled"):
                    return comp
        return None

    def find_button(self, label: str | None = None, custom_id_prefix: str | None = None) -> Button:
        """The first button matching every given criterion; LookupError lists what exists."""
        for button in self.buttons():
            if label is not None and button.label != label:
                continue
            if custom_id_prefix is not None and not (button.custom_id or "").startswith(
                custom_id_prefix
            ):
                continue
            return button
        shown = ", ".join(f"{b.label!r}={b.custom_id!r}" for b in self.buttons()) or "none"
        raise LookupError(
            f"no button with label={label!r} custom_id_prefix={custom_id_prefix!r} "
            f"on message {self.id} (buttons: {shown})"
        )

    def has_button(self, label: str | None = None, custom_id_prefix: str | None = None) -> bool:
        try:
            self.find_button(label=label, custom_id_prefix=custom_id_prefix)
        except LookupError:
            return False
        return True

    def text(self) -> str:
        """Content and embed text as one string, for assertions and leak scans."""
        return "\n".join([self.content, *(p for e in self.embeds for p in _embed_text(e))]).strip()

    def all_text(self) -> str:
        """``text()`` plus component labels and options, past versions included."""
        parts = [v.text() for v in self.history]
        parts.extend(p for v in self.history for p in _components_text(v.components))
        parts.append(self.text())
        parts.extend(_components_text(self.components))
        return "\n".join(p for p in parts if p)

    def payload(self) -> JSON:
        data: JSON = {
            "id": str(self.id),
            "type": self.type,
            "channel_id": str(self.channel.id),
            "author": self.author.payload(),
            "content": self.content,
            "embeds": copy.deepcopy(self.embeds),
            "components": copy.deepcopy(self.components),
            "attachments": copy.deepcopy(self.attachments),
            "mentions": [],
            "mention_roles": [],
            "mention_everyone": False,
            "pinned": False,
            "tts": False,
            "timestamp": iso(self.created_at),
            "edited_timestamp": iso(self.edited_at),
            "flags": self.flags,
        }
        if self.webhook_id is not None:
            data["webhook_id"] = str(self.webhook_id)
        if self.application_id is not None:
            data["application_id"] = str(self.application_id)
        if self.interaction is not None:
            data["interaction_metadata"] = copy.deepcopy(self.interaction)
            if "name" in self.interaction:
                data["interaction"] = {
                    "id": self.interaction["id"],
                    "type": self.interaction["type"],
                    "name": self.interaction["name"],
                    "user": self.interaction["user"],
                }
        return data

    def __repr__(self) -> str:
        where = (
            f"ephemeral to {self.ephemeral_to.name}" if self.ephemeral_to else repr(self.channel)
        )
        return f"<Message id={self.id} {where} content={self.content[:40]!r}>"


class World:
    """Everything the emulated Discord stores; REST, gateway and the test API share it."""

    def __init__(self, *, app_name: str) -> None:
        self.snowflakes = Snowflakes()
        self.application_id = self.snowflakes.next()
        self.bot = User(id=self.application_id, name=app_name, bot=True)
        self.owner = User(id=self.snowflakes.next(), name=f"{app_name}-owner")
        self.verify_key = f"{self.application_id:x}" * 2
        self.guilds: dict[int, Guild] = {}
        self.users: dict[int, User] = {self.bot.id: self.bot, self.owner.id: self.owner}
        self.members: list[User] = []
        self.channels: dict[int, Channel] = {}
        self.dm_channels: dict[int, Channel] = {}
        self.messages: dict[int, Message] = {}
        self.files: dict[str, bytes] = {}
        """Uploaded attachments' bytes by attachment id (tests open the pictures)."""
        self.message_watchers: list[Callable[[Message], None]] = []
        """Called with every new message (``Emulator.watch_messages``): a bench with thousands
        of members indexes what each may see instead of scanning every message."""
        self._order = itertools.count()

    # --- building the world -------------------------------------------------------------------

    def add_guild(self, name: str, *, shard: tuple[int, int] | None = None) -> Guild:
        """A new guild; ``shard`` (id, count) picks its id so it lands on that gateway shard."""
        gid = self.snowflakes.next() if shard is None else self.snowflakes.next_on_shard(*shard)
        guild = Guild(
            id=gid,
            name=name,
            owner_id=self.owner.id,
            everyone=Role(id=gid, name="@everyone", permissions=EVERYONE_PERMISSIONS),
            moderators=Role(
                id=self.snowflakes.next(),
                name="Moderators",
                permissions=MODERATOR_PERMISSIONS,
                position=1,
            ),
            bot_role=Role(
                id=self.snowflakes.next(),
                name=self.bot.name,
                permissions=BOT_PERMISSIONS,
                position=2,
                managed=True,
            ),
        )
        self.guilds[gid] = guild
        return guild

    def add_text_channel(self, guild: Guild, name: str) -> Channel:
        channel = Channel(
            id=self.snowflakes.next(),
            name=name,
            type=GUILD_TEXT,
            guild=guild,
            position=len(guild.channels),
        )
        guild.channels.append(channel)
        self.channels[channel.id] = channel
        return channel

    def add_role(self, guild: Guild, name: str, permissions: int) -> Role:
        role = Role(
            id=self.snowflakes.next(),
            name=name,
            permissions=permissions,
            position=len(guild.roles),
        )
        guild.custom_roles.append(role)
        return role

    def add_user(
        self,
        name: str,
        *,
        dms_open: bool,
        manage_channels: bool,
        guild_ids: frozenset[int] | None = None,
    ) -> User:
        user = User(
            id=self.snowflakes.next(),
            name=name,
            dms_open=dms_open,
            manage_channels=manage_channels,
            guild_ids=guild_ids,
        )
        self.users[user.id] = user
        self.members.append(user)
        return user

    def dm_channel(self, user: User) -> Channel:
        channel = self.dm_channels.get(user.id)
        if channel is None:
            channel = Channel(id=self.snowflakes.next(), name="", type=DM, recipient=user)
            self.dm_channels[user.id] = channel
            self.channels[channel.id] = channel
        return channel

    # --- permissions and payloads -------------------------------------------------------------

    def member_roles(self, guild: Guild, user: User) -> list[Role]:
        if user is self.bot:
            return [guild.bot_role]
        given = [r for r in guild.custom_roles if r.id in user.role_ids]
        return [guild.moderators, *given] if user.manage_channels else given

    def permissions(self, guild: Guild, user: User) -> int:
        if user.id == guild.owner_id:
            return (1 << 53) - 1
        value = guild.everyone.permissions
        for role in self.member_roles(guild, user):
            value |= role.permissions
        if value & ADMINISTRATOR:
            return (1 << 53) - 1
        return value

    def is_member(self, guild: Guild, user: User) -> bool:
        return user is self.bot or (
            user in self.members and (user.guild_ids is None or guild.id in user.guild_ids)
        )

    def member_payload(self, guild: Guild, user: User, *, with_permissions: bool = False) -> JSON:
        data: JSON = {
            "user": user.payload(),
            "roles": [str(r.id) for r in self.member_roles(guild, user)],
            "flags": 0,
            "nick": None,
            "avatar": None,
            "banner": None,
            "joined_at": iso(guild.created),
            "premium_since": None,
            "deaf": False,
            "mute": False,
            "pending": False,
            "communication_disabled_until": None,
        }
        if with_permissions:
            data["permissions"] = str(self.permissions(guild, user))
        return data

    def guild_payload(self, guild: Guild) -> JSON:
        return {
            "id": str(guild.id),
            "name": guild.name,
            "icon": None,
            "splash": None,
            "discovery_splash": None,
            "banner": None,
            "description": None,
            "owner_id": str(guild.owner_id),
            "afk_channel_id": None,
            "afk_timeout": 300,
            "verification_level": 0,
            "default_message_notifications": 0,
            "explicit_content_filter": 0,
            "mfa_level": 0,
            "nsfw_level": 0,
            "premium_tier": 0,
            "premium_subscription_count": 0,
            "premium_progress_bar_enabled": False,
            "preferred_locale": "en-US",
            "system_channel_id": None,
            "system_channel_flags": 0,
            "rules_channel_id": None,
            "public_updates_channel_id": None,
            "safety_alerts_channel_id": None,
            "vanity_url_code": None,
            "application_id": None,
            "features": [],
            "roles": [r.payload() for r in guild.roles],
            "emojis": [],
            "stickers": [],
            "max_members": 500000,
        }

    def guild_create_payload(self, guild: Guild) -> JSON:
        data = self.guild_payload(guild)
        members = [u for u in [self.bot, *self.members] if self.is_member(guild, u)]
        data.update(
            {
                "unavailable": False,
                "joined_at": iso(guild.created),
                "large": False,
                "lazy": True,
                "member_count": len(members),
                "members": [self.member_payload(guild, u) for u in members],
                "channels": [c.payload(with_guild_id=False) for c in guild.channels],
                "threads": [],
                "presences": [],
                "voice_states": [],
                "stage_instances": [],
                "guild_scheduled_events": [],
                "soundboard_sounds": [],
            }
        )
        return data

    # --- messages -----------------------------------------------------------------------------

    def new_message(
        self,
        channel: Channel,
        body: JSON,
        *,
        author: User | None = None,
        ephemeral_to: User | None = None,
        type: int = 0,
        interaction: JSON | None = None,
        from_interaction: bool = False,
        attachments: list[JSON] | None = None,
    ) -> Message:
        flags = int(body.get("flags") or 0)
        if ephemeral_to is None:
            flags &= ~FLAG_EPHEMERAL
        message = Message(
            id=self.snowflakes.next(),
            channel=channel,
            author=author or self.bot,
            content=body.get("content") or "",
            embeds=copy.deepcopy(body.get("embeds") or []),
            components=copy.deepcopy(body.get("components") or []),
            flags=flags,
            attachments=attachments or [],
            type=type,
            interaction=interaction,
            webhook_id=self.application_id if from_interaction else None,
            application_id=self.application_id if from_interaction else None,
            ephemeral_to=ephemeral_to,
            notified=notified_users(body),
        )
        self.messages[message.id] = message
        if ephemeral_to is None:
            channel.last_message_id = message.id
        for watcher in self.message_watchers:
            watcher(message)
        return message

    def channel_messages(self, channel: Channel) -> list[Message]:
        return sorted(
            (
                m
                for m in self.messages.values()
                if m.channel is channel and m.ephemeral_to is None and not m.deleted
            ),
            key=lambda m: m.id,
        )
