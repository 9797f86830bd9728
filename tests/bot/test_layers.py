"""The bot's packages import in one direction: the Discord layer may use the game pages, the
pages never the Discord layer (issue #22: a circle between them made either hard to load or
test alone)."""

from __future__ import annotations

import ast
from pathlib import Path

BOT = Path(__file__).resolve().parents[2] / "bot"


def imported_packages(package: str) -> set[str]:
    """The ``bot.<name>`` packages that the modules of ``bot/<package>`` import."""
    found: set[str] = set()
    for path in (BOT / package).rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.module is not None:
                if node.level == 2:  # from ..discord.x import y
                    found.add(node.module.split(".")[0])
                elif node.level == 0 and node.module.startswith("bot."):
                    found.add(node.module.split(".")[1])
            elif isinstance(node, ast.Import):
                found |= {a.name.split(".")[1] for a in node.names if a.name.startswith("bot.")}
    return found


def test_the_game_pages_do_not_import_the_discord_layer() -> None:
    assert "web" in imported_packages("discord")  # the direction that is allowed
    assert "discord" not in imported_packages("web")
