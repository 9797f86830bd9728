"""Bag of Bugs as a ``rules.core.Engine``: legal actions, refusals, timers and the contract.

Every request is matched against ``legal_actions`` (``Engine.apply``) before ``flow`` touches the
table, so a rejected action changes nothing. Races (grabs during the draw) are decided by arrival order alone.

Actions (player seats):
    {"type": "draw"}                                  the Drawer reveals one token
    {"type": "grab", "token": k}                      a Grabber claims Grab token k (1..5)
    {"type": "take", "step": s, "tokens": {table: n}}     resolve your Grab token with one option
    {"type": "give", "step": s, "token": table}           a Wind: give one token of type table to the left
    {"type": "take_all", "step": s}                   the Drawer takes the leftovers
    {"type": "return_all", "step": s}                 the Drawer returns the leftovers to the bag
Actions (SYSTEM, only while listed in ``deadlines()``):
    {"type": "auto_draw", "turn_number": n, "reveal": r}   the idle Drawer's reveal number r
    {"type": "timeout", "step": s}                          the open choice times out
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar, Self

from rules.core import (
    SYSTEM,
    Action,
    Deadline,
    Engine,
    Event,
    Rng,
    RuleError,
    Timer,
    action_type,
    explain,
    register,
    require,
)

from . import flow, scoring
from .contract import BagOfBugsView
from .grabs import GRAB_TOKENS
from .state import DRAW, GIVE, LEFTOVER, OVER, TAKE, GameState
from .tokens import SETUPS, Counts
from .view import public_view, seat_view

IDLE_DRAW_SETTING = "bag_idle_draw"
CHOICE_SETTING = "bag_choice"
"""BB-22: the idle Drawer and open-choice clocks; their lengths are only ever host settings."""
PACING_SETTING = "bag_min_gap"

_CHOICE_TYPES = {"take": TAKE, "give": GIVE, "take_all": LEFTOVER, "return_all": LEFTOVER}
_LEFTOVER_TYPES = (flow.TAKE_ALL, flow.RETURN_ALL)


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _fields(action: Action, *names: str) -> None:
    """Exactly these keys besides ``type``: anything else is not an action we offered."""
    if set(action) != {"type", *names}:
        raise RuleError("That is not a valid action.", code="malformed")


@register
class BagOfBugs(Engine):
    """The push-your-luck bag game for 3 to 5 players (RULINGS §1)."""

    slug = "bag-of-bugs"
    title = "Bag of Bugs"
    min_players = 3
    max_players = 5
    pacing: ClassVar[dict[str, str]] = {"draw": PACING_SETTING, "auto_draw": PACING_SETTING}
    """BB-22: the host keeps a minimum gap between two reveals, so Grabbers can react."""
    timers = (
        Timer(IDLE_DRAW_SETTING, 8.0, "Bag of Bugs: automatic reveal for an idle Drawer (BB-X4)"),
        Timer(
            CHOICE_SETTING,
            30.0,
            "Bag of Bugs: time for a grab, Wind or leftovers choice",
            kind="decision",
        ),
        Timer(PACING_SETTING, 1.5, "Bag of Bugs: least time between two reveals (BB-X10)"),
    )

    def __init__(self, state: GameState) -> None:
        self.state = state
        self.players = state.players
        self.seed = state.seed

    # -- creation ---------------------------------------------------------------------------
    @classmethod
    def new(cls, players: int, seed: int, options: Mapping[str, str] | None = None) -> Self:
        cls.check_players(players)
        cls.resolve_options(options)
        setup = SETUPS[players]
        rng = Rng(seed)
        first = rng.below(players)
        state = GameState(
            players=players,
            seed=seed,
            rng=rng,
            bag=setup.starting_bag(),
            out_of_game=setup.out_of_game(),
            drawer=first,
            collections=[{} for _ in range(players)],
        )
        return cls(state)

    # -- what may happen now ----------------------------------------------------------------
    def _seated(self, seat: Any) -> bool:
        return _is_int(seat) and 0 <= seat < self.state.players

    def _may_grab(self, seat: int) -> bool:
        state = self.state
        return (
            state.phase == DRAW
            and state.revealed > 0
            and seat != state.drawer
            and state.grab_of(seat) is None
        )

    def legal_actions(self, seat: int) -> list[Action]:
        state = self.state
        if not self._seated(seat) or state.phase == OVER:
            return []
        if state.phase == DRAW:
            if seat == state.drawer:
                return [{"type": "draw"}]
            if self._may_grab(seat):
                return [
                    {"type": "grab", "token": k} for k in GRAB_TOKENS if state.grabs[k - 1] is None
                ]
            return []
        choice = state.choice
        if choice is None or choice.seat != seat:
            return []
        if choice.kind == TAKE:
            return [
                {"type": "take", "step": choice.step, "tokens": dict(option)}
                for option in flow.take_options(choice.grab, state.pool)
            ]
        if choice.kind == GIVE:
            return [
                {"type": "give", "step": choice.step, "token": token}
                for token in flow.options(state)
            ]
        return [{"type": kind, "step": choice.step} for kind in _LEFTOVER_TYPES]

    def waiting_for(self) -> frozenset[int]:
        """Draw phase: the Drawer and every Grabber who may still grab; else the chooser."""
        state = self.state
        if state.phase == DRAW:
            return frozenset([state.drawer]) | {
                s for s in range(state.players) if self._may_grab(s)
            }
        if state.choice is not None:
            return frozenset([state.choice.seat])
        return frozenset()

    def deadlines(self) -> list[Deadline]:
        """BB-22: the idle Drawer's next reveal, or the open choice's timeout; how long each
        waits is the host's ``bag_idle_draw`` / ``bag_choice`` setting (8 s / 30 s by default)."""
        state = self.state
        if state.phase == DRAW:
            return [
                Deadline(
                    key=f"draw:{state.turn_number}:{state.revealed}",
                    action={
                        "type": "auto_draw",
                        "turn_number": state.turn_number,
                        "reveal": state.revealed + 1,
                    },
                    setting=IDLE_DRAW_SETTING,
                    seats=frozenset([state.drawer]),
                )
            ]
        if state.choice is not None:
            return [
                Deadline(
                    key=f"choice:{state.choice.step}",
                    action={"type": "timeout", "step": state.choice.step},
                    setting=CHOICE_SETTING,
                    seats=frozenset([state.choice.seat]),
                )
            ]
        return []

    @property
    def turn(self) -> int:
        """Changes at every draw stop, every new question and every new Drawer; never during
        the draw itself, so grab and draw buttons stay live for the whole grab window."""
        return self.state.step

    # -- doing it ---------------------------------------------------------------------------
    def _apply(self, seat: int, action: Action) -> list[Event]:
        """A listed action: the flow plays it (a listed take or give is the engine's own)."""
        kind = action["type"]
        if seat == SYSTEM:
            return (
                flow.reveal(self.state, auto=True)
                if kind == "auto_draw"
                else flow.timeout(self.state)
            )
        if kind == "draw":
            return flow.reveal(self.state, auto=False)
        if kind == "grab":
            return flow.claim(self.state, seat, action["token"])
        picked: Counts | str = kind
        if kind == "take":
            picked = dict(action["tokens"])
        elif kind == "give":
            picked = str(action["token"])
        return flow.answer(self.state, picked, flow.CHOSEN)

    def refusal(self, seat: int, action: Any) -> RuleError:
        return explain(lambda: self._explain(seat, action))

    def _explain(self, seat: int, action: Any) -> None:
        """The rule a refused action breaks, checked in the order players have been told."""
        kind = action_type(action)
        if seat == SYSTEM:
            raise RuleError("That timer is not running.", code="not_due")
        require(self._seated(seat), "You are not seated in this game.", code="bad_seat")
        if kind == "draw":
            _fields(action)
            self._check_draw(seat)
        elif kind == "grab":
            _fields(action, "token")
            self._check_grab(seat, action["token"])
        elif kind in _CHOICE_TYPES:
            self._check_choice(seat, kind, action)
        elif kind in ("auto_draw", "timeout"):
            raise RuleError("Only the game's timer can do that.", code="system_only")
        else:
            raise RuleError("Bag of Bugs has no such action.", code="unknown_action")

    def _not_over(self) -> None:
        require(self.state.phase != OVER, "The game is over.", code="finished")

    def _check_draw(self, seat: int) -> None:
        state = self.state
        self._not_over()
        require(seat == state.drawer, "Only the Drawer reveals tokens.", code="not_drawer")
        require(state.phase == DRAW, "The draw is over for this turn.", code="draw_over")

    def _check_grab(self, seat: int, grab: Any) -> None:
        state = self.state
        self._not_over()
        require(seat != state.drawer, "The Drawer cannot grab.", code="drawer_cannot_grab")
        require(_is_int(grab) and grab in GRAB_TOKENS, "Grab tokens are 1 to 5.", code="bad_token")
        require(state.phase == DRAW, "Too late: the draw has stopped.", code="too_late")
        require(state.revealed > 0, "Wait for the first token to be revealed.", code="too_early")
        require(
            state.grab_of(seat) is None, "You already hold a Grab token.", code="already_grabbed"
        )
        holder = state.grabs[grab - 1]
        require(holder is None, f"Grab token {grab} is already taken.", code="taken")

    def _check_choice(self, seat: int, kind: str, action: Action) -> Counts | str:
        """Why a choice action is refused (its form, the question asked, then the option)."""
        state = self.state
        if kind == "take":
            _fields(action, "step", "tokens")
        elif kind == "give":
            _fields(action, "step", "token")
        else:
            _fields(action, "step")
        require(_is_int(action["step"]), "That is not a valid action.", code="malformed")
        self._not_over()
        choice = state.choice
        require(
            choice is not None and choice.seat == seat,
            "There is no choice for you to make right now.",
            code="not_your_choice",
        )
        assert choice is not None
        require(action["step"] == choice.step, "That choice is already settled.", code="stale")
        require(
            _CHOICE_TYPES[kind] == choice.kind,
            "That is not the choice asked now.",
            code="wrong_choice",
        )
        if kind == "take":
            tokens = action["tokens"]
            require(
                isinstance(tokens, dict) and all(_is_int(n) for n in tokens.values()),
                "That is not a valid action.",
                code="malformed",
            )
            for option in flow.take_options(choice.grab, state.pool):
                if option == tokens:
                    return option
            raise RuleError("Your Grab token cannot take those tokens.", code="illegal_choice")
        if kind == "give":
            token = action["token"]
            require(
                isinstance(token, str) and token in flow.options(state),
                "You have no such token to give.",
                code="illegal_choice",
            )
            return str(token)
        return kind

    # -- what players see -------------------------------------------------------------------
    def view(self, seat: int | None) -> BagOfBugsView:
        """The table as plain data (see view.py). Shape::

            game, players, phase ("draw" | "grab_choice" | "wind" | "leftovers" | "over"),
            turn (button counter), turn_number, drawer, draw_limit, revealed, rocks_revealed,
            window_open, pool {type: n}, pool_order [{token, status}], pool_count,
            bag {type: n}, bag_count, pairs, pairs_needed, last_turn, out_of_game {type: n},
            grabs [{token, seat | None, text}] (tokens 1..5), resolving (grab number | None),
            held_winds, wind_holder, collections [{type: n}] per seat, scores [int],
            breakdowns [{c1..c5, all_colours, larvae, scary_bugs, most_scary, total}],
            choice None | {seat, kind ("take" | "give" | "leftovers"), step, grab, options},
            waiting_for [seat], is_over, winners [seat]
        plus, for a seat, you {seat, role ("drawer" | "grabber"), grab (k | None), actions}.
        ``pool_order`` lists this turn's reveals in order with status "pool", "gone" (taken
        or returned with the leftovers), or for a Rock that left, "returned" / "paired".
        Take options are {type: n} dicts, give options are types, leftover options are
        "take_all" / "return_all". Nothing is secret in this game (BB-21).
        """
        waiting = self.waiting_for()
        if seat is None or not self._seated(seat):
            return public_view(self.state, waiting)
        return seat_view(self.state, seat, waiting, self.legal_actions(seat))

    # -- the end ----------------------------------------------------------------------------
    @property
    def is_over(self) -> bool:
        return self.state.phase == OVER

    def scores(self) -> list[int]:
        """Running scores during play, final scores at the end."""
        return scoring.totals(self.state.collections)

    def public_scores(self) -> list[int]:
        """The running scores: every collection is public (BB-21, BB-X7)."""
        return self.scores()

    def score_breakdown(self, seat: int) -> dict[str, int]:
        return scoring.breakdowns(self.state.collections)[seat]

    def score_preview(self, seat: int, action: Action) -> int:
        """``seat``'s running score once the open choice is settled with ``action``.

        Counts what the answer itself moves (tokens taken, a token given, the leftovers), not
        what it sets off later (a Wind taken is given away by a further choice). Presenters
        label each option with it instead of re-implementing scoring; the game is unchanged.
        """
        listed = self.listed(action, self.legal_actions(seat))
        if listed is None or listed["type"] not in _CHOICE_TYPES:
            raise RuleError("Only an option of your open choice has a preview.", code="no_preview")
        choice = self.state.choice
        assert choice is not None
        trial = GameState.from_dict(self.state.to_dict())
        events: list[Event] = []
        kind = listed["type"]
        if kind == "take":
            flow.take(trial, seat, choice.grab, dict(listed["tokens"]), flow.CHOSEN, events)
        elif kind == "give":
            flow.give(trial, str(listed["token"]), flow.CHOSEN, events)
        else:
            flow.leftovers(trial, kind, flow.CHOSEN, events)
        return scoring.totals(trial.collections)[seat]

    def winners(self) -> list[int]:
        return scoring.best(self.scores()) if self.is_over else []

    # -- persistence ------------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        return self.state.to_dict()

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Self:
        return cls(GameState.from_dict(data))
