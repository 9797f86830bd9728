"""Moves (§4.4): leaving a card, crossing bridges, entering a card or the stairs (§4.8 entry)."""

from __future__ import annotations

from ..core import Event
from . import content as C
from .base import Action, Frame, parse
from .combat import CombatMixin
from .state import Position, Space


class MoveMixin(CombatMixin):
    """Move, bridge and free-move frames."""

    def move_frame(self, h: int, a: Action) -> Frame:
        return {
            "k": "move",
            "hero": h,
            "to": {"col": a["col"], "floor": a["floor"]},
            "space": a.get("space"),
            "route": a.get("route"),
            "extra": a.get("extra"),
            "stage": "start",
            "bridges": [],
            "i": 0,
        }

    def leave(self, h: int, ev: list[Event]) -> None:
        pos = self.hero(h).position()
        slot = self.here(h)
        if pos.space is not None:
            i = pos.space
            slot.spaces[i].hero = None
            if slot.spaces[i].extra:
                # LT12: the extra space exists only while its hero stands on it
                del slot.spaces[i]
                for x in self.heroes_on(pos.col, pos.floor):
                    sp = self.hero(x).position().space
                    if x != h and sp is not None and sp > i:
                        self.hero(x).position().space = sp - 1
        if slot.kind == "duel" and not slot.locked:
            slot.locked = True  # BR-65 / rulebook: leaving a Duel padlocks it
            ev.append(Event.public("padlock", card=slot.card, why="duel_left"))

    def step_move(self, fr: Frame, ev: list[Event]) -> None:
        h = fr["hero"]
        st = fr["stage"]
        if st == "start":
            pos = self.hero(h).position()
            c0, f0 = pos.col, pos.floor
            cd, fd = fr["to"]["col"], fr["to"]["floor"]
            route = f0 if f0 != "C" else fd if fd != "C" else (fr["route"] or "U")
            fr["bridges"] = self.bridges_between(c0, cd, route)
            self.leave(h, ev)
            slot = self.slot(cd, fd)
            if fr["extra"] is not None:
                self.remove_card(h, fr["extra"])
                self.discard(fr["extra"])
                slot.spaces.append(Space("any", False, extra=True))
                fr["space"] = len(slot.spaces) - 1
                ev.append(
                    Event.public("play", hero=h, card=fr["extra"], name=C.card_name(fr["extra"]))
                )
            slot.spaces[fr["space"]].hero = h
            self.hero(h).pos = Position(cd, fd, fr["space"])
            ev.append(
                Event.public(
                    "move",
                    hero=h,
                    col=cd,
                    floor=fd,
                    space=fr["space"],
                    card=slot.card,
                    name=C.card_name(slot.card_id()),
                    bridges=[b[0] for b in fr["bridges"]],
                )
            )
            if slot.kind == "stairs":
                self.enter_stairs(h, fr["space"], ev)
            fr["stage"] = "bridges"
        elif st == "bridges":
            if fr["i"] < len(fr["bridges"]):
                col, floor = fr["bridges"][fr["i"]]
                fr["i"] += 1
                self.push(
                    {
                        "k": "bridge",
                        "hero": h,
                        "card": self.slot(col, floor).card,
                        "stage": "choose",
                        "wait": True,
                    }
                )
            else:
                fr["stage"] = "arrive"
        elif st == "arrive":
            fr["stage"] = "end"
            if self.here(h).kind == "stairs":
                self.stairs_entry_effects(h, fr["space"], ev)
        else:
            self.pop()

    def enter_stairs(self, h: int, space: int, ev: list[Event]) -> None:
        """Reservations lapse on entry (BR-47); the first 2p hero on a Fight card fixes teams."""
        for sp in self.stairs_slot().spaces:
            if sp.reserved == h:
                sp.reserved = None
        card = self.stairs_card()
        teams = self.s.teams
        if card["type"] == "fight" and self.s.two and not teams:
            mine = self.stair_team(space) or "top"
            other = "bottom" if mine == "top" else "top"
            teams[str(self.owner(h))] = mine
            teams[str(1 - self.owner(h))] = other
            for sp_i, sp in enumerate(self.stairs_slot().spaces):
                r = sp.reserved
                if r is not None and self.stair_team(sp_i) != teams[str(self.owner(r))]:
                    sp.reserved = None
            ev.append(Event.public("teams", teams=dict(teams)))

    def stairs_entry_effects(self, h: int, space: int, ev: list[Event]) -> None:
        """Pay the space's cost (as much as possible if nothing was affordable) and take its gain."""
        entry = self.stairs_card()["spaces"][space]["entry"]
        hero = self.hero(h)
        gains = []
        for item in entry:
            kind, amount = parse(item)
            if kind == "L" or amount > 0:
                gains.append(item)
                continue
            stock = {"h": "hearts", "c": "coins", "a": "arrows"}[kind]
            floor = 1 if stock == "hearts" else 0
            paid = max(0, min(-amount, hero.stock(stock) - floor))
            hero.set_stock(stock, hero.stock(stock) - paid)
            ev.append(Event.public("pay", hero=h, stock=stock, amount=paid, why="stairs"))
        if self.stairs_card()["spaces"][space]["crown"]:
            ev.append(Event.public("crown_space", hero=h))
        if gains:
            self.push({"k": "reward", "hero": h, "items": gains, "i": 0})

    # -- bridges --------------------------------------------------------------------------------
    def opts_bridge(self, fr: Frame) -> list[Action]:
        return [{"type": "bridge", "mode": "stable"}, {"type": "bridge", "mode": "risky"}]

    def answer_bridge(self, fr: Frame, a: Action, ev: list[Event]) -> None:
        h = fr["hero"]
        b = C.BRIDGES[fr["card"]]
        ev.append(Event.public("bridge", hero=h, card=fr["card"], name=b["name"], mode=a["mode"]))
        if a["mode"] == "stable":
            fr["stage"] = "end"
            self.push({"k": "reward", "hero": h, "items": list(b["stable"]), "i": 0})
        else:
            fr["stage"] = "risky"
            self.push(self.toss_frame(h, True, "bridge"))

    def step_bridge(self, fr: Frame, ev: list[Event]) -> None:
        if fr["stage"] == "risky":
            fr["stage"] = "end"
            items = C.BRIDGES[fr["card"]][fr["ret"]]
            if items:
                self.push({"k": "reward", "hero": fr["hero"], "items": list(items), "i": 0})
            return
        self.pop()

    # -- free moves (Flash Phase) ---------------------------------------------------------------
    def opts_freemove(self, fr: Frame) -> list[Action]:
        return self.move_options(fr["hero"])

    def answer_freemove(self, fr: Frame, a: Action, ev: list[Event]) -> None:
        fr["stage"] = "end"
        self.push(self.move_frame(fr["hero"], a))

    def step_freemove(self, fr: Frame, ev: list[Event]) -> None:
        self.pop()

    # -- rewards and loot -----------------------------------------------------------------------
    def step_reward(self, fr: Frame, ev: list[Event]) -> None:
        h = fr["hero"]
        while fr["i"] < len(fr["items"]):
            item = fr["items"][fr["i"]]
            fr["i"] += 1
            if self.grant_item(h, item, ev):
                self.push({"k": "loot", "hero": h, "stage": "draw"})
                return
        self.pop()

    def step_loot(self, fr: Frame, ev: list[Event]) -> None:
        h = fr["hero"]
        if fr["stage"] == "draw":
            n = 2 if self.has_power(h, "master_crocheter") else 1
            drawn = [c for c in (self.draw_loot() for _ in range(n)) if c is not None]
            if not drawn:  # BR-36: no loot left anywhere -> 1 VP
                self.gain_vp(self.owner(h), 1)
                ev.append(Event.public("gain", hero=h, item="L", vp=1, loot_empty=True))
                self.pop()
                return
            self.s.limbo = drawn
            if len(drawn) == 2:
                ev.append(Event.private(self.owner(h), "loot_choice", hero=h, cards=list(drawn)))
                fr["stage"] = "keep"
                fr["wait"] = True
                return
            fr["card"] = drawn[0]
            fr["stage"] = "place"
        elif fr["stage"] == "place":
            self.place_loot(fr, ev)
        else:
            self.pop()

    def opts_loot(self, fr: Frame) -> list[Action]:
        if fr["stage"] == "keep":
            return [{"type": "keep", "card": c} for c in self.s.limbo]
        hero = self.hero(fr["hero"])
        zone = self.zone_of(fr["card"])
        if len(hero.zone(zone)) < self.zone_limit(zone):
            equip: list[Action] = [{"type": "equip"}]
        else:
            equip = [{"type": "equip", "replace": r} for r in hero.zone(zone)]
        return [*equip, {"type": "store"}]

    def answer_loot(self, fr: Frame, a: Action, ev: list[Event]) -> None:
        h = fr["hero"]
        hero = self.hero(h)
        if a["type"] == "keep":
            for c in self.s.limbo:
                if c != a["card"]:
                    self.s.loot.deck.append(c)  # BR-61: the other to the bottom
            self.s.limbo = [a["card"]]
            fr["card"] = a["card"]
            fr["stage"] = "place"
            return
        c = fr["card"]
        self.s.limbo = []
        fr["stage"] = "end"
        if a["type"] == "store":
            hero.stored.append(c)
            ev.append(Event.public("loot_store", hero=h, card=c, name=C.card_name(c)))
            return
        zone = self.zone_of(c)
        if "replace" in a:
            hero.zone(zone).remove(a["replace"])
            hero.stored.append(a["replace"])  # BR-38
        hero.zone(zone).append(c)
        ev.append(
            Event.public(
                "loot_equip", hero=h, card=c, name=C.card_name(c), replaced=a.get("replace")
            )
        )

    def place_loot(self, fr: Frame, ev: list[Event]) -> None:
        h = fr["hero"]
        c = fr["card"]
        d = C.card(c)
        seat = self.owner(h)
        if d["type"] == "equipment" and self.can_equip(h, c):
            fr["stage"] = "equip"
            fr["wait"] = True
            ev.append(Event.public("loot", hero=h, card=c, name=d["name"]))
            return
        self.s.limbo = []
        fr["stage"] = "end"
        if d["type"] == "secret":
            self.hand(seat).append(c)
            ev.append(Event.public("loot_secret", hero=h, hand_size=len(self.hand(seat))))
            ev.append(Event.private(seat, "loot_secret_card", hero=h, card=c, name=d["name"]))
        elif d["type"] == "equipment":
            self.hero(h).stored.append(c)
            ev.append(Event.public("loot_store", hero=h, card=c, name=d["name"]))
        else:
            self.hero(h).faceup.append(c)
            ev.append(Event.public("loot", hero=h, card=c, name=d["name"]))
