"""The Bug Run engine: setup, phases and turn order, the contract methods and the views.

Flows live in the mixins (trading, combat, moves, quests, flash, stairs, escape); this module
decides who acts next and exposes the engine contract (DESIGN.md §2).
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
from . import content as C
from .base import START, Action, Frame
from .board import QUEST_KINDS
from .escape import EscapeMixin

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
class BugRun(EscapeMixin, Engine):
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

    def __init__(self, state: dict[str, Any]) -> None:
        self.s = state
        self.players = int(state["players"])
        self.seed = int(state["seed"])
        self.rng = Rng.from_state(state["rng"])

    # -- setup ----------------------------------------------------------------------------------
    @classmethod
    def new(cls, players: int, seed: int, options: Mapping[str, str] | None = None) -> Self:
        cls.check_players(players)
        opts = cls.resolve_options(options)
        rng = Rng(seed)
        two = players == 2
        names = [h["name"] for h in C.HEROES]
        rng.shuffle(names)
        n_heroes = 4 if two else players
        heroes: list[dict[str, Any]] = []
        for i in range(n_heroes):
            seat = i // 2 if two else i
            heroes.append(
                {
                    "name": names[i],
                    "seat": seat,
                    **START,
                    "sword": [],
                    "bow": [],
                    "shield": [],
                    "stored": [],
                    "faceup": [],
                    "pos": None,
                    "roof": None,
                }
            )
        bazaar = list(C.BAZAAR_CARDS)
        rng.shuffle(bazaar)
        loot = list(C.LOOT_CARDS)
        rng.shuffle(loot)
        level_card = rng.choice(sorted(C.LEVELS))
        explore = sorted(C.EXPLORATION)
        rng.shuffle(explore)
        monsters = []
        for level in range(1, 5):
            deck = sorted(m for m, d in C.MONSTERS.items() if d["level"] == level)
            rng.shuffle(deck)
            monsters.append(deck)
        stairs = sorted(C.STAIRS)
        rng.shuffle(stairs)
        state: dict[str, Any] = {
            "players": players,
            "seed": seed,
            "mode": opts["mode"],
            "two": two,
            "serial": 0,
            "level": 1,
            "phase": "setup",
            "level_card": level_card,
            "heroes": heroes,
            "seats": [{"vp": 10 if two else 5, "hand": []} for _ in range(players)],
            "crown": rng.below(n_heroes),
            "bazaar": {"deck": bazaar, "market": [], "discard": []},
            "basics": list(C.BASIC_CARDS),
            "basic_side": {},
            "loot": {"deck": loot, "discard": []},
            "limbo": [],
            "explore": explore,
            "monsters": monsters,
            "stairs_stack": stairs[:4],
            "stairs_out": stairs[4:],
            "roof": [],
            "boxed": [],
            "board": [],
            "teams": {},
            "markers": {},
            "flash": None,
            "order": {},
            "fought": False,
            "escape_queue": [],
            "stack": [],
            "rng": [],
        }
        game = cls.__new__(cls)
        game.s = state
        game.players = players
        game.seed = seed
        game.rng = rng
        ev: list[Event] = []
        game.refill_market()
        game.build_level(1, ev)
        game.start_phase("trading", ev)
        game.run(ev)
        return game

    # -- phases and turn order ------------------------------------------------------------------
    def start_phase(self, phase: str, ev: list[Event]) -> None:
        s = self.s
        s["phase"] = phase
        crown = s["crown"]
        s["order"] = {
            "next": crown,
            "left": self.n_heroes(),
            "forced": crown,
            "ready": [True] * self.n_heroes(),
            "seat": self.owner(crown),
        }
        s["fought"] = False
        ev.append(Event.public("phase", phase=phase, level=s["level"], crown=crown))

    def next_hero(self) -> int | None:
        """The hero to activate, or None when a 2p player must choose (an activate frame)."""
        o = self.s["order"]
        if not self.s["two"]:
            h = int(o["next"])
            o["next"] = (h + 1) % self.n_heroes()
            return h
        if o["forced"] is not None:
            h = int(o["forced"])
            o["forced"] = None
            self.mark_used(h)
            return h
        ready = [h for h in range(4) if o["ready"][h] and self.owner(h) == o["seat"]]
        if len(ready) == 1:
            self.mark_used(ready[0])
            return ready[0]
        self.push({"k": "activate", "seat": o["seat"], "wait": True})
        return None

    def mark_used(self, h: int) -> None:
        o = self.s["order"]
        o["ready"][h] = False
        o["seat"] = 1 - self.owner(h)
        if not any(o["ready"]):
            o["ready"] = [True] * 4
            o["seat"] = self.owner(self.s["crown"])

    def opts_activate(self, fr: Frame) -> list[Action]:
        o = self.s["order"]
        return [
            {"type": "activate", "hero": h}
            for h in range(4)
            if o["ready"][h] and self.owner(h) == fr["seat"]
        ]

    def answer_activate(self, fr: Frame, a: Action, ev: list[Event]) -> None:
        self.pop()
        self.mark_used(a["hero"])
        ev.append(Event.public("activate", hero=a["hero"]))
        self.begin(a["hero"], ev)

    def begin(self, h: int, ev: list[Event]) -> None:
        phase = self.s["phase"]
        if phase == "trading":
            self.s["order"]["left"] -= 1
            ev.append(Event.public("trade_turn", hero=h))
            self.push({"k": "trade", "hero": h, "merchant": False, "wait": True})
        else:
            ev.append(Event.public("turn", hero=h))
            # 4.6 / L245: a bow attack needs an arrow at the start of the turn (BR-64)
            arrows0 = int(self.hero(h)["arrows"])
            self.push({"k": "turn", "hero": h, "stage": "choose", "wait": True, "arrows0": arrows0})

    def schedule(self, ev: list[Event]) -> None:
        s = self.s
        phase = s["phase"]
        if phase == "trading":
            if s["order"]["left"] <= 0:
                baz = s["bazaar"]
                baz["discard"].extend(baz["market"])
                baz["market"] = []
                new = self.refill_market()
                ev.append(Event.public("market_renewed", market=new))
                self.start_phase("adventure", ev)
                return
        elif phase == "adventure":
            if all(self.on_stairs(h) for h in range(self.n_heroes())):
                if self.stairs_card()["type"] == "fight" and not s["fought"]:
                    s["fought"] = True
                    self.push(self.fight_frame())
                else:
                    self.reset_level(ev)
                return
        elif phase == "escape":
            if s["escape_queue"]:
                h = s["escape_queue"].pop(0)
                self.push({"k": "escape", "hero": h, "reached": 0, "stage": "start"})
            else:
                self.cash_gold_coins(ev)
                s["phase"] = "over"
                ev.append(Event.public("game_over", scores=self.scores(), winners=self.winners()))
            return
        h = self.next_hero()
        if h is not None:
            self.begin(h, ev)

    # -- the adventure turn ---------------------------------------------------------------------
    def opts_turn(self, fr: Frame) -> list[Action]:
        h = fr["hero"]
        if self.on_stairs(h):
            return [{"type": "wait"}]
        out = self.move_options(h)
        slot = self.here(h)
        if slot["kind"] == "monster":
            w = self.space_weapon(h)
            if w != "bw":
                out.append({"type": "attack", "weapon": "sword"})
            if w != "sw" and self.bow_ready(fr):
                out.append({"type": "attack", "weapon": "bow"})
        elif slot["kind"] in QUEST_KINDS and not slot["locked"]:
            out += self.quest_options(h, slot)
        return out + self.play_options(h, "turn")

    def bow_ready(self, fr: Frame) -> bool:
        """4.6 step 0: arrows >= 1 at the start of the turn (arrows gained during the turn, e.g.
        from an Itinerant Merchant or a Crafty One, do not count), and one arrow to pay now."""
        hero = self.hero(fr["hero"])
        return int(fr.get("arrows0", hero["arrows"])) >= 1 and hero["arrows"] >= 1

    def step_turn(self, fr: Frame, ev: list[Event]) -> None:
        if fr["stage"] == "choose":
            fr["wait"] = True
        else:
            self.pop()

    def answer_turn(self, fr: Frame, a: Action, ev: list[Event]) -> None:
        h = fr["hero"]
        t = a["type"]
        if t == "play":
            self.answer_play(fr, a, ev)
            return
        fr["stage"] = "done"
        if t == "move":
            self.push(self.move_frame(h, a))
        elif t == "attack":
            self.push(self.attack_frame(h, a["weapon"]) | {"arrows0": fr.get("arrows0", 1)})
        elif t == "quest":
            self.push(self.quest_frame(h, a))
        else:
            ev.append(Event.public("wait", hero=h))
            self.push({"k": "reward", "hero": h, "items": self.stair_wait_items(), "i": 0})

    # -- contract -------------------------------------------------------------------------------
    def deciding(self) -> tuple[int, Frame] | None:
        fr = self.top()
        if fr is None or not fr["wait"] or self.s["phase"] == "over":
            return None
        return int(fr["seat"]), fr

    def legal_actions(self, seat: int) -> list[Action]:
        d = self.deciding()
        if d is None or d[0] != seat:
            return []
        return self.frame_options(d[1])

    def waiting_for(self) -> frozenset[int]:
        d = self.deciding()
        return frozenset() if d is None else frozenset({d[0]})

    @property
    def turn(self) -> int:
        return int(self.s["serial"])

    def deadlines(self) -> list[Deadline]:
        d = self.deciding()
        if d is None:
            return []
        return [
            Deadline(
                key=f"bug-run:afk:{self.s['serial']}",
                action={"type": "afk", "turn": self.s["serial"]},
                seconds=TURN_SECONDS,
                setting="bugrun_turn",
                seats=frozenset({d[0]}),
            )
        ]

    strict_actions = False
    """A look-alike (``True`` or ``1.0`` for ``1``) stands for the listed action; the listed,
    canonical copy is the one played and logged."""

    def _apply(self, seat: int, action: Action) -> list[Event]:
        """A listed decision for the top frame, or the AFK default for an expired clock."""
        deciding = self.deciding()
        assert deciding is not None
        who, fr = deciding
        ev: list[Event] = []
        if seat == SYSTEM:
            action = self.default_action(fr)
            ev.append(Event.public("afk", seat=who, action=action["type"]))
            ev.append(Event.private(who, "afk_choice", seat=who, action=action))
        self.s["serial"] += 1
        fr["wait"] = False
        getattr(self, "answer_" + fr["k"])(fr, action, ev)
        self.run(ev)
        return ev

    def default_action(self, fr: Frame) -> Action:
        """The AFK choice (BR-X19): the first legal option, which every frame lists as its safe
        default; a move never spends a card (Optional Extra) on the player's behalf."""
        opts = self.frame_options(fr)
        if fr["k"] in ("turn", "freemove"):
            for a in opts:
                if a["type"] == "wait" or (a["type"] == "move" and "extra" not in a):
                    return a
        return opts[0]

    def refusal(self, seat: int, action: Any) -> RuleError:
        return explain(lambda: self._explain(seat, action))

    def _explain(self, seat: int, action: Any) -> None:
        """A friendly reason for an action that is not among the legal ones."""
        if self.is_over:
            raise RuleError("The game is over.", code="finished")
        kind = action_type(action)
        deciding = self.deciding()
        assert deciding is not None
        who, fr = deciding
        if seat == SYSTEM:
            raise RuleError("That timer is no longer running.", code="no_deadline")
        if seat != who:
            raise RuleError("It is not your turn.", code="not_your_turn")
        if fr["k"] == "trade" and kind in ("buy", "buy_basic", "buy_hearts", "buy_arrows"):
            raise RuleError(
                "You cannot buy that (price, stock or equipment zone).", code="cant_afford"
            )
        if fr["k"] == "turn" and kind == "move":
            raise RuleError("You cannot move there.", code="bad_move")
        if kind not in {o["type"] for o in self.frame_options(fr)}:
            raise RuleError("You cannot do that now.", code="wrong_step")
        raise RuleError("That choice is not allowed now.", code="illegal")

    # -- the end --------------------------------------------------------------------------------
    @property
    def is_over(self) -> bool:
        return bool(self.s["phase"] == "over")

    def scores(self) -> list[int]:
        return [self.breakdown(seat)["total"] for seat in range(self.players)]

    def score_breakdown(self, seat: int) -> dict[str, int]:
        return self.breakdown(seat)

    def winners(self) -> list[int]:
        if not self.is_over:
            return []
        scores = self.scores()
        best = max(scores)
        return [seat for seat, sc in enumerate(scores) if sc == best]

    # -- persistence ----------------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        self.s["rng"] = self.rng.state()
        return json.loads(json.dumps(self.s))

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Self:
        return cls(json.loads(json.dumps(dict(data))))

    # -- views ----------------------------------------------------------------------------------
    def view(self, seat: int | None) -> dict[str, Any]:
        s = self.s
        heroes: list[dict[str, Any]] = []
        for h, hero in enumerate(s["heroes"]):
            v = {k: hero[k] for k in ("name", "seat", "hearts", "arrows", "coins", "roof")}
            v.update({k: list(hero[k]) for k in ("sword", "bow", "shield", "stored", "faceup")})
            v["index"] = h
            v["power"] = C.POWERS[hero["name"]] if s["mode"] == "powers" else None
            v["pos"] = dict(hero["pos"]) if hero["pos"] else None
            v["ready"] = bool(s["order"].get("ready", [True] * 6)[h]) if s["two"] else None
            heroes.append(v)
        seats = []
        for i, st in enumerate(s["seats"]):
            row: dict[str, Any] = {"seat": i, "hand_size": len(st["hand"])}
            row["heroes"] = [h for h in range(self.n_heroes()) if self.owner(h) == i]
            if seat == i:
                row["vp"] = st["vp"]
            seats.append(row)
        active = None
        d = self.deciding()
        if d is not None:
            fr = d[1]
            active = {
                "seat": d[0],
                "hero": fr.get("hero"),
                "prompt": fr["k"],
                "stage": fr.get("stage"),
            }
            # What the table sees of the decision (dice faces, the coin, the bridge, the
            # target number, the roof step), so a board can show it beside the choice.
            for key in PUBLIC_FRAME_KEYS.get(fr["k"], ()):
                if fr.get(key) is not None:
                    active[key] = json.loads(json.dumps(fr[key]))
            if fr["k"] == "loot" and fr["stage"] == "equip":
                active["card"] = fr["card"]  # announced by the public "loot" event
            if fr["k"] == "fight":
                active["hero"] = fr["choosers"][0]
            if fr["k"] == "flash" and fr.get("pickers"):
                active["hero"] = fr["pickers"][0]
                active["items"] = list(fr.get("items", []))
        out: dict[str, Any] = {
            "game": self.slug,
            "phase": s["phase"],
            "level": s["level"],
            "mode": s["mode"],
            "players": self.players,
            "turn": self.turn,
            "crown": s["crown"],
            "flash": s["flash"],
            "level_card": s["level_card"],
            "side": "small" if self.small_game() else "large",
            "stairs": s["board"][-1]["C"]["card"] if s["board"] else None,
            "roof": list(s["roof"]),
            "market": self.market(),
            "decks": {
                "bazaar": len(s["bazaar"]["deck"]),
                "bazaar_discard": len(s["bazaar"]["discard"]),
                "basics": len(s["basics"]),
                "loot": len(s["loot"]["deck"]),
                "loot_discard": len(s["loot"]["discard"]),
                "exploration": len(s["explore"]),
            },
            "markers": dict(s["markers"]),
            "heroes": heroes,
            "seats": seats,
            "board": self.board_view() if s["board"] else [],
            "teams": dict(s["teams"]),
            "active": active,
        }
        shown = [*out["market"], *(c for v in heroes for k in EQUIP_KEYS for c in v[k])]
        out["names"] = {c: C.card_name(c) for c in shown}
        out["roof_paths"] = [C.STAIRS[c]["roof"] for c in s["roof"]]
        if seat is not None and 0 <= seat < self.players:
            you: dict[str, Any] = {
                "seat": seat,
                "vp": s["seats"][seat]["vp"],
                "hand": list(s["seats"][seat]["hand"]),
                "options": self.legal_actions(seat),
            }
            if d is not None and d[0] == seat and d[1]["k"] == "loot" and d[1]["stage"] == "keep":
                you["loot_choice"] = list(s["limbo"])
            you["names"] = {c: C.card_name(c) for c in [*you["hand"], *you.get("loot_choice", [])]}
            if self.is_over:
                you["score"] = self.breakdown(seat)
            out["you"] = you
        if self.is_over:
            out["scores"] = [self.breakdown(i) for i in range(self.players)]
            out["winners"] = self.winners()
        return out
