"""The Final Escape over the roof (§4.9) and the final count."""

from __future__ import annotations

from typing import Any

from ..core import Event
from . import content as C
from .base import Action, Frame, parse
from .stairs import StairsMixin

STOCKS = {"h": "hearts", "c": "coins", "a": "arrows"}


class EscapeMixin(StairsMixin):
    """Each hero runs the roof alone, crown first (BR-54); stopping is always allowed (BR-53)."""

    def roof_path(self, step: int, side: str) -> dict[str, Any]:
        card = C.STAIRS[self.s.roof[step]]
        return card["roof"][0 if side == "L" else 1]

    def can_attempt(self, h: int, path: dict[str, Any]) -> bool:
        hero = self.hero(h)
        if "cost" in path:
            for item in path["cost"]:
                kind, amount = parse(item)
                stock = STOCKS[kind]
                have = hero.stock(stock) - (1 if stock == "hearts" else 0)  # BR-19
                if have < amount:
                    return False
            return True
        kind = path["challenge"][0]
        return kind != "bow" or hero.arrows >= 1

    def opts_escape(self, fr: Frame) -> list[Action]:
        h = fr["hero"]
        out: list[Action] = [{"type": "stop"}]
        for side in ("L", "R"):
            if self.can_attempt(h, self.roof_path(fr["reached"], side)):
                out.append({"type": "path", "side": side})
        return out + self.play_options(h, "escape")

    def step_escape(self, fr: Frame, ev: list[Event]) -> None:
        h = fr["hero"]
        st = fr["stage"]
        if st == "start":
            ev.append(Event.public("escape_start", hero=h))
            fr["stage"] = "choose"
        if st in ("start", "choose"):
            if fr["reached"] >= 4:
                self.finish_escape(fr, ev)
            else:
                fr["wait"] = True
        elif st == "challenge":
            ok = fr["ret"] is True or fr["ret"] == "green"
            ev.append(Event.public("roof_step", hero=h, step=fr["reached"] + 1, success=ok))
            if ok:
                fr["reached"] += 1
                fr["stage"] = "choose"
            else:
                self.finish_escape(fr, ev)

    def answer_escape(self, fr: Frame, a: Action, ev: list[Event]) -> None:
        h = fr["hero"]
        t = a["type"]
        if t == "stop":
            self.finish_escape(fr, ev)
        elif t == "play":
            fr["stage"] = "choose"
            self.answer_play(fr, a, ev)
            fr["wait"] = False
        else:
            path = self.roof_path(fr["reached"], a["side"])
            ev.append(
                Event.public("roof_path", hero=h, step=fr["reached"] + 1, side=a["side"], path=path)
            )
            if "cost" in path:
                for item in path["cost"]:
                    kind, amount = parse(item)
                    stock = STOCKS[kind]
                    self.hero(h).set_stock(stock, self.hero(h).stock(stock) - amount)
                fr["reached"] += 1
                fr["stage"] = "choose"
                ev.append(Event.public("roof_step", hero=h, step=fr["reached"], success=True))
                return
            kind, need = path["challenge"]
            fr["stage"] = "challenge"
            if kind == "flip":
                self.push(self.toss_frame(h, True, "roof"))
            else:
                self.push(self.attack_frame(h, kind, int(need)))

    def finish_escape(self, fr: Frame, ev: list[Event]) -> None:
        h = fr["hero"]
        self.hero(h).roof = fr["reached"]
        ev.append(
            Event.public("escape_end", hero=h, reached=fr["reached"], vp=C.ROOF_VP[fr["reached"]])
        )
        self.pop()

    # -- the final count ------------------------------------------------------------------------
    def cash_gold_coins(self, ev: list[Event]) -> None:
        """BR-49: Gold Coins still in hand are cashed before scoring (2p: the poorer hero)."""
        for seat in range(self.players):
            for c in self.find_in_hand(seat, "gold_coins"):
                mine = [h for h in range(self.n_heroes()) if self.owner(h) == seat]
                h = min(mine, key=lambda x: (self.hero(x).coins, x))
                self.hand(seat).remove(c)
                self.discard(c)
                got = self.gain(h, "coins", int(C.card(c)["coins"]))
                ev.append(Event.public("play", hero=h, card=c, name=C.card(c)["name"], coins=got))

    def breakdown(self, seat: int) -> dict[str, int]:
        mine = [h for h in range(self.n_heroes()) if self.owner(h) == seat]
        loot = sum(
            int(C.card(c)["vp"])
            for h in mine
            for c in self.hero(h).faceup
            if C.card(c)["effect"] == "trinket"
        )
        show = sum(int(C.card(c)["vp"]) for c in self.find_in_hand(seat, "show_off"))
        roof = sum(C.ROOF_VP[self.hero(h).roof or 0] for h in mine)
        coins = sum(int(self.hero(h).coins) // 3 for h in mine)
        vp = int(self.s.seats[seat].vp)
        total = vp + loot + show + roof + coins
        return {
            "vp_tokens": vp,
            "loot": loot,
            "show_off": show,
            "escape": roof,
            "coins": coins,
            "total": total,
        }
