"""Message specs: what a message shows, independent of discord.py so presenters stay testable.

The Discord layer renders them (``bot.discord.render``); tests can assert on them directly.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from enum import Enum
from typing import Any


class Style(Enum):
    PRIMARY = "primary"
    SECONDARY = "secondary"
    SUCCESS = "success"
    DANGER = "danger"


@dataclass(frozen=True)
class RulesLink:
    """A page of a game's rules (``bot.ui.howto``): what a How to play, Previous or Next
    button shows, to whoever clicks it."""

    slug: str
    page: int


@dataclass(frozen=True)
class ButtonSpec:
    """A button. ``action`` is an engine action (a game button), ``host`` a host operation
    (``join``, ``leave``, ``start``, ``cancel``, ``hand``, ``rematch``), ``url`` a link that
    opens in the browser (a game's page) and ``rules`` a page of the game's rules; exactly one
    of them is set."""

    label: str
    action: dict[str, Any] | None = None
    host: str | None = None
    style: Style = Style.SECONDARY
    emoji: str | None = None
    disabled: bool = False
    url: str | None = None
    rules: RulesLink | None = None

    def __post_init__(self) -> None:
        if sum(x is not None for x in (self.action, self.host, self.url, self.rules)) != 1:
            raise ValueError(
                "a button has one of an engine action, a host operation, a link or a rules page"
            )


@dataclass(frozen=True)
class SelectOption:
    label: str
    action: dict[str, Any]
    description: str | None = None
    emoji: str | None = None


@dataclass(frozen=True)
class SelectSpec:
    """A select menu whose chosen option is applied as that option's engine action."""

    placeholder: str
    options: tuple[SelectOption, ...]


Row = tuple[ButtonSpec, ...] | SelectSpec


@dataclass(frozen=True)
class Field:
    name: str
    value: str
    inline: bool = False


@dataclass(frozen=True)
class EmbedSpec:
    title: str | None = None
    description: str | None = None
    fields: tuple[Field, ...] = ()
    footer: str | None = None
    colour: int | None = None


@dataclass(frozen=True)
class ImageSpec:
    """A picture attached to a message and shown as its embed's image.

    Rendering is deferred (``render`` runs in a worker thread, after the click was answered) and
    identified by ``key``: two specs with the same key are the same picture, so an unchanged
    picture is neither rendered nor uploaded again. ``render`` is left out of comparisons.
    """

    filename: str
    key: str
    render: Callable[[], bytes] = field(compare=False, hash=False, repr=False)
    description: str | None = None
    """Alt text for people who cannot see images."""


@dataclass(frozen=True)
class MessageSpec:
    """One message: text, at most one embed (and a copy of the board under it), an optional
    image, and up to five component rows."""

    content: str | None = None
    embed: EmbedSpec | None = None
    rows: tuple[Row, ...] = field(default_factory=tuple)
    image: ImageSpec | None = None
    board: EmbedSpec | None = None
    """A copy of the game's public board under a private answer, as the answered move left it
    (P-85: the clicker sees the board change in the click's own response)."""

    def buttons(self) -> list[ButtonSpec]:
        return [b for row in self.rows if isinstance(row, tuple) for b in row]

    @property
    def acts(self) -> bool:
        """Whether it carries game controls (engine-action buttons, select menus), whose ids
        name the turn they were drawn for: the same spec at another turn is another message."""
        return any(isinstance(r, SelectSpec) for r in self.rows) or any(
            b.action is not None for b in self.buttons()
        )


def chunk_buttons(buttons: list[ButtonSpec], per_row: int = 5) -> list[tuple[ButtonSpec, ...]]:
    """Split buttons into rows of at most ``per_row`` (Discord allows five)."""
    return [tuple(buttons[i : i + per_row]) for i in range(0, len(buttons), per_row)]
