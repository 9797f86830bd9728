"""The Bug Off! engine (slug ``bug-off``): RULINGS §3, BO-1 … BO-17.

Turn-based: the active player ``draw``s (BUG OFF cards resolve at once and chain into another
draw), then ``place``s or ``score``s one card of a colour from a hand of four. A turn clock
(BO-17) lets the host play the default (draw, then place the drawn card) as ``SYSTEM``. The
first player is random unless the ``first_player`` option names a seat (BO-4, BO-X7).

Deck order is ``deck[0]`` = top card. Nothing random happens after setup; the Rng state is
still kept so snapshots follow the shared contract.
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
    Rng,
    RuleError,
    action_type,
    explain,
    register,
    require,
)
from ..core.events import Action
from . import scoring
from .cards import (
    COLOURS,
    HAND_SIZE,
    Counts,
    colour_of,
    copy_counts,
    empty_counts,
    full_deck,
    is_bug_off,
)
from .view import build_view

TURN_SECONDS = 60.0
TURN_SETTING = "bugoff_turn"

FIRST_OPTION = "first_player"
RANDOM_FIRST = "random"

DRAW = "draw"
CHOOSE = "choose"
OVER = "over"


def _check_keys(action: Action, *keys: str) -> None:
    """Reject unknown or missing fields so the stored log only holds well-formed actions."""
    require(set(action) == {"type", *keys}, "That is not a valid action.", code="malformed")


@register
class BugOff(Engine):
    """Bug Off!: collect BUG cards in your points pile before six BUG OFFs wipe the table."""

    slug = "bug-off"
    title = "Bug Off!"
    min_players = 2
    max_players = 6
    options = (
        GameOption(
            FIRST_OPTION,
            "Who goes first: random, or a seat number in join order (BO-4)",
            (RANDOM_FIRST, "1", "2", "3", "4", "5", "6"),
            RANDOM_FIRST,
        ),
    )

    def __init__(self, players: int, seed: int) -> None:
        self.players = players
        self.seed = seed
        self.rng = Rng(seed)
        self.deck: list[str] = []
        self.hands: list[Counts] = [empty_counts() for _ in range(players)]
        self.tableaux: list[Counts] = [empty_counts() for _ in range(players)]
        self.points: list[Counts] = [empty_counts() for _ in range(players)]
        self.score_pile: Counts = empty_counts()
        self.discard: Counts = empty_counts()
        self.bug_offs: list[str] = []
        self.first = 0
        self.active = 0
        self.phase = DRAW
        self.drawn: str | None = None
        self.step = 0
        self.setup_returns = 0

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
        game = cls(players, seed)
        game.deck = full_deck()
        game.rng.shuffle(game.deck)
        for seat in range(players):
            for _ in range(HAND_SIZE):
                game.hands[seat][game._deal_bug()] += 1
        # BO-4: random, unless the host chose the first seat (BO-X7); only a random pick uses the Rng.
        chosen = game.rng.below(players) if first == RANDOM_FIRST else int(first) - 1
        game.first = game.active = chosen
        return game

    def _deal_bug(self) -> str:
        """BO-3: a dealt BUG OFF is shuffled back into the deck and the player is dealt again."""
        card = self.deck.pop(0)
        while is_bug_off(card):
            self.deck.append(card)
            self.rng.shuffle(self.deck)
            self.setup_returns += 1
            card = self.deck.pop(0)
        return card

    # -- queries ----------------------------------------------------------------------------
    @property
    def is_over(self) -> bool:
        return self.phase == OVER

    @property
    def turn(self) -> int:
        """Every accepted action changes which buttons make sense (draw -> choose -> next
        player), and Bug Off! has no simultaneous windows, so the turn is the action count."""
        return self.step

    def waiting_for(self) -> frozenset[int]:
        return frozenset() if self.is_over else frozenset({self.active})

    def legal_actions(self, seat: int) -> list[Action]:
        # ``type(seat) is int``: apply refuses True or 1.0 as a seat, so nothing is listed for them.
        if self.is_over or type(seat) is not int or seat != self.active:
            return []
        if self.phase == DRAW:
            return [{"type": "draw"}]
        held = [c for c in COLOURS if self.hands[seat][c] > 0]
        return [{"type": "place", "colour": c} for c in held] + [
            {"type": "score", "colour": c} for c in held
        ]

    def deadlines(self) -> list[Deadline]:
        """BO-17: one clock per step (60 s to draw, then a fresh 60 s to place or score)."""
        if self.is_over:
            return []
        return [
            Deadline(
                key=f"{TURN_SETTING}:{self.step}",
                action={"type": "timeout", "turn": self.step},
                seconds=TURN_SECONDS,
                setting=TURN_SETTING,
                seats=frozenset({self.active}),
            )
        ]

    def view(self, seat: int | None) -> dict[str, Any]:
        if seat is not None:
            self._check_seat(seat)
        return build_view(self, seat)

    # -- scoring ----------------------------------------------------------------------------
    def scores(self) -> list[int]:
        """Points-pile sizes: public at any time, final once the game is over."""
        return scoring.totals(self.points)

    def winners(self) -> list[int]:
        return scoring.rank(self.points, self.bug_offs)[0] if self.is_over else []

    def tiebreak(self) -> dict[str, Any] | None:
        """How a tied top score was settled (``None`` before the end or without a tie)."""
        return scoring.rank(self.points, self.bug_offs)[1] if self.is_over else None

    def score_breakdown(self, seat: int) -> dict[str, int]:
        """Per-colour points in BUG OFF order at the end; before it the colours are the
        owner's secret (BO-15), so only the public total is given."""
        self._check_seat(seat)
        if not self.is_over:
            return {"total": self.scores()[seat]}
        return scoring.breakdown(self.points[seat], self.bug_offs)

    # -- play -------------------------------------------------------------------------------
    def _apply(self, seat: int, action: Action) -> list[Event]:
        """A listed action: a player's draw, place or score, or the clock's timeout."""
        if seat == SYSTEM:
            return self._time_out()
        events: list[Event] = []
        self.step += 1
        if action["type"] == "draw":
            self._draw(seat, events)
            return events
        if action["type"] == "place":
            self._place(seat, action["colour"], events)
        else:
            self._score(seat, action["colour"], events)
        self._next_player(events)
        return events

    def _time_out(self) -> list[Event]:
        """The turn clock: draw if needed, then place the drawn card (BO-17)."""
        seat = self.active
        events = [Event.public("timeout", seat=seat, had_drawn=self.phase == CHOOSE)]
        self.step += 1
        if self.phase == DRAW:
            self._draw(seat, events)
            if self.is_over:
                return events
        assert self.drawn is not None
        self._place(seat, self.drawn, events)
        self._next_player(events)
        return events

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
        require(seat == self.active, "It is not your turn.", code="not_your_turn")
        if kind == "draw":
            raise RuleError("You have already drawn this turn.", code="already_drawn")
        require(self.phase == CHOOSE, "Draw a card first.", code="draw_first")
        colour = action["colour"]
        require(
            isinstance(colour, str) and colour in COLOURS,
            "There is no such colour.",
            code="bad_colour",
        )
        raise RuleError(f"You have no {colour} card.", code="not_in_hand")

    # -- steps ------------------------------------------------------------------------------
    def _draw(self, seat: int, events: list[Event]) -> None:
        """Draw until a BUG card; each BUG OFF resolves first and is not the turn's draw."""
        while True:
            assert self.deck, "BO-10: the deck always holds the undrawn BUG OFF cards"
            card = self.deck.pop(0)
            if not is_bug_off(card):
                self.hands[seat][card] += 1
                self.drawn = card
                self.phase = CHOOSE
                events.append(Event.public("drew", seat=seat, deck_size=len(self.deck)))
                events.append(Event.private(seat, "drew_card", seat=seat, colour=card))
                return
            self._bug_off(seat, colour_of(card), events)
            if self.is_over:
                return

    def _bug_off(self, seat: int, colour: str, events: list[Event]) -> None:
        """BO-8/BO-9: wipe every tableau card of this and every earlier BUG OFF's colour."""
        self.bug_offs.append(colour)
        wiped: list[dict[str, Any]] = []
        for owner, tableau in enumerate(self.tableaux):
            for c in COLOURS:
                if c in self.bug_offs and tableau[c]:
                    wiped.append({"seat": owner, "colour": c, "count": tableau[c]})
                    self.discard[c] += tableau[c]
                    tableau[c] = 0
        events.append(
            Event.public(
                "bug_off",
                seat=seat,
                colour=colour,
                number=len(self.bug_offs),
                wiped_colours=list(self.bug_offs),
                wiped=wiped,
                wiped_total=sum(w["count"] for w in wiped),
                deck_size=len(self.deck),
            )
        )
        if len(self.bug_offs) == len(COLOURS):
            self._finish(events)

    def _place(self, seat: int, colour: str, events: list[Event]) -> None:
        self.hands[seat][colour] -= 1
        self.tableaux[seat][colour] += 1
        events.append(
            Event.public("placed", seat=seat, colour=colour, count=self.tableaux[seat][colour])
        )

    def _score(self, seat: int, colour: str, events: list[Event]) -> None:
        """BO-5/BO-6/BO-7: everyone's face-up cards of the colour go to their points piles."""
        self.hands[seat][colour] -= 1
        self.score_pile[colour] += 1
        gains: list[dict[str, int]] = []
        for owner, tableau in enumerate(self.tableaux):
            if tableau[colour]:
                gains.append({"seat": owner, "count": tableau[colour]})
                self.points[owner][colour] += tableau[colour]
                tableau[colour] = 0
        events.append(
            Event.public(
                "scored",
                seat=seat,
                colour=colour,
                gains=gains,
                total=sum(g["count"] for g in gains),
                points_sizes=self.scores(),
            )
        )

    def _next_player(self, events: list[Event]) -> None:
        self.active = (self.active + 1) % self.players
        self.phase = DRAW
        self.drawn = None
        events.append(Event.public("turn", seat=self.active))

    def _finish(self, events: list[Event]) -> None:
        """BO-12: the sixth BUG OFF ends the game at once; its wipe emptied every tableau."""
        assert not any(any(t.values()) for t in self.tableaux)
        self.phase = OVER
        self.drawn = None
        winners, tiebreak = scoring.rank(self.points, self.bug_offs)
        events.append(
            Event.public(
                "game_over",
                scores=self.scores(),
                winners=winners,
                points=[dict(pile) for pile in self.points],
                tiebreak=tiebreak,
            )
        )

    def _check_seat(self, seat: int) -> None:
        require(
            type(seat) is int and 0 <= seat < self.players,
            "You are not seated in this game.",
            code="not_seated",
        )

    # -- persistence ------------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        return {
            "slug": self.slug,
            "players": self.players,
            "seed": self.seed,
            "rng": self.rng.state(),
            "deck": list(self.deck),
            "hands": [dict(h) for h in self.hands],
            "tableaux": [dict(t) for t in self.tableaux],
            "points": [dict(p) for p in self.points],
            "score_pile": dict(self.score_pile),
            "discard": dict(self.discard),
            "bug_offs": list(self.bug_offs),
            "first": self.first,
            "active": self.active,
            "phase": self.phase,
            "drawn": self.drawn,
            "step": self.step,
            "setup_returns": self.setup_returns,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Self:
        if data.get("slug") != cls.slug:
            raise ValueError("not a Bug Off! snapshot")
        game = cls(int(data["players"]), int(data["seed"]))
        game.rng = Rng.from_state(data["rng"])
        game.deck = [str(card) for card in data["deck"]]
        game.hands = [copy_counts(h) for h in data["hands"]]
        game.tableaux = [copy_counts(t) for t in data["tableaux"]]
        game.points = [copy_counts(p) for p in data["points"]]
        game.score_pile = copy_counts(data["score_pile"])
        game.discard = copy_counts(data["discard"])
        game.bug_offs = [str(c) for c in data["bug_offs"]]
        game.first = int(data["first"])
        game.active = int(data["active"])
        game.phase = str(data["phase"])
        game.drawn = None if data["drawn"] is None else str(data["drawn"])
        game.step = int(data["step"])
        game.setup_returns = int(data["setup_returns"])
        return game
