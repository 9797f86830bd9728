"""How to play (P-54): every game's rules pages, as `/bugs rules`, the How to play button and
the web page show them; their numbers and worked examples agree with the engines."""

from __future__ import annotations

import random
import re

import pytest
from aiohttp.test_utils import TestClient, TestServer

import bot.ui.games  # noqa: F401  (registers the presenters)
from bot.discord.codec import MAX_CUSTOM_ID, rules_button_id
from bot.discord.render import send_kwargs
from bot.games import games
from bot.ui.howto import RulesPage, pages_of, rules_message
from bot.ui.lobby import lobby_message
from bot.ui.presenter import presenter_for
from bot.ui.specs import RulesLink
from bot.web.rules_page import rules_html
from bot.web.server import build_app
from rules.bag_of_bugs import scoring as bag_scoring
from rules.bag_of_bugs.engine import BagOfBugs
from rules.bug_run import content as bug_run_content
from rules.bug_run.stocks import CAPS, START
from rules.bugs_and_co import scoring as bco_scoring
from rules.core import SYSTEM
from tests.support.tables import act, make_table

SHIPPED = [g.slug for g in games() if g.shipped]
TITLES = ["Overview", "A turn", "Scoring", "The buttons"]


def text_of(slug: str) -> str:
    return "\n".join(f"{p.title}\n{p.body}" for p in pages_of(slug))


@pytest.mark.parametrize("slug", SHIPPED)
def test_every_game_has_its_four_pages_within_discords_limits(slug: str) -> None:
    pages = pages_of(slug)
    assert [p.title for p in pages] == TITLES
    assert "Worked example" in pages[2].body
    for number in range(len(pages)):
        spec = rules_message(slug, number)
        assert spec.embed is not None and spec.embed.description == pages[number].body
        assert len(spec.embed.description) <= 4096 and len(spec.embed.title or "") <= 256
        assert f"Page {number + 1} of 4" in (spec.embed.footer or "")
        previous, following = spec.buttons()
        assert previous.disabled == (number == 0) and following.disabled == (number == 3)
        ids = [rules_button_id(b.rules.slug, b.rules.page) for b in spec.buttons() if b.rules]
        assert len(set(ids)) == 2 and all(len(i) <= MAX_CUSTOM_ID for i in ids)
        assert following.rules == RulesLink(slug, min(number + 1, 3))
        send_kwargs(spec, 0, 0)  # discord.py accepts it


def test_a_game_without_pages_shows_its_short_text_and_an_unknown_one_says_so() -> None:
    assert pages_of("ladybug-dash") and len(pages_of("ladybug-dash")) == 1
    assert rules_message("ladybug-dash").rows == ()
    unknown = rules_message("no-such-game")
    assert unknown.embed is not None and unknown.embed.title == "Unknown game"
    # Out-of-range pages (only a forged id could ask) show the nearest page.
    assert rules_message("bug-off", 99) == rules_message("bug-off", 3)


def test_the_numbers_agree_with_the_engines() -> None:
    bag = text_of("bag-of-bugs")
    for players, limit in ((3, 6), (4, 8), (5, 9)):
        setup = BagOfBugs.new(players, 1).state.setup
        assert (setup.draw_limit, setup.pairs_needed) == (limit, players + 1)
        assert f"{limit} with {players}" in bag or f"{limit} tokens with {players}" in bag
        assert f"{players + 1} with {players}" in bag or f"{players + 1} pairs" in bag
    assert f"{bag_scoring.LARVA_POINTS} each" in bag
    run = text_of("bug-run")
    for stock, emoji in (("hearts", "❤️"), ("arrows", "🏹"), ("coins", "🪙")):
        assert f"{emoji} {stock} (start {START[stock]}, at most {CAPS[stock]})" in run
    roof = ", ".join(map(str, bug_run_content.ROOF_VP[:-1])) + f" or {bug_run_content.ROOF_VP[-1]}"
    assert roof in run


