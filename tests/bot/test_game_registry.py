"""Adding a game is its own files and one registration line (docs/design.md, issue #22).

A game's rules package registers its engine when ``rules`` is imported (every sub-package but
``core``), and its presenter module registers its record; the one line outside its own files
is that module's import in ``bot/ui/games/__init__.py``. Everything that differs by game is
read from the records, so the cross-game tests pick a registered game up without naming it:
the test game registers the same way (``EXTRA_GAME_MODULES``) and is picked up by them, and a
new shipped game fails the checks of the per-game data it must bring until it brings them.
"""

from __future__ import annotations

import ast
import dataclasses
import pkgutil
from pathlib import Path

import pytest

import bot.ui.games
import rules
from bot.games import REGISTRY, Game, games
from rules.core import GAMES
from tests.bot.test_standings import SCORE_WORDS
from tests.bot.test_timer_settings import engines
from tests.support import canaries
from tests.support.testgame import LadybugDash

ROOT = Path(__file__).resolve().parents[2]

PER_GAME_DATA = {
    "tests/support/canaries.py": "the secrets planted per game; scanned_games() fails a "
    "shipped game without them",
    "tests/rules/test_engine_logs.py": "the recorded games' setups; their coverage is checked "
    "against the registry",
    "tests/bot/test_standings.py": "what each game's score words are; checked against the registry",
    "tests/bot/test_old_database.py": "the old database holds the games of its time",
    "tests/bot/test_command_leaks.py": "two games whose scan is shown to fail on a leak",
    "tests/rules/test_public_scores.py": "the games whose running score is all of it",
    "bench/e2e.py": "its default --kinds, in the order its published figures were measured",
    "tests/bot/test_tournament.py": "command-line refusals, each naming the game whose rule it "
    "breaks (not a list of games)",
    "tests/rules/bot_positions.py": "how long a random game of each lasts; "
    "test_every_game_with_bots_has_a_span checks every game with bots has one",
    "tests/bot/test_colour_marks.py": "the games that draw colours as glyphs; every glyph "
    "bot.ui.marks letters is checked to be one of theirs",
}
"""The only test modules that may list several games by slug, and why."""


def shipped_slugs() -> set[str]:
    return {g.slug for g in games() if g.shipped}


def slug_lists(path: Path, slugs: set[str]) -> list[int]:
    """Lines of ``path`` where a list, tuple, set or dict names two or more of ``slugs``."""
    lines = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.List | ast.Tuple | ast.Set | ast.Dict):
            named = {
                c.value for c in ast.walk(node) if isinstance(c, ast.Constant) and c.value in slugs
            }
            if len(named) >= 2:
                lines.append(node.lineno)
    return lines


def test_rules_registers_every_game_package_it_holds() -> None:
    packages = {
        p.name for p in pkgutil.iter_modules(rules.__path__) if p.ispkg and p.name != "core"
    }
    assert {GAMES[slug].__module__.split(".")[1] for slug in shipped_slugs()} == packages


def test_every_shipped_game_is_one_import_line_in_bot_ui_games() -> None:
    source = Path(bot.ui.games.__file__).read_text(encoding="utf-8")
    (imported,) = [n for n in ast.parse(source).body if isinstance(n, ast.ImportFrom)]
    presenters = {f"bot.ui.games.{alias.name}" for alias in imported.names}
    assert {type(g.presenter).__module__ for g in games() if g.shipped} == presenters


def test_no_cross_game_test_names_the_games_it_goes_over() -> None:
    """A list of games in a test is read from the registry (``games()``), so a new game is
    in it; a per-game table of data is allowed only where its coverage is checked."""
    slugs = shipped_slugs()
    found = {
        str(path.relative_to(ROOT)): lines
        for folder in ("tests", "bench")
        for path in sorted((ROOT / folder).rglob("*.py"))
        if (lines := slug_lists(path, slugs))
    }
    assert set(found) <= set(PER_GAME_DATA), {
        k: v for k, v in found.items() if k not in PER_GAME_DATA
    }


def test_the_test_game_is_picked_up_by_the_cross_game_tests() -> None:
    """The test game is registered only through ``EXTRA_GAME_MODULES`` (as tests load it),
    never named in the bot: whatever lists every game lists it."""
    assert "ladybug-dash" in REGISTRY and "ladybug-dash" in GAMES
    assert LadybugDash in engines() and "ladybug-dash" in SCORE_WORDS
    assert any(g.slug == "ladybug-dash" for g in games()) and "ladybug-dash" not in shipped_slugs()


def test_a_new_shipped_game_is_picked_up_and_asked_for_its_per_game_data(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    class NewBug(LadybugDash):
        slug = "new-bug"
        title = "New Bug"

    game = dataclasses.replace(REGISTRY["ladybug-dash"], engine=NewBug, shipped=True)
    monkeypatch.setitem(GAMES, NewBug.slug, NewBug)
    monkeypatch.setitem(REGISTRY, NewBug.slug, game)
    assert game in games() and isinstance(game, Game)
    with pytest.raises(AssertionError, match="no canaries planted for \\['new-bug'\\]"):
        canaries.scanned_games()
    assert set(SCORE_WORDS) != {g.slug for g in games()}  # test_standings' coverage fails
    assert NewBug in engines(with_test_game=False)
