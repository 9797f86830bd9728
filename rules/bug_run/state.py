"""Bug Run's typed state: the game, its heroes and seats, decks, the board and the turn order.

``to_dict()`` writes exactly the JSON snapshot the engine has always stored (same keys, same
key order), because stored games are replayed and their snapshots compared byte for byte; so
each dataclass declares its fields in snapshot order and ``from_dict`` reads that layout back.
Pending decisions (the frame stack) are typed frames (frames.py), written the same way.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, fields
from typing import Any, cast

from .frames import Frame

Column = dict[str, "Slot"]
"""One board column: ``"C"`` (central) or ``"U"`` and ``"D"`` (upper and lower, 5-6 side)."""

PHASES = ("setup", "trading", "adventure", "escape", "over")
MODES = ("normal", "powers")
STOCKS = ("hearts", "arrows", "coins")
ZONES = ("sword", "bow", "shield", "stored", "faceup")


_SCALARS = (str, int, bool, float, type(None))
_SCALAR_TYPES = frozenset(_SCALARS)
_FIELD_NAMES: dict[type, tuple[str, ...]] = {}


def _plain(value: Any) -> Any:
    """A dataclass (fields in declaration order), list or dict as fresh plain JSON data.

    Exact types first (most of a snapshot is lists of card names): the host writes one every
    few actions and compares one on every load."""
    kind = type(value)
    if kind in _SCALAR_TYPES:
        return value
    if kind is list:
        return [item if type(item) in _SCALAR_TYPES else _plain(item) for item in value]
    if kind is dict:
        return {
            key: item if type(item) in _SCALAR_TYPES else _plain(item)
            for key, item in value.items()
        }
    if isinstance(value, _SCALARS):
        return value
    if isinstance(value, list):
        return [_plain(item) for item in value]
    if isinstance(value, dict):
        return {key: _plain(item) for key, item in value.items()}
    if isinstance(value, Frame):
        return value.to_dict()
    names = _FIELD_NAMES.get(type(value))
    if names is None:
        names = _FIELD_NAMES[type(value)] = tuple(f.name for f in fields(value))
    return {name: _plain(getattr(value, name)) for name in names}


@dataclass
class Position:
    """Where a hero stands: a board column and floor, and a space of that card (or none)."""

    col: int
    floor: str
    space: int | None

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Position:
        return cls(col=data["col"], floor=data["floor"], space=data["space"])


@dataclass
class Hero:
    """One hero: stocks, the five card zones, its place on the board and its roof step."""

    name: str
    seat: int
    hearts: int
    arrows: int
    coins: int
    sword: list[str]
    bow: list[str]
    shield: list[str]
    stored: list[str]
    faceup: list[str]
    pos: Position | None
    roof: int | None

    def stock(self, name: str) -> int:
        """The named stock (hearts, arrows or coins): rules and cards name stocks as data."""
        assert name in STOCKS, name
        return cast(int, getattr(self, name))

    def set_stock(self, name: str, value: int) -> None:
        assert name in STOCKS, name
        setattr(self, name, value)

    def zone(self, name: str) -> list[str]:
        """The named card zone (the list itself, so callers may add and remove cards)."""
        assert name in ZONES, name
        return cast(list[str], getattr(self, name))

    def cards(self) -> list[str]:
        """Every card the hero holds, zone by zone."""
        return [c for name in ZONES for c in self.zone(name)]

    def position(self) -> Position:
        """The hero's place on the board (only asked while a level is laid out)."""
        assert self.pos is not None, "the hero is not on the board"
        return self.pos

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Hero:
        return cls(
            name=data["name"],
            seat=data["seat"],
            hearts=data["hearts"],
            arrows=data["arrows"],
            coins=data["coins"],
            sword=list(data["sword"]),
            bow=list(data["bow"]),
            shield=list(data["shield"]),
            stored=list(data["stored"]),
            faceup=list(data["faceup"]),
            pos=Position.from_dict(data["pos"]) if data["pos"] else None,
            roof=data["roof"],
        )


@dataclass
class Seat:
    """A player's secret victory points and secret hand."""

    vp: int
    hand: list[str]

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Seat:
        return cls(vp=data["vp"], hand=list(data["hand"]))


@dataclass
class Bazaar:
    """The bazaar deck, its three-card market and its discard pile."""

    deck: list[str]
    market: list[str]
    discard: list[str]

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Bazaar:
        return cls(list(data["deck"]), list(data["market"]), list(data["discard"]))


@dataclass
class LootDecks:
    """The loot deck and its discard pile."""

    deck: list[str]
    discard: list[str]

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> LootDecks:
        return cls(list(data["deck"]), list(data["discard"]))


@dataclass
class TurnOrder:
    """Who acts next in the current phase.

    ``next`` is the next hero clockwise (3-6p); ``left`` counts trading turns still to give;
    2p: ``forced`` is the crown's hero (first, whoever owns it), ``ready`` marks heroes not yet
    activated this round and ``seat`` is the player who activates next.
    """

    next: int
    left: int
    forced: int | None
    ready: list[bool]
    seat: int

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> TurnOrder:
        return cls(data["next"], data["left"], data["forced"], list(data["ready"]), data["seat"])


