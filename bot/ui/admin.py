"""What `/bugtable` says: a server's settings, where each comes from, and who changed what.

Text only (no discord.py): the Discord layer sends it privately to the admin who asked.
"""

from __future__ import annotations

from collections.abc import Sequence

from rules.core import GAMES

from ..host.policies import ServerSettings
from ..host.policy import BOT_LEVELS, DEFAULT_POLICY, SPEEDS, ServerPolicy
from ..host.policy_values import SettingKey, value_of
from ..store.records import SettingChangeRecord
from .specs import EmbedSpec, MessageSpec

MAX_CHANNELS_SHOWN = 20
"""Channels listed by name before "and N more" (an embed's description holds 4,096 characters)."""
CHANNELS_IN_A_CHANGE = 3
"""Channels a line of the audit trail names, before and after, before "and N more"."""
MAX_DESCRIPTION = 4000
"""Room for `/bugtable show` (Discord's 4,096 for an embed's description, with a margin): the
oldest changes are left out past it."""
COLOUR = 0x5865F2
SERVER = "⚙️"
"""Marks a setting the server chose; the others are the bot's defaults."""

SETTING_LABELS: dict[str, str] = {
    "speeds": "Speeds openers may pick",
    "channels": "Channels where games may open",
    "moderator_role": "Moderator role",
    "bot_levels": "Bot levels for **Add bot**",
    "afk_limit": "AFK limit (missed clocks before a stand-in)",
    "stand_in_level": "Stand-in level",
    "pings_default": "Pings for members who have not chosen",
    "ping_after": "Ping after",
    "public_replays": "Public replay links of finished games",
    "enabled": "enabled",
    "speed": "default speed",
}


def _on(value: object) -> str:
    return "on" if value else "off"


def _ids(ids: Sequence[int], mark: str, limit: int = MAX_CHANNELS_SHOWN) -> str:
    shown = [f"<{mark}{i}>" for i in ids[:limit]]
    more = len(ids) - limit
    return ", ".join(shown) + (f" and {more} more" if more > 0 else "")


def value_text(
    key: SettingKey,
    value: object,
    *,
    afk_limit: int,
    ping_after: float,
    channels: int = MAX_CHANNELS_SHOWN,
) -> str:
    """A setting's value in words (``afk_limit`` and ``ping_after``: the bot's own, for the
    settings left to them)."""
    field = key.field
    if field in ("enabled", "pings_default", "public_replays"):
        return _on(value)
    if field == "speeds":
        chosen = value if isinstance(value, list | frozenset | set) else ()
        return ", ".join(s for s in SPEEDS if s in chosen)
    if field == "bot_levels":
        chosen = value if isinstance(value, list | frozenset | set) else ()
        levels = [lv for lv in BOT_LEVELS if lv in chosen]
        return ", ".join(levels) if levels else "none: bots may not be added"
    if field == "channels":
        ids = sorted(value) if isinstance(value, list | frozenset | set) else []
        return _ids(ids, "#", channels) if ids else "any channel"
    if field == "moderator_role":
        return f"<@&{value}>" if value is not None else "none (Manage Channels only)"
    if field == "afk_limit":
        limit = afk_limit if value is None else value
        words = "never" if limit == 0 else f"{limit} in a row"
        return f"{words} (the bot's AFK_LIMIT)" if value is None else words
    if field == "stand_in_level":
        return "the bot's STAND_IN_LEVEL" if value is None else str(value)
    if field == "ping_after":
        seconds = ping_after if value is None else value
        return f"{seconds:g} s" + (" (the bot's PING_AFTER)" if value is None else "")
    return str(value)


