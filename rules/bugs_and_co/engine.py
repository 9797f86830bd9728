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
    explain,
    register,
    require,
)

from . import actions as act
from . import components as box
from .contract import BugsAndCoView, Result
from .scoring import breakdown, winners
from .state import (
    FINAL_COUNT,
    LIVE,
    OVER,
    PLAYING,
    START_COUNT,
    STOPPED,
    TROPHY,
    GameState,
    Held,
    Player,
)
from .view import build_view

START_SECONDS: Final = 3.0
"""The rulebook's "counts to three out loud" before anyone may touch a tile."""
FINAL_SECONDS: Final = 10.0
"""BC-14: "10, 9, … 1, STOP!" from the last trophy; a rule, so no setting overrides it."""
LIVE_CAP_SETTING: Final = "bco_live_cap"
"""BC-15: platform hard cap on LIVE so a game nobody ends cannot stall a channel; its length is
only ever the host setting (900 s by default)."""

START_KEY: Final = "bco:start"
CAP_KEY: Final = "bco:cap"
FINAL_KEY: Final = "bco:final"

STOP_COUNTDOWN: Final = "countdown"
STOP_CAP: Final = "cap"

_TURNS: Final = {START_COUNT: 0, LIVE: 1, FINAL_COUNT: 1, OVER: 2}


