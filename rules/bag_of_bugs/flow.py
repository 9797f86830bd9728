"""The turn machine (RULINGS §1.2): reveals, the Rock step, grab resolution, Wind, leftovers,
cleanup and the end.

Every function here mutates a ``Table`` and appends events; callers (engine.py) validate first,
so nothing here is reached with an illegal request. ``run`` performs every automatic step and
stops at the first real question (a choice with two or more options) or at the next draw.
"""

from __future__ import annotations

from rules.core import Event

from . import scoring
from .grabs import take_options
from .state import (
    CLEANUP,
    DRAW,
    GIVE,
    GRABS,
    LEFTOVER,
    LEFTOVERS,
    OVER,
    RESOLVE,
    TAKE,
    Choice,
    Table,
)
from .tokens import COLLECTABLE, ROCK, TYPES, WIND, Counts, add, canon, one, subtract, total

TAKE_ALL = "take_all"
RETURN_ALL = "return_all"
LEFTOVER_OPTIONS: tuple[str, ...] = (TAKE_ALL, RETURN_ALL)

# How a choice was settled, carried in events as "how".
CHOSEN = "chosen"
ONLY = "only"
TIMEOUT = "timeout"
EMPTY = "empty"


def bump(table: Table) -> None:
    """Earlier buttons lose their meaning: advance the ``turn`` counter."""
    table.step += 1


def options(table: Table) -> list[Counts] | list[str]:
    """The options of the open choice, in a fixed order (the timeout draws from it)."""
    choice = table.choice
    if choice is None:
        return []
    if choice.kind == TAKE:
        return take_options(choice.grab, table.pool)
    if choice.kind == GIVE:
        return list(canon(table.collections[choice.seat]))
    return list(LEFTOVER_OPTIONS)


# -- drawing ----------------------------------------------------------------------------------
def draw_token(table: Table) -> str:
    """One uniformly random token out of the bag, through the game RNG."""
    index = table.rng.below(total(table.bag))
    for token in TYPES:
        count = table.bag.get(token, 0)
        if index < count:
            return token
        index -= count
    raise AssertionError("bag count mismatch")


def reveal(table: Table, auto: bool) -> list[Event]:
    """The Drawer (or the idle timer) reveals one token; stop when a limit is met (BB-7, BB-8)."""
    token = draw_token(table)
    table.bag = subtract(table.bag, one(token))
    table.pool = add(table.pool, one(token))
    table.revealed += 1
    table.order.append(token)
    if token == ROCK:
        table.rocks_revealed += 1
    events = [
        Event.public(
            "reveal",
            drawer=table.drawer,
            token=token,
            count=table.revealed,
            limit=table.setup.draw_limit,
            rocks=table.rocks_revealed,
            auto=auto,
        )
    ]
    second_rock = table.rocks_revealed >= 2
    at_limit = table.revealed >= table.setup.draw_limit
    if second_rock or at_limit:
        reason = "both" if second_rock and at_limit else ("rock" if second_rock else "limit")
        stop_draw(table, reason, events)
    elif not table.bag:  # BB-9: unreachable by the Rock invariant, kept as a safe fallback
        stop_draw(table, "bag_empty", events)
    return events


def claim(table: Table, seat: int, grab: int) -> list[Event]:
    table.grabs[grab - 1] = seat
    return [Event.public("grab", seat=seat, token=grab, count=table.revealed)]


def stop_draw(table: Table, reason: str, events: list[Event]) -> None:
    """Close the grab window, take the Rocks out of the pool (step 2), then resolve."""
    events.append(
        Event.public("draw_stopped", drawer=table.drawer, reason=reason, count=table.revealed)
    )
    rocks = table.rocks_revealed
    if rocks:
        table.pool = subtract(table.pool, one(ROCK, rocks))
    if rocks == 1:
        table.bag = add(table.bag, one(ROCK))
    elif rocks >= 2:
        table.pairs += 1
        table.final = table.pairs >= table.setup.pairs_needed
    if rocks:
        events.append(
            Event.public(
                "rocks",
                count=rocks,
                result="returned" if rocks == 1 else "paired",
                pairs=table.pairs,
                needed=table.setup.pairs_needed,
                last=table.final,
            )
        )
    table.phase = RESOLVE
    table.stage = GRABS
    table.next_grab = 1
    bump(table)
    run(table, events)


# -- resolution -------------------------------------------------------------------------------
def run(table: Table, events: list[Event]) -> None:
    """Do every automatic step until a real question is open or the next draw begins."""
    while True:
        if table.held_winds:
            if _resolve_wind(table, events):
                return
            continue
        table.wind_holder = None
        if table.stage == GRABS:
            if _resolve_next_grab(table, events):
                return
            continue
        if table.stage == LEFTOVERS:
            if not table.pool:
                table.stage = CLEANUP
                continue
            ask(table, LEFTOVER, table.drawer, events)
            return
        cleanup(table, events)
        return


def _resolve_wind(table: Table, events: list[Event]) -> bool:
    """One held Wind (BB-10..BB-13, BB-23); True when the giver must be asked."""
    giver = table.wind_holder
    assert giver is not None
    kinds = list(canon(table.collections[giver]))
    if not kinds:
        _return_wind(table)
        events.append(
            Event.public("wind", seat=giver, to=table.left_of(giver), token=None, how=EMPTY)
        )
        return False
    if len(kinds) == 1:
        give(table, kinds[0], ONLY, events)
        return False
    ask(table, GIVE, giver, events)
    return True


