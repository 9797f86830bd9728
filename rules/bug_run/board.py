"""The level on the board (Game Setup, Playing a Level): laying out a line of the level card,
and where a hero may move (How to Move, 5- or 6-player Games, Reaching the Stairs).

Columns run left to right: column 0 is the entrance, the last column the stairs. A column holds
one central card ("C") or an upper and a lower card ("U", "D") on the 5-6 side (BR-10).
"""

from __future__ import annotations

from typing import Any

from ..core import Event
from . import content as C
from .context import Action, Run
from .state import Column, Position, Slot, Space
from .stocks import parse

QUEST_KINDS = ("escape", "gamble", "archery", "duel", "vault", "trapped_vault")


def _spaces(printed: list[dict[str, Any]], lock56: bool) -> list[Space]:
    """A card's printed spaces; those marked for 5-6 players are padlocked in a smaller game."""
    return [Space(other["weapon"], bool(other["five_six"] and lock56)) for other in printed]


def make_slot(game: Run, cid: str | None, level: int) -> Slot:
    """A board place for card ``cid`` (None: empty) with its printed spaces; 5-6 spaces are
    padlocked in a smaller game."""
    lock56 = game.small_game()
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
        for other in C.STAIRS[cid]["spaces"]:
            weapon = {"sw": "sw", "bw": "bw"}.get(other["weapon"], "any")
            slot.spaces.append(Space(weapon, bool(other["five_six"] and lock56)))
    return slot


def build_level(game: Run, level: int, events: list[Event]) -> None:
    """Lay out line ``level`` of the level card (BR-7 order) and put every hero at the entrance."""
    state = game.state
    side = "small" if game.small_game() else "large"
    line = C.LEVELS[state.level_card][side][level - 1]
    deck = state.monsters[level - 1]
    entrance = make_slot(game, None, level)
    entrance.kind = "entrance"
    cols: list[Column] = [{"C": entrance}]
    for col in line:
        drawn: list[str | None] = []
        for cell in col:
            pile = deck if cell == "M" else state.explore
            drawn.append(pile.pop(0) if pile else None)  # BR-62 fallback: an empty slot
        if len(col) == 1:
            cols.append({"C": make_slot(game, drawn[0], level)})
        else:
            cols.append(
                {"U": make_slot(game, drawn[0], level), "D": make_slot(game, drawn[1], level)}
            )
    cols.append({"C": make_slot(game, state.stairs_stack[level - 1], level)})
    state.board = cols
    state.teams = {}
    for hero in range(game.n_heroes()):
        game.hero(hero).pos = Position(0, "C", None)
    events.append(Event.public("level_built", level=level, board=board_view(game)))


def board_view(game: Run, *, own: bool = False) -> list[dict[str, Any]]:
    """Every column of the board as plain data (the view's and the level_built event's board).
    ``own``: nothing in it is shared with the state, so no later move changes it (the view)."""
    out = []
    for cols in game.state.board:
        out.append({f: slot_view(game, slot, own=own) for f, slot in cols.items()})
    return out


def slot_view(game: Run, slot: Slot, *, own: bool = False) -> dict[str, Any]:
    # Without ``own``, ``marks`` is the slot's own list, not a copy: the recorded games'
    # "level_built" events were stored with that sharing (a later mark shows in an earlier
    # event's board), and stored games must replay to the same JSON.
    """One board place as plain data, with the card's name and content row for presenters."""
    v: dict[str, Any] = {
        "card": slot.card,
        "kind": slot.kind,
        "wounds": slot.wounds,
        "defeated": slot.defeated,
        "locked": slot.locked,
        "marks": list(slot.marks) if own else slot.marks,
        "duel": slot.duel,
    }
    cid = slot.card
    v["name"] = C.card_name(cid) if cid else None
    v["spaces"] = [space.to_dict() for space in slot.spaces]
    info = C.MONSTERS.get(cid) or C.EXPLORATION.get(cid) or C.STAIRS.get(cid) if cid else None
    v["info"] = dict(info) if info else None
    return v