def settings_message(
    settings: ServerSettings,
    changes: Sequence[SettingChangeRecord],
    *,
    afk_limit: int,
    ping_after: float,
) -> MessageSpec:
    """`/bugtable show`: every setting with its value, ⚙️ where the server set it, then the
    recent changes, newest first (as many as the embed holds)."""
    policy = settings.policy

    def line(key: SettingKey, label: str) -> str:
        mark = f" {SERVER}" if settings.is_chosen(key) else ""
        words = value_text(key, value_of(policy, key), afk_limit=afk_limit, ping_after=ping_after)
        return f"{label}: **{words}**{mark}"

    lines = [f"{SERVER} set here; the rest are the bot's defaults.", "__Games__"]
    for slug, cls in sorted(GAMES.items()):
        enabled, speed = SettingKey("enabled", slug), SettingKey("speed", slug)
        lines.append(
            f"• {cls.title} (`{slug}`): {line(enabled, 'enabled')}, {line(speed, 'default speed')}"
        )
    lines.append("__Server__")
    for field in SETTING_LABELS:
        if field in ("enabled", "speed"):
            continue
        key = SettingKey.parse(field)
        lines.append(f"• {line(key, SETTING_LABELS[field])}")
    lines.append("__Recent changes__")
    if not changes:
        lines.append("none yet")
    size = sum(len(x) + 1 for x in lines)
    for change in changes:
        entry = f"• {change_text(change, afk_limit=afk_limit, ping_after=ping_after)}"
        if size + len(entry) + 1 > MAX_DESCRIPTION:
            break  # the oldest left out: an embed holds only so much
        lines.append(entry)
        size += len(entry) + 1
    return MessageSpec(
        embed=EmbedSpec(
            title="bugtable on this server",
            description="\n".join(lines),
            footer="Settings take effect on the next game; games under way keep theirs.",
            colour=COLOUR,
        )
    )


def change_text(
    change: SettingChangeRecord, *, afk_limit: int, ping_after: float, who: bool = True
) -> str:
    """One line of the audit trail: when, who, which setting, before and after (``who``
    False: the setting and its values only)."""
    head = f"<t:{int(change.at.timestamp())}:f> **{change.user_name}** (<@{change.user_id}>) "
    try:
        key = SettingKey.parse(change.key)
    except ValueError:  # a setting this version no longer has
        return f"{head if who else ''}`{change.key}`"

    def words(value: object) -> str:
        shown = value_of(DEFAULT_POLICY, key) if value is None else value  # no row: the default
        text = value_text(
            key, shown, afk_limit=afk_limit, ping_after=ping_after, channels=CHANNELS_IN_A_CHANGE
        )
        return f"{text} (default)" if value is None and shown is not None else text

    return f"{head if who else ''}`{change.key}`: {words(change.old)} → {words(change.new)}"


def changed_text(made: Sequence[SettingChangeRecord], *, afk_limit: int, ping_after: float) -> str:
    """The answer to a setter: what changed (or that nothing did)."""
    if not made:
        return "Nothing changed: the settings were already so."
    lines = [
        f"• {change_text(c, afk_limit=afk_limit, ping_after=ping_after, who=False)}" for c in made
    ]
    return "Saved. It takes effect on the next game (games under way keep theirs):\n" + (
        "\n".join(lines)
    )


def house_rules(policy: ServerPolicy) -> list[str]:
    """What a game's copy of its server's policy changes from the bot's defaults, in players'
    words (its lobby and `/bugs status` say so); empty at the defaults."""
    lines: list[str] = []
    if policy.bot_levels != DEFAULT_POLICY.bot_levels:
        levels = [lv for lv in BOT_LEVELS if lv in policy.bot_levels]
        lines.append(f"Bots: {', '.join(levels)} only" if levels else "Bots: not allowed")
    if policy.afk_limit is not None:
        lines.append(
            "Stand-ins: never"
            if policy.afk_limit == 0
            else f"Stand-ins: after {policy.afk_limit} missed clock"
            + ("s" if policy.afk_limit != 1 else "")
            + " in a row"
        )
    if policy.stand_in_level is not None:
        lines.append(f"Stand-ins play at: {policy.stand_in_level}")
    if not policy.pings_default:
        lines.append("Pings: only for members who turned them on (`/bugs settings`)")
    if policy.ping_after is not None:
        lines.append(f"Pings after: {policy.ping_after:g} s")
    if not policy.public_replays:
        lines.append("Replay link: none (this server keeps replays private)")
    return lines
