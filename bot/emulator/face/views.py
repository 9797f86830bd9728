"""What one member sees in one channel, as JSON-ready dataclasses (the face's page draws them).

Read straight from the emulator's world, so the page shows exactly what a Discord client
would: the channel's public messages with the member's own ephemeral replies among them, or
the member's DM with the bot. Another member's ephemerals and DMs are never in a view.
"""

from __future__ import annotations

import hashlib
import json
import mimetypes
from dataclasses import asdict, dataclass
from typing import Literal

from ..errors import JSON
from ..limits import SELECT_TYPES
from ..models import Channel, Message, User, walk_components
from ..server import Emulator

MESSAGES_SHOWN = 80
"""The newest messages a view holds: a channel of long games keeps growing, a page need not."""

ButtonStyle = Literal["primary", "secondary", "success", "danger", "link"]
STYLES: dict[int, ButtonStyle] = {
    1: "primary",
    2: "secondary",
    3: "success",
    4: "danger",
    5: "link",
}


@dataclass(frozen=True)
class MemberView:
    id: str
    name: str
    newest_dm: str
    """The id of the newest DM the bot sent them ("0": none), for the switcher's dot."""


@dataclass(frozen=True)
class ChannelView:
    id: str
    name: str
    kind: Literal["text", "dm"]


@dataclass(frozen=True)
class ButtonView:
    custom_id: str | None
    label: str | None
    emoji: str | None
    style: ButtonStyle
    disabled: bool
    url: str | None
    kind: Literal["button"] = "button"


@dataclass(frozen=True)
class OptionView:
    label: str
    value: str
    description: str | None
    emoji: str | None
    default: bool


@dataclass(frozen=True)
class SelectView:
    custom_id: str
    placeholder: str | None
    options: list[OptionView]
    min_values: int
    max_values: int
    disabled: bool
    kind: Literal["select"] = "select"


@dataclass(frozen=True)
class FieldView:
    name: str
    value: str
    inline: bool


@dataclass(frozen=True)
class AttachmentView:
    id: str
    filename: str
    url: str
    description: str | None
    image: bool


@dataclass(frozen=True)
class EmbedView:
    title: str | None
    description: str | None
    colour: str | None
    """CSS colour of the embed's left bar (``#3a7bd5``), or None."""
    fields: list[FieldView]
    footer: str | None
    image: AttachmentView | None


@dataclass(frozen=True)
class MessageView:
    id: str
    author: str
    bot: bool
    created: float
    edited: bool
    content: str
    embeds: list[EmbedView]
    rows: list[list[ButtonView | SelectView]]
    attachments: list[AttachmentView]
    """Files not shown inside an embed."""
    private: bool
    """An ephemeral reply: only this member sees it (Discord says so under it)."""
    loading: bool
    used: str | None
    """``Ada used /bugs new bag-of-bugs``: the command a response answers."""


@dataclass(frozen=True)
class View:
    """The page's whole state for one member in one channel."""

    member: str
    channel: ChannelView
    members: list[MemberView]
    channels: list[ChannelView]
    names: dict[str, str]
    """Every user's and channel's name by id, for mentions (``<@id>``, ``<#id>``)."""
    bot: str
    guild: str
    messages: list[MessageView]

    def to_json(self) -> JSON:
        return asdict(self)


def digest(payload: JSON) -> str:
    """A short fingerprint of a view: the page asks for a view only when it changed."""
    text = json.dumps(payload, sort_keys=True, separators=(",", ":"))
    return hashlib.blake2b(text.encode(), digest_size=12).hexdigest()


def attachment_path(attachment: JSON) -> str:
    """Where the face serves an uploaded file (its bytes are the emulator's)."""
    return f"/attachments/{attachment['id']}/{attachment.get('filename') or 'file'}"


def _attachment(attachment: JSON) -> AttachmentView:
    filename = str(attachment.get("filename") or "file")
    kind = attachment.get("content_type") or mimetypes.guess_type(filename)[0] or ""
    description = attachment.get("description")
    return AttachmentView(
        id=str(attachment["id"]),
        filename=filename,
        url=attachment_path(attachment),
        description=str(description) if description else None,
        image=str(kind).startswith("image/"),
    )


def _emoji(emoji: object) -> str | None:
    if not isinstance(emoji, dict):
        return None
    name = emoji.get("name")
    if not isinstance(name, str):
        return None
    return f":{name}:" if emoji.get("id") else name


