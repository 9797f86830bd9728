"""The Bug Run engine: setup, phases and turn order, the contract methods and the views.

The rules live in modules named after the rulebook's sections (turns, trading, moving, combat,
chance, quests, loot, flash, stairs, escape, scoring, cards, board), as functions over the
``Run`` context (context.py); the frame driver (driver.py) dispatches a frame to its kind's
handlers. This module deals the game and exposes the engine contract (DESIGN.md §2).
"""

from __future__ import annotations

import json
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
)
from . import board, driver, scoring, turns
from . import content as C
from .context import Action, Run
from .frames import Frame, LootFrame
from .state import Bazaar, GameState, Hero, LootDecks, SeatState
from .stocks import START

TURN_SECONDS = 90.0
EQUIP_KEYS = ("sword", "bow", "shield", "stored", "faceup")
PUBLIC_FRAME_KEYS: dict[str, tuple[str, ...]] = {
    "roll": ("dice", "n", "why"),
    "toss": ("result", "why"),
    "attack": ("weapon", "need"),
    "bridge": ("card",),
    "escape": ("reached",),
    "trade": ("merchant",),
}
"""Frame fields every player sees at the table (each was announced by a public event)."""


@register
class BugRun(Run, Engine):
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

    slug = "bug-run"
    title = "Bug Run"
    min_players = 2
    max_players = 6
    options = (
        GameOption("mode", "Play with hero powers or without.", ("normal", "powers"), "normal"),
    )

    def __init__(self, state: GameState) -> None:
        self.s = state
        self.players = state.players
        self.seed = state.seed
        self.rng = Rng.from_state(state.rng)

    # -- setup ----------------------------------------------------------------------------------
    @classmethod
    def new(cls, players: int, seed: int, options: Mapping[str, str] | None = None) -> Self:
        cls.check_players(players)
        opts = cls.resolve_options(options)
        rng = Rng(seed)
        two = players == 2
        names = [hero["name"] for hero in C.HEROES]
        rng.shuffle(names)
        n_heroes = 4 if two else players
        heroes = [
            Hero(
                name=names[i],
                seat=i // 2 if two else i,
                hearts=START["hearts"],
                arrows=START["arrows"],
                coins=START["coins"],
                sword=[],
                bow=[],
                shield=[],
                stored=[],
                faceup=[],
                pos=None,
                roof=None,
            )
            for i in range(n_heroes)
        ]
        bazaar = list(C.BAZAAR_CARDS)
        rng.shuffle(bazaar)
        loot = list(C.LOOT_CARDS)
        rng.shuffle(loot)
        level_card = rng.choice(sorted(C.LEVELS))
        explore = sorted(C.EXPLORATION)
        rng.shuffle(explore)
        monsters = []
        for level in range(1, 5):
            deck = sorted(m for m, info in C.MONSTERS.items() if info["level"] == level)
            rng.shuffle(deck)
            monsters.append(deck)
        stairs = sorted(C.STAIRS)
        rng.shuffle(stairs)
        state = GameState(
            players=players,
            seed=seed,
            mode=opts["mode"],
            two=two,
            serial=0,
            level=1,
            phase="setup",
            level_card=level_card,
            heroes=heroes,
            seats=[SeatState(vp=10 if two else 5, hand=[]) for _ in range(players)],
            crown=rng.below(n_heroes),
            bazaar=Bazaar(deck=bazaar, market=[], discard=[]),
            basics=list(C.BASIC_CARDS),
            basic_side={},
            loot=LootDecks(deck=loot, discard=[]),
            limbo=[],
            explore=explore,
            monsters=monsters,
            stairs_stack=stairs[:4],
            stairs_out=stairs[4:],
            roof=[],
            boxed=[],
            board=[],
            teams={},
            markers={},
            flash=None,
            order=None,
            fought=False,
            escape_queue=[],
            stack=[],
            rng=[],
        )
        game = cls.__new__(cls)
        game.s = state
        game.players = players
        game.seed = seed
        game.rng = rng
        events: list[Event] = []
        game.refill_market()
        board.build_level(game, 1, events)
        turns.start_phase(game, "trading", events)
        game.run(events)
        return game

    # -- contract -------------------------------------------------------------------------------
    def deciding(self) -> tuple[int, Frame] | None:
        return driver.deciding(self)

    def run(self, events: list[Event]) -> None:
        """Step the game on until a player has a real choice (or the game is over)."""
        driver.settle(self, events)

    def legal_actions(self, seat: int) -> list[Action]:
        decision = self.deciding()
        if decision is None or decision[0] != seat:
            return []
        return driver.frame_options(self, decision[1])

    def waiting_for(self) -> frozenset[int]:
        decision = self.deciding()
        return frozenset() if decision is None else frozenset({decision[0]})

    @property
    def turn(self) -> int:
        return int(self.s.serial)

    def deadlines(self) -> list[Deadline]:
        decision = self.deciding()
        if decision is None:
            return []
        return [
            Deadline(
                key=f"bug-run:afk:{self.s.serial}",
                action={"type": "afk", "turn": self.s.serial},
                seconds=TURN_SECONDS,
                setting="bugrun_turn",
                seats=frozenset({decision[0]}),
            )
        ]

    strict_actions = False
    """A look-alike (``True`` or ``1.0`` for ``1``) stands for the listed action; the listed,
    canonical copy is the one played and logged."""

    def _apply(self, seat: int, action: Action) -> list[Event]:
        """A listed decision for the top frame, or the AFK default for an expired clock."""
        decision = self.deciding()
        assert decision is not None
        who, frame = decision
        events: list[Event] = []
        if seat == SYSTEM:
            action = self.default_action(frame)
            events.append(Event.public("afk", seat=who, action=action["type"]))
            events.append(Event.private(who, "afk_choice", seat=who, action=action))
        self.s.serial += 1
        frame.wait = False
        driver.answer_frame(self, frame, action, events)
        self.run(events)
        return events

    def default_action(self, frame: Frame) -> Action:
        """The AFK choice (BR-X19): the first legal option, which every frame lists as its safe
        default; a move never spends a card (Optional Extra) on the player's behalf."""
        opts = driver.frame_options(self, frame)
        if frame.kind in ("turn", "freemove"):
            for option in opts:
                if option["type"] == "wait" or (option["type"] == "move" and "extra" not in option):
                    return option
        return opts[0]

    def refusal(self, seat: int, action: Any) -> RuleError:
        return explain(lambda: self._explain(seat, action))

    def _explain(self, seat: int, action: Any) -> None:
        """A friendly reason for an action that is not among the legal ones."""
        if self.is_over:
            raise RuleError("The game is over.", code="finished")
        kind = action_type(action)
        decision = self.deciding()
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
        if kind not in {option["type"] for option in driver.frame_options(self, frame)}:
            raise RuleError("You cannot do that now.", code="wrong_step")
        raise RuleError("That choice is not allowed now.", code="illegal")

    # -- the end --------------------------------------------------------------------------------
    @property
    def is_over(self) -> bool:
        return bool(self.s.phase == "over")

    def scores(self) -> list[int]:
        return scoring.scores(self)

    def score_breakdown(self, seat: int) -> dict[str, int]:
        return scoring.breakdown(self, seat)

    def winners(self) -> list[int]:
        return scoring.winners(self)

    # -- persistence ----------------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        self.s.rng = self.rng.state()
        return self.s.to_dict()

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Self:
        return cls(GameState.from_dict(dict(data)))

    # -- views ----------------------------------------------------------------------------------
    def view(self, seat: int | None) -> dict[str, Any]:
        s = self.s
        heroes: list[dict[str, Any]] = []
        ready = s.order.ready if s.order is not None else [True] * self.n_heroes()
        for hero, sheet in enumerate(s.heroes):
            v: dict[str, Any] = {
                "name": sheet.name,
                "seat": sheet.seat,
                "hearts": sheet.hearts,
                "arrows": sheet.arrows,
                "coins": sheet.coins,
                "roof": sheet.roof,
            }
            v.update({zone: list(sheet.zone(zone)) for zone in EQUIP_KEYS})
            v["index"] = hero
            v["power"] = C.POWERS[sheet.name] if s.mode == "powers" else None
            pos = sheet.pos
            v["pos"] = {"col": pos.col, "floor": pos.floor, "space": pos.space} if pos else None
            v["ready"] = bool(ready[hero]) if s.two else None
            heroes.append(v)
        seats = []
        for i, seat_state in enumerate(s.seats):
            row: dict[str, Any] = {"seat": i, "hand_size": len(seat_state.hand)}
            row["heroes"] = [hero for hero in range(self.n_heroes()) if self.owner(hero) == i]
            if seat == i:
                row["vp"] = seat_state.vp
            seats.append(row)
        active = None
        info = self.deciding()
        if info is not None:
            frame = info[1].to_dict()  # the frame as stored: only fields that are set
            active = {
                "seat": info[0],
                "hero": frame.get("hero"),
                "prompt": frame["k"],
                "stage": frame.get("stage"),
            }
            # What the table sees of the decision (dice faces, the coin, the bridge, the
            # target number, the roof step), so a board can show it beside the choice.
            for key in PUBLIC_FRAME_KEYS.get(frame["k"], ()):
                if frame.get(key) is not None:
                    active[key] = json.loads(json.dumps(frame[key]))
            if frame["k"] == "loot" and frame["stage"] == "equip":
                active["card"] = frame["card"]  # announced by the public "loot" event
            if frame["k"] == "fight":
                active["hero"] = frame["choosers"][0]
            if frame["k"] == "flash" and frame.get("pickers"):
                active["hero"] = frame["pickers"][0]
                active["items"] = list(frame.get("items", []))
        out: dict[str, Any] = {
            "game": self.slug,
            "phase": s.phase,
            "level": s.level,
            "mode": s.mode,
            "players": self.players,
            "turn": self.turn,
            "crown": s.crown,
            "flash": s.flash,
            "level_card": s.level_card,
            "side": "small" if self.small_game() else "large",
            "stairs": s.board[-1]["C"].card if s.board else None,
            "roof": list(s.roof),
            "market": self.market(),
            "decks": {
                "bazaar": len(s.bazaar.deck),
                "bazaar_discard": len(s.bazaar.discard),
                "basics": len(s.basics),
                "loot": len(s.loot.deck),
                "loot_discard": len(s.loot.discard),
                "exploration": len(s.explore),
            },
            "markers": dict(s.markers),
            "heroes": heroes,
            "seats": seats,
            "board": board.board_view(self) if s.board else [],
            "teams": dict(s.teams),
            "active": active,
        }
        shown = [*out["market"], *(card for v in heroes for k in EQUIP_KEYS for card in v[k])]
        out["names"] = {card: C.card_name(card) for card in shown}
        out["roof_paths"] = [C.STAIRS[card]["roof"] for card in s.roof]
        if seat is not None and 0 <= seat < self.players:
            you: dict[str, Any] = {
                "seat": seat,
                "vp": s.seats[seat].vp,
                "hand": list(s.seats[seat].hand),
                "options": self.legal_actions(seat),
            }
            if (
                info is not None
                and info[0] == seat
                and isinstance(info[1], LootFrame)
                and info[1].stage == "keep"
            ):
                you["loot_choice"] = list(s.limbo)
            you["names"] = {
                card: C.card_name(card) for card in [*you["hand"], *you.get("loot_choice", [])]
            }
            if self.is_over:
                you["score"] = scoring.breakdown(self, seat)
            out["you"] = you
        if self.is_over:
            out["scores"] = [scoring.breakdown(self, i) for i in range(self.players)]
            out["winners"] = self.winners()
        return out
