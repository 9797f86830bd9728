"""Trading turns (§4.3), the Itinerant Merchant's private one, and "any time" card plays."""

from __future__ import annotations

from ..core import Event
from . import content as C
from .base import Action, Frame
from .board import BoardMixin

SET_PRICE = 3


class TradingMixin(BoardMixin):
    """Buying, equipping, selling, and cards played outside an attack."""

    # -- equipment zones ------------------------------------------------------------------------
    def zone_actions(
        self, h: int, base: Action, zone: str, price: int, equip: bool
    ) -> list[Action]:
        """Buy actions for equipment: room in the zone, or sell one equipped card first (BR-22)."""
        hero = self.hero(h)
        coins = hero.coins
        if not equip or len(hero.zone(zone)) < self.zone_limit(zone):
            return [base] if coins >= price else []
        if coins + 1 < price:
            return []
        return [base | {"replace": r} for r in hero.zone(zone)]

    def sellable(self, h: int) -> list[str]:
        hero = self.hero(h)
        cards = hero.cards()
        cards += self.hand(self.owner(h))
        return [c for c in cards if not self.s.markers.get(c)]

    def opts_trade(self, fr: Frame) -> list[Action]:
        h = fr["hero"]
        hero = self.hero(h)
        out: list[Action] = [{"type": "end_turn"}]
        for c in self.s.bazaar.market:
            d = C.card(c)
            base: Action = {"type": "buy", "card": c}
            if d["effect"] == "equipment":
                out += self.zone_actions(h, base, d["zone"], d["price"], self.can_equip(h, c))
            elif hero.coins >= d["price"]:
                out.append(base)
        if self.s.basics:
            for side in ("sword", "bow"):
                base = {"type": "buy_basic", "side": side}
                out += self.zone_actions(h, base, side, SET_PRICE, True)
        if hero.coins >= SET_PRICE:
            out += [{"type": "buy_hearts"}, {"type": "buy_arrows"}]
        out += [{"type": "sell", "card": c} for c in self.sellable(h)]
        out += self.play_options(h, "merchant" if fr["merchant"] else "trade")
        return out

    def place_equipment(self, h: int, c: str, replace: str | None, ev: list[Event]) -> None:
        hero = self.hero(h)
        if replace is not None:
            self.sell(h, replace, ev)
        if self.can_equip(h, c):
            hero.zone(self.zone_of(c)).append(c)
        else:
            hero.stored.append(c)

    def sell(self, h: int, c: str, ev: list[Event]) -> None:
        self.remove_card(h, c)
        self.discard(c)
        got = self.gain(h, "coins", 1)
        ev.append(Event.public("sell", hero=h, card=c, name=C.card_name(c), coins=got))

    def answer_trade(self, fr: Frame, a: Action, ev: list[Event]) -> None:
        h = fr["hero"]
        hero = self.hero(h)
        t = a["type"]
        fr["wait"] = True
        if t == "end_turn":
            fr["wait"] = False
            new = self.refill_market()
            ev.append(Event.public("trade_end", hero=h, revealed=new, market=self.market()))
            self.pop()
        elif t == "buy":
            c = a["card"]
            d = C.card(c)
            if "replace" in a:
                self.sell(h, a["replace"], ev)
            hero.coins -= d["price"]
            self.s.bazaar.market.remove(c)
            ev.append(Event.public("buy", hero=h, card=c, name=d["name"], price=d["price"]))
            if d["effect"] == "equipment":
                self.place_equipment(h, c, None, ev)
            else:
                hero.faceup.append(c)
        elif t == "buy_basic":
            if "replace" in a:
                self.sell(h, a["replace"], ev)
            c = self.s.basics.pop(0)
            self.s.basic_side[c] = a["side"]
            hero.coins -= SET_PRICE
            hero.zone(a["side"]).append(c)
            ev.append(
                Event.public("buy", hero=h, card=c, name=f"Basic {a['side']}", price=SET_PRICE)
            )
        elif t in ("buy_hearts", "buy_arrows"):
            stock, n = ("hearts", 3) if t == "buy_hearts" else ("arrows", 2)
            hero.coins -= SET_PRICE
            got = self.gain(h, stock, n)
            ev.append(Event.public("buy_stock", hero=h, stock=stock, amount=got, price=SET_PRICE))
        elif t == "sell":
            self.sell(h, a["card"], ev)
        else:
            self.answer_play(fr, a, ev)

    def market(self) -> list[str]:
        return list(self.s.bazaar.market)

    # -- card plays -----------------------------------------------------------------------------
    def play_options(self, h: int, where: str) -> list[Action]:
        """Cards hero ``h`` may play now (BR-40): ``where`` is trade, merchant (the private
        trading turn of an Itinerant Merchant), turn or escape."""
        hero = self.hero(h)
        seat = self.owner(h)
        out: list[Action] = []
        seen: set[str] = set()

        def once(c: str, act: Action) -> None:
            key = c.rsplit("-", 1)[0] + repr(sorted(act.items()))
            if key not in seen:
                seen.add(key)
                out.append(act)

        for c in hero.faceup:
            eff = C.card(c)["effect"]
            if eff in ("potion", "full_potion") and hero.hearts < 10:
                once(c, {"type": "play", "card": c})
        for c in self.hand(seat):
            eff = C.card(c)["effect"]
            if (eff == "gold_coins" and hero.coins < 15) or (
                eff == "merchant" and where != "merchant"
            ):
                once(c, {"type": "play", "card": c})
            elif eff == "crafty" and where == "turn":
                for t in self.crafty_targets(h):
                    once(c, {"type": "play", "card": c, "target": t})
            elif eff == "reserved_seat" and where != "escape" and self.s.board:
                for i in self.reservable(h):
                    once(c, {"type": "play", "card": c, "space": i})
        return out

    def reservable(self, h: int) -> list[int]:
        """Stairs spaces hero ``h`` may reserve (BR-47): one reservation per hero, and in a
        2p fight whose teams are fixed only on its own team, so every hero keeps a space."""
        slot = self.stairs_slot()
        if any(sp.reserved == h for sp in slot.spaces):
            return []
        team = self.s.teams.get(str(self.owner(h)))
        return [
            i
            for i, sp in enumerate(slot.spaces)
            if sp.hero is None
            and not sp.lock
            and sp.reserved is None
            and (team is None or self.stair_team(i) == team)
        ]

    def crafty_targets(self, h: int) -> list[int]:
        """Heroes on the same monster or quest card (BR-45); opponents only in 2p (4.10)."""
        slot = self.here(h)
        if slot.kind in ("entrance", "stairs"):
            return []
        pos = self.hero(h).position()
        return [
            t
            for t in self.heroes_on(pos.col, pos.floor)
            if t != h and self.owner(t) != self.owner(h)
        ]

    def answer_play(self, fr: Frame, a: Action, ev: list[Event]) -> None:
        h = fr["hero"]
        hero = self.hero(h)
        c = a["card"]
        d = C.card(c)
        eff = d["effect"]
        self.remove_card(h, c)
        self.discard(c)
        ev.append(Event.public("play", hero=h, card=c, name=d["name"]))
        if eff == "full_potion":
            hero.hearts = 10
        elif eff == "potion":
            self.gain(h, "hearts", d["hearts"])
        elif eff == "gold_coins":
            self.gain(h, "coins", d["coins"])
        elif eff == "reserved_seat":
            self.stairs_slot().spaces[a["space"]].reserved = h
        elif eff == "merchant":
            fr["wait"] = False
            self.push({"k": "trade", "hero": h, "merchant": True, "wait": True})
        elif eff == "crafty":
            fr["wait"] = False
            self.push({"k": "crafty", "hero": h, "target": a["target"], "card": c, "stage": "roll"})

    def step_crafty(self, fr: Frame, ev: list[Event]) -> None:
        if fr["stage"] == "roll":
            fr["stage"] = "steal"
            self.push(
                {
                    "k": "roll",
                    "hero": fr["hero"],
                    "n": 1,
                    "cards": True,
                    "bravery": False,
                    "why": "crafty",
                    "dice": [],
                    "courage": False,
                    "braved": False,
                }
            )
            return
        d = C.card(fr["card"])
        amount = int(fr["ret"]["successes"]) + int(d["plus"])
        stock = d["steal"]
        target = self.hero(fr["target"])
        taken = min(target.stock(stock), amount)
        target.set_stock(stock, target.stock(stock) - taken)
        got = self.gain(fr["hero"], stock, taken)
        ev.append(
            Event.public(
                "steal", hero=fr["hero"], target=fr["target"], stock=stock, taken=taken, kept=got
            )
        )
        self.pop()

    def step_trade(self, fr: Frame, ev: list[Event]) -> None:
        fr["wait"] = True
