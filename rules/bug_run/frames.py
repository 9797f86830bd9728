"""Pending frames, typed: one dataclass per frame kind (a trading turn, a move, a toss ...).

A frame either waits for one seat's decision or steps on by itself, pushing child frames whose
results come back in ``ret`` (see context.py). Frames are part of the stored snapshot, so each
kind's ``ORDER`` is the key order its JSON has always had ("k" first) and names every field:
fields in ``LATE`` are written only once set (not None), and ``ret`` only once a child has
returned (it may return None, hence the ``ABSENT`` marker; some kinds never have a child).

A child returns one typed ``Result``: a toss its face (``Toss``), a roll its dice (``Roll``),
a roof challenge whether it passed (``Challenge``), any other frame nothing. Each keeps the
JSON form the snapshot has always stored for it (a string, a dict, a bool), and that JSON
type alone tells them apart on load.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar, Final, TypeAlias


class _Absent:
    """No child has returned to the frame yet (distinct from a child that returned None)."""

    def __repr__(self) -> str:
        return "ABSENT"


ABSENT: Final = _Absent()


@dataclass(frozen=True)
class Toss:
    """What a flip counter toss returns: the face that came up (or was forced)."""

    face: str
    """``"green"`` or ``"red"``; the key of a card's per-face rewards."""

    @property
    def green(self) -> bool:
        return self.face == "green"


@dataclass(frozen=True)
class Roll:
    """What a kept roll returns: its dice and what they count (``chance.dice_stats``)."""

    dice: list[int]
    successes: int
    bones: int
    courage: bool

    def to_json(self) -> dict[str, Any]:
        return {
            "dice": list(self.dice),
            "successes": self.successes,
            "bones": self.bones,
            "courage": self.courage,
        }


@dataclass(frozen=True)
class Challenge:
    """What a roof challenge (an attack against a target number) returns: whether it passed."""

    passed: bool


Result: TypeAlias = Toss | Roll | Challenge | None
"""What a child frame hands back to the frame below it."""


def result_json(result: Result) -> Any:
    """A result in the JSON form the snapshot has always stored for it."""
    if isinstance(result, Toss):
        return result.face
    if isinstance(result, Roll):
        return result.to_json()
    if isinstance(result, Challenge):
        return result.passed
    return None


def result_of(raw: Any) -> Result:
    """The result a snapshot stored (its JSON type names the kind; anything else is corrupt)."""
    if raw is None:
        return None
    if isinstance(raw, bool):
        return Challenge(raw)
    if isinstance(raw, str):
        return Toss(raw)
    if isinstance(raw, dict):
        return Roll(
            [int(d) for d in raw["dice"]],
            int(raw["successes"]),
            int(raw["bones"]),
            bool(raw["courage"]),
        )
    raise ValueError(f"bad Bug Run frame result {raw!r}")


@dataclass(kw_only=True)
class Frame:
    """What every frame has: whether it waits for a decision, whose it is, a child's result."""

    kind: ClassVar[str] = ""
    ORDER: ClassVar[tuple[str, ...]] = ()
    LATE: ClassVar[frozenset[str]] = frozenset()

    wait: bool = False
    seat: int = -1
    ret: Result | _Absent = ABSENT

    def key_order(self) -> tuple[str, ...]:
        return self.ORDER

    def tossed(self) -> Toss:
        """The toss a child just returned (asked only where a toss was pushed)."""
        assert isinstance(self.ret, Toss), f"expected a toss result, got {self.ret!r}"
        return self.ret

    def rolled(self) -> Roll:
        """The roll a child just returned (asked only where a roll was pushed)."""
        assert isinstance(self.ret, Roll), f"expected a roll result, got {self.ret!r}"
        return self.ret

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"k": self.kind}
        for name in self.key_order():
            value = getattr(self, name)
            if value is ABSENT or (value is None and name in self.LATE):
                continue
            out[name] = result_json(value) if name == "ret" else _copy(value)
        return out

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Frame:
        """The frame a snapshot stored (its kind picks the class; an unknown kind or field is a
        ValueError, so a corrupt snapshot fails on load rather than inside the rules)."""
        frame_class = FRAME_TYPES.get(data["k"])
        if frame_class is None:
            raise ValueError(f"unknown Bug Run frame kind {data['k']!r}")
        fields = {k: _copy(v) for k, v in data.items() if k != "k"}
        if "ret" in fields:
            fields["ret"] = result_of(fields["ret"])
        try:
            return frame_class(**fields)
        except TypeError as err:
            raise ValueError(f"bad Bug Run {data['k']!r} frame: {err}") from err