@register
class BugsAndCo(Engine):
    """Peek at face-down tiles, keep trios, grab a trophy before the others stop you."""

    slug = "bugs-and-co"
    title = "Bugs & Co"
    min_players = 2
    max_players = 8
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

    # -- the state's fields, as the views and tests read them ------------------------------
    @property
    def chosen_options(self) -> dict[str, str]:
        return self.state.options

    @property
    def extra_set(self) -> str | None:
        return self.state.extra_set

    @property
    def phase(self) -> str:
        return self.state.phase

    @property
    def slots(self) -> list[int | None]:
        return self.state.slots

    @slots.setter
    def slots(self, slots: list[int | None]) -> None:
        self.state.slots = slots

    @property
    def removed(self) -> list[int]:
        return self.state.removed

    @removed.setter
    def removed(self, removed: list[int]) -> None:
        self.state.removed = removed

    @property
    def trophies(self) -> list[int]:
        return self.state.trophies

    @property
    def seats(self) -> list[Player]:
        return self.state.seats

    @property
    def pickups(self) -> int:
        return self.state.pickups

    @property
    def stop_reason(self) -> str | None:
        return self.state.stop_reason

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
        """0 during the start count, 1 for the whole of play, 2 once over.

        Play is one long race window: every click must reach the engine, so the counter does
        not move on peeks or trophies (not even when the final countdown starts: peeking goes on).
        Keep / Put back buttons carry the pickup serial instead.
        """
        return _TURNS[self.state.phase]

    @property
    def playing(self) -> list[int]:
        """Seats still allowed to act (no trophy, not stopped)."""
        return [s for s, p in enumerate(self.state.seats) if p.status == PLAYING]

    def waiting_for(self) -> frozenset[int]:
        if self.state.phase not in (LIVE, FINAL_COUNT):
            return frozenset()
        return frozenset(self.playing)

    def deadlines(self) -> list[Deadline]:
        if self.state.phase == START_COUNT:
            return [Deadline(START_KEY, {"type": act.START}, START_SECONDS)]
        if self.state.phase == LIVE:
            stop = {"type": act.STOP, "why": STOP_CAP}
            return [Deadline(CAP_KEY, stop, None, LIVE_CAP_SETTING, frozenset(self.playing))]
        if self.state.phase == FINAL_COUNT:
            stop = {"type": act.STOP, "why": STOP_COUNTDOWN}
            return [Deadline(FINAL_KEY, stop, FINAL_SECONDS, None, frozenset(self.playing))]
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
                self.state.phase = LIVE
                return [
                    Event.public(
                        "start", slots=len(self.state.slots), trophies=list(self.state.trophies)
                    )
                ]
            return self._stop(str(action["why"]))
        if kind == act.PEEK:
            return self._peek(seat, action["slot"])
        if kind == act.KEEP:
            return self._keep(seat)
        if kind == act.RETURN:
            return [self._return_held(seat, "put_back", action.get("slot"))]
        return self._take_trophy(seat)

    def _peek(self, seat: int, slot: int) -> list[Event]:
        tile = self.state.slots[slot]
        assert tile is not None
        self.state.slots[slot] = None
        self.state.pickups += 1
        self.state.seats[seat].held = Held(tile, slot, self.state.pickups)
        return [
            Event.public("peek", seat=seat, slot=slot),
            Event.private(
                seat,
                "peeked",
                seat=seat,
                slot=slot,
                pickup=self.state.pickups,
                **box.describe(box.symbol_of(tile)),
            ),
        ]

    def _keep(self, seat: int) -> list[Event]:
        player = self.state.seats[seat]
        held = player.held
        assert held is not None
        player.kept.append(held.tile)
        player.held = None
        return [Event.public("keep", seat=seat, slot=held.slot, kept=len(player.kept))]

    def _take_trophy(self, seat: int) -> list[Event]:
        events: list[Event] = []
        player = self.state.seats[seat]
        if player.held is not None:  # BC-6: the right-hand tile goes back, unscored
            events.append(self._return_held(seat, "trophy"))
        value = self.state.trophies.pop(0)
        player.trophy = value
        player.status = TROPHY
        events.append(
            Event.public("trophy", seat=seat, value=value, trophies_left=list(self.state.trophies))
        )
        if not self.state.trophies:
            self.state.phase = FINAL_COUNT
            events.append(Event.public("final_count", seconds=FINAL_SECONDS))
        return events

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

    def _return_held(self, seat: int, reason: str, slot: int | None = None) -> Event:
        """Put a right-hand tile face down into ``slot``, or its own slot (BC-X1 fallback)."""
        player = self.state.seats[seat]
        held = player.held
        assert held is not None
        target = self._home_slot(held.slot) if slot is None else slot
        self.state.slots[target] = held.tile
        player.held = None
        return Event.public("put_back", seat=seat, slot=target, from_slot=held.slot, reason=reason)

    def _home_slot(self, origin: int) -> int:
        """The slot a tile came from, or if another tile went there meanwhile, the next empty
        slot after it (wrapping). One always exists: every tile off the table left a slot."""
        n = len(self.state.slots)
        for step in range(n):
            slot = (origin + step) % n
            if self.state.slots[slot] is None:
                return slot
        raise AssertionError("a held tile always has an empty slot to go back to")

    def _stop(self, why: str) -> list[Event]:
        """STOP: right-hand tiles go back unscored (BC-7), everyone freezes, scores are told."""
        events = [Event.public("stop", why=why)]
        for seat, player in enumerate(self.state.seats):
            if player.held is not None:
                events.append(self._return_held(seat, "stop"))
            if player.status == PLAYING:
                player.status = STOPPED
        self.state.phase = OVER
        self.state.stop_reason = why
        events.append(Event.public("game_over", **self.final_summary()))
        return events

    # -- the end ----------------------------------------------------------------------------
    @property
    def is_over(self) -> bool:
        return self.state.phase == OVER

    def kept_symbols(self, seat: int) -> list[int]:
        return sorted(box.symbol_of(t) for t in self.state.seats[seat].kept)

    def score_breakdown(self, seat: int) -> dict[str, int]:
        """Trios, other tiles, trophy, total. Before the end only the trophy counts: the kept
        tiles are secret even from their owner (BC-8), so no running score may hint at them."""
        player = self.state.seats[seat]
        if not self.is_over:
            trophy = player.trophy or 0
            return {"trios": 0, "other_tiles": 0, "trophy": trophy, "total": trophy}
        return breakdown(self.kept_symbols(seat), player.trophy)

    def scores(self) -> list[int]:
        return [self.score_breakdown(s)["total"] for s in range(self.players)]

    def public_scores(self) -> list[int]:
        """Trophies only before the end: the kept tiles are secret (BC-8, BC-X4)."""
        if self.is_over:
            return self.scores()
        return [player.trophy or 0 for player in self.state.seats]

    def winners(self) -> list[int]:
        return winners(self.scores()) if self.is_over else []

    def final_summary(self) -> Result:
        """Everything revealed at the end: hands, the 7 removed tiles (BC-17), scores."""
        return {
            "why": self.state.stop_reason,
            "scores": self.scores(),
            "winners": self.winners(),
            "breakdowns": [self.score_breakdown(s) for s in range(self.players)],
            "hands": [self.kept_symbols(s) for s in range(self.players)],
            "trophies": [p.trophy for p in self.state.seats],
            "removed": sorted(box.symbol_of(t) for t in self.state.removed),
        }

    # -- what players see -------------------------------------------------------------------
    def view(self, seat: int | None) -> BugsAndCoView:
        return build_view(self, seat)

    # -- persistence ------------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        return self.state.to_dict(self.slug)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Self:
        return cls(GameState.from_dict(data))
