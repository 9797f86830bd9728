"""Not by colour alone (issue #26, P-53): every colour glyph people read carries its letter.

Presenters and the public log name a colour by its emoji alone (``🔴``, ``🟥``), as they always
have: the log of a stored game is rebuilt from its actions and must read byte for byte as it did
(the old-database proof). The letter is added where text meets a person (the Discord renderer
and the web pages), so old and new games read alike: ``🔴R``, ``🟥R``.
"""

from __future__ import annotations

import dataclasses
import functools
import re
from collections.abc import Mapping
from typing import Final

from .specs import ButtonSpec, EmbedSpec, Field, MessageSpec, Row, SelectOption, SelectSpec

LETTERS: Final[Mapping[str, str]] = {
    # Bag of Bugs' coloured Bugs.
    "🔴": "R",
    "🟡": "Y",
    "🟢": "G",
    "🔵": "B",
    "🟣": "P",
    # Bug Off!'s cards.
    "🟥": "R",
    "🟧": "O",
    "🟨": "Y",
    "🟩": "G",
    "🟦": "B",
    "🟪": "P",
}
"""The letter of each colour glyph any presenter draws (its colour's initial in English)."""

_GLYPH = re.compile("|".join(re.escape(glyph) for glyph in LETTERS))


@functools.lru_cache(maxsize=4096)
def lettered(text: str) -> str:
    """``text`` with each colour glyph followed by its letter; a glyph that already has it is
    left alone, so lettering twice changes nothing. Kept for the texts met lately: a board's
    labels, names and most of its lines are the same from one move to the next (measured over
    random games of the four games, 92 % of the texts lettered had been lettered before)."""

    def mark(match: re.Match[str]) -> str:
        letter = LETTERS[match.group(0)]
        following = text[match.end() : match.end() + 1]
        return match.group(0) if following == letter else match.group(0) + letter

    return _GLYPH.sub(mark, text)


def _maybe(text: str | None) -> str | None:
    return None if text is None else lettered(text)


def _field(field: Field) -> Field:
    name, value = lettered(field.name), lettered(field.value)
    if name == field.name and value == field.value:
        return field
    return dataclasses.replace(field, name=name, value=value)


def _embed(embed: EmbedSpec) -> EmbedSpec:
    """The embed lettered; the very same one when no text of it has a glyph to letter (most
    of them: a copy is made only where something changes)."""
    title, description, footer = (
        _maybe(embed.title),
        _maybe(embed.description),
        _maybe(embed.footer),
    )
    fields = tuple(_field(f) for f in embed.fields)
    if (
        title == embed.title
        and description == embed.description
        and footer == embed.footer
        and all(new is old for new, old in zip(fields, embed.fields, strict=True))
    ):
        return embed
    return dataclasses.replace(
        embed, title=title, description=description, fields=fields, footer=footer
    )


def _row(row: Row) -> Row:
    if isinstance(row, SelectSpec):
        options = tuple(_option(o) for o in row.options)
        placeholder = lettered(row.placeholder)
        if placeholder == row.placeholder and all(
            new is old for new, old in zip(options, row.options, strict=True)
        ):
            return row
        return SelectSpec(placeholder, options)
    # A button's emoji stays the bare glyph (Discord draws it alone); its label gets letters.
    # Most labels have no glyph: those buttons are kept as they are, not copied.
    buttons = tuple(_button(b) for b in row)
    return row if all(new is old for new, old in zip(buttons, row, strict=True)) else buttons


def _option(option: SelectOption) -> SelectOption:
    label, description = lettered(option.label), _maybe(option.description)
    if label == option.label and description == option.description:
        return option
    return SelectOption(label, option.action, description, option.emoji)


def _button(button: ButtonSpec) -> ButtonSpec:
    label = lettered(button.label)
    return button if label == button.label else dataclasses.replace(button, label=label)


def lettered_spec(spec: MessageSpec) -> MessageSpec:
    """The message as people read it: every text part lettered. The picture is left as it is
    (it is compared with the one a message shows); its alt text is lettered where it is sent."""
    content = _maybe(spec.content)
    embed = None if spec.embed is None else _embed(spec.embed)
    rows = tuple(_row(row) for row in spec.rows)
    board = None if spec.board is None else _embed(spec.board)
    if (
        content == spec.content
        and embed is spec.embed
        and board is spec.board
        and all(new is old for new, old in zip(rows, spec.rows, strict=True))
    ):
        return spec
    return dataclasses.replace(spec, content=content, embed=embed, rows=rows, board=board)


__all__ = ["LETTERS", "lettered", "lettered_spec"]
