"""Every card of RULINGS §4.12, row by row, against the content data files.

The tables below are the rows of RULINGS.md §4.12 copied verbatim (monsters, level cards,
exploration cards, stair cards, bazaar and loot), parsed here independently of the JSON files,
so a typo in a data file (a stat, a reward, a space, a price, a copy count) fails a test.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from rules.bug_run import content as C

MONSTERS = """\
| M1-01 | Hungry Tadpole | 0 | 3 | 0 | 2c · 1vp | any, any |
| M1-02 | Garden Shrew | 1 | 4 | 1 | 2vp · 2c | any, sw |
| M1-03 | Slime Mold | 1 | 3 | 0 | L · 1vp | any, any |
| M1-04 | Sundew Trap | 0 | 3 | 1 | 3c · 2a | any, bw |
| M1-05 | Baby Gecko | 1 | 4 | 0 | 2vp · 2h | any, any |
| M1-06 | Pond Frog | 0 | 4 | 1 | 2vp · 2c · 1h | any, any |
| M1-07 | Cave Bat Pup | 1 | 3 | 1 | 3c · L | bw, any |
| M1-08 | Antlion Larva | 0 | 3 | 1 | 2vp · 2a | sw, any |
| M1-09 | Robber Fly | 1 | 3 | 0 | 2c · 1vp · 1a | any, any |
| M1-10 | Toadstool Toad | 0 | 4 | 0 | 3c · 1vp | any, any |
| M2-11 | Sparrow Chick | 1 | 5 | 1 | 3vp · 2c · 2h | any, sw, any |
| M2-12 | Praying Mantis | 2 | 5 | 1 | 3vp · L · 2c | sw, any |
| M2-13 | Tree Frog | 1 | 6 | 1 | 2vp · 2vp · 3c | any, bw, any |
| M2-14 | Pitcher Plant | 0 | 6 | 1 | 4c · 2a · 2vp | any, any, any⁵⁶ |
| M2-15 | Centipede | 1 | 5 | 2 | 3vp · 3vp · 4c | any, sw, any |
| M2-16 | Hedgehog | 2 | 5 | 1 | L · 2vp · 3c | any, any |
| M2-17 | Assassin Bug | 1 | 5 | 1 | 3vp · 2a · 2c | bw, any, any |
| M2-18 | Chameleon | 1 | 6 | 0 | 2vp · L · 3c | any, any, any⁵⁶ |
| M2-19 | Shrike | 2 | 5 | 1 | 3vp · 2vp · 2h | any, bw |
| M2-20 | Mole | 1 | 6 | 1 | 4c · 2vp · 2a | sw, any, any |
| M3-21 | Bullfrog | 1 | 8 | 2 | 4vp · 3vp · 3c | any, sw, any |
| M3-22 | Giant Scorpion | 2 | 7 | 2 | 4vp · L · 4c | sw, any, any |
| M3-23 | Venus Flytrap | 2 | 8 | 1 | 3vp · 3vp · L | any, bw, any |
| M3-24 | Barn Owl | 1 | 7 | 1 | 4vp · 3a · 3c | bw, any, any |
| M3-25 | Fire Salamander | 2 | 7 | 2 | 5vp · 2vp · 3h | any, any, any⁵⁶ |
| M3-26 | Trapdoor Lurker | 1 | 8 | 1 | 3vp · L · 4c · 2vp | any, any, sw, any⁵⁶ |
| M3-27 | Anteater Cub | 2 | 8 | 1 | 4vp · 4vp · 2a | any, any, any |
| M3-28 | Raven | 1 | 7 | 2 | 3vp · L · L | bw, any, any |
| M3-29 | Horned Lizard | 2 | 7 | 1 | 4vp · 3vp · 3c | any, sw, any |
| M3-30 | Army Ant Column | 1 | 8 | 2 | 3vp · 3vp · 3vp · 2c | any, any, any, any⁵⁶ |
| M4-31 | Great Anteater | 3 | 10 | 2 | 5vp · 4vp · L · 4c | any, sw, any, any⁵⁶ |
| M4-32 | Swallow Squadron | 2 | 9 | 2 | 5vp · 4vp · 3vp · 3c | bw, any, any, any⁵⁶ |
| M4-33 | Armadillo | 3 | 9 | 2 | 5vp · L · 4vp · 3h | sw, any, any |
| M4-34 | Giant Pitcher Plant | 2 | 11 | 2 | 6vp · 4vp · 4c · L | any, any, bw, any⁵⁶ |
| M4-35 | Woodpecker | 2 | 10 | 3 | 6vp · 5vp · 3a | bw, any, any |
| M4-36 | Horned Toad King | 3 | 10 | 2 | 5vp · 5vp · L | any, sw, any |
| M4-37 | Aardvark | 3 | 11 | 2 | 6vp · 4vp · 4vp · 4c | any, any, any, any⁵⁶ |
| M4-38 | Bat Swarm | 2 | 9 | 3 | 5vp · 4vp · 3a · L | bw, bw, any, any⁵⁶ |
| M4-39 | Exterminator's Boot | 3 | 10 | 3 | 6vp · L · L · 4c | any, sw, any, any⁵⁶ |
| M4-40 | Mantis Matriarch | 3 | 9 | 2 | 5vp · 5vp · 3c | sw, any, any |
"""

LEVELS = """\
| LV1 | M ? M ? M | M M ? M ? | ? M M ? M M | M ? M M ? M | M \\| M/? \\| ?/M \\| M \\| M/M \\| ? | M/M \\| ? \\| M/? \\| M/M \\| ?/M \\| M | M \\| ?/M \\| M/M \\| ? \\| M/? \\| M/M | M/M \\| ?/M \\| M \\| M/? \\| M/M \\| ? |
| LV2 | ? M M ? M | M ? M ? M M | M M ? M ? M | M M ? M ? M | ? \\| M/M \\| M \\| ?/M \\| M/? \\| M | M \\| M/? \\| ?/M \\| M \\| M/M \\| ?/M | M/M \\| M \\| ?/? \\| M/M \\| M \\| ? | M \\| M/M \\| ? \\| M/? \\| M/M \\| M |
| LV3 | M M ? ? M | ? M ? M M | M ? M M ? M | ? M M ? M M | M/? \\| M \\| ?/M \\| M/M \\| ? \\| M | M \\| ?/M \\| M/M \\| M/? \\| ? \\| M | M/M \\| ? \\| M/M \\| ?/M \\| M \\| M/? | ? \\| M/M \\| M/? \\| M \\| ?/M \\| M/M |
| LV4 | M ? ? M M | M ? M ? M | M ? M ? M M | M M ? M M ? | M \\| ?/? \\| M/M \\| M \\| M/? \\| M | M/M \\| M \\| ?/M \\| ? \\| M/M \\| M/? | ? \\| M/M \\| M/? \\| M/M \\| ?/M \\| M | M/M \\| M/? \\| ? \\| M/M \\| M \\| ?/M |
| LV5 | ? M ? M M | M M ? M ? M | ? M M M ? M | M ? M ? M M | ?/M \\| M \\| M/? \\| M/M \\| ? \\| M | M \\| M/M \\| ? \\| M/? \\| ?/M \\| M/M | M/? \\| M/M \\| M \\| ?/M \\| M/M \\| ? | M \\| ?/M \\| M/M \\| ? \\| M/? \\| M/M |
| LV6 | M ? M M ? | ? M M ? M | M M ? M M ? | M ? M M M ? | M \\| M/? \\| M \\| ?/M \\| M/M \\| ? | ?/M \\| M/M \\| M \\| M/? \\| ? \\| M | M \\| M/M \\| ?/? \\| M \\| M/M \\| ? | M/M \\| ? \\| M/M \\| M/? \\| ?/M \\| M |
| LV7 | M M ? M ? | M ? M M ? | M ? M ? M M | ? M M ? M M | M/M \\| ? \\| M \\| ?/M \\| M/? \\| M | M \\| ?/M \\| M/? \\| M/M \\| ? \\| M | ?/M \\| M \\| M/M \\| ? \\| M/M \\| M/? | M \\| M/M \\| ?/M \\| M/? \\| M \\| ? |
| LV8 | ? M M M ? | M ? M ? M | ? M ? M M M | M M ? M ? M | ? \\| M/M \\| ?/M \\| M \\| M/? \\| M | M/? \\| M \\| M/M \\| ?/M \\| ? \\| M | M \\| M/? \\| ? \\| M/M \\| ?/M \\| M/M | M/M \\| M/? \\| M \\| ? \\| M/M \\| ?/M |
| LV9 | M ? M ? M | M M ? M ? M | M ? M M ? M | M ? M ? M M | M \\| M/? \\| ? \\| M/M \\| ?/M \\| M | M/M \\| ?/M \\| M \\| ? \\| M/? \\| M | ? \\| M/M \\| M/? \\| M \\| ?/M \\| M/M | M \\| ?/M \\| M/M \\| M/? \\| ? \\| M/M |
"""

QUESTS = """\
| Q01 | Escape Attempt | Loose Grate | green → 3vp |
| Q02 | Escape Attempt | Crack in the Wall | green → 2vp + 3c |
| Q03 | Escape Attempt | Drain Pipe | green → L + 2h |
| Q04 | The Gamble | Cockroach Coin Toss | greens 0/1/2/3/4 → 1c / 2c / 3c / 5c / 7c |
| Q05 | The Gamble | Dice Den | 0/1/2/3/4 → 0 / 1vp / 2vp / 4vp / 6vp |
| Q06 | The Gamble | Four-Leaf Clover | 0/1/2/3/4 → 1h / 2c / L / 3vp / L + 4vp |
| Q07 | Archery | Target Practice | 0 succ 🔥 −1h · 1 succ +2c · 2 succ +3vp |
| Q08 | Archery | Apple on the Ant | 0 🔥 −2c · 1 +2vp · 2 +L |
| Q09 | Archery | Bullseye Beetle | 0 🔥 −1vp · 1 +2a · 2 +4vp |
| Q10 | The Duel | Duel with the Dung Beetle | plank 1 red L / green 1h · 2 red 2c / green 2vp · 3 red 1a / green 3c · 4 red 2vp / green L |
| Q11 | The Duel | Duel with the Earwig | 1 red 1c / green 1vp · 2 red 1h / green 2vp · 3 red 2c / green L · 4 red 1vp / green 4vp |
| Q12 | The Duel | Duel with the Stag Beetle | 1 red 2a / green 2c · 2 red 1vp / green 2vp · 3 red L / green 3c · 4 red 2vp / green 3vp |
| Q13 | The Vault | Pantry | 3c · 2vp · 2a · 2h |
| Q14 | The Vault | Seed Store | L · 3c · 2vp |
| Q15 | The Vault | Honey Cellar | 3vp · 2c · 2h · 2a |
| Q16 | Booby-Trapped Vault | Trapped Larder | 4vp · 5c · L |
| Q17 | Booby-Trapped Vault | Spiked Treasury | 3vp · 3vp · L · 4c |
| Q18 | Booby-Trapped Vault | Sticky Honeypot | 5vp · L · 3a |
"""

BRIDGES = """\
| B1 | Twig Bridge | 2vp | 4vp | nothing |
| B2 | Leaf Raft | 1c | 4c | nothing |
| B3 | Spider Thread | 1h | 3h | nothing |
| B4 | Grass Blade | 1a | 3a | nothing |
| B5 | Silk Rope | 1vp | L | nothing |
| B6 | Rotten Plank | 1c | 3vp | lose 1h |
"""

STAIRS = """\
| ST1 | Rest | Dusty Landing | 2c | 👑 — | +3h | +2c | +1vp | +2a | +1h | — | pay 3a | SWORD ≥4 |
| ST2 | Rest | Mossy Steps | 1h | 👑 pay 1h | +2vp | +L | +2a | +2c | — | — | pay 2h | pay 3c |
| ST3 | Rest | Cobweb Stairwell | 2c | 👑 pay 2c | +2h | +3c | +1vp | +2h | +1a | — | FLIP green | pay 4c |
| ST4 | Rest | Root Staircase | 1vp | 👑 pay 3c | +2a | +2c | — | +1h | +1c | — | BOW ≥4 | pay 4a |
| ST5 | Rest | Pebble Steps | 2c | 👑 +1c | +3h | +1vp | +2c | +2a | +1h | — | SWORD ≥3 | BOW ≥3 |
| ST6 | Rest | Drainpipe Rungs | 1a | 👑 pay 1h | +3c | +2h | +1a | +2c | +1h | — | pay 3h | FLIP green |
| ST7 | Rest | Thimble Tower | 2c | 👑 pay 1c | +L | +2h | +1vp | +2c | — | — | pay 5c | SWORD ≥5 |
| ST8 | Fight | Banister Brawl | 1c | T👑 [sw] — | T [bw] — | Bo [any] +1h | Bo [sw] — | T [any] | Bo [bw] | 6vp | BOW ≥5 | pay 2a + 2c |
| ST9 | Fight | Stairwell Scuffle | 1c | T👑 [any] — | T [sw] — | Bo [bw] — | Bo [any] +2c | T [any] | Bo [sw] | 12c | SWORD ≥4 | pay 3a |
| ST10 | Fight | Landing Showdown | 1h | T👑 [bw] — | T [any] — | Bo [sw] — | Bo [bw] +1a | T [sw] | Bo [any] | 6vp + 6a | FLIP green | BOW ≥4 |
"""

BAZAAR = """\
| BZ01 | Full Life Potion | hearts → 10 (your turn, not during an attack) | 4 | 2 |
| BZ02 | Half-full Life Potion +3 | +3 hearts | 2 | 2 |
| BZ03 | Half-full Life Potion +4 | +4 hearts | 3 | 1 |
| BZ04 | Strength Potion (sword) | before roll; if ≥1 dice success +2 | 2 | 2 |
| BZ05 | Strength Potion (bow) | same, bow | 2 | 2 |
| BZ06 | Strength Potion (your choice) | same, either weapon, +3 | 3 | 1 |
| BZ07 | Forcing Fate | before a toss: choose the result | 3 | 2 |
| BZ08 | Second Chance | 3 markers; each: retoss | 3 | 2 |
| BZ09 | You Can Do Better (1 die) | 3 markers; each: reroll 1 die | 2 | 2 |
| BZ10 | You Can Do Better (2 dice) | 3 markers; each: reroll 1 or 2 dice | 4 | 1 |
| BZ11 | Energy Boost | after a non-defeating attack: attack again, same action | 4 | 2 |
| BZ12 | Rusty Sword | +1 | 1 | 1 |
| BZ13 | Rusty Bow | +1 | 1 | 1 |
| BZ14 | Golden Sword (2) | +1, +2c on wound | 5 | 1 |
| BZ15 | Golden Bow (2) | +1, +2c on wound | 5 | 1 |
| BZ16 | Fire Sword | +1, +1vp on wound | 6 | 1 |
| BZ17 | Fire Bow | +1, +1vp on wound | 6 | 1 |
| BZ18 | Sparkling Sword | +1vp +1c on wound | 5 | 1 |
| BZ19 | Sparkling Bow | +1vp +1c on wound | 5 | 1 |
| BZ20 | Wooden Shield | flip green → −1 | 2 | 2 |
| BZ21 | Metal Shield | 1 coin → −1 | 4 | 2 |
| BZ22 | Golden Shield | −1 | 7 | 1 |
"""

LOOT = """\
| LT01 | Gold Coins | secret | your turn or game end: +5 coins | 2 |
| LT02 | Show-Off 2 | secret | game end: +2 VP | 1 |
| LT03 | Show-Off 3 | secret | game end: +3 VP | 1 |
| LT04 | Show-Off 4 | secret | game end: +4 VP | 1 |
| LT05 | Crafty One (coins +2) | secret | steal 1 die's successes +2 coins from a hero on your monster/quest card | 1 |
| LT06 | Crafty One (arrows +1) | secret | same, successes +1 arrows | 1 |
| LT07 | Itinerant Merchant | secret | private trading turn now | 2 |
| LT08 | Act of Bravery (riches) | secret | on a roll with 2 bones: +3c +2vp | 1 |
| LT09 | Act of Bravery (courage) | secret | on a roll with 2 bones: both bones → successes | 1 |
| LT10 | Corrosion | secret | before an attack: monster shield −2 (min 0) | 2 |
| LT11 | Dibs! | secret | your monster defeated: pick first | 2 |
| LT12 | An Optional Extra | secret | move onto a full monster | 1 |
| LT13 | Reserved Seat | secret | padlock an empty space on this level's stairs for yourself | 2 |
| LT14 | Rusty Sword | equipment | +1 | 1 |
| LT15 | Rusty Bow | equipment | +1 | 1 |
| LT16 | Golden Sword (1) | equipment | +1, +1c on wound | 1 |
| LT17 | Golden Bow (1) | equipment | +1, +1c on wound | 1 |
| LT18 | Fire Sword | equipment | +1, +1vp on wound | 1 |
| LT19 | Sparkling Bow | equipment | +1vp +1c on wound | 1 |
| LT20 | Wooden Shield | equipment | flip green → −1 | 1 |
| LT21 | Metal Shield | equipment | 1 coin → −1 | 1 |
| LT22 | Half-full Life Potion +2 | face up | +2 hearts | 1 |
| LT23 | Strength Potion (your choice) +2 | face up | +2 if ≥1 dice success | 1 |
| LT24 | Second Chance | face up | 3 retosses | 1 |
| LT25 | You Can Do Better (1 die) | face up | 3 rerolls of 1 die | 1 |
| LT26 | Amber Trinket | face up | game end: +2 VP | 1 |
| LT27 | Golden Acorn | face up | game end: +3 VP | 1 |
"""


def cells(table: str) -> list[list[str]]:
    return [[c.strip() for c in re.split(r"(?<!\\)\|", row)[1:-1]] for row in table.splitlines()]


def items(text: str, sep: str) -> list[str]:
    """``"2vp · L"`` -> ["2vp", "L"]; a dash, "0" or "nothing" is no item; "−1h"/"lose 1h" -> "-1h"."""
    text = text.strip().removeprefix("+")
    if text in ("—", "0", "nothing", ""):
        return []
    out = []
    for part in text.split(sep):
        part = part.strip().replace("−", "-").replace("lose ", "-").lstrip("+")
        out.append(part)
    return out


def spaces(text: str) -> list[dict[str, Any]]:
    out = []
    for s in text.split(","):
        s = s.strip()
        out.append({"weapon": s.removesuffix("⁵⁶"), "five_six": s.endswith("⁵⁶")})
    return out


@pytest.mark.parametrize("row", cells(MONSTERS), ids=lambda r: r[0])
def test_4_12_3_every_monster_matches_its_rulings_row(row: list[str]) -> None:
    mid, name, shield, life, bones, rewards, sp = row
    m = C.MONSTERS[mid]
    assert (m["name"], m["level"]) == (name, int(mid[1]))
    assert (m["shield"], m["life"], m["bones"]) == (int(shield), int(life), int(bones))
    assert m["rewards"] == items(rewards, "·")
    assert m["spaces"] == spaces(sp)


def test_4_12_3_there_are_exactly_the_listed_monsters() -> None:
    assert sorted(C.MONSTERS) == sorted(r[0] for r in cells(MONSTERS))


@pytest.mark.parametrize("row", cells(LEVELS), ids=lambda r: r[0])
def test_4_12_4_every_level_card_matches_its_rulings_row(row: list[str]) -> None:
    lv = C.LEVELS[row[0]]
    assert lv["small"] == [[[c] for c in line.split()] for line in row[1:5]]
    assert lv["large"] == [
        [col.strip().split("/") for col in line.split("\\|")] for line in row[5:9]
    ]


def quest(kind: str, text: str) -> dict[str, Any]:
    if kind == "Escape Attempt":
        return {"kind": "escape", "reward": items(text.removeprefix("green →"), "+")}
    if kind == "The Gamble":
        rows = text.split("→")[1].split("/")
        return {"kind": "gamble", "rewards": [items(r, "+") for r in rows]}
    if kind == "Archery":
        return {
            "kind": "archery",
            "planks": [[p.split()[-1].replace("−", "-").lstrip("+")] for p in text.split("·")],
        }
    if kind == "The Duel":
        planks = []
        for p in text.split("·"):
            red, green = re.fullmatch(r"(?:plank )?\d red (\S+) / green (\S+)", p.strip()).groups()
            planks.append({"red": items(red, "+"), "green": items(green, "+")})
        return {"kind": "duel", "planks": planks}
    vault = "vault" if kind == "The Vault" else "trapped_vault"
    return {"kind": vault, "items": items(text, "·")}


@pytest.mark.parametrize("row", cells(QUESTS), ids=lambda r: r[0])
def test_4_12_5_every_quest_matches_its_rulings_row(row: list[str]) -> None:
    qid, kind, name, text = row
    q = C.QUESTS[qid]
    want = quest(kind, text)
    assert q["name"] == name
    assert {k: q[k] for k in want} == want
    # Duel = 1 space; every other quest = any, any, any⁵⁶
    assert q["spaces"] == spaces("any" if kind == "The Duel" else "any, any, any⁵⁶")


@pytest.mark.parametrize("row", cells(BRIDGES), ids=lambda r: r[0])
def test_4_12_5_every_bridge_matches_its_rulings_row(row: list[str]) -> None:
    bid, name, stable, green, red = row
    b = C.BRIDGES[bid]
    assert (b["name"], b["kind"]) == (name, "bridge")
    assert (b["stable"], b["green"], b["red"]) == (
        items(stable, "+"),
        items(green, "+"),
        items(red, "+"),
    )


def stair_space(text: str, i: int, fight: bool) -> dict[str, Any]:
    m = re.fullmatch(r"(T|Bo)?(👑)? ?(?:\[(sw|bw|any)\])? ?(.*)", text.strip())
    assert m is not None, text
    team, crown, weapon, entry = m.groups()
    assert bool(team) == fight, text
    entry = entry.strip()
    paid = entry.startswith("pay ")
    got = ["-" + entry.removeprefix("pay ")] if paid else items(entry, "+")
    return {
        "team": {"T": "top", "Bo": "bottom"}.get(team or ""),
        "weapon": weapon or "any",
        "entry": got,
        "crown": bool(crown),
        "five_six": i >= 4,
    }


def roof(text: str) -> dict[str, Any]:
    if text.startswith("pay "):
        return {"cost": [x.strip() for x in text.removeprefix("pay ").split("+")]}
    if text == "FLIP green":
        return {"challenge": ["flip", 0]}
    weapon, need = text.split("≥")
    return {"challenge": [weapon.strip().lower(), int(need)]}


@pytest.mark.parametrize("row", cells(STAIRS), ids=lambda r: r[0])
def test_4_12_6_every_stair_card_matches_its_rulings_row(row: list[str]) -> None:
    sid, kind, name, wait, *sp, reward, left, right = row
    s = C.STAIRS[sid]
    fight = kind == "Fight"
    assert (s["name"], s["type"]) == (name, kind.lower())
    assert s["wait"] == items(wait, "+")
    assert s["spaces"] == [stair_space(t, i, fight) for i, t in enumerate(sp)]
    assert s["fight_reward"] == items(reward, "+")
    assert s["roof"] == [roof(left), roof(right)]


def equipment(name: str, effect: str) -> dict[str, Any]:
    """Zone from the name; +N bonus, +Nc / +Nvp awards (or the shield kind) from the effect."""
    if "Shield" in name:
        return {"zone": "shield", "shield": name.split()[0].lower()}
    bonus = re.match(r"\+(\d)(?:,|$)", effect)
    coins = re.search(r"\+(\d)c on wound|\+(\d)c", effect)
    vp = re.search(r"\+(\d)vp", effect)
    return {
        "zone": "sword" if "Sword" in name else "bow",
        "bonus": int(bonus.group(1)) if bonus else 0,
        "award_coins": int(next(g for g in coins.groups() if g)) if coins else 0,
        "award_vp": int(vp.group(1)) if vp else 0,
    }


# The effect-specific numbers of the non-equipment cards, read off the "Effect" column.
BAZAAR_EFFECTS: dict[str, dict[str, Any]] = {
    "BZ01": {"effect": "full_potion"},
    "BZ02": {"effect": "potion", "hearts": 3},
    "BZ03": {"effect": "potion", "hearts": 4},
    "BZ04": {"effect": "strength", "weapon": "sword", "bonus": 2},
    "BZ05": {"effect": "strength", "weapon": "bow", "bonus": 2},
    "BZ06": {"effect": "strength", "weapon": "any", "bonus": 3},
    "BZ07": {"effect": "forcing_fate"},
    "BZ08": {"effect": "second_chance"},
    "BZ09": {"effect": "reroll", "dice": 1},
    "BZ10": {"effect": "reroll", "dice": 2},
    "BZ11": {"effect": "energy_boost"},
}
LOOT_EFFECTS: dict[str, dict[str, Any]] = {
    "LT01": {"effect": "gold_coins", "coins": 5},
    "LT02": {"effect": "show_off", "vp": 2},
    "LT03": {"effect": "show_off", "vp": 3},
    "LT04": {"effect": "show_off", "vp": 4},
    "LT05": {"effect": "crafty", "steal": "coins", "plus": 2},
    "LT06": {"effect": "crafty", "steal": "arrows", "plus": 1},
    "LT07": {"effect": "merchant"},
    "LT08": {"effect": "bravery", "variant": "riches"},
    "LT09": {"effect": "bravery", "variant": "courage"},
    "LT10": {"effect": "corrosion"},
    "LT11": {"effect": "dibs"},
    "LT12": {"effect": "extra"},
    "LT13": {"effect": "reserved_seat"},
    "LT22": {"effect": "potion", "hearts": 2},
    "LT23": {"effect": "strength", "weapon": "any", "bonus": 2},
    "LT24": {"effect": "second_chance"},
    "LT25": {"effect": "reroll", "dice": 1},
    "LT26": {"effect": "trinket", "vp": 2},
    "LT27": {"effect": "trinket", "vp": 3},
}


@pytest.mark.parametrize("row", cells(BAZAAR), ids=lambda r: r[0])
def test_4_12_9_every_bazaar_card_matches_its_rulings_row(row: list[str]) -> None:
    bid, name, effect, price, copies = row
    d = C.card(f"{bid}-1")
    assert (d["name"], d["price"], d["copies"]) == (name, int(price), int(copies))
    want = BAZAAR_EFFECTS.get(bid) or {"effect": "equipment", **equipment(name, effect)}
    assert {k: d[k] for k in want} == want
    assert d["type"] == ("equipment" if want["effect"] == "equipment" else "faceup")


@pytest.mark.parametrize("row", cells(LOOT), ids=lambda r: r[0])
def test_4_12_10_every_loot_card_matches_its_rulings_row(row: list[str]) -> None:
    lid, name, kind, effect, copies = row
    d = C.card(f"{lid}-1")
    assert (d["name"], d["copies"]) == (name, int(copies))
    assert d["type"] == kind.replace(" ", "")
    want = LOOT_EFFECTS.get(lid) or {"effect": "equipment", **equipment(name, effect)}
    assert {k: d[k] for k in want} == want


def test_4_12_every_card_family_is_complete() -> None:
    assert sorted(C.QUESTS) == sorted(r[0] for r in cells(QUESTS))
    assert sorted(C.BRIDGES) == sorted(r[0] for r in cells(BRIDGES))
    assert sorted(C.STAIRS) == sorted(r[0] for r in cells(STAIRS))
    assert sorted(C.LEVELS) == sorted(r[0] for r in cells(LEVELS))
    assert sorted(t["id"] for t in C.BAZAAR_TYPES) == sorted(r[0] for r in cells(BAZAAR))
    assert sorted(t["id"] for t in C.LOOT_TYPES) == sorted(r[0] for r in cells(LOOT))
    assert sum(int(r[4]) for r in cells(BAZAAR)) == 32 and sum(int(r[4]) for r in cells(LOOT)) == 32
    assert C.BASIC["bonus"] == 2 and C.BASIC["price"] == 3 and C.BASIC["copies"] == 16
    assert C.ROOF_VP == [0, 2, 4, 7, 10]
