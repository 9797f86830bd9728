"""Bug Run's typed state writes the snapshot stored games have always had.

Replays compare snapshots as JSON text (tests/rules/test_engine_logs.py), so key order is part
of the format: these tests pin it, and check every frame field reaches the snapshot.
"""

from __future__ import annotations

import json
from dataclasses import fields

import pytest

from rules.bug_run.driver import FRAME_KINDS
from rules.bug_run.engine import BugRun
from rules.bug_run.frames import (
    ABSENT,
    FRAME_TYPES,
    AttackFrame,
    Challenge,
    FlashFrame,
    Frame,
    Roll,
    Toss,
    result_json,
    result_of,
)
from rules.bug_run.state import Space, _plain
from rules.core import Rng

STATE_KEYS = [
    "players", "seed", "mode", "two", "serial", "level", "phase", "level_card", "heroes",
    "seats", "crown", "bazaar", "basics", "basic_side", "loot", "limbo", "explore", "monsters",
    "stairs_stack", "stairs_out", "roof", "boxed", "board", "teams", "markers", "flash", "order",
    "fought", "escape_queue", "stack", "rng",
]  # fmt: skip
HERO_KEYS = [
    "name", "seat", "hearts", "arrows", "coins", "sword", "bow", "shield", "stored", "faceup",
    "pos", "roof",
]  # fmt: skip
SLOT_KEYS = ["card", "wounds", "defeated", "locked", "marks", "duel", "kind", "spaces"]
SPACE_KEYS = ["weapon", "lock", "hero", "reserved", "extra"]


def test_the_snapshot_keeps_its_key_order() -> None:
    snap = BugRun.new(3, 1).to_dict()
    assert list(snap) == STATE_KEYS
    assert list(snap["heroes"][0]) == HERO_KEYS
    assert list(snap["heroes"][0]["pos"]) == ["col", "floor", "space"]
    assert list(snap["seats"][0]) == ["vp", "hand"]
    assert list(snap["bazaar"]) == ["deck", "market", "discard"]
    assert list(snap["loot"]) == ["deck", "discard"]
    assert list(snap["order"]) == ["next", "left", "forced", "ready", "seat"]
    slot = snap["board"][1]["C"]
    assert list(slot) == SLOT_KEYS
    assert list(snap["board"][-1]["C"]["spaces"][0]) == SPACE_KEYS
    assert list(snap["stack"][0]) == ["k", "hero", "merchant", "wait", "seat"]


def test_every_frame_field_is_written_and_every_kind_is_driven() -> None:
    assert set(FRAME_TYPES) == set(FRAME_KINDS)
    for kind, frame_class in FRAME_TYPES.items():
        assert frame_class.kind == kind
        names = {f.name for f in fields(frame_class)}
        assert sorted(frame_class.ORDER) == sorted(names), kind  # each field once, none lost
        assert names >= frame_class.LATE, kind


def test_late_fields_and_ret_appear_only_once_set() -> None:
    attack = AttackFrame(hero=0, weapon="bow", seat=0)
    assert "total" not in attack.to_dict() and "ret" not in attack.to_dict()
    attack.ret = None  # a child that returned nothing still returned
    attack.total = 3
    data = attack.to_dict()
    assert data["ret"] is None and list(data)[-2:] == ["ret", "total"]
    assert Frame.from_dict(data) == attack
    assert attack.ret is not ABSENT


def test_a_quest_flash_writes_its_moves_before_the_result() -> None:
    quest = FlashFrame(hero=1, col=2, floor="C", monster=False, seat=1, on=[1], movers=[])
    quest.ret = None
    monster = FlashFrame(hero=1, col=2, floor="C", monster=True, seat=1, on=[1], movers=[])
    monster.ret = None
    assert list(quest.to_dict())[-2:] == ["movers", "ret"]
    assert list(monster.to_dict())[-2:] == ["ret", "movers"]


def test_every_snapshot_of_a_game_reads_back_to_the_same_text() -> None:
    for players, seed in ((2, 4), (5, 9)):
        game = BugRun.new(players, seed, {"mode": "powers"})
        rng = Rng(seed)
        while not game.is_over:
            text = json.dumps(game.to_dict())
            assert json.dumps(BugRun.from_dict(json.loads(text)).to_dict()) == text
            (seat,) = game.waiting_for()
            game.apply(seat, rng.choice(game.legal_actions(seat)))


def test_a_corrupt_snapshot_is_refused_on_load() -> None:
    snap = BugRun.new(3, 1).to_dict()
    for field, value in (("phase", "lunch"), ("mode", "chaos")):
        with pytest.raises(ValueError, match=field):
            BugRun.from_dict({**snap, field: value})
    with pytest.raises(ValueError, match="frame kind"):
        BugRun.from_dict({**snap, "stack": [{"k": "nap", "hero": 0}]})
    with pytest.raises(ValueError, match="'trade' frame"):
        BugRun.from_dict({**snap, "stack": [{**snap["stack"][0], "colour": "red"}]})
    BugRun.from_dict(snap)  # the snapshot itself loads


def test_a_child_hands_back_a_typed_result_in_its_old_json_form() -> None:
    """Every result a frame can hold is one of the typed kinds, written as it always was
    (a toss's face, a roll's dict, a challenge's bool) and read back to an equal value."""
    typed = (Toss("green"), Roll([6, 1], 1, 1, False), Challenge(True), None)
    assert [result_json(r) for r in typed] == [
        "green",
        {"dice": [6, 1], "successes": 1, "bones": 1, "courage": False},
        True,
        None,
    ]
    assert [result_of(result_json(r)) for r in typed] == list(typed)
    with pytest.raises(ValueError, match="result"):
        result_of(3)
    seen: set[type] = set()
    for players, seed in ((2, 4), (4, 2)):
        game = BugRun.new(players, seed, {"mode": "powers"})
        rng = Rng(seed)
        while not game.is_over:
            for frame in game.state.stack:
                assert frame.ret is ABSENT or isinstance(
                    frame.ret, (Toss, Roll, Challenge, type(None))
                )
                seen.add(type(frame.ret))
            (seat,) = game.waiting_for()
            game.apply(seat, rng.choice(game.legal_actions(seat)))
    assert Roll in seen  # a kept roll waits below a following choice (a toss is read at once)


@pytest.mark.parametrize(
    "space",
    [
        Space("sword", False),
        Space("bow", True, hero=2, reserved=None, extra=False),
        Space("shield", False, hero=None, reserved=1, extra=True),
    ],
)
def test_a_space_written_out_is_what_the_generic_writer_gives(space: Space) -> None:
    """``Space.to_dict`` is written out by hand (every view has every space): the same keys,
    order and values as ``_plain``, which the snapshot uses."""
    assert json.dumps(space.to_dict()) == json.dumps(_plain(space))
    assert [f.name for f in fields(Space)] == list(space.to_dict())