def _component(component: JSON) -> ButtonView | SelectView | None:
    kind = component.get("type")
    if kind == 2:
        return ButtonView(
            custom_id=component.get("custom_id"),
            label=component.get("label"),
            emoji=_emoji(component.get("emoji")),
            style=STYLES.get(int(component.get("style", 2)), "secondary"),
            disabled=bool(component.get("disabled", False)),
            url=component.get("url"),
        )
    if kind in SELECT_TYPES:
        return SelectView(
            custom_id=str(component.get("custom_id")),
            placeholder=component.get("placeholder"),
            options=[
                OptionView(
                    label=str(o.get("label", "")),
                    value=str(o.get("value", "")),
                    description=o.get("description"),
                    emoji=_emoji(o.get("emoji")),
                    default=bool(o.get("default", False)),
                )
                for o in component.get("options") or []
                if isinstance(o, dict)
            ],
            min_values=int(component.get("min_values", 1)),
            max_values=int(component.get("max_values", 1)),
            # Only string menus list their options; the face cannot pick users or channels.
            disabled=bool(component.get("disabled", False)) or kind != 3,
        )
    return None


def _rows(components: list[JSON]) -> list[list[ButtonView | SelectView]]:
    rows: list[list[ButtonView | SelectView]] = []
    for row in components:
        inside = row.get("components") if row.get("type") == 1 else [row]
        shown = [
            view
            for c in walk_components(inside if isinstance(inside, list) else [])
            if (view := _component(c)) is not None
        ]
        if shown:
            rows.append(shown)
    return rows


def _embed(embed: JSON, files: dict[str, AttachmentView], used: set[str]) -> EmbedView:
    image = None
    url = (embed.get("image") or {}).get("url") if isinstance(embed.get("image"), dict) else None
    if isinstance(url, str) and url.startswith("attachment://"):
        image = files.get(url.removeprefix("attachment://"))
        if image is not None:
            used.add(image.id)
    colour = embed.get("color")
    footer = embed.get("footer")
    return EmbedView(
        title=embed.get("title"),
        description=embed.get("description"),
        colour=f"#{int(colour):06x}" if isinstance(colour, int) else None,
        fields=[
            FieldView(str(f.get("name", "")), str(f.get("value", "")), bool(f.get("inline")))
            for f in embed.get("fields") or []
            if isinstance(f, dict)
        ],
        footer=str(footer["text"]) if isinstance(footer, dict) and footer.get("text") else None,
        image=image,
    )


def message_view(message: Message) -> MessageView:
    files = {a.filename: a for a in map(_attachment, message.attachments)}
    used: set[str] = set()
    embeds = [_embed(e, files, used) for e in message.embeds]
    meta = message.interaction
    used_line = None
    if meta is not None and meta.get("name"):
        who = meta.get("user") or {}
        used_line = f"{who.get('global_name') or who.get('username')} used /{meta['name']}"
    return MessageView(
        id=str(message.id),
        author=message.author.name,
        bot=message.author.bot,
        created=message.created_at,
        edited=message.edited_at is not None,
        content=message.content,
        embeds=embeds,
        rows=_rows(message.components),
        attachments=[a for a in files.values() if a.id not in used],
        private=message.ephemeral_to is not None,
        loading=message.loading,
        used=used_line,
    )


def _channel_view(channel: Channel, bot: User) -> ChannelView:
    if channel.recipient is not None:
        return ChannelView(str(channel.id), bot.name, "dm")
    return ChannelView(str(channel.id), channel.name, "text")


def _newest(messages: list[Message]) -> str:
    return str(messages[-1].id) if messages else "0"


def seen_in(emulator: Emulator, member: User, channel: Channel) -> list[Message]:
    """What ``member`` sees in ``channel``: its messages and their own ephemerals there."""
    public = emulator.channel_messages(channel)
    private = [m for m in emulator.ephemerals(member) if m.channel is channel]
    return sorted([*public, *private], key=lambda m: m.id)[-MESSAGES_SHOWN:]


def build_view(emulator: Emulator, member: User, channel: Channel) -> View:
    """``member``'s view of ``channel`` (a text channel of theirs, or their DM with the bot)."""
    bot = emulator.bot_user
    guilds = [g for g in emulator.guilds if emulator.world.is_member(g, member)]
    texts = [c for g in guilds for c in g.channels]
    members = [MemberView(str(u.id), u.name, _newest(emulator.dms(u))) for u in emulator.users]
    names = {str(u.id): u.name for u in [bot, *emulator.users]}
    names.update({str(c.id): c.name for c in texts})
    return View(
        member=str(member.id),
        channel=_channel_view(channel, bot),
        members=members,
        channels=[
            *(_channel_view(c, bot) for c in texts),
            _channel_view(emulator.dm_channel(member), bot),
        ],
        names=names,
        bot=bot.name,
        guild=guilds[0].name if guilds else "",
        messages=[message_view(m) for m in seen_in(emulator, member, channel)],
    )
