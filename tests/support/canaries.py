"""Secrets planted in real game states, and a scan for them in anything the bot answers.

Each game runs with secrets planted in its real state, things that only the state (and some
player's own view) ever holds until the rules reveal them:

- every game: its seed and the RNG state (what a served snapshot would show);
- Bug Off!: a marker in every hand and points pile (which a leaked view shows), each colour of
  a hand as a player's DM words it (``red ×2``), and the order of the deck's top cards;
- Bugs & Co: five symbols' tiles swapped for five symbols not in the game, whose names
  therefore never appear unless a tile's face is shown;
- Bug Run: every seat's VP tokens raised to a six-digit number (so its true total is six
  digits too), and the ids and names of the cards in hands, in the loot being chosen and on
  top of the loot deck.

A planted secret stays secret until the rules show it: ``public_text`` (what everyone may know)
and ``seat_text`` (what one seat may know) are what a scan subtracts before it looks.
"""

from __future__ import annotations

import html
import json
from collections.abc import Callable, Iterable
from typing import Any

from bot.games import Game, games
from rules.bug_off.cards import COLOURS as BUG_OFF_COLOURS
from rules.bug_run import content as bug_run_content
from rules.bugs_and_co.components import SYMBOL_NAMES
from rules.core import Engine

SWAPPED_SYMBOLS = {two_eyed: 15 + two_eyed for two_eyed in range(5)}
"""Bugs & Co: a third of the tiles become one-eyed symbols, which a 3-player game lacks."""
CANARY_NAMES = tuple(SYMBOL_NAMES[s] for s in SWAPPED_SYMBOLS.values())
VP_CANARY = 600_000


def _plant_bug_off(game: Any) -> None:
    for seat in range(game.players):
        game.state.hands[seat][f"canary-hand-{seat}"] = 0
        game.state.points[seat][f"canary-points-{seat}"] = 0


def _plant_bugs_and_co(game: Any) -> None:
    swap = {
        old * 3 + copy: new * 3 + copy for old, new in SWAPPED_SYMBOLS.items() for copy in range(3)
    }
    game.state.slots = [None if t is None else swap.get(t, t) for t in game.state.slots]
    game.state.removed = sorted(swap.get(t, t) for t in game.state.removed)


def _plant_bug_run(game: Any) -> None:
    for seat, row in enumerate(game.state.seats):
        row.vp += VP_CANARY + 10_000 * seat


PLANT: dict[str, Callable[[Any], None]] = {
    "bag-of-bugs": lambda game: None,  # everything is public (BB-21) but the RNG
    "bug-off": _plant_bug_off,
    "bugs-and-co": _plant_bugs_and_co,
    "bug-run": _plant_bug_run,
}


def scanned_games() -> list[Game]:
    """The games the canary scans play: every shipped game. The test game has no secrets
    planted here (``Game.shipped`` is false); a shipped game without them fails the scan."""
    shipped = [game for game in games() if game.shipped]
    missing = [game.slug for game in shipped if game.slug not in PLANT]
    assert not missing, f"no canaries planted for {missing} (tests/support/canaries.py)"
    return shipped


def canary_class(base: type[Engine]) -> type[Engine]:
    """The real engine, with secrets planted into every new game's state."""

    class Canary(base):  # type: ignore[valid-type, misc]
        @classmethod
        def new(cls, players: int, seed: int, options: Any = None) -> Any:
            game = super().new(players, seed, options)
            PLANT[base.slug](game)
            return game

    Canary.__name__ = f"Canary{base.__name__}"
    return Canary


def canaries(engine: Any) -> set[str]:
    """The planted (and a few natural) secrets of this state, as they would appear in text."""
    state = engine.to_dict()
    found = {str(engine.seed)} | {str(n) for n in state["rng"] if abs(n) >= 100_000}
    if engine.slug == "bug-off":
        found |= {line for hand in engine.state.hands for line in hand_lines(hand)}
        found |= {k for hand in engine.state.hands for k in hand if k.startswith("canary")}
        found |= {k for pile in engine.state.points for k in pile if k.startswith("canary")}
        if len(engine.state.deck) >= 4:
            found.add(json.dumps(engine.state.deck[:4])[1:-1])  # the order of the top four cards
    elif engine.slug == "bugs-and-co":
        found |= set(CANARY_NAMES)
    elif engine.slug == "bug-run":
        s = engine.state
        found |= {str(row.vp) for row in s.seats}
        found |= {str(total) for total in engine.scores()}  # VP tokens + Show-Off + the rest
        cards = [c for row in s.seats for c in row.hand] + list(s.limbo)
        cards += s.loot.deck[:1]
        found |= {json.dumps(c) for c in cards}  # a card id as JSON shows it
        found |= {bug_run_content.card_name(c) for c in cards}
    return found


def public_text(view: dict[str, Any]) -> str:
    """The public view as text, with what its numbers stand for where a board names them."""
    text = json.dumps(view, ensure_ascii=False)
    result = view.get("result") if view.get("game") == "bugs-and-co" else None
    if result:  # the end reveals every hand and the box (BC-17), by symbol
        shown = [s for hand in result["hands"] for s in hand] + list(result["removed"])
        text += " ".join(SYMBOL_NAMES[s] for s in shown)
    return text


def seat_text(engine: Any, seat: int) -> str:
    """What ``seat`` may know now: its own view, and for Bug Run its own true total (a seat's
    own private answer may show its whole score)."""
    text = public_text(engine.view(seat))
    if engine.slug == "bug-run":
        text += f" {engine.scores()[seat]}"
    elif engine.slug == "bug-off":
        text += "\n".join(hand_lines(engine.state.hands[seat]))
    return text


def hand_lines(hand: dict[str, int]) -> list[str]:
    """A Bug Off! hand, a line per colour held, as its owner's DM words them (``red ×2``)."""
    return [f"{colour} ×{n}" for colour, n in hand.items() if n and colour in BUG_OFF_COLOURS]


def haystack(text: str) -> str:
    """The text, and every string in it as a reader sees it (JSON and HTML escapes undone)."""
    parts = [text]
    try:
        parts += [html.unescape(s) for s in _strings(json.loads(text))]
    except ValueError:
        parts.append(html.unescape(text))
    return "\n".join(parts)


def _strings(value: Any) -> Iterable[str]:
    if isinstance(value, dict):
        for key, item in value.items():
            yield str(key)
            yield from _strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from _strings(item)
    else:
        yield str(value)


def leaked(text: str, secrets: set[str]) -> set[str]:
    seen = haystack(text)
    return {s for s in secrets if s in seen}
