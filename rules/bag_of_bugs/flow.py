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


def bump(t: Table) -> None:
    """Earlier buttons lose their meaning: advance the ``turn`` counter."""
    t.step += 1


def options(t: Table) -> list[Counts] | list[str]:
    """The options of the open choice, in a fixed order (the timeout draws from it)."""
    choice = t.choice
    if choice is None:
        return []
    if choice.kind == TAKE:
        return take_options(choice.grab, t.pool)
    if choice.kind == GIVE:
        return list(canon(t.collections[choice.seat]))
    return list(LEFTOVER_OPTIONS)


# -- drawing ----------------------------------------------------------------------------------
def draw_token(t: Table) -> str:
    """One uniformly random token out of the bag, through the game RNG."""
    index = t.rng.below(total(t.bag))
    for token in TYPES:
        count = t.bag.get(token, 0)
        if index < count:
            return token
        index -= count
    raise AssertionError("bag count mismatch")


def reveal(t: Table, auto: bool) -> list[Event]:
    """The Drawer (or the idle timer) reveals one token; stop when a limit is met (BB-7, BB-8)."""
    token = draw_token(t)
    t.bag = subtract(t.bag, one(token))
    t.pool = add(t.pool, one(token))
    t.revealed += 1
    t.order.append(token)
    if token == ROCK:
        t.rocks_revealed += 1
    events = [
        Event.public(
            "reveal",
            drawer=t.drawer,
            token=token,
            count=t.revealed,
            limit=t.setup.draw_limit,
            rocks=t.rocks_revealed,
            auto=auto,
        )
    ]
    second_rock = t.rocks_revealed >= 2
    at_limit = t.revealed >= t.setup.draw_limit
    if second_rock or at_limit:
        reason = "both" if second_rock and at_limit else ("rock" if second_rock else "limit")
        stop_draw(t, reason, events)
    elif not t.bag:  # BB-9: unreachable by the Rock invariant, kept as a safe fallback
        stop_draw(t, "bag_empty", events)
    return events


def claim(t: Table, seat: int, grab: int) -> list[Event]:
    t.grabs[grab - 1] = seat
    return [Event.public("grab", seat=seat, token=grab, count=t.revealed)]


def stop_draw(t: Table, reason: str, events: list[Event]) -> None:
    """Close the grab window, take the Rocks out of the pool (step 2), then resolve."""
    events.append(Event.public("draw_stopped", drawer=t.drawer, reason=reason, count=t.revealed))
    rocks = t.rocks_revealed
    if rocks:
        t.pool = subtract(t.pool, one(ROCK, rocks))
    if rocks == 1:
        t.bag = add(t.bag, one(ROCK))
    elif rocks >= 2:
        t.pairs += 1
        t.final = t.pairs >= t.setup.pairs_needed
    if rocks:
        events.append(
            Event.public(
                "rocks",
                count=rocks,
                result="returned" if rocks == 1 else "paired",
                pairs=t.pairs,
                needed=t.setup.pairs_needed,
                last=t.final,
            )
        )
    t.phase = RESOLVE
    t.stage = GRABS
    t.next_grab = 1
    bump(t)
    run(t, events)


# -- resolution -------------------------------------------------------------------------------
def run(t: Table, events: list[Event]) -> None:
    """Do every automatic step until a real question is open or the next draw begins."""
    while True:
        if t.held_winds:
            if _resolve_wind(t, events):
                return
            continue
        t.wind_holder = None
        if t.stage == GRABS:
            if _resolve_next_grab(t, events):
                return
            continue
        if t.stage == LEFTOVERS:
            if not t.pool:
                t.stage = CLEANUP
                continue
            ask(t, LEFTOVER, t.drawer, events)
            return
        cleanup(t, events)
        return


def _resolve_wind(t: Table, events: list[Event]) -> bool:
    """One held Wind (BB-10..BB-13, BB-23); True when the giver must be asked."""
    giver = t.wind_holder
    assert giver is not None
    kinds = list(canon(t.collections[giver]))
    if not kinds:
        _return_wind(t)
        events.append(Event.public("wind", seat=giver, to=t.left_of(giver), token=None, how=EMPTY))
        return False
    if len(kinds) == 1:
        give(t, kinds[0], ONLY, events)
        return False
    ask(t, GIVE, giver, events)
    return True


def _resolve_next_grab(t: Table, events: list[Event]) -> bool:
    """The next claimed Grab token, 1 → 5 (BB-16); True when its owner must be asked."""
    for grab in range(t.next_grab, 6):
        holder = t.grabs[grab - 1]
        if holder is None:
            continue
        t.next_grab = grab + 1
        choices = take_options(grab, t.pool)
        if not choices:  # BB-15
            events.append(Event.public("take", seat=holder, grab=grab, tokens={}, how=EMPTY))
            return False
        if len(choices) == 1:
            take(t, holder, grab, choices[0], ONLY, events)
            return False
        ask(t, TAKE, holder, events, grab)
        return True
    t.next_grab = 6
    t.stage = LEFTOVERS
    return False


