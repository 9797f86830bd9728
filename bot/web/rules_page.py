"""``/rules/<game>``: a game's How to play pages (P-54) as one web page, the very text that
`/bugs rules` and the How to play button show on Discord."""

from __future__ import annotations

import html
from pathlib import Path
from string import Template

from rules.core import GAMES

from ..ui.howto import pages_of
from .html import markdown

PAGE = Template(
    (Path(__file__).resolve().parent / "static" / "rules.html").read_text(encoding="utf-8")
)


def rules_html(slug: str, speeds: str | None = None) -> str | None:
    """The game's page, or ``None`` for a slug that is no game; ``speeds``: its time controls
    in words, a last section (P-71), as How to play's first page shows them."""
    pages = pages_of(slug)
    if not pages:
        return None
    contents = " · ".join(
        f'<a href="#page-{i + 1}">{html.escape(p.title)}</a>' for i, p in enumerate(pages)
    )
    sections = "\n".join(
        f'<section class="embed" id="page-{i + 1}"><h2>{i + 1}. {markdown(p.title)}</h2>'
        f'<div class="description">{markdown(p.body)}</div></section>'
        for i, p in enumerate(pages)
    )
    if speeds:
        sections += (
            f'\n<section class="embed" id="speeds"><h2>{len(pages) + 1}. Speeds</h2>'
            f'<div class="description">{markdown(speeds)}</div></section>'
        )
    return PAGE.substitute(title=html.escape(GAMES[slug].title), contents=contents, pages=sections)
