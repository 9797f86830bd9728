"""Bug Run's card content (RULINGS §4.12), loaded from JSON data files and validated at import.

The content is data, not code, so a later session can rebalance a card without touching the
engine; validation here turns a typo in a data file into an import error instead of a broken game.
"""

from __future__ import annotations

import json
import re
from importlib import resources
from typing import Any

Card = dict[str, Any]

_REWARD = re.compile(r"^-?[1-9][0-9]*(c|vp|h|a)$|^L$")
WEAPONS = ("sword", "bow")
SPACE_WEAPONS = {"any": None, "sw": "sword", "bw": "bow"}


def _load(name: str) -> Any:
    text = (
        resources.files("rules.bug_run")
        .joinpath("content")
        .joinpath(name)
        .read_text(encoding="utf-8")
    )
    return json.loads(text)


def _check(cond: bool, what: str) -> None:
    if not cond:
        raise ValueError(f"bug-run content: {what}")


def _check_rewards(items: list[str], where: str) -> None:
    for item in items:
        _check(
            isinstance(item, str) and bool(_REWARD.match(item)), f"bad reward {item!r} in {where}"
        )


DICE: list[dict[str, Any]] = _load("dice.json")["faces"]
HEROES: list[dict[str, str]] = _load("heroes.json")["heroes"]
POWERS: dict[str, str] = {h["name"]: h["power"] for h in HEROES}
MONSTERS: dict[str, Card] = {m["id"]: m for m in _load("monsters.json")["monsters"]}
_explore = _load("exploration.json")
QUESTS: dict[str, Card] = {q["id"]: q for q in _explore["quests"]}
BRIDGES: dict[str, Card] = {b["id"]: b for b in _explore["bridges"]}
EXPLORATION: dict[str, Card] = {**QUESTS, **BRIDGES}
_stairs = _load("stairs.json")
STAIRS: dict[str, Card] = {s["id"]: s for s in _stairs["stairs"]}
ROOF_VP: list[int] = _stairs["roof_vp"]
LEVELS: dict[str, Card] = {lv["id"]: lv for lv in _load("levels.json")["levels"]}
BAZAAR_TYPES: list[Card] = _load("bazaar.json")["cards"]
LOOT_TYPES: list[Card] = _load("loot.json")["cards"]
BASIC: Card = _load("basic.json")["card"]


def _instances(types: list[Card]) -> list[str]:
    return [f"{t['id']}-{k}" for t in types for k in range(1, t["copies"] + 1)]


BAZAAR_CARDS: list[str] = _instances(BAZAAR_TYPES)
LOOT_CARDS: list[str] = _instances(LOOT_TYPES)
BASIC_CARDS: list[str] = _instances([BASIC])
_TYPES: dict[str, Card] = {t["id"]: t for t in [*BAZAAR_TYPES, *LOOT_TYPES, BASIC]}


def card(instance: str) -> Card:
    """The definition of a bazaar, loot or basic card from its instance id (``BZ04-2``)."""
    return _TYPES[instance.rsplit("-", 1)[0]]


def card_name(instance: str) -> str:
    for table in (MONSTERS, EXPLORATION, STAIRS):
        if instance in table:
            return str(table[instance]["name"])
    return str(card(instance)["name"])


def all_cards() -> list[str]:
    """Every physical card of the game, for conservation checks."""
    return [
        *BAZAAR_CARDS,
        *LOOT_CARDS,
        *BASIC_CARDS,
        *MONSTERS,
        *EXPLORATION,
        *STAIRS,
    ]


def _validate() -> None:
    _check(len(DICE) == 6, "6 die faces")
    _check(len(HEROES) == 6, "6 heroes")
    _check(len(MONSTERS) == 40, "40 monsters")
    for level in range(1, 5):
        _check(sum(1 for m in MONSTERS.values() if m["level"] == level) == 10, "10 per level")
    for m in MONSTERS.values():
        _check_rewards(m["rewards"], m["id"])
        _check(m["life"] > 0 and m["shield"] >= 0 and m["bones"] >= 0, f"stats of {m['id']}")
        _check(all(s["weapon"] in SPACE_WEAPONS for s in m["spaces"]), f"spaces of {m['id']}")
        _check(sum(not s["five_six"] for s in m["spaces"]) >= 2, f"2 normal spaces on {m['id']}")
    _check(len(QUESTS) == 18 and len(BRIDGES) == 6, "18 quests and 6 bridges")
    for q in QUESTS.values():
        for key in ("reward", "items"):
            if key in q:
                _check_rewards(q[key], q["id"])
        for row in q.get("rewards", []):
            _check_rewards(row, q["id"])
        for plank in q.get("planks", []):
            if isinstance(plank, dict):
                _check_rewards(plank["red"] + plank["green"], q["id"])
            else:
                _check_rewards(plank, q["id"])
    for b in BRIDGES.values():
        _check_rewards(b["stable"] + b["green"] + b["red"], b["id"])
    _check(len(STAIRS) == 10, "10 stair cards")
    _check(sum(s["type"] == "fight" for s in STAIRS.values()) == 3, "3 fight cards")
    for s in STAIRS.values():
        _check(len(s["spaces"]) == 6 and sum(sp["crown"] for sp in s["spaces"]) == 1, s["id"])
        _check_rewards(s["wait"] + s["fight_reward"], s["id"])
        for sp in s["spaces"]:
            _check_rewards(sp["entry"], s["id"])
        _check(len(s["roof"]) == 2, f"two roof paths on {s['id']}")
    _check(len(BAZAAR_CARDS) == 32 and len(LOOT_CARDS) == 32, "32 bazaar and 32 loot cards")
    _check(len(BASIC_CARDS) == 16, "16 basic equipment cards")
    _check(len(LEVELS) == 9, "9 level cards")
    for lv in LEVELS.values():
        for side in ("small", "large"):
            lines = lv[side]
            _check(len(lines) == 4, f"4 lines on {lv['id']}")
            explore = 0
            for line in lines:
                cells = [c for col in line for c in col]
                _check(all(c in ("M", "?") for c in cells), f"cells of {lv['id']}")
                _check(all(len(col) in (1, 2) for col in line), f"columns of {lv['id']}")
                _check(cells.count("M") <= 10, f"monster deck runs dry on {lv['id']}")
                explore += cells.count("?")
            _check(explore <= len(EXPLORATION), f"exploration deck runs dry on {lv['id']}")
        _check(all(len(col) == 1 for line in lv["small"] for col in line), "2-4 side is central")


_validate()
