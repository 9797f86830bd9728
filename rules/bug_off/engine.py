"""The Bug Off! engine (slug ``bug-off``): RULINGS §3, BO-1 … BO-17.

Turn-based: the active player ``draw``s (BUG OFF cards resolve at once and chain into another
draw), then ``place``s or ``score``s one card of a colour from a hand of four. A turn clock
(BO-17) lets the host play the default (draw, then place the drawn card) as ``SYSTEM``. The
first player is random unless the ``first_player`` option names a seat (BO-4, BO-X7).

The game is a typed ``GameState`` (state.py) changed by the turn's functions (play.py); this
class is the contract: what is legal, why a refusal, the clock, the views and the scores.
Nothing random happens after setup; the Rng state is still kept so snapshots follow the
shared contract.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self

from ..core import (
    SYSTEM,
    Deadline,
    Engine,
    Event,
    GameOption,
    RuleError,
    Timer,
    action_type,
    explain,
    register,
    require,
)
from ..core.events import Action
from . import play, scoring
from .cards import COLOURS
from .contract import BugOffView, Tiebreak
from .state import CHOOSE, DRAW, SLUG, GameState
from .view import build_view

TURN_SETTING = "bugoff_turn"
"""BO-17: the turn clock; its length is only ever the host setting (60 s by default)."""

FIRST_OPTION = "first_player"
RANDOM_FIRST = "random"


def _check_keys(action: Action, *keys: str) -> None:
    """Reject unknown or missing fields so the stored log only holds well-formed actions."""
    require(set(action) == {"type", *keys}, "That is not a valid action.", code="malformed")


@register
class BugOff(Engine):
    """Bug Off!: collect BUG cards in your points pile before six BUG OFFs wipe the table."""

    slug = SLUG
    title = "Bug Off!"
    min_players = 2
    max_players = 6
    timers = (Timer(TURN_SETTING, 60.0, "Bug Off!: turn clock, per step (BO-X3)", kind="decision"),)
    options = (
        GameOption(
            FIRST_OPTION,
            "Who goes first: random, or a seat number in join order (BO-4)",
            (RANDOM_FIRST, "1", "2", "3", "4", "5", "6"),
            RANDOM_FIRST,
        ),
    )

    def __init__(self, state: GameState) -> None:
        self.state = state
        self.players = state.players
        self.seed = state.seed

    # -- creation ---------------------------------------------------------------------------
    @classmethod
    def new(cls, players: int, seed: int, options: Mapping[str, str] | None = None) -> Self:
        cls.check_players(players)
        first = cls.resolve_options(options)[FIRST_OPTION]
        if first != RANDOM_FIRST:
            require(
                int(first) <= players,
                f"The first player was set to seat {first}, but only {players} players are seated.",
                code="bad_option",
            )
        state = GameState.empty(players, seed)
        # BO-4: random, unless the host chose the first seat (BO-X7).
        play.deal(state, None if first == RANDOM_FIRST else int(first) - 1)
        return cls(state)

    # -- queries ----------------------------------------------------------------------------
    @property
    def is_over(self) -> bool:
        return self.state.is_over

    @property
    def turn(self) -> int:
        """Every accepted action changes which buttons make sense (draw -> choose -> next
        player), and Bug Off! has no simultaneous windows, so the turn is the action count."""
        return self.state.step

    def waiting_for(self) -> frozenset[int]:
        return self.state.waiting_for()

    def legal_actions(self, seat: int) -> list[Action]:
        # ``type(seat) is int``: apply refuses True or 1.0 as a seat, so nothing is listed for them.
        if self.is_over or type(seat) is not int or seat != self.state.active:
            return []
        if self.state.phase == DRAW:
            return [{"type": "draw"}]
        hand = self.state.seats[seat].hand
        held = [c for c in COLOURS if hand[c] > 0]
        return [{"type": "place", "colour": c} for c in held] + [
            {"type": "score", "colour": c} for c in held
        ]

    def deadlines(self) -> list[Deadline]:
        """BO-17: one clock per step (to draw, then a fresh one to place or score), as long
        as the host's ``bugoff_turn`` setting says (60 s by default)."""
        if self.is_over:
            return []
        return [
            Deadline(
                key=f"{TURN_SETTING}:{self.state.step}",
                action={"type": "timeout", "turn": self.state.step},
                setting=TURN_SETTING,
                seats=frozenset({self.state.active}),
            )
        ]

    def view(self, seat: int | None) -> BugOffView:
        if seat is None:
            return build_view(self.state, None, [])
        self._check_seat(seat)
        return build_view(self.state, seat, self.legal_actions(seat))

    # -- scoring ----------------------------------------------------------------------------
    def scores(self) -> list[int]:
        """Points-pile sizes: public at any time, final once the game is over."""
        return scoring.totals(self.state.points)

    def public_scores(self) -> list[int]:
        """The points-pile sizes, public at any time (BO-15: only their colours are secret)."""
        return self.scores()

    def winners(self) -> list[int]:
        return scoring.rank(self.state.points, self.state.bug_offs)[0] if self.is_over else []

    def tiebreak(self) -> Tiebreak | None:
        """How a tied top score was settled (``None`` before the end or without a tie)."""
        return scoring.rank(self.state.points, self.state.bug_offs)[1] if self.is_over else None

    def score_breakdown(self, seat: int) -> dict[str, int]:
        """Per-colour points in BUG OFF order at the end; before it the colours are the
        owner's secret (BO-15), so only the public total is given."""
        self._check_seat(seat)
        if not self.is_over:
            return {"total": self.scores()[seat]}
        return scoring.breakdown(self.state.seats[seat].points, self.state.bug_offs)

    def score_preview(self, seat: int, action: Action) -> dict[int, int]:
        """Who would gain what if ``seat`` played ``action`` (a listed score) now: seat -> cards
        moved to its points pile, in seat order, gaining seats only (BO-5/BO-6).

        Face-up cards are public, so this is no secret; presenters show it instead of
        re-implementing the rule. The game is unchanged."""
        listed = self.listed(action, self.legal_actions(seat))
        if listed is None or listed["type"] != "score":
            raise RuleError("Only a score you may make now has a preview.", code="no_preview")
        trial = GameState.from_dict(self.state.to_dict(self.slug))
        events: list[Event] = []
        play.score(trial, seat, str(listed["colour"]), events)
        (scored,) = (e for e in events if e.type == "scored")
        return {int(g["seat"]): int(g["count"]) for g in scored.data["gains"]}

    # -- play -------------------------------------------------------------------------------
    def _apply(self, seat: int, action: Action) -> list[Event]:
        """A listed action: a player's draw, place or score, or the clock's timeout."""
        if seat == SYSTEM:
            return play.time_out(self.state)
        return play.act(self.state, seat, action["type"], action.get("colour"))

    def refusal(self, seat: int, action: Any) -> RuleError:
        return explain(lambda: self._explain(seat, action))

    def _explain(self, seat: int, action: Any) -> None:
        """The rules a refused action breaks, checked in the order players have always been
        told about them (its form, the seat, the end, the turn, then the card)."""
        kind = action_type(action)
        if type(seat) is int and seat == SYSTEM:
            require(
                kind == "timeout", "The game clock can only time a turn out.", code="not_a_deadline"
            )
            _check_keys(action, "turn")
            require(not self.is_over, "The game is over.", code="finished")
            raise RuleError("That timer belongs to an earlier turn.", code="stale_timeout")
        self._check_seat(seat)
        if kind == "draw":
            _check_keys(action)
        elif kind in ("place", "score"):
            _check_keys(action, "colour")
        elif kind == "timeout":
            raise RuleError("Only the game clock can do that.", code="system_only")
        else:
            raise RuleError("Bug Off! has no such action.", code="unknown_action")
        require(not self.is_over, "The game is over.", code="finished")
        require(seat == self.state.active, "It is not your turn.", code="not_your_turn")
        if kind == "draw":
            raise RuleError("You have already drawn this turn.", code="already_drawn")
        require(self.state.phase == CHOOSE, "Draw a card first.", code="draw_first")
        colour = action["colour"]
        require(
            isinstance(colour, str) and colour in COLOURS,
            "There is no such colour.",
            code="bad_colour",
        )
        raise RuleError(f"You have no {colour} card.", code="not_in_hand")

    def _check_seat(self, seat: int) -> None:
        require(
            type(seat) is int and 0 <= seat < self.players,
            "You are not seated in this game.",
            code="not_seated",
        )

    # -- persistence ------------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        return self.state.to_dict(self.slug)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Self:
        if data.get("slug") != cls.slug:
            raise ValueError("not a Bug Off! snapshot")
        return cls(GameState.from_dict(data))