def bridges_between(game: Run, c0: int, cd: int, route: str | None) -> list[list[Any]]:
    """The bridge cards crossed going from column ``c0`` to ``cd`` by ``route`` (BR-9), as [col,
    floor]."""
    out: list[list[Any]] = []
    for card in range(c0 + 1, cd):
        column = game.state.board[card]
        floor = "C" if "C" in column else route
        if floor is not None and column[floor].kind == "bridge":
            out.append([card, floor])
    return out


def enterable(game: Run, slot: Slot) -> bool:
    """Whether a move may end on this card: not a bridge, the entrance or an empty place, not
    defeated or padlocked (BR-11)."""
    if slot.kind in ("bridge", "entrance", "empty"):
        return False
    return not slot.defeated and not slot.locked


def free_spaces(game: Run, slot: Slot, hero: int) -> list[int]:
    """Spaces of ``slot`` that ``hero`` may take: empty, not padlocked, not reserved by someone
    else."""
    return [
        i
        for i, space in enumerate(slot.spaces)
        if space.hero is None and not space.lock and space.reserved in (None, hero)
    ]


def stair_entry_cost_ok(game: Run, hero: int, entry: list[str]) -> bool:
    """Whether ``hero`` can pay a stairs space's entry cost (a heart cost needs one more heart,
    BR-19)."""
    sheet = game.hero(hero)
    for item in entry:
        kind, amount = parse(item)
        if amount >= 0 or kind == "L":
            continue
        need = -amount
        if kind == "h" and sheet.hearts <= need:
            return False
        if kind == "c" and sheet.coins < need:
            return False
        if kind == "a" and sheet.arrows < need:
            return False
    return True


def stair_team(game: Run, i: int) -> str | None:
    """The fight team of stairs space ``i`` (None on a rest card)."""
    return game.stairs_card()["spaces"][i]["team"]


def stair_spaces_for(game: Run, hero: int) -> list[int]:
    """Free stairs spaces ``hero`` may take: team rule (2p fights), then affordability (4.8)."""
    slot = game.stairs_slot()
    card = game.stairs_card()
    free = free_spaces(game, slot, hero)
    teams = game.state.teams
    if card["type"] == "fight" and str(game.owner(hero)) in teams:
        free = [i for i in free if stair_team(game, i) == teams[str(game.owner(hero))]]
    payable = [i for i in free if stair_entry_cost_ok(game, hero, card["spaces"][i]["entry"])]
    return payable or free


def move_options(game: Run, hero: int, *, cards: bool = True) -> list[Action]:
    """Every legal move of ``hero`` (4.4), nearest card first (the AFK default)."""
    pos = game.hero(hero).position()
    c0, f0 = int(pos.col), str(pos.floor)
    board = game.state.board
    extra = game.find_in_hand(game.owner(hero), "extra") if cards else []
    out: list[Action] = []
    for card in range(c0 + 1, len(board)):
        for fd, slot in board[card].items():
            if not (f0 == "C" or fd == "C" or f0 == fd) or not enterable(game, slot):
                continue
            if slot.kind == "stairs":
                spaces = stair_spaces_for(game, hero)
            else:
                spaces, seen = [], set()
                for i in free_spaces(game, slot, hero):
                    weapon = slot.spaces[i].weapon
                    if weapon not in seen:
                        seen.add(weapon)
                        spaces.append(i)
            routes: list[str | None]
            if f0 != "C":
                routes = [f0]
            elif fd != "C":
                routes = [fd]
            elif bridges_between(game, c0, card, "U") != bridges_between(game, c0, card, "D"):
                routes = ["U", "D"]
            else:
                routes = [None]
            for route in routes:
                base: Action = {"type": "move", "col": card, "floor": fd}
                if route is not None and f0 == "C" and fd == "C":
                    base["route"] = route
                for i in spaces:
                    out.append(base | {"space": i})
                if not spaces and slot.kind == "monster" and extra:
                    out.append(base | {"extra": extra[0]})
    return out