def _resolve_next_grab(table: Table, events: list[Event]) -> bool:
    """The next claimed Grab token, 1 → 5 (BB-16); True when its owner must be asked."""
    for grab in range(table.next_grab, 6):
        holder = table.grabs[grab - 1]
        if holder is None:
            continue
        table.next_grab = grab + 1
        choices = take_options(grab, table.pool)
        if not choices:  # BB-15
            events.append(Event.public("take", seat=holder, grab=grab, tokens={}, how=EMPTY))
            return False
        if len(choices) == 1:
            take(table, holder, grab, choices[0], ONLY, events)
            return False
        ask(table, TAKE, holder, events, grab)
        return True
    table.next_grab = 6
    table.stage = LEFTOVERS
    return False


def ask(table: Table, kind: str, seat: int, events: list[Event], grab: int = 0) -> None:
    bump(table)
    table.choice = Choice(kind, seat, table.step, grab)
    events.append(
        Event.public(
            "choice", seat=seat, kind=kind, step=table.step, grab=grab, options=options(table)
        )
    )


def _collect(table: Table, seat: int, tokens: Counts) -> None:
    """Tokens enter a collection together; Winds are held to be resolved next (BB-10)."""
    table.collections[seat] = add(
        table.collections[seat], {k: tokens[k] for k in COLLECTABLE if k in tokens}
    )
    winds = tokens.get(WIND, 0)
    if winds:
        table.held_winds += winds
        table.wind_holder = seat


def _return_wind(table: Table) -> None:
    table.held_winds -= 1
    table.bag = add(table.bag, one(WIND))  # BB-14


def take(table: Table, seat: int, grab: int, tokens: Counts, how: str, events: list[Event]) -> None:
    tokens = canon(tokens)
    table.pool = subtract(table.pool, tokens)
    _collect(table, seat, tokens)
    events.append(Event.public("take", seat=seat, grab=grab, tokens=tokens, how=how))


def give(table: Table, token: str, how: str, events: list[Event]) -> None:
    giver = table.wind_holder
    assert giver is not None
    receiver = table.left_of(giver)
    table.collections[giver] = subtract(table.collections[giver], one(token))
    table.collections[receiver] = add(table.collections[receiver], one(token))
    _return_wind(table)
    events.append(Event.public("wind", seat=giver, to=receiver, token=token, how=how))


def leftovers(table: Table, choice: str, how: str, events: list[Event]) -> None:
    tokens = canon(table.pool)
    table.pool = {}
    if choice == TAKE_ALL:
        _collect(table, table.drawer, tokens)
    else:
        table.bag = add(table.bag, tokens)
    table.stage = CLEANUP
    events.append(
        Event.public("leftovers", seat=table.drawer, choice=choice, tokens=tokens, how=how)
    )


def answer(table: Table, picked: Counts | str, how: str) -> list[Event]:
    """Settle the open choice with ``picked`` (already validated), then carry on."""
    choice = table.choice
    assert choice is not None
    table.choice = None
    events: list[Event] = []
    if choice.kind == TAKE:
        assert isinstance(picked, dict)
        take(table, choice.seat, choice.grab, picked, how, events)
    elif choice.kind == GIVE:
        assert isinstance(picked, str)
        give(table, picked, how, events)
    else:
        assert isinstance(picked, str)
        leftovers(table, picked, how, events)
    run(table, events)
    return events


def timeout(table: Table) -> list[Event]:
    """BB-22: a random legal take, a random token for Wind, RETURN_ALL for leftovers."""
    choice = table.choice
    assert choice is not None
    picked: Counts | str
    if choice.kind == TAKE:
        picked = table.rng.choice(take_options(choice.grab, table.pool))
    elif choice.kind == GIVE:
        picked = _random_token(table, table.collections[choice.seat])
    else:
        picked = RETURN_ALL
    return answer(table, picked, TIMEOUT)


def _random_token(table: Table, zone: Counts) -> str:
    """A uniformly random token (not type) of ``zone``."""
    index = table.rng.below(total(zone))
    for token in TYPES:
        count = zone.get(token, 0)
        if index < count:
            return token
        index -= count
    raise AssertionError("zone count mismatch")


# -- end of turn ------------------------------------------------------------------------------
def cleanup(table: Table, events: list[Event]) -> None:
    """Step 5: Grab tokens back; the bag passes left, or the game ends (BB-20)."""
    if not table.final:
        # RULINGS §1.1: Rocks leave the bag only as pairs, so the next turn starts with
        # 2N+1-2*pairs >= 3 of them and its 2nd Rock stops the draw before the bag can empty.
        rocks = table.bag.get(ROCK, 0)
        expected = 2 * table.setup.pairs_needed + 1 - 2 * table.pairs
        assert rocks == expected >= 3, f"Rock invariant broken: {rocks} Rocks, {table.pairs} pairs"
    events.append(Event.public("turn_end", turn_number=table.turn_number, drawer=table.drawer))
    table.grabs = [None] * 5
    table.stage = ""
    table.choice = None
    bump(table)
    if table.final:
        table.phase = OVER
        parts = scoring.breakdowns(table.collections)
        scores = [p["total"] for p in parts]
        events.append(
            Event.public("game_over", scores=scores, winners=scoring.best(scores), breakdowns=parts)
        )
        return
    table.turn_number += 1
    table.drawer = table.left_of(table.drawer)
    table.phase = DRAW
    table.revealed = 0
    table.rocks_revealed = 0
    table.order = []
    table.next_grab = 1
    events.append(
        Event.public(
            "turn_start",
            turn_number=table.turn_number,
            drawer=table.drawer,
            limit=table.setup.draw_limit,
            bag=total(table.bag),
        )
    )
