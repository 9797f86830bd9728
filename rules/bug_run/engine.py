"""The Bug Run engine: the contract methods (DESIGN.md §2) over the game's modules.

The rules live in modules named after the rulebook's sections (setup, phases, turns, trading,
moving, combat, chance, quests, loot, flash, stairs, escape, scoring, cards, board), as
functions over the ``Run`` context (context.py) and its typed state (state.py, frames.py); the
frame driver (driver.py) dispatches each frame to its kind's handlers, and view.py builds what a
seat sees. The engine holds the state and its ``Run`` and is nothing else: it is not the rules
context, as no game's engine is its rules.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, cast

from ..core import (
    SYSTEM,
    Deadline,
    Engine,
    Event,
    GameOption,
    Rng,
    RuleError,
    Timer,
    action_type,
    explain,
    register,
)
from . import driver, scoring, setup
from .context import SLUG, Action, Run
from .contract import BugRunView
from .state import GameState
from .view import table_view, view_beside

TURN_SETTING = "bugrun_turn"
"""BR-X19: the clock on every decision; its length is only ever the host setting (90 s by
default)."""


@register
class BugRun(Engine):
    """Bug Run for 2-6 players (2p: two heroes each, hero i belongs to seat i // 2).

    Exactly one seat decides at any time (``waiting_for``); its decision is the top frame of a
    stack kept in the state. ``turn`` counts accepted decisions, so any earlier button is stale.

    ``view(seat)`` returns plain data::

        {"game", "phase" (trading|adventure|escape|over), "level" 1-4, "mode", "players",
         "turn", "crown" (hero index), "flash" (hero index or None), "level_card",
         "side" ("small" = 2-4 side, "large" = 5-6 side), "stairs" (current stairs card id),
         "roof": [stair ids flipped so far], "roof_paths": [[path L, path R] per roof step],
         "market": [bazaar ids], "decks": {bazaar, bazaar_discard, basics, loot, loot_discard,
         exploration} (counts), "markers": {card id: markers used},
         "heroes": [{index, name, power|None, seat, hearts, arrows, coins, sword, bow, shield,
                     stored, faceup (card ids), pos: {col, floor, space}|None, ready (2p)|None,
                     roof (step reached)|None}],
         "seats": [{seat, hand_size, heroes, vp (only in the viewer's own row)}],
         "board": [{floor: slot}] (col 0 entrance, last col stairs; floor "C" central or
                  "U"/"D"; slot = {card, name, kind, info (content row), spaces: [{weapon,
                  lock, hero, reserved, extra}], wounds, defeated, locked, marks, duel}),
         "teams": {seat: "top"|"bottom"} (2p fight), "names": {card id: name},
         "active": {seat, hero, prompt (frame kind), stage, items?, and the frame's public
                    fields (PUBLIC_FRAME_KEYS): dice, n, why, result, weapon, need, card,
                    reached, merchant} | None,
         "you": {seat, vp, hand, names, options (= legal_actions), loot_choice?, score?},
         "scores", "winners" (once over)}
    """

    slug = SLUG
    title = "Bug Run"
    min_players = 2
    max_players = 6
    timers = (
        Timer(TURN_SETTING, 90.0, "Bug Run: clock for each decision (BR-X19)", kind="decision"),
    )
    options = (
        GameOption("mode", "Play with hero powers or without.", ("normal", "powers"), "normal"),
    )

    def __init__(self, state: GameState, rng: Rng | None = None) -> None:
        """A game from its state; ``rng`` is the live generator (else the stored one)."""
        self.state = state
        self.players = state.players
        self.seed = state.seed
        self.context = Run(state, Rng.from_state(state.rng) if rng is None else rng)
        """The rules' view of this game: the same state, the live generator, the look-ups."""

    # -- setup ----------------------------------------------------------------------------------
    @classmethod
    def new(cls, players: int, seed: int, options: Mapping[str, str] | None = None) -> Self:
        cls.check_players(players)
        opts = cls.resolve_options(options)
        state, rng = setup.deal(players, seed, opts["mode"])
        game = cls(state, rng)
        events: list[Event] = []
        setup.first_level(game.context, events)
        driver.settle(game.context, events)
        return game

    # -- contract -------------------------------------------------------------------------------
    def legal_actions(self, seat: int) -> list[Action]:
        return driver.legal_actions(self.context, seat)

    def waiting_for(self) -> frozenset[int]:
        decision = driver.deciding(self.context)
        return frozenset() if decision is None else frozenset({decision[0]})

    @property
    def turn(self) -> int:
        return int(self.state.serial)

    def deadlines(self) -> list[Deadline]:
        decision = driver.deciding(self.context)
        if decision is None:
            return []
        return [
            Deadline(
                key=f"bug-run:afk:{self.state.serial}",
                action={"type": "afk", "turn": self.state.serial},
                setting=TURN_SETTING,
                seats=frozenset({decision[0]}),
            )
        ]

    strict_actions = False
    """A look-alike (``True`` or ``1.0`` for ``1``) stands for the listed action; the listed,
    canonical copy is the one played and logged."""

    def _apply(self, seat: int, action: Action) -> list[Event]:
        """A listed decision for the top frame, or the AFK default for an expired clock."""
        decision = driver.deciding(self.context)
        assert decision is not None
        who, frame = decision
        events: list[Event] = []
        if seat == SYSTEM:
            action = driver.default_action(self.context, frame)
            events.append(Event.public("afk", seat=who, action=action["type"]))
            events.append(Event.private(who, "afk_choice", seat=who, action=action))
        self.state.serial += 1
        frame.wait = False
        driver.answer_frame(self.context, frame, action, events)
        driver.settle(self.context, events)
        return events

    def refusal(self, seat: int, action: Any) -> RuleError:
        return explain(lambda: self._explain(seat, action))

    def _explain(self, seat: int, action: Any) -> None:
        """A friendly reason for an action that is not among the legal ones."""
        if self.is_over:
            raise RuleError("The game is over.", code="finished")
        kind = action_type(action)
        decision = driver.deciding(self.context)
        assert decision is not None
        who, frame = decision
        if seat == SYSTEM:
            raise RuleError("That timer is no longer running.", code="no_deadline")
        if seat != who:
            raise RuleError("It is not your turn.", code="not_your_turn")
        if frame.kind == "trade" and kind in ("buy", "buy_basic", "buy_hearts", "buy_arrows"):
            raise RuleError(
                "You cannot buy that (price, stock or equipment zone).", code="cant_afford"
            )
        if frame.kind == "turn" and kind == "move":
            raise RuleError("You cannot move there.", code="bad_move")
        if kind not in {option["type"] for option in driver.frame_options(self.context, frame)}:
            raise RuleError("You cannot do that now.", code="wrong_step")
        raise RuleError("That choice is not allowed now.", code="illegal")

    # -- the end --------------------------------------------------------------------------------
    @property
    def is_over(self) -> bool:
        return bool(self.state.phase == "over")

    def scores(self) -> list[int]:
        return scoring.scores(self.context)

    def public_scores(self) -> list[int]:
        return scoring.public_scores(self.context)

    def score_breakdown(self, seat: int) -> dict[str, int]:
        return scoring.breakdown(self.context, seat)

    def winners(self) -> list[int]:
        return scoring.winners(self.context)

    # -- persistence ----------------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        self.state.rng = self.context.rng.state()
        return self.state.to_dict()

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Self:
        return cls(GameState.from_dict(dict(data)))

    def copy(self) -> Self:
        """An independent game: the snapshot is already a fresh copy, so it is not copied again
        (about half the cost of ``from_dict(to_dict())``)."""
        return type(self)(GameState.from_plain(self.to_dict()))

    def view(self, seat: int | None) -> BugRunView:
        return table_view(self.context, seat)

    def view_beside(self, public: Mapping[str, Any], seat: int) -> BugRunView:
        return view_beside(self.context, cast(BugRunView, public), seat)
