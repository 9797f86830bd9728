"""Not by colour alone (issue #26, P-53): every colour glyph people read carries its letter.

Presenters and the public log name a colour by its emoji alone (``🔴``, ``🟥``), as they always
have: the log of a stored game is rebuilt from its actions and must read byte for byte as it did
(the old-database proof). The letter is added where text meets a person (the Discord renderer
and the web pages), so old and new games read alike: ``🔴R``, ``🟥R``.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Mapping
from typing import Final

from .specs import ButtonSpec, EmbedSpec, MessageSpec, Row, SelectOption, SelectSpec

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


def lettered(text: str) -> str:
    """``text`` with each colour glyph followed by its letter; a glyph that already has it is
    left alone, so lettering twice changes nothing."""

    def mark(match: re.Match[str]) -> str:
        letter = LETTERS[match.group(0)]
        following = text[match.end() : match.end() + 1]
        return match.group(0) if following == letter else match.group(0) + letter

    return _GLYPH.sub(mark, text)


def _maybe(text: str | None) -> str | None:
    return None if text is None else lettered(text)


def _embed(embed: EmbedSpec) -> EmbedSpec:
    return dataclasses.replace(
        embed,
        title=_maybe(embed.title),
        description=_maybe(embed.description),
        fields=tuple(
            dataclasses.replace(f, name=lettered(f.name), value=lettered(f.value))
            for f in embed.fields
        ),
        footer=_maybe(embed.footer),
    )


def _row(row: Row) -> Row:
    if isinstance(row, SelectSpec):
        options = tuple(
            SelectOption(lettered(o.label), o.action, _maybe(o.description), o.emoji)
            for o in row.options
        )
        return SelectSpec(lettered(row.placeholder), options)
    # A button's emoji stays the bare glyph (Discord draws it alone); its label gets letters.
    # Most labels have no glyph: those buttons are kept as they are, not copied.
    return tuple(_button(b) for b in row)


def _button(button: ButtonSpec) -> ButtonSpec:
    label = lettered(button.label)
    return button if label == button.label else dataclasses.replace(button, label=label)


def lettered_spec(spec: MessageSpec) -> MessageSpec:
    """The message as people read it: every text part lettered. The picture is left as it is
    (it is compared with the one a message shows); its alt text is lettered where it is sent."""
    return dataclasses.replace(
        spec,
        content=_maybe(spec.content),
        embed=None if spec.embed is None else _embed(spec.embed),
        rows=tuple(_row(row) for row in spec.rows),
        board=None if spec.board is None else _embed(spec.board),
    )


__all__ = ["LETTERS", "lettered", "lettered_spec"]
