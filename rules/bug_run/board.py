"""The level on the board: building a line of the level card, and where a hero may move.

Columns run left to right: column 0 is the entrance, the last column the stairs. A column holds
one central card ("C") or an upper and a lower card ("U", "D") on the 5-6 side (BR-10).
"""

from __future__ import annotations

from typing import Any

from ..core import Event
from . import content as C
from .base import Action, Base, parse
from .state import Column, Position, Slot, Space

QUEST_KINDS = ("escape", "gamble", "archery", "duel", "vault", "trapped_vault")


def _spaces(printed: list[dict[str, Any]], lock56: bool) -> list[Space]:
    """A card's printed spaces; those marked for 5-6 players are padlocked in a smaller game."""
    return [Space(x["weapon"], bool(x["five_six"] and lock56)) for x in printed]


class BoardMixin(Base):
    """Level building and movement geometry."""

    def small_game(self) -> bool:
        return int(self.s.players) < 5

    def make_slot(self, cid: str | None, level: int) -> Slot:
        lock56 = self.small_game()
        slot = Slot(cid, 0, False, False, [], 0, "empty", [])
        if cid is None:
            pass
        elif cid in C.MONSTERS:
            slot.kind = "monster"
            slot.spaces = _spaces(C.MONSTERS[cid]["spaces"], lock56)
        elif cid in C.BRIDGES:
            slot.kind = "bridge"
        elif cid in C.QUESTS:
            quest = C.QUESTS[cid]
            slot.kind = quest["kind"]
            slot.spaces = _spaces(quest["spaces"], lock56)
        else:
            slot.kind = "stairs"
            for x in C.STAIRS[cid]["spaces"]:
                weapon = {"sw": "sw", "bw": "bw"}.get(x["weapon"], "any")
                slot.spaces.append(Space(weapon, bool(x["five_six"] and lock56)))
        return slot

    def build_level(self, level: int, ev: list[Event]) -> None:
        """Lay out line ``level`` of the level card (BR-7 order) and put every hero at the entrance."""
        s = self.s
        side = "small" if self.small_game() else "large"
        line = C.LEVELS[s.level_card][side][level - 1]
        deck = s.monsters[level - 1]
        entrance = self.make_slot(None, level)
        entrance.kind = "entrance"
        cols: list[Column] = [{"C": entrance}]
        for col in line:
            drawn: list[str | None] = []
            for cell in col:
                pile = deck if cell == "M" else s.explore
                drawn.append(pile.pop(0) if pile else None)  # BR-62 fallback: an empty slot
            if len(col) == 1:
                cols.append({"C": self.make_slot(drawn[0], level)})
            else:
                cols.append(
                    {"U": self.make_slot(drawn[0], level), "D": self.make_slot(drawn[1], level)}
                )
        cols.append({"C": self.make_slot(s.stairs_stack[level - 1], level)})
        s.board = cols
        s.teams = {}
        for h in range(self.n_heroes()):
            self.hero(h).pos = Position(0, "C", None)
        ev.append(Event.public("level_built", level=level, board=self.board_view()))

    def board_view(self) -> list[dict[str, Any]]:
        out = []
        for cols in self.s.board:
            out.append({f: self.slot_view(slot) for f, slot in cols.items()})
        return out

    def slot_view(self, slot: Slot) -> dict[str, Any]:
        # ``marks`` is the slot's own list, not a copy: the recorded games' "level_built" events
        # were stored with that sharing (a later mark shows in an earlier event's board), and
        # stored games must replay to the same JSON.
        v: dict[str, Any] = {
            "card": slot.card,
            "kind": slot.kind,
            "wounds": slot.wounds,
            "defeated": slot.defeated,
            "locked": slot.locked,
            "marks": slot.marks,
            "duel": slot.duel,
        }
        cid = slot.card
        v["name"] = C.card_name(cid) if cid else None
        v["spaces"] = [sp.to_dict() for sp in slot.spaces]
        info = C.MONSTERS.get(cid) or C.EXPLORATION.get(cid) or C.STAIRS.get(cid) if cid else None
        v["info"] = dict(info) if info else None
        return v

    # -- positions ------------------------------------------------------------------------------
    def stairs_col(self) -> int:
        return len(self.s.board) - 1

    def stairs_slot(self) -> Slot:
        return self.s.board[-1]["C"]

    def stairs_card(self) -> dict[str, Any]:
        card = self.stairs_slot().card
        assert card is not None, "the stairs column always holds a stairs card"
        return C.STAIRS[card]

    def slot(self, col: int, floor: str) -> Slot:
        return self.s.board[col][floor]

    def here(self, h: int) -> Slot:
        pos = self.hero(h).position()
        return self.slot(pos.col, pos.floor)

    def on_stairs(self, h: int) -> bool:
        return int(self.hero(h).position().col) == self.stairs_col()

    def at_entrance(self, h: int) -> bool:
        return int(self.hero(h).position().col) == 0

    def heroes_on(self, col: int, floor: str) -> list[int]:
        return [
            h
            for h in range(self.n_heroes())
            if self.hero(h).position().col == col and self.hero(h).position().floor == floor
        ]

    def space_of(self, h: int) -> int:
        """The space hero ``h`` stands on (asked only of a hero standing on one)."""
        space = self.hero(h).position().space
        assert space is not None, "the hero stands on no space"
        return space

    def space_weapon(self, h: int) -> str:
        pos = self.hero(h).position()
        if pos.space is None:
            return "any"
        return str(self.here(h).spaces[pos.space].weapon)

    # -- movement -------------------------------------------------------------------------------
    def bridges_between(self, c0: int, cd: int, route: str | None) -> list[list[Any]]:
        out: list[list[Any]] = []
        for c in range(c0 + 1, cd):
            column = self.s.board[c]
            floor = "C" if "C" in column else route
            if floor is not None and column[floor].kind == "bridge":
                out.append([c, floor])
        return out

    def enterable(self, slot: Slot) -> bool:
        if slot.kind in ("bridge", "entrance", "empty"):
            return False
        return not slot.defeated and not slot.locked

    def free_spaces(self, slot: Slot, h: int) -> list[int]:
        return [
            i
            for i, sp in enumerate(slot.spaces)
            if sp.hero is None and not sp.lock and sp.reserved in (None, h)
        ]

    def stair_entry_cost_ok(self, h: int, entry: list[str]) -> bool:
        hero = self.hero(h)
        for item in entry:
            kind, amount = parse(item)
            if amount >= 0 or kind == "L":
                continue
            need = -amount
            if kind == "h" and hero.hearts <= need:
                return False
            if kind == "c" and hero.coins < need:
                return False
            if kind == "a" and hero.arrows < need:
                return False
        return True

    def stair_team(self, i: int) -> str | None:
        return self.stairs_card()["spaces"][i]["team"]

    def stair_spaces_for(self, h: int) -> list[int]:
        """Free stairs spaces hero ``h`` may take: team rule (2p fights), then affordability (4.8)."""
        slot = self.stairs_slot()
        card = self.stairs_card()
        free = self.free_spaces(slot, h)
        teams = self.s.teams
        if card["type"] == "fight" and str(self.owner(h)) in teams:
            free = [i for i in free if self.stair_team(i) == teams[str(self.owner(h))]]
        payable = [i for i in free if self.stair_entry_cost_ok(h, card["spaces"][i]["entry"])]
        return payable or free

    def move_options(self, h: int, *, cards: bool = True) -> list[Action]:
        """Every legal move of hero ``h`` (4.4), nearest card first (the AFK default)."""
        pos = self.hero(h).position()
        c0, f0 = int(pos.col), str(pos.floor)
        board = self.s.board
        extra = self.find_in_hand(self.owner(h), "extra") if cards else []
        out: list[Action] = []
        for c in range(c0 + 1, len(board)):
            for fd, slot in board[c].items():
                if not (f0 == "C" or fd == "C" or f0 == fd) or not self.enterable(slot):
                    continue
                if slot.kind == "stairs":
                    spaces = self.stair_spaces_for(h)
                else:
                    spaces, seen = [], set()
                    for i in self.free_spaces(slot, h):
                        w = slot.spaces[i].weapon
                        if w not in seen:
                            seen.add(w)
                            spaces.append(i)
                routes: list[str | None]
                if f0 != "C":
                    routes = [f0]
                elif fd != "C":
                    routes = [fd]
                elif self.bridges_between(c0, c, "U") != self.bridges_between(c0, c, "D"):
                    routes = ["U", "D"]
                else:
                    routes = [None]
                for route in routes:
                    base: Action = {"type": "move", "col": c, "floor": fd}
                    if route is not None and f0 == "C" and fd == "C":
                        base["route"] = route
                    for i in spaces:
                        out.append(base | {"space": i})
                    if not spaces and slot.kind == "monster" and extra:
                        out.append(base | {"extra": extra[0]})
        return out
