"""The engine contract every game implements (DESIGN.md §2).

Engines are pure: no discord, no database, no clock, no I/O. The host drives them with
``apply(seat, action)`` in arrival order and persists ``to_dict()`` after every accepted action.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar, Self

from .errors import RuleError
from .events import Action, Event
from .timers import Timer

SYSTEM = -1
"""Pseudo-seat for timer actions (a countdown ending, an AFK default). Only the host acts as it."""


@dataclass(frozen=True)
class GameOption:
    """A game option a host may set when opening a game (for example Bug Run's mode)."""

    name: str
    description: str
    choices: tuple[str, ...]
    default: str


@dataclass(frozen=True)
class Deadline:
    """A time rule the engine wants the host to keep.

    The host keeps one timer per ``key``: a key that stays in ``deadlines()`` keeps its original
    due time, a key that disappears is cancelled, and when a timer expires the host applies
    ``action`` as ``SYSTEM`` (if the key is still wanted). ``seconds`` is the delay the rules
    give; ``setting`` names a host setting that may override it (platform timers such as turn
    clocks), or is ``None`` when the delay is itself a rule (Bugs & Co's 10 s countdown). A
    platform timer whose delay is only ever the host's setting gives no ``seconds`` at all,
    so no engine keeps a number the host would always override.
    """

    key: str
    action: Action
    seconds: float | None = None
    setting: str | None = None
    seats: frozenset[int] = field(default_factory=frozenset)
    """The players this deadline is waiting on (for "@you have 30 s" messages); may be empty."""

    def __post_init__(self) -> None:
        if self.seconds is None and self.setting is None:
            raise ValueError(f"deadline {self.key!r} needs seconds or a setting")


class Engine(ABC):
    """Base class of every game engine. Subclasses register in ``rules.GAMES``."""

    slug: ClassVar[str]
    title: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    options: ClassVar[tuple[GameOption, ...]] = ()
    pacing: ClassVar[dict[str, str]] = {}
    """Action type -> name of a host setting giving the minimum seconds between two actions
    paced by that setting within one turn (e.g. Bag of Bugs' reveals, by the Drawer or the idle
    timer, so grabbers can react). The host enforces it: engines have no clock."""
    timers: ClassVar[tuple[Timer, ...]] = ()
    """Every host timer the engine names (in ``Deadline.setting`` and ``pacing``), with its
    default seconds; the bot checks its settings against these at start."""

    players: int
    seed: int
    applied: int = 0
    """How many actions this engine object has applied since it was made. Not part of the
    game (never stored): a view of a table made earlier compares it to know whether the game
    has moved on since (``bot.host.view``)."""

    # -- creation ---------------------------------------------------------------------------
    @classmethod
    @abstractmethod
    def new(cls, players: int, seed: int, options: Mapping[str, str] | None = None) -> Self:
        """A fresh game for ``players`` seats; all randomness comes from ``seed``."""

    @classmethod
    def check_players(cls, players: int) -> None:
        if not isinstance(players, int) or not cls.min_players <= players <= cls.max_players:
            raise RuleError(
                f"{cls.title} is played by {cls.min_players} to {cls.max_players} players.",
                code="player_count",
            )

    @classmethod
    def resolve_options(cls, options: Mapping[str, str] | None) -> dict[str, str]:
        """Validated options with defaults filled in; unknown names or values raise RuleError."""
        given = dict(options or {})
        known = {o.name: o for o in cls.options}
        for name, value in given.items():
            if name not in known:
                raise RuleError(f"{cls.title} has no option '{name}'.", code="bad_option")
            if value not in known[name].choices:
                allowed = ", ".join(known[name].choices)
                raise RuleError(f"Option '{name}' must be one of: {allowed}.", code="bad_option")
        return {o.name: given.get(o.name, o.default) for o in cls.options}

    # -- play -------------------------------------------------------------------------------
    @abstractmethod
    def legal_actions(self, seat: int) -> list[Action]:
        """Every action ``seat`` may take now (empty if none). ``SYSTEM`` has none here:
        its actions come from ``deadlines()``."""

    strict_actions: ClassVar[bool] = True
    """Whether a given action must match a listed one in JSON types too (``True`` is not ``1``).
    An engine that accepts look-alikes (Bug Run) sets it off; either way ``_apply`` receives
    the engine's own listed copy, so the log and the state only ever hold canonical values."""

    def apply(self, seat: int, action: Action) -> list[Event]:
        """Do ``action`` for ``seat`` or raise ``RuleError``; a rejected action changes nothing.

        The one legality check of every game: ``SYSTEM`` may apply exactly an action of
        ``deadlines()``, a player exactly one of ``legal_actions(seat)``, nobody anything once
        the game is over. Anything else is refused with the game's own words (``refusal``).
        """
        if self.is_over:
            allowed: list[Action] = []
        elif type(seat) is int and seat == SYSTEM:
            allowed = [deadline.action for deadline in self.deadlines()]
        else:
            allowed = self.legal_actions(seat)
        listed = self.listed(action, allowed)
        if listed is None:
            raise self.refusal(seat, action)
        self.applied += 1  # before: a move that fails half-way has changed the game too
        return self._apply(seat, listed)

    def listed(self, action: Any, allowed: list[Action]) -> Action | None:
        """The listed action ``action`` stands for, or ``None``: how ``apply`` compares them,
        for whoever must judge an action as the engine would (a reply's buttons, P-27).

        Plain ``==`` first (C speed; ``same_json`` implies it), the type-strict walk only for
        the candidate that passes: this check runs on every action of every game."""
        for candidate in allowed:
            if action == candidate and (not self.strict_actions or same_json(action, candidate)):
                return candidate
        return None

    @abstractmethod
    def _apply(self, seat: int, action: Action) -> list[Event]:
        """Play ``action``, already known to be legal and the engine's own listed copy.

        Abstract, like ``refusal``: every game, the host's test game included, is played
        through ``apply``'s one legality check, so none may skip it by overriding ``apply``."""

    @abstractmethod
    def refusal(self, seat: int, action: Any) -> RuleError:
        """Why ``action`` is not legal for ``seat`` now, in words for the player (and a code).

        Called only for refused actions, so it may check in whatever order gives the most
        useful message; it must not change the game."""

    @abstractmethod
    def waiting_for(self) -> frozenset[int]:
        """Seats the game is waiting on now (for timers, AFK handling and bots)."""

    def deadlines(self) -> list[Deadline]:
        """Time rules in force now. Games without time rules keep the default."""
        return []

    @property
    def turn(self) -> int:
        """A counter that changes whenever buttons offered earlier lose their meaning.

        The host writes it into every button; a click carrying an older value is answered
        "that button is from an earlier turn" without reaching the engine.
        """
        return 0

    @abstractmethod
    def view(self, seat: int | None) -> Mapping[str, Any]:
        """What ``seat`` may know, as plain JSON-safe data; ``None`` = the public view.

        A ``Mapping`` so that each game may narrow it to its own ``TypedDict``."""

    def view_beside(self, public: Mapping[str, Any], seat: int) -> Mapping[str, Any]:
        """``view(seat)``, given ``public``: ``view(None)`` of this very position. A game
        whose seat views repeat most of the public one (Bug Run's board) makes only the seat's
        own parts and shares the rest of ``public`` with it, read-only as every view is; the
        result equals ``view(seat)``."""
        return self.view(seat)

    # -- the end ----------------------------------------------------------------------------
    @property
    @abstractmethod
    def is_over(self) -> bool: ...

    @abstractmethod
    def public_scores(self) -> list[int]:
        """What every player and onlooker may see of the standings now, per seat; equal to
        ``scores()`` once the game is over. The one score a caller may show during play: it
        leaves out every hidden part (Bug Run's face-down VP tokens and Show-Off cards in hand,
        Bugs & Co's kept tiles)."""

    @abstractmethod
    def scores(self) -> list[int]:
        """The final result per seat. It may count hidden parts, so a caller shows it only once
        ``is_over`` (or to the seat itself); during play it shows ``public_scores()``."""

    def score_breakdown(self, seat: int) -> dict[str, int]:
        """Per-rule parts of a seat's final score, in display order, ending with ``total``;
        shown, like ``scores()``, only once the game is over (or to that seat)."""
        return {"total": self.scores()[seat]}

    @abstractmethod
    def winners(self) -> list[int]:
        """Winning seats once the game is over (ties share); empty before the end."""

    # -- persistence ------------------------------------------------------------------------
    @abstractmethod
    def to_dict(self) -> dict[str, Any]:
        """A JSON-safe snapshot including the RNG state."""

    @classmethod
    @abstractmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Self: ...

    def copy(self) -> Self:
        """An independent copy of this game, generator included, for bots that look ahead;
        a game may answer it faster than through its snapshot."""
        return type(self).from_dict(self.to_dict())


def require(condition: bool, message: str, *, code: str = "illegal") -> None:
    """Raise ``RuleError(message)`` unless ``condition``; keeps validation one line per rule."""
    if not condition:
        raise RuleError(message, code=code)


def action_type(action: Any) -> str:
    """The ``type`` of an action, or RuleError for something that is not an action at all."""
    if not isinstance(action, dict) or not isinstance(action.get("type"), str):
        raise RuleError("That is not a valid action.", code="malformed")
    return str(action["type"])


def same_json(given: Any, listed: Any) -> bool:
    """Equal and of the same JSON types all the way down: ``True`` is not ``1`` and ``1.0`` is
    not ``1`` here, so only the very actions an engine listed reach its log."""
    if type(given) is not type(listed):
        return False
    if isinstance(listed, dict):
        return given.keys() == listed.keys() and all(same_json(given[k], listed[k]) for k in listed)
    if isinstance(listed, list):
        return len(given) == len(listed) and all(map(same_json, given, listed))
    return bool(given == listed)


def explain(check: Callable[[], object]) -> RuleError:
    """The ``RuleError`` that ``check`` (a chain of ``require``) raises first, for ``refusal``.

    A check that passes means the engine listed less than its own rules allow: a bug, worded
    generically for the player rather than crashing the table."""
    try:
        check()
    except RuleError as err:
        return err
    return RuleError("That is not possible now.", code="illegal")
