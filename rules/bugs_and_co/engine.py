"""The Bugs & Co engine: a real-time memory game with no turns (RULINGS §2, BC-1 … BC-19).

Everyone acts at once; the host applies actions in arrival order, so "first" means first
processed (BC-5, BC-11). Time rules are deadlines the host keeps: the "1, 2, 3" start count,
the platform's 15-minute cap on LIVE, and the 10 s countdown after the last trophy (BC-14).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final, Self

from rules.core import (
    SYSTEM,
    Action,
    Deadline,
    Engine,
    Event,
    GameOption,
    Rng,
    RuleError,
    Timer,
    explain,
    register,
    require,
)

from . import actions as act
from . import components as box
from . import play, scoring
from .contract import BugsAndCoView, Result
from .play import FINAL_SECONDS
from .state import (
    FINAL_COUNT,
    LIVE,
    OVER,
    PLAYING,
    SLUG,
    START_COUNT,
    TITLE,
    TURNS,
    GameState,
    Player,
)
from .view import build_view

START_SECONDS: Final = 3.0
"""The rulebook's "counts to three out loud" before anyone may touch a tile."""
LIVE_CAP_SETTING: Final = "bco_live_cap"
"""BC-15: platform hard cap on LIVE so a game nobody ends cannot stall a channel; its length is
only ever the host setting (900 s by default)."""

START_KEY: Final = "bco:start"
CAP_KEY: Final = "bco:cap"
FINAL_KEY: Final = "bco:final"

STOP_COUNTDOWN: Final = "countdown"
STOP_CAP: Final = "cap"


