"""Bug Run content (RULINGS §4.12): counts, ids and the level cards never running a deck dry."""

from __future__ import annotations

from collections import Counter

from rules.bug_run import board
from rules.bug_run import content as C
from rules.bug_run.chance import dice_stats

from .test_bug_run_support import (
    adventure,
    game,
    set_level_decks,
)


def test_content_counts_match_the_component_list() -> None:
    assert len(C.MONSTERS) == 40
    assert Counter(m["level"] for m in C.MONSTERS.values()) == {1: 10, 2: 10, 3: 10, 4: 10}
    assert len(C.QUESTS) == 18 and len(C.BRIDGES) == 6
    assert Counter(q["kind"] for q in C.QUESTS.values()) == {
        "escape": 3,
        "gamble": 3,
        "archery": 3,
        "duel": 3,
        "vault": 3,
        "trapped_vault": 3,
    }
    assert len(C.STAIRS) == 10
    assert Counter(s["type"] for s in C.STAIRS.values()) == {"rest": 7, "fight": 3}
    assert len(C.LEVELS) == 9
    assert len(C.BAZAAR_CARDS) == 32 and len(C.LOOT_CARDS) == 32 and len(C.BASIC_CARDS) == 16
    loot_types = Counter(C.card(c)["type"] for c in C.LOOT_CARDS)
    assert loot_types == {"secret": 18, "equipment": 8, "faceup": 6}
    assert len(set(C.all_cards())) == len(C.all_cards()) == 154


def test_every_card_keeps_its_rulings_id() -> None:
    assert C.MONSTERS["M3-26"]["name"] == "Trapdoor Lurker"
    assert C.MONSTERS["M4-39"]["rewards"] == ["6vp", "L", "L", "4c"]
    assert C.QUESTS["Q10"]["planks"][0] == {"red": ["L"], "green": ["1h"]}
    assert C.BRIDGES["B6"]["red"] == ["-1h"]
    assert C.STAIRS["ST9"]["fight_reward"] == ["12c"]
    assert C.card("BZ22-1")["name"] == "Golden Shield" and C.card("BZ22-1")["price"] == 7
    assert C.card("LT11-2")["name"] == "Dibs!"
    assert C.card("BASIC-16")["bonus"] == 2


def test_br62_no_level_card_can_run_a_deck_dry() -> None:
    for lv in C.LEVELS.values():
        for side in ("small", "large"):
            explore = 0
            for line in lv[side]:
                cells = [c for col in line for c in col]
                assert cells.count("M") <= 10
                explore += cells.count("?")
            assert explore <= 24
    # and a built level with an empty deck leaves the slot empty instead of failing
    g = game(3, 2)
    set_level_decks(g, explore=[])
    board.build_level(g.context, 2, [])
    kinds = {sl.kind for col in g.state.board[1:-1] for sl in col.values()}
    assert "empty" in kinds and kinds <= {"monster", "empty"}


def test_br2_dice_faces() -> None:
    assert [dice_stats([f]) for f in range(1, 7)] == [
        (1, 0, 0),
        (1, 0, 0),
        (2, 0, 0),
        (1, 1, 0),
        (0, 1, 0),
        (0, 0, 1),
    ]
    # two dice: P(at least one success) = 32/36 and the success distribution 4/12/13/6/1
    dist = Counter(dice_stats([a, b])[0] for a in range(1, 7) for b in range(1, 7))
    assert dist == {0: 4, 1: 12, 2: 13, 3: 6, 4: 1}


def test_br5_hero_powers() -> None:
    assert C.POWERS == {
        "wasp": "fierce_frenzy",
        "fly": "teleportation",
        "beetle": "armored_exoskeleton",
        "grasshopper": "good_fortune",
        "spider": "master_crocheter",
        "caterpillar": "tireless_archer",
    }


def test_br71_every_stairs_card_has_a_waiting_reward() -> None:
    assert all(s["wait"] for s in C.STAIRS.values())
    g = adventure(3, 4)
    assert g.context.stairs_card()["wait"]


def test_br69_the_exploration_deck_shows_only_its_size() -> None:
    g = adventure(3, 4)
    view = g.view(None)
    assert view["decks"]["exploration"] == len(g.state.explore)
    assert not any(c in str(view) for c in g.state.explore)
