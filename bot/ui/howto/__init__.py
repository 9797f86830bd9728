"""How to play, in the game (issue #26, P-54): each game's rules as a few pages (overview, a
turn, scoring with a worked example, the buttons), in our own words.

The same pages answer `/bugs rules`, the **How to play** button of every lobby and board, and
the web page ``/rules/<game>``. A page is named by its game and number alone (``r:<slug>:<n>``),
so its buttons need no state and keep working after a restart.
"""

from __future__ import annotations

import inspect
from dataclasses import dataclass
from typing import Final

from rules.core import GAMES

from ...games import game_for
from ..specs import ButtonSpec, EmbedSpec, Field, MessageSpec, RulesLink, Style

MAX_PAGES: Final = 20
"""More pages than any game has; page numbers in a custom id are bounded by it."""
RULES_COLOUR: Final = 0x4F8A8B


@dataclass(frozen=True)
class RulesPage:
    """One page: a short title for the page bar and the text (Discord markdown)."""

    title: str
    body: str


def pages_of(slug: str) -> tuple[RulesPage, ...]:
    """The game's pages; a game without its own (the test game) gets one page from its
    record's short text or its engine's docstring, and an unknown slug none."""
    cls = GAMES.get(slug)
    if cls is None:
        return ()
    game = game_for(slug)
    if game is not None and game.rules_pages:
        return game.rules_pages
    text = (game.rules_text if game else None) or inspect.getdoc(cls) or "No summary yet."
    return (RulesPage("Overview", text),)


def how_to_play_button(slug: str) -> ButtonSpec:
    """The **How to play** button of a lobby or board: the game's first page, privately."""
    return ButtonSpec("How to play", rules=RulesLink(slug, 0), emoji="📖")


def rules_message(slug: str, page: int = 0, speeds: str | None = None) -> MessageSpec:
    """Page ``page`` of the game's rules, with Previous and Next buttons (none for a game of
    one page). An unknown game or page says so. ``speeds``: the game's time controls in words
    (``bot/ui/speeds.py``), shown on its first page (P-71)."""
    pages = pages_of(slug)
    if not pages:
        return MessageSpec(embed=EmbedSpec(title="Unknown game", description="No such game."))
    page = min(max(page, 0), len(pages) - 1)
    shown = pages[page]
    title = GAMES[slug].title
    # A footer shows no markdown: the page shown is marked by an arrow.
    contents = " · ".join(f"▸{p.title}" if i == page else p.title for i, p in enumerate(pages))
    embed = EmbedSpec(
        title=f"How to play {title}: {shown.title}",
        description=shown.body,
        footer=f"Page {page + 1} of {len(pages)}: {contents}"
        if len(pages) > 1
        else "Open a game with /bugs new; friends join with the Join button.",
        fields=(Field("Speeds (`/bugs new … speed:`)", speeds),) if speeds and page == 0 else (),
        colour=RULES_COLOUR,
    )
    if len(pages) == 1:
        return MessageSpec(embed=embed)
    row = (
        ButtonSpec(
            "Previous",
            rules=RulesLink(slug, max(page - 1, 0)),
            emoji="◀️",
            disabled=page == 0,
        ),
        ButtonSpec(
            "Next",
            rules=RulesLink(slug, min(page + 1, len(pages) - 1)),
            emoji="▶️",
            style=Style.PRIMARY,
            disabled=page == len(pages) - 1,
        ),
    )
    return MessageSpec(embed=embed, rows=(row,))


__all__ = ["MAX_PAGES", "RulesPage", "how_to_play_button", "pages_of", "rules_message"]