@register
class BugsAndCo(Engine):
    """Peek at face-down tiles, keep trios, grab a trophy before the others stop you."""

    slug = SLUG
    title = TITLE
    min_players = 2
    max_players = 8
    timers = (Timer(LIVE_CAP_SETTING, 900.0, "Bugs & Co: cap on live play (BC-15)"),)
    options = (
        GameOption(
            "extra_set",
            "With 5 or 6 players, the sets added to the two-eyed ones",
            ("random", "one-eyed", "three-eyed"),
            "random",
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
        chosen = cls.resolve_options(options)
        rng = Rng(seed)
        extra_set: str | None = None
        if box.uses_extra_set(players):
            wanted = chosen["extra_set"]
            extra_set = box.EXTRA_SETS[rng.below(2)] if wanted == "random" else wanted
        tiles = box.tiles_of(box.symbols_in_play(players, extra_set))
        rng.shuffle(tiles)
        return cls(
            GameState(
                players=players,
                seed=seed,
                options=chosen,
                extra_set=extra_set,
                rng=rng,
                phase=START_COUNT,
                slots=list(tiles[box.REMOVED :]),
                removed=sorted(tiles[: box.REMOVED]),
                trophies=list(box.TROPHIES[players]),
                seats=[Player() for _ in range(players)],
            )
        )

    # -- what may happen now ----------------------------------------------------------------
    @property
    def turn(self) -> int:
        """0 during the start count, 1 for the whole of play, 2 once over (``TURNS``).

        Play is one long race window: every click must reach the engine, so the counter does
        not move on peeks or trophies (not even when the final countdown starts: peeking goes on).
        Keep / Put back buttons carry the pickup serial instead.
        """
        return TURNS[self.state.phase]

    def waiting_for(self) -> frozenset[int]:
        return self.state.waiting_for()

    def deadlines(self) -> list[Deadline]:
        if self.state.phase == START_COUNT:
            return [Deadline(START_KEY, {"type": act.START}, START_SECONDS)]
        if self.state.phase == LIVE:
            stop = {"type": act.STOP, "why": STOP_CAP}
            return [Deadline(CAP_KEY, stop, None, LIVE_CAP_SETTING, frozenset(self.state.playing))]
        if self.state.phase == FINAL_COUNT:
            stop = {"type": act.STOP, "why": STOP_COUNTDOWN}
            return [Deadline(FINAL_KEY, stop, FINAL_SECONDS, None, frozenset(self.state.playing))]
        return []

    def legal_actions(self, seat: int) -> list[Action]:
        if (
            type(seat) is not int
            or not 0 <= seat < self.players
            or self.state.phase not in (LIVE, FINAL_COUNT)
            or self.state.seats[seat].status != PLAYING
        ):
            return []
        held = self.state.seats[seat].held
        out: list[Action]
        if held is None:
            out = [act.peek(slot) for slot, tile in enumerate(self.state.slots) if tile is not None]
        else:
            # BC-X10: a chosen slot is listed in the public form (the table's empty-slot
            # buttons) and, since apply accepts it too, in the pickup form (BC-X11: the list is
            # exactly what apply accepts).
            empty = [slot for slot, tile in enumerate(self.state.slots) if tile is None]
            out = [act.keep(held.pickup), act.put_back(held.pickup)]
            out += [act.put_into(slot) for slot in empty]
            out += [act.put_back(held.pickup, slot) for slot in empty]
        if self.state.phase == LIVE:
            out.append(act.take_trophy())
        return out

    # -- doing it ---------------------------------------------------------------------------
    def _apply(self, seat: int, action: Action) -> list[Event]:
        """A listed action: the start count, STOP, or a player's peek, keep, return or trophy."""
        kind = action["type"]
        if seat == SYSTEM:
            if kind == act.START:
                return play.start(self.state)
            return play.stop(self.state, str(action["why"]))
        if kind == act.PEEK:
            return play.peek(self.state, seat, action["slot"])
        if kind == act.KEEP:
            return play.keep(self.state, seat)
        if kind == act.RETURN:
            return [play.put_back(self.state, seat, "put_back", action.get("slot"))]
        return play.take_trophy(self.state, seat)

    # -- refusals ---------------------------------------------------------------------------
    def refusal(self, seat: int, action: Any) -> RuleError:
        return explain(lambda: self._explain(seat, action))

    def _explain(self, seat: int, action: Any) -> None:
        """The rule a refused action breaks: its seat and form, the phase, then the table."""
        if seat == SYSTEM and type(seat) is int:
            raise RuleError("That timer is not running.", code="no_deadline")
        require(
            type(seat) is int and 0 <= seat < self.players,
            "You are not playing in this game.",
            code="not_seated",
        )
        kind = act.parse(action)
        require(kind in act.PLAYER_TYPES, "Only the game clock can do that.", code="system_only")
        require(self.state.phase != START_COUNT, "Wait for the count of three!", code="not_started")
        require(self.state.phase != OVER, "Too late: STOP has been called.", code="too_late")
        require(
            self.state.seats[seat].status == PLAYING,
            "You took a trophy, so you have stopped playing.",
            code="stopped",
        )
        if kind == act.PEEK:
            require(
                self.state.seats[seat].held is None,
                "Keep or put back the tile in your hand first.",
                code="hand_full",
            )
            self._check_slot(action["slot"], empty=False)
        elif kind == act.RETURN and "pickup" not in action:
            require(
                self.state.seats[seat].held is not None,
                "Your hand is empty: click a face-down tile to pick it up first. An empty slot is "
                "where you put back a tile you hold.",
                code="empty_hand",
            )
            self._check_slot(action["slot"], empty=True)
        elif kind in (act.KEEP, act.RETURN):
            held = self.state.seats[seat].held
            require(held is not None, "You are not holding a tile.", code="empty_hand")
            assert held is not None
            require(
                held.pickup == action["pickup"],
                "That button was for a tile you no longer hold.",
                code="stale",
            )
            if "slot" in action:
                self._check_slot(action["slot"], empty=True)
        else:
            raise RuleError("Too slow: no trophy is left.", code="no_trophy")

    def _check_slot(self, slot: int, *, empty: bool) -> None:
        """A slot on the table, holding a tile to peek at or empty to put one into."""
        require(0 <= slot < len(self.state.slots), "There is no such slot.", code="bad_slot")
        if empty:
            require(
                self.state.slots[slot] is None, "That slot already holds a tile.", code="occupied"
            )
        elif self.state.slots[slot] is None:
            raise RuleError("Too slow: that tile is not there any more.", code="taken")

    # -- the end ----------------------------------------------------------------------------
    @property
    def is_over(self) -> bool:
        return self.state.phase == OVER

    def kept_symbols(self, seat: int) -> list[int]:
        return scoring.kept_symbols(self.state, seat)

    def score_breakdown(self, seat: int) -> dict[str, int]:
        """Trios, other tiles, trophy, total; before the end only the trophy (BC-8)."""
        return scoring.seat_breakdown(self.state, seat)

    def scores(self) -> list[int]:
        return scoring.totals(self.state)

    def public_scores(self) -> list[int]:
        """Trophies only before the end: the kept tiles are secret (BC-8, BC-X4)."""
        if self.is_over:
            return self.scores()
        return [player.trophy or 0 for player in self.state.seats]

    def winners(self) -> list[int]:
        return scoring.final_winners(self.state)

    def final_summary(self) -> Result:
        """Everything revealed at the end: hands, the 7 removed tiles (BC-17), scores."""
        return scoring.summary(self.state)

    # -- what players see -------------------------------------------------------------------
    def view(self, seat: int | None) -> BugsAndCoView:
        return build_view(self.state, seat)

    # -- persistence ------------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        return self.state.to_dict(self.slug)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Self:
        return cls(GameState.from_dict(data))