def ask(t: Table, kind: str, seat: int, events: list[Event], grab: int = 0) -> None:
    bump(t)
    t.choice = Choice(kind, seat, t.step, grab)
    events.append(
        Event.public("choice", seat=seat, kind=kind, step=t.step, grab=grab, options=options(t))
    )


def _collect(t: Table, seat: int, tokens: Counts) -> None:
    """Tokens enter a collection together; Winds are held to be resolved next (BB-10)."""
    t.collections[seat] = add(
        t.collections[seat], {k: tokens[k] for k in COLLECTABLE if k in tokens}
    )
    winds = tokens.get(WIND, 0)
    if winds:
        t.held_winds += winds
        t.wind_holder = seat


def _return_wind(t: Table) -> None:
    t.held_winds -= 1
    t.bag = add(t.bag, one(WIND))  # BB-14


def take(t: Table, seat: int, grab: int, tokens: Counts, how: str, events: list[Event]) -> None:
    tokens = canon(tokens)
    t.pool = subtract(t.pool, tokens)
    _collect(t, seat, tokens)
    events.append(Event.public("take", seat=seat, grab=grab, tokens=tokens, how=how))


def give(t: Table, token: str, how: str, events: list[Event]) -> None:
    giver = t.wind_holder
    assert giver is not None
    receiver = t.left_of(giver)
    t.collections[giver] = subtract(t.collections[giver], one(token))
    t.collections[receiver] = add(t.collections[receiver], one(token))
    _return_wind(t)
    events.append(Event.public("wind", seat=giver, to=receiver, token=token, how=how))


def leftovers(t: Table, choice: str, how: str, events: list[Event]) -> None:
    tokens = canon(t.pool)
    t.pool = {}
    if choice == TAKE_ALL:
        _collect(t, t.drawer, tokens)
    else:
        t.bag = add(t.bag, tokens)
    t.stage = CLEANUP
    events.append(Event.public("leftovers", seat=t.drawer, choice=choice, tokens=tokens, how=how))


def answer(t: Table, picked: Counts | str, how: str) -> list[Event]:
    """Settle the open choice with ``picked`` (already validated), then carry on."""
    choice = t.choice
    assert choice is not None
    t.choice = None
    events: list[Event] = []
    if choice.kind == TAKE:
        assert isinstance(picked, dict)
        take(t, choice.seat, choice.grab, picked, how, events)
    elif choice.kind == GIVE:
        assert isinstance(picked, str)
        give(t, picked, how, events)
    else:
        assert isinstance(picked, str)
        leftovers(t, picked, how, events)
    run(t, events)
    return events


def timeout(t: Table) -> list[Event]:
    """BB-22: a random legal take, a random token for Wind, RETURN_ALL for leftovers."""
    choice = t.choice
    assert choice is not None
    picked: Counts | str
    if choice.kind == TAKE:
        picked = t.rng.choice(take_options(choice.grab, t.pool))
    elif choice.kind == GIVE:
        picked = _random_token(t, t.collections[choice.seat])
    else:
        picked = RETURN_ALL
    return answer(t, picked, TIMEOUT)


def _random_token(t: Table, zone: Counts) -> str:
    """A uniformly random token (not type) of ``zone``."""
    index = t.rng.below(total(zone))
    for token in TYPES:
        count = zone.get(token, 0)
        if index < count:
            return token
        index -= count
    raise AssertionError("zone count mismatch")


# -- end of turn ------------------------------------------------------------------------------
def cleanup(t: Table, events: list[Event]) -> None:
    """Step 5: Grab tokens back; the bag passes left, or the game ends (BB-20)."""
    if not t.final:
        # RULINGS §1.1: Rocks leave the bag only as pairs, so the next turn starts with
        # 2N+1-2*pairs >= 3 of them and its 2nd Rock stops the draw before the bag can empty.
        rocks = t.bag.get(ROCK, 0)
        expected = 2 * t.setup.pairs_needed + 1 - 2 * t.pairs
        assert rocks == expected >= 3, f"Rock invariant broken: {rocks} Rocks, {t.pairs} pairs"
    events.append(Event.public("turn_end", turn_number=t.turn_number, drawer=t.drawer))
    t.grabs = [None] * 5
    t.stage = ""
    t.choice = None
    bump(t)
    if t.final:
        t.phase = OVER
        parts = scoring.breakdowns(t.collections)
        scores = [p["total"] for p in parts]
        events.append(
            Event.public("game_over", scores=scores, winners=scoring.best(scores), breakdowns=parts)
        )
        return
    t.turn_number += 1
    t.drawer = t.left_of(t.drawer)
    t.phase = DRAW
    t.revealed = 0
    t.rocks_revealed = 0
    t.order = []
    t.next_grab = 1
    events.append(
        Event.public(
            "turn_start",
            turn_number=t.turn_number,
            drawer=t.drawer,
            limit=t.setup.draw_limit,
            bag=total(t.bag),
        )
    )
