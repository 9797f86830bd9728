"""What `/bugtable` says: a server's settings, where each comes from, and who changed what.

Text only (no discord.py): the Discord layer sends it privately to the admin who asked.
"""

from __future__ import annotations

from collections.abc import Sequence

from rules.core import GAMES

from ..host.policies import ServerSettings
from ..host.policy import BOT_LEVELS, DEFAULT_POLICY, SPEEDS
from ..host.policy_values import SettingKey, value_of
from ..store.records import SettingChangeRecord

MAX_CHANNELS_SHOWN = 20
"""Channels listed by name before "and N more" (a message holds 2,000 characters)."""
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


def _ids(ids: Sequence[int], mark: str) -> str:
    shown = [f"<{mark}{i}>" for i in ids[:MAX_CHANNELS_SHOWN]]
    more = len(ids) - MAX_CHANNELS_SHOWN
    return ", ".join(shown) + (f" and {more} more" if more > 0 else "")


def value_text(key: SettingKey, value: object, *, afk_limit: int, ping_after: float) -> str:
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
        return _ids(ids, "#") if ids else "any channel"
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
) -> str:
    """`/bugtable show`: every setting with its value, ⚙️ where the server set it."""
    policy = settings.policy

    def line(key: SettingKey, label: str) -> str:
        mark = f" {SERVER}" if settings.is_chosen(key) else ""
        words = value_text(key, value_of(policy, key), afk_limit=afk_limit, ping_after=ping_after)
        return f"{label}: **{words}**{mark}"

    lines = [f"**bugtable on this server** ({SERVER} set here; the rest are the bot's defaults)"]
    lines.append("__Games__")
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
    lines.append("Settings take effect on the next game; games under way keep theirs.")
    lines.append("__Recent changes__")
    if not changes:
        lines.append("none yet")
    for change in changes:
        lines.append(f"• {change_text(change, afk_limit=afk_limit, ping_after=ping_after)}")
    return "\n".join(lines)


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
        if value is None:  # no row: the default
            shown = value_of(DEFAULT_POLICY, key)
            text = value_text(key, shown, afk_limit=afk_limit, ping_after=ping_after)
            return text if shown is None else f"{text} (default)"
        return value_text(key, value, afk_limit=afk_limit, ping_after=ping_after)

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
