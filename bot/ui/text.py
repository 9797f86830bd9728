"""Text helpers every presenter shares: escaping names, clipping to Discord's limits."""

from __future__ import annotations

from collections.abc import Iterable

FIELD_MAX = 1024
"""Discord's limit for an embed field's value."""
LINE_MAX = 300
"""The longest single log line we show."""

_MARKDOWN = ("\\", "*", "_", "~", "`", "|", ">")


def esc(text: str) -> str:
    """Escape Discord markdown in a player's name so it shows as typed."""
    for ch in _MARKDOWN:
        text = text.replace(ch, "\\" + ch)
    return text


def clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def newest_lines(lines: Iterable[str], most: int, limit: int = FIELD_MAX) -> str:
    """The newest of ``lines`` (at most ``most``) that fit in ``limit`` characters: older lines
    are dropped, never the newest."""
    kept: list[str] = []
    size = 0
    for line in reversed(list(lines)[-most:]):
        line = clip(line, LINE_MAX)
        if size + len(line) + 1 > limit:
            break
        kept.append(line)
        size += len(line) + 1
    return "\n".join(reversed(kept))
