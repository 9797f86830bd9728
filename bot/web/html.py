"""Message specs and Discord-flavoured text as HTML, for the game pages.

The pages show the very boards the channel shows, so they render the presenters' specs rather
than describe each game again. Everything is escaped first; only the few markdown marks the
presenters use (bold, strike-through, underline, code, timestamps, backslash escapes) become tags.
"""

from __future__ import annotations

import html
import json
import re
from collections.abc import Iterable, Mapping, Sequence
from datetime import UTC, datetime
from typing import Any

from ..ui.marks import lettered
from ..ui.specs import ButtonSpec, EmbedSpec, MessageSpec, SelectSpec

_ESCAPED = re.compile(r"\\([\\*_~`|>])")
_PLACEHOLDER = re.compile("\ue000(\\d+)\ue001")
_MARKS: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"\*\*(.+?)\*\*"), r"<strong>\1</strong>"),
    (re.compile(r"~~(.+?)~~"), r"<s>\1</s>"),
    (re.compile(r"__(.+?)__"), r"<u>\1</u>"),
    (re.compile(r"`([^`]+?)`"), r"<code>\1</code>"),
)
_TIMESTAMP = re.compile(r"&lt;t:(-?\d{1,12})(?::([tTdDfFR]))?&gt;")


def _timestamp(match: re.Match[str]) -> str:
    when = datetime.fromtimestamp(int(match.group(1)), UTC)
    shown = when.strftime("%H:%M:%S UTC")
    return f'<time datetime="{when.isoformat()}">{shown}</time>'


def markdown(text: str) -> str:
    """Discord markdown as safe HTML: escape everything, then turn the known marks into tags.

    Colour glyphs get their letters first (P-53), as on Discord. A backslash-escaped mark (a player's name with ``*`` in it, see ``bot.ui.text.esc``) is set
    aside first, so it shows as typed and never opens a tag.
    """
    kept: list[str] = []
    text = text.replace("\ue000", "").replace("\ue001", "")  # the placeholders' own marks

    def keep(match: re.Match[str]) -> str:
        kept.append(match.group(1))
        return f"\ue000{len(kept) - 1}\ue001"

    out = html.escape(_ESCAPED.sub(keep, lettered(text)), quote=False)
    for pattern, tag in _MARKS:
        out = pattern.sub(tag, out)
    out = _TIMESTAMP.sub(_timestamp, out)
    out = _PLACEHOLDER.sub(lambda m: html.escape(kept[int(m.group(1))]), out)
    return out.replace("\n", "<br>")


def _attr(value: str) -> str:
    return html.escape(value, quote=True)


def embed_html(embed: EmbedSpec) -> str:
    colour = f"#{embed.colour:06x}" if embed.colour is not None else "#5865f2"
    # The page's script turns data-accent into the border colour: the page's CSP allows no
    # inline style attributes.
    parts = [f'<section class="embed" data-accent="{_attr(colour)}">']
    if embed.title:
        parts.append(f"<h2>{markdown(embed.title)}</h2>")
    if embed.description:
        parts.append(f'<div class="description">{markdown(embed.description)}</div>')
    if embed.fields:
        parts.append('<div class="fields">')
        for field in embed.fields:
            kind = "field inline" if field.inline else "field"
            parts.append(
                f'<div class="{kind}"><h3>{markdown(field.name)}</h3>'
                f"<div>{markdown(field.value)}</div></div>"
            )
        parts.append("</div>")
    if embed.footer:
        parts.append(f"<footer>{markdown(embed.footer)}</footer>")
    parts.append("</section>")
    return "".join(parts)


def _button_html(button: ButtonSpec) -> str:
    label = f"{button.emoji} {button.label}" if button.emoji else button.label
    state = " disabled" if button.disabled else ""
    return f'<span class="button {button.style.value}{state}">{markdown(label)}</span>'


def message_html(spec: MessageSpec) -> str:
    """One board message. Its controls show as labels only: a page is for watching, and the
    host buttons (My hand, Join, …) mean nothing there, so they are left out."""
    parts = ['<div class="message">']
    if spec.content:
        parts.append(f'<p class="content">{markdown(spec.content)}</p>')
    if spec.embed is not None:
        parts.append(embed_html(spec.embed))
    rows = []
    for row in spec.rows:
        if isinstance(row, SelectSpec):
            rows.append(
                f'<div class="row"><span class="select">{markdown(row.placeholder)}</span></div>'
            )
            continue
        shown = [_button_html(b) for b in row if b.action is not None]
        if shown:
            rows.append(f'<div class="row">{"".join(shown)}</div>')
    if rows:
        parts.append(f'<div class="controls">{"".join(rows)}</div>')
    parts.append("</div>")
    return "".join(parts)


def boards_html(specs: Iterable[MessageSpec]) -> str:
    return "".join(message_html(spec) for spec in specs)


def view_html(view: Mapping[str, Any], names: Sequence[str]) -> str:
    """A game without a dedicated presenter: its public view, key by key."""
    rows = [f"<dt>players</dt><dd>{html.escape(', '.join(names))}</dd>"]
    for key, value in view.items():
        text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
        rows.append(f"<dt>{html.escape(str(key))}</dt><dd><code>{html.escape(text)}</code></dd>")
    return f'<dl class="public-view">{"".join(rows)}</dl>'


def lines_html(lines: Iterable[str]) -> str:
    return "<br>".join(markdown(line) for line in lines)
