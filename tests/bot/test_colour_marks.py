"""Not by colour alone (P-53): every colour glyph a person reads carries its letter, on Discord
and on the web pages, while the presenters and the public log keep the bare glyph."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

import bot.ui.games  # noqa: F401  (registers the presenters)
from bot.discord.render import send_kwargs
from bot.ui.games import bag_of_bugs, bug_off
from bot.ui.marks import LETTERS, lettered, lettered_spec
from bot.ui.presenter import presenter_for
from bot.ui.specs import ButtonSpec, EmbedSpec, Field, MessageSpec, SelectOption, SelectSpec
from bot.web.html import lines_html, message_html
from rules.core import SYSTEM
from tests.support.tables import act, make_table

BARE = re.compile("|".join(f"{re.escape(g)}(?!{letter})" for g, letter in LETTERS.items()))
"""A colour glyph without its letter right after it."""

COLOURED = {
    "bag-of-bugs": {k: v for k, v in bag_of_bugs.EMOJI.items() if k.startswith("c")},
    "bug-off": dict(bug_off.EMOJI),
}
"""Every coloured kind each game draws as a glyph: Bag of Bugs' five Bugs, Bug Off!'s cards."""


def sent_text(spec: MessageSpec) -> str:
    """Every piece of text the bot sends to Discord for ``spec``, as one string."""
    kwargs = send_kwargs(spec, 1, 0)
    parts: list[str] = [kwargs.get("content") or ""]
    embed: dict[str, Any] = kwargs["embed"].to_dict() if "embed" in kwargs else {}
    parts += [embed.get("title", ""), embed.get("description", "")]
    parts += [f"{f['name']} {f['value']}" for f in embed.get("fields", [])]
    parts.append(embed.get("footer", {}).get("text", ""))
    for row in kwargs["view"].to_components() if "view" in kwargs else []:
        for item in row["components"]:
            parts.append(str(item.get("label") or ""))
            parts += [f"{o['label']} {o.get('description') or ''}" for o in item.get("options", [])]
    return "\n".join(parts)


def test_every_glyph_lettered_is_a_colour_of_the_games_checked_here() -> None:
    drawn = {glyph for kinds in COLOURED.values() for glyph in kinds.values()}
    assert drawn == set(LETTERS)


@pytest.mark.parametrize("slug", sorted(COLOURED))
def test_every_coloured_kind_is_sent_with_a_letter_of_its_own(slug: str) -> None:
    kinds = COLOURED[slug]
    letters = {LETTERS[glyph] for glyph in kinds.values()}
    assert len(letters) == len(kinds), "two colours of one game share a letter"
    for kind, glyph in kinds.items():
        spec = MessageSpec(
            content=f"drew {glyph}",
            embed=EmbedSpec(title=glyph, description=f"{glyph}×2", fields=(Field(glyph, glyph),)),
        )
        text = sent_text(spec)
        assert text.count(f"{glyph}{LETTERS[glyph]}") == 5, kind
        assert not BARE.search(text), kind
        assert f"{glyph}{LETTERS[glyph]}" in lines_html([f"drew {glyph}"]), kind


def test_the_shaped_tokens_need_no_letter() -> None:
    """Bag of Bugs' other tokens differ by shape, not colour: each is its own emoji."""
    shaped = [v for k, v in bag_of_bugs.EMOJI.items() if not k.startswith("c")]
    assert len(set(shaped)) == len(shaped) == 4
    assert not set(shaped) & set(LETTERS)


def test_lettering_twice_changes_nothing_and_button_emoji_stay_bare() -> None:
    assert lettered("🔴 and 🟥×2") == "🔴R and 🟥R×2"
    assert lettered(lettered("🔴🔴 🟪")) == "🔴R🔴R 🟪P"
    spec = MessageSpec(
        rows=(
            (ButtonSpec("Place 🟦", action={"type": "place"}, emoji="🟦"),),
            SelectSpec("Take 🔴", (SelectOption("🔴×2", {"type": "take"}, "🟡 too", "🔴"),)),
        )
    )
    out = lettered_spec(spec)
    button = out.buttons()[0]
    assert (button.label, button.emoji) == ("Place 🟦B", "🟦")
    select = out.rows[1]
    assert isinstance(select, SelectSpec)
    option = select.options[0]
    assert (select.placeholder, option.label, option.description, option.emoji) == (
        "Take 🔴R",
        "🔴R×2",
        "🟡Y too",
        "🔴",
    )


@pytest.mark.parametrize("slug", sorted(COLOURED))
def test_whole_games_reach_people_lettered_while_the_log_keeps_bare_glyphs(slug: str) -> None:
    """Boards, hands and log lines over a whole game: bare glyphs in what presenters make (the
    stored games' record, P-53), none in what is sent or shown on the web."""
    presenter = presenter_for(slug)
    rng = random.Random(5)
    table = make_table(slug, 3, seed=5)
    engine = table.running()
    log: list[str] = []
    seen_bare = False
    steps = 0
    while not engine.is_over and steps < 400:
        steps += 1
        deadlines = engine.deadlines()
        waiting = sorted(engine.waiting_for())
        if deadlines and (not waiting or rng.random() < 0.05):
            outcome = act(table, SYSTEM, deadlines[0].action)
        else:
            seat = rng.choice(waiting)
            outcome = act(table, seat, rng.choice(engine.legal_actions(seat)))
        log += presenter.log_lines(table.view(), outcome)
        specs = presenter.boards(table.view(), log)
        hand = presenter.hand(table.view(), outcome.seat) if outcome.seat != SYSTEM else None
        for spec in [*specs, *([hand] if hand else [])]:
            seen_bare = seen_bare or bool(BARE.search(str(spec)))
            assert not BARE.search(sent_text(spec))
            assert not BARE.search(message_html(spec))
    assert seen_bare, "the presenters drew no colour glyph: this test checks nothing"
    assert any(BARE.search(line) for line in log)
    assert not BARE.search(lines_html(log))
