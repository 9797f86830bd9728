"""Ladybug Dash: a tiny game that exists only to prove the host.

It has what the real games need from the host: a one-winner race (``claim``), turn-based
choices (``pick``), an action anyone may take at any time without changing the turn (``cheer``,
like a real-time game's moves), a secret per player, a turn clock (a ``Deadline``), and an end
with scores.
Three rounds: a prize appears and the first to claim it takes it; then each player in turn picks
1, 2 or 3 (privately). Score = 5 per prize + picks + the secret card.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self

from rules.core import (
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
    require,
)

ROUNDS = 3
DASH_GAP = "dash_gap"
"""The test game's one timer: no action is paced by it unless a test paces one (``pacing``)."""


@register
class LadybugDash(Engine):
    """Claim the prize first, then pick 1-3 in turn; three rounds."""

    slug = "ladybug-dash"
    title = "Ladybug Dash"
    min_players = 2
    max_players = 4
    options = (GameOption("clock", "Seconds per pick (test game)", ("30", "1"), "30"),)
    timers = (Timer(DASH_GAP, 0.5, "Ladybug Dash (test game): least time between paced moves"),)

    def __init__(self, players: int, seed: int, options: dict[str, str], rng: Rng) -> None:
        self.players, self.seed, self.opts, self.rng = players, seed, options, rng
        self.round = 1
        self.phase = "race"
        self.to_pick = 0
        self.prizes = [0] * players
        self.picks: list[list[int]] = [[] for _ in range(players)]
        self.cards = [rng.randint(1, 6) for _ in range(players)]
        self.cheers = 0
        self._turn = 1

    @classmethod
    def new(cls, players: int, seed: int, options: Mapping[str, str] | None = None) -> Self:
        cls.check_players(players)
        return cls(players, seed, cls.resolve_options(options), Rng(seed))

    @property
    def turn(self) -> int:
        return self._turn

    @property
    def is_over(self) -> bool:
        return self.phase == "over"

    def legal_actions(self, seat: int) -> list[dict[str, Any]]:
        if type(seat) is not int or not 0 <= seat < self.players:
            return []
        if self.phase == "race":
            return [{"type": "claim"}, {"type": "cheer"}]
        if self.phase == "pick" and seat == self.to_pick:
            return [{"type": "pick", "n": n} for n in (1, 2, 3)]
        return []

    def waiting_for(self) -> frozenset[int]:
        if self.phase == "race":
            return frozenset(range(self.players))
        return frozenset({self.to_pick}) if self.phase == "pick" else frozenset()

    def deadlines(self) -> list[Deadline]:
        if self.phase != "pick":
            return []
        return [
            Deadline(
                key=f"pick:{self._turn}",
                action={"type": "timeout"},
                seconds=float(self.opts["clock"]),
                seats=frozenset({self.to_pick}),
            )
        ]

    def _apply(self, seat: int, action: dict[str, Any]) -> list[Event]:
        """A listed action (``Engine.apply`` checked it), played like every real game's."""
        kind = action["type"]
        if seat == SYSTEM:
            return self._pick(self.to_pick, 1, timeout=True)
        if kind == "cheer":
            self.cheers += 1
            return [Event.public("cheered", seat=seat, cheers=self.cheers)]
        if kind == "claim":
            self.prizes[seat] += 1
            self.phase, self.to_pick = "pick", 0
            self._turn += 1
            return [Event.public("claimed", seat=seat, round=self.round)]
        return self._pick(seat, int(action["n"]), timeout=False)

    def refusal(self, seat: int, action: Any) -> RuleError:
        return explain(lambda: self._explain(seat, action))

    def _explain(self, seat: int, action: Any) -> None:
        """The rule a refused action breaks, in the order the host tests expect to be told."""
        kind = action_type(action)
        require(self.phase != "over", "The game is over.", code="finished")
        if seat == SYSTEM:
            raise RuleError("No timer is running.")
        require(
            type(seat) is int and 0 <= seat < self.players,
            "You are not in this game.",
            code="not_seated",
        )
        if kind == "cheer":
            require(self.phase == "race", "Cheer while the prize is up.", code="wrong_phase")
        elif kind == "claim":
            require(self.phase == "race", "Too late: the prize is gone.", code="taken")
        elif kind == "pick":
            require(self.phase == "pick", "Nobody is picking now.", code="wrong_phase")
            require(seat == self.to_pick, "It is not your turn.", code="not_your_turn")
            raise RuleError("Pick 1, 2 or 3.", code="bad_value")
        else:
            raise RuleError("That is not an action of this game.", code="malformed")

    def _pick(self, seat: int, n: int, *, timeout: bool) -> list[Event]:
        self.picks[seat].append(n)
        events = [
            Event.public("picked", seat=seat, timeout=timeout),
            Event.private(seat, "you_picked", n=n),
        ]
        self._turn += 1
        if self.to_pick + 1 < self.players:
            self.to_pick += 1
        elif self.round < ROUNDS:
            self.round += 1
            self.phase = "race"
            events.append(Event.public("new_round", round=self.round))
        else:
            self.phase = "over"
            events.append(Event.public("reveal", cards=list(self.cards)))
        return events

    def view(self, seat: int | None) -> dict[str, Any]:
        out: dict[str, Any] = {
            "round": self.round,
            "phase": self.phase,
            "to_pick": self.to_pick if self.phase == "pick" else None,
            "prizes": list(self.prizes),
            "picks_made": [len(p) for p in self.picks],
            "cheers": self.cheers,
            "turn": self._turn,
        }
        if self.is_over:
            out["cards"] = list(self.cards)
            out["picks"] = [list(p) for p in self.picks]
        elif seat is not None and 0 <= seat < self.players:
            out["my_card"] = self.cards[seat]
            out["my_picks"] = list(self.picks[seat])
        return out

    def scores(self) -> list[int]:
        return [
            5 * self.prizes[s] + sum(self.picks[s]) + (self.cards[s] if self.is_over else 0)
            for s in range(self.players)
        ]

    def public_scores(self) -> list[int]:
        """The prizes while the game is played: picks are private until the reveal."""
        if self.is_over:
            return self.scores()
        return [5 * prizes for prizes in self.prizes]

    def score_breakdown(self, seat: int) -> dict[str, int]:
        return {
            "prizes": 5 * self.prizes[seat],
            "picks": sum(self.picks[seat]),
            "card": self.cards[seat],
            "total": self.scores()[seat],
        }

    def winners(self) -> list[int]:
        if not self.is_over:
            return []
        best = max(self.scores())
        return [s for s, v in enumerate(self.scores()) if v == best]

    def to_dict(self) -> dict[str, Any]:
        return {
            "players": self.players,
            "seed": self.seed,
            "options": dict(self.opts),
            "rng": self.rng.state(),
            "round": self.round,
            "phase": self.phase,
            "to_pick": self.to_pick,
            "prizes": list(self.prizes),
            "picks": [list(p) for p in self.picks],
            "cards": list(self.cards),
            "cheers": self.cheers,
            "turn": self._turn,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Self:
        game = cls.__new__(cls)
        game.players, game.seed = data["players"], data["seed"]
        game.opts, game.rng = dict(data["options"]), Rng.from_state(data["rng"])
        game.round, game.phase, game.to_pick = data["round"], data["phase"], data["to_pick"]
        game.prizes = list(data["prizes"])
        game.picks = [list(p) for p in data["picks"]]
        game.cards = list(data["cards"])
        game.cheers = data["cheers"]
        game._turn = data["turn"]
        return game


# Ladybug Dash is played on Discord through the generic presenter, registered like any game.
from bot.games import Game, register_game  # noqa: E402
from bot.ui.presenter import Presenter  # noqa: E402


class _DashPresenter(Presenter):
    slug = LadybugDash.slug


register_game(Game(LadybugDash, _DashPresenter(), secrets=("cards",), shipped=False))