def test_the_worked_examples_score_as_the_engines_do() -> None:
    # Bag of Bugs: 4 red, 3 yellow, 2 green, 1 blue, 1 purple, a Larva, three Scary Bugs (most).
    ann = {"c1": 4, "c2": 3, "c3": 2, "c4": 1, "c5": 1, "larva": 1, "scary": 3}
    other = {"scary": 1}
    assert bag_scoring.totals([ann, other])[0] == 14
    assert "**14 points**" in pages_of("bag-of-bugs")[2].body
    # Bugs & Co: four trios, two of a fifth symbol, one lone tile, the 2 trophy.
    eve = [s for s in range(4) for _ in range(3)] + [4, 4, 5]
    assert bco_scoring.breakdown(eve, 2)["total"] == 11
    assert "**11 points**" in pages_of("bugs-and-co")[2].body
    # Bug Run: 12 VP tokens + Show-Off 2 + roof step three + 8 coins.
    assert 12 + 2 + bug_run_content.ROOF_VP[3] + 8 // 3 == 23
    assert "**23 VP**" in pages_of("bug-run")[2].body


@pytest.mark.parametrize("slug", SHIPPED)
def test_the_buttons_page_names_the_boards_buttons(slug: str) -> None:
    """Every label a board shows over a game (its words, not its counts or names) is named on
    the buttons page, so the page cannot fall behind the board."""
    buttons_page = pages_of(slug)[3].body
    rng = random.Random(3)
    table = make_table(slug, 3, seed=3)
    engine = table.running()
    presenter = presenter_for(slug)
    seen: set[str] = set()
    for _ in range(150):
        if engine.is_over:
            break
        for spec in presenter.public_boards(table.view()):
            for button in spec.buttons():
                if (button.action or {}).get("type") in ("move", "quest"):
                    continue  # Bug Run names these by their card: the page says so
                seen.add(re.sub(r"[^A-Za-z ].*$", "", button.label).strip())
        waiting = sorted(engine.waiting_for())
        deadlines = engine.deadlines()
        if not waiting:
            act(table, SYSTEM, deadlines[0].action)
            continue
        seat = rng.choice(waiting)
        act(table, seat, rng.choice(engine.legal_actions(seat)))
    words = {w for w in seen if len(w) > 2}
    missing = [w for w in words if w.split()[0] not in buttons_page]
    assert not missing, missing


@pytest.mark.parametrize("slug", SHIPPED)
def test_every_lobby_and_board_has_how_to_play(slug: str) -> None:
    rng = random.Random(7)
    table = make_table(slug, 3, seed=7)
    engine = table.running()
    presenter = presenter_for(slug)
    link = RulesLink(slug, 0)
    steps = 0
    while steps < 300:
        first = presenter.public_boards(table.view())[0]
        assert link in [b.rules for b in first.buttons()], f"step {steps}"
        if engine.is_over:
            break
        steps += 1
        waiting = sorted(engine.waiting_for())
        if not waiting:
            act(table, SYSTEM, engine.deadlines()[0].action)
            continue
        seat = rng.choice(waiting)
        act(table, seat, rng.choice(engine.legal_actions(seat)))
    lobby = lobby_message(make_table(slug, 3, seed=7).view())
    assert link in [b.rules for b in lobby.buttons()]


@pytest.mark.parametrize("slug", SHIPPED)
def test_the_web_page_has_the_same_text(slug: str) -> None:
    page = rules_html(slug)
    assert page is not None
    for number, rules_page in enumerate(pages_of(slug), start=1):
        assert f'id="page-{number}"' in page and rules_page.title in page
    assert "Worked example" in page and "<strong>" in page
    assert rules_html("no-such-game") is None


async def test_rules_pages_are_served_and_an_unknown_game_is_not_found() -> None:
    from bot.web.replays import Replays

    app = build_app(Replays.__new__(Replays))
    async with TestClient(TestServer(app)) as client:
        found = await client.get("/rules/bug-run")
        assert found.status == 200 and "How to play Bug Run" in await found.text()
        assert "Content-Security-Policy" in found.headers
        missing = await client.get("/rules/chess")
        assert missing.status == 404


def test_a_rules_page_is_a_plain_typed_record() -> None:
    page = RulesPage("Overview", "text")
    assert (page.title, page.body) == ("Overview", "text")