def _copy(value: Any) -> Any:
    if isinstance(value, list):
        return [_copy(item) for item in value]
    if isinstance(value, dict):
        return {key: _copy(item) for key, item in value.items()}
    return value


@dataclass(kw_only=True)
class ActivateFrame(Frame):
    """2p: the player whose turn it is picks which of their ready heroes acts."""

    kind: ClassVar[str] = "activate"
    ORDER = ("seat", "wait", "ret")


@dataclass(kw_only=True)
class TradeFrame(Frame):
    """A trading turn; ``merchant``: the Itinerant Merchant's private one."""

    kind: ClassVar[str] = "trade"
    ORDER = ("hero", "merchant", "wait", "seat", "ret")
    hero: int
    merchant: bool = False


@dataclass(kw_only=True)
class TurnFrame(Frame):
    """An adventure turn; ``arrows0``: the hero's arrows when it began (a bow needs one, BR-64)."""

    kind: ClassVar[str] = "turn"
    ORDER = ("hero", "stage", "wait", "arrows0", "seat", "ret")
    LATE = frozenset({"arrows0"})
    hero: int
    stage: str = "choose"
    arrows0: int | None = None


@dataclass(kw_only=True)
class MoveFrame(Frame):
    """A move to ``to`` (col, floor), onto ``space`` or an Optional Extra's new space."""

    kind: ClassVar[str] = "move"
    ORDER = (
        "hero",
        "to",
        "space",
        "route",
        "extra",
        "stage",
        "bridges",
        "i",
        "wait",
        "seat",
        "ret",
    )
    hero: int
    to: dict[str, Any]
    space: int | None = None
    route: str | None = None
    extra: str | None = None
    stage: str = "start"
    bridges: list[list[Any]] = field(default_factory=list)
    i: int = 0

    def target_space(self) -> int:
        """The space entered (an Optional Extra's space is known once it is added)."""
        assert self.space is not None, "the Optional Extra's space is not added yet"
        return self.space


@dataclass(kw_only=True)
class BridgeFrame(Frame):
    """Crossing a bridge card: the stable or the risky way."""

    kind: ClassVar[str] = "bridge"
    ORDER = ("hero", "card", "stage", "wait", "seat", "ret")
    hero: int
    card: str
    stage: str = "choose"


@dataclass(kw_only=True)
class RewardFrame(Frame):
    """Reward codes to give hero ``hero`` one by one (``i``: the next); a loot draw is a child."""

    kind: ClassVar[str] = "reward"
    ORDER = ("hero", "items", "i", "wait", "seat", "ret")
    hero: int
    items: list[str]
    i: int = 0


@dataclass(kw_only=True)
class LootFrame(Frame):
    """A loot draw: keep one of two (Master Crocheter), then equip, store or hand it."""

    kind: ClassVar[str] = "loot"
    ORDER = ("hero", "stage", "wait", "seat", "card", "ret")
    LATE = frozenset({"card"})
    hero: int
    stage: str = "draw"
    card: str | None = None

    def drawn(self) -> str:
        """The loot card being placed (set once it is drawn or kept)."""
        assert self.card is not None, "no loot card drawn yet"
        return self.card


@dataclass(kw_only=True)
class TossFrame(Frame):
    """A flip counter toss (``why``: what it decides); ``cards``: may cards bend it."""

    kind: ClassVar[str] = "toss"
    ORDER = ("hero", "cards", "why", "stage", "result", "gf", "wait", "seat", "ret")
    hero: int
    cards: bool
    why: str
    stage: str = "pre"
    result: str | None = None
    gf: bool = False


@dataclass(kw_only=True)
class RollFrame(Frame):
    """A roll of ``n`` dice; ``bravery``: may Act of Bravery answer two bones."""

    kind: ClassVar[str] = "roll"
    ORDER = (
        "hero",
        "n",
        "cards",
        "bravery",
        "why",
        "dice",
        "courage",
        "braved",
        "wait",
        "seat",
        "ret",
    )
    hero: int
    n: int
    cards: bool
    bravery: bool
    why: str
    dice: list[int] = field(default_factory=list)
    courage: bool = False
    braved: bool = False


