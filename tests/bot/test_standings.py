"""Only public scores are shown while a game is played (issue #20): `/bugs status` and the
boards read ``public_scores()``, and the final result cannot be read before the end."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import bot.ui.games  # noqa: F401  (the dedicated presenters)
import tests.support.testgame  # noqa: F401  (registers Ladybug Dash)
from bot.discord.commands import status_text
from bot.games import games
from bot.settings import Settings
from bot.standings import NotOver, final_result, public_scores
from bot.ui.presenter import presenter_for
from rules.core import Rng, random_playout
from tests.support.tables import make_table

ROOT = Path(__file__).resolve().parents[2]
FINAL = {"scores", "winners", "score_breakdown"}
"""The engine members that are the final result (``Engine`` in rules/core/engine.py)."""


def final_result_calls(path: Path) -> list[str]:
    """Where a module calls ``<something>.scores()`` and the like, as ``file:line``."""
    tree = ast.parse(path.read_text(), filename=str(path))
    return [
        f"{path.relative_to(ROOT)}:{node.lineno}"
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr in FINAL
    ]


def test_only_bot_standings_reads_the_final_result() -> None:
    """Every board, command, page and record of bot/ and bench/ goes through bot/standings.py,
    whose ``final_result`` refuses a game still being played."""
    allowed = ROOT / "bot" / "standings.py"
    modules = [p for d in ("bot", "bench") for p in sorted((ROOT / d).rglob("*.py"))]
    assert allowed in modules and len(modules) > 50
    calls = [call for p in modules if p != allowed for call in final_result_calls(p)]
    assert calls == []
    assert len(final_result_calls(allowed)) == 3


def test_the_final_result_is_refused_before_the_end_and_given_after() -> None:
    table = make_table("bug-run", 3, seed=4)
    engine = table.running()
    with pytest.raises(NotOver, match="not over"):
        final_result(engine)
    random_playout(engine, Rng(5))
    result = final_result(engine)
    assert result.scores == engine.scores() == public_scores(engine)
    assert result.winners == engine.winners() and len(result.breakdowns) == 3


def test_status_gives_bug_runs_visible_vp_never_the_tokens() -> None:
    settings = Settings(_env_file=None, discord_token="t" * 30)  # type: ignore[call-arg]
    table = make_table("bug-run", 3, seed=4, names=["Ann", "Bo", "Cy"])
    engine = table.running()
    for row in engine.state.seats:  # type: ignore[attr-defined]
        row.vp = 37  # face down: nobody else may learn it
    text = status_text(settings, table, None)
    visible = engine.public_scores()
    assert visible != engine.scores()
    assert f"Players: Ann ({visible[0]} visible VP), Bo ({visible[1]} visible VP)" in text
    assert "37" not in text and not any(str(total) in text for total in engine.scores())


SCORE_WORDS = {
    "bug-run": "3 visible VP",
    "bugs-and-co": "3 trophy points",
    "bug-off": "3 points",
    "bag-of-bugs": "3 points",
    "ladybug-dash": "3 points",
}
"""What each game's `/bugs status` says of a public score of 3 (every registered game)."""


def test_every_game_says_what_its_public_score_counts() -> None:
    assert set(SCORE_WORDS) == {g.slug for g in games()}


@pytest.mark.parametrize(("slug", "words"), sorted(SCORE_WORDS.items()))
def test_each_game_says_what_its_public_score_counts(slug: str, words: str) -> None:
    presenter = presenter_for(slug)
    assert presenter.score_words(3, over=False) == words
    assert "visible" not in presenter.score_words(3, over=True)
    assert "trophy" not in presenter.score_words(3, over=True)


def test_the_generic_board_shows_public_scores() -> None:
    """Ladybug Dash's picks are private until the reveal: its board counts the prizes only."""
    table = make_table("ladybug-dash", 2)
    engine = table.running()
    engine.apply(0, {"type": "claim"})
    engine.apply(0, {"type": "pick", "n": 3})
    (board,) = presenter_for("ladybug-dash").boards(table.view())
    assert board.embed is not None
    players = next(f.value for f in board.embed.fields if f.name == "Players")
    assert engine.scores()[0] == 8 and engine.public_scores()[0] == 5
    assert players.splitlines()[0].endswith("p0: 5")