@dataclass
class Space:
    """A space on a card: its weapon symbol, the 5-6 padlock, who stands or has reserved it;
    ``extra`` marks the space an Optional Extra adds (it exists while its hero stands on it)."""

    weapon: str
    lock: bool
    hero: int | None = None
    reserved: int | None = None
    extra: bool = False

    def to_dict(self) -> dict[str, Any]:
        # Written out (the fields in declaration order, as ``_plain`` gives them): every view
        # has every space of the board, four views a move (issue #21).
        return {
            "weapon": self.weapon,
            "lock": self.lock,
            "hero": self.hero,
            "reserved": self.reserved,
            "extra": self.extra,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Space:
        return cls(data["weapon"], data["lock"], data["hero"], data["reserved"], data["extra"])


@dataclass
class Slot:
    """A card laid on the board (or an empty place, or the entrance) and what happened on it.

    ``kind`` is entrance, empty, monster, bridge, stairs or a quest kind; ``marks`` are the
    vault items taken or archery planks hit; ``duel`` counts the duel planks tried.
    """

    card: str | None
    wounds: int
    defeated: bool
    locked: bool
    marks: list[int]
    duel: int
    kind: str
    spaces: list[Space]

    def card_id(self) -> str:
        """The card laid here (asked only of a slot that holds one)."""
        assert self.card is not None, f"no card in this {self.kind} slot"
        return self.card

    def to_dict(self) -> dict[str, Any]:
        return cast(dict[str, Any], _plain(self))

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Slot:
        return cls(
            card=data["card"],
            wounds=data["wounds"],
            defeated=data["defeated"],
            locked=data["locked"],
            marks=list(data["marks"]),
            duel=data["duel"],
            kind=data["kind"],
            spaces=[Space.from_dict(sp) for sp in data["spaces"]],
        )


@dataclass
class GameState:
    """The whole game. Field order is the snapshot's key order (see the module docstring).

    ``two``: the 2-player game (two heroes each); ``serial``: decisions accepted so far;
    ``limbo``: loot cards drawn and not yet placed; ``explore``: the exploration pile;
    ``monsters``: one monster deck per level; ``stairs_stack``: the four stairs cards of the
    game, ``stairs_out`` the unused ones; ``roof``: stairs cards put on the roof, level by
    level; ``boxed``: cards put back in the box; ``basic_side``: the zone each bought basic
    card was taken for; ``markers``: markers on a card; ``teams``: 2p fight sides by seat;
    ``flash``: the hero whose Flash Phase runs; ``fought``: this level's stairs fight is done;
    ``stack``: pending frames, the top one last; ``rng``: the generator's state.
    """

    players: int
    seed: int
    mode: str
    two: bool
    serial: int
    level: int
    phase: str
    level_card: str
    heroes: list[Hero]
    seats: list[Seat]
    crown: int
    bazaar: Bazaar
    basics: list[str]
    basic_side: dict[str, str]
    loot: LootDecks
    limbo: list[str]
    explore: list[str]
    monsters: list[list[str]]
    stairs_stack: list[str]
    stairs_out: list[str]
    roof: list[str]
    boxed: list[str]
    board: list[Column]
    teams: dict[str, str]
    markers: dict[str, int]
    flash: int | None
    order: TurnOrder | None
    fought: bool
    escape_queue: list[int]
    stack: list[Frame]
    rng: list[int]

    def to_dict(self) -> dict[str, Any]:
        """The JSON snapshot (a fresh copy: nothing in it is shared with the state)."""
        out = cast(dict[str, Any], _plain(self))
        if self.order is None:
            out["order"] = {}  # only while the game is being set up
        return out

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> GameState:
        """Read a snapshot written by ``to_dict`` (a deep copy: the caller's data is not kept).

        An unknown phase or mode is a ValueError, as in the other games: a corrupt snapshot
        fails here, not later inside the rules.
        """
        return cls.from_plain(json.loads(json.dumps(data)))

    @classmethod
    def from_plain(cls, d: dict[str, Any]) -> GameState:
        """Read a fresh snapshot that nobody else holds (``to_dict``'s own output) without
        copying it again: the state keeps its lists. A search copies games this way."""
        if d["phase"] not in PHASES:
            raise ValueError(f"unknown Bug Run phase {d['phase']!r}")
        if d["mode"] not in MODES:
            raise ValueError(f"unknown Bug Run mode {d['mode']!r}")
        return cls(
            players=d["players"],
            seed=d["seed"],
            mode=d["mode"],
            two=d["two"],
            serial=d["serial"],
            level=d["level"],
            phase=d["phase"],
            level_card=d["level_card"],
            heroes=[Hero.from_dict(h) for h in d["heroes"]],
            seats=[Seat.from_dict(s) for s in d["seats"]],
            crown=d["crown"],
            bazaar=Bazaar.from_dict(d["bazaar"]),
            basics=d["basics"],
            basic_side=d["basic_side"],
            loot=LootDecks.from_dict(d["loot"]),
            limbo=d["limbo"],
            explore=d["explore"],
            monsters=d["monsters"],
            stairs_stack=d["stairs_stack"],
            stairs_out=d["stairs_out"],
            roof=d["roof"],
            boxed=d["boxed"],
            board=[{f: Slot.from_dict(sl) for f, sl in col.items()} for col in d["board"]],
            teams=d["teams"],
            markers=d["markers"],
            flash=d["flash"],
            order=TurnOrder.from_dict(d["order"]) if d["order"] else None,
            fought=d["fought"],
            escape_queue=d["escape_queue"],
            stack=[Frame.from_dict(frame) for frame in d["stack"]],
            rng=d["rng"],
        )