@dataclass(kw_only=True)
class AttackFrame(Frame):
    """An attack on the monster at (col, floor), or a roof challenge against ``need``."""

    kind: ClassVar[str] = "attack"
    ORDER = (
        "hero",
        "weapon",
        "need",
        "stage",
        "col",
        "floor",
        "potions",
        "corrosion",
        "arrows0",
        "wait",
        "seat",
        "ret",
        "total",
        "dmg",
    )
    LATE = frozenset({"arrows0", "total", "dmg"})
    hero: int
    weapon: str
    need: int | None = None
    stage: str = "pay"
    col: int | None = None
    floor: str | None = None
    potions: int = 0
    corrosion: bool = False
    arrows0: int | None = None
    total: int | None = None
    dmg: int | None = None

    def monster_at(self) -> tuple[int, str]:
        """The attacked monster's column and floor (a roof challenge has none)."""
        assert self.col is not None and self.floor is not None, "a roof challenge"
        return self.col, self.floor

    def damage(self) -> int:
        """The strike back's damage still to take (set when a shield is asked)."""
        assert self.dmg is not None, "no strike back pending"
        return self.dmg

    def start_arrows(self) -> int:
        """Arrows at the start of the turn; a roof challenge counts as having one."""
        return 1 if self.arrows0 is None else self.arrows0


@dataclass(kw_only=True)
class QuestFrame(Frame):
    """A quest action on the card at (col, floor); ``item``: the vault item taken."""

    kind: ClassVar[str] = "quest"
    ORDER = ("hero", "col", "floor", "stage", "item", "greens", "wait", "seat", "ret")
    hero: int
    col: int
    floor: str
    stage: str = "start"
    item: int | None = None
    greens: int = 0

    def vault_item(self) -> int:
        assert self.item is not None, "a vault action names its item"
        return self.item


@dataclass(kw_only=True)
class FlashFrame(Frame):
    """A Flash Phase on the card at (col, floor): Dibs! asks, picks, then the free moves."""

    kind: ClassVar[str] = "flash"
    ORDER = (
        "hero",
        "col",
        "floor",
        "monster",
        "stage",
        "wait",
        "seat",
        "on",
        "items",
        "asks",
        "dibs",
        "picks",
        "turn",
        "pickers",
        "ret",
        "movers",
    )
    LATE = frozenset({"on", "items", "asks", "dibs", "picks", "turn", "pickers", "movers"})
    hero: int
    col: int
    floor: str
    monster: bool
    stage: str = "start"
    on: list[int] | None = None
    items: list[str] | None = None
    asks: list[int] | None = None
    dibs: list[int] | None = None
    picks: dict[str, int] | None = None
    turn: int | None = None
    pickers: list[int] | None = None
    movers: list[int] | None = None

    def key_order(self) -> tuple[str, ...]:
        # After a completed quest the free moves come first and only they return ("ret").
        if not self.monster:
            return (*self.ORDER[:8], "movers", "ret")
        return self.ORDER


@dataclass(kw_only=True)
class FightFrame(Frame):
    """A fight on the stairs (BR-30..32): heroes on "any" spaces choose their weapon first."""

    kind: ClassVar[str] = "fight"
    ORDER = ("stage", "choosers", "weapons", "seat", "wait", "ret")
    stage: str = "choose"
    choosers: list[int] = field(default_factory=list)
    weapons: dict[str, str] = field(default_factory=dict)


@dataclass(kw_only=True)
class EscapeFrame(Frame):
    """One hero's run over the roof; ``reached``: the last step reached."""

    kind: ClassVar[str] = "escape"
    ORDER = ("hero", "reached", "stage", "wait", "seat", "ret")
    hero: int
    reached: int = 0
    stage: str = "start"


@dataclass(kw_only=True)
class CraftyFrame(Frame):
    """The Crafty One's theft from ``target`` (a roll, then the steal)."""

    kind: ClassVar[str] = "crafty"
    ORDER = ("hero", "target", "card", "stage", "wait", "seat", "ret")
    hero: int
    target: int
    card: str
    stage: str = "roll"


@dataclass(kw_only=True)
class FreeMoveFrame(Frame):
    """A mandatory free move of the Flash Phase."""

    kind: ClassVar[str] = "freemove"
    ORDER = ("hero", "wait", "stage", "seat", "ret")
    hero: int
    stage: str = "choose"


FRAME_TYPES: dict[str, type[Frame]] = {
    cls.kind: cls
    for cls in (
        ActivateFrame,
        TradeFrame,
        TurnFrame,
        MoveFrame,
        BridgeFrame,
        RewardFrame,
        LootFrame,
        TossFrame,
        RollFrame,
        AttackFrame,
        QuestFrame,
        FlashFrame,
        FightFrame,
        EscapeFrame,
        CraftyFrame,
        FreeMoveFrame,
    )
}
"""Each frame kind's class, by the ``"k"`` its snapshot carries."""
