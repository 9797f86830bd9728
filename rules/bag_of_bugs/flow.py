"""The turn machine (RULINGS §1.2): reveals, the Rock step, grab resolution, Wind, leftovers,
cleanup and the end.

Every function here mutates a ``GameState`` and appends events; callers (engine.py) validate first,
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
    GameState,
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


def bump(state: GameState) -> None:
    """Earlier buttons lose their meaning: advance the ``turn`` counter."""
    state.step += 1


def options(state: GameState) -> list[Counts] | list[str]:
    """The options of the open choice, in a fixed order (the timeout draws from it)."""
    choice = state.choice
    if choice is None:
        return []
    if choice.kind == TAKE:
        return take_options(choice.grab, state.pool)
    if choice.kind == GIVE:
        return list(canon(state.collections[choice.seat]))
    return list(LEFTOVER_OPTIONS)


# -- drawing ----------------------------------------------------------------------------------
def draw_token(state: GameState) -> str:
    """One uniformly random token out of the bag, through the game RNG."""
    index = state.rng.below(total(state.bag))
    for token in TYPES:
        count = state.bag.get(token, 0)
        if index < count:
            return token
        index -= count
    raise AssertionError("bag count mismatch")


def reveal(state: GameState, auto: bool) -> list[Event]:
    """The Drawer (or the idle timer) reveals one token; stop when a limit is met (BB-7, BB-8)."""
    token = draw_token(state)
    state.bag = subtract(state.bag, one(token))
    state.pool = add(state.pool, one(token))
    state.revealed += 1
    state.order.append(token)
    if token == ROCK:
        state.rocks_revealed += 1
    events = [
        Event.public(
            "reveal",
            drawer=state.drawer,
            token=token,
            count=state.revealed,
            limit=state.setup.draw_limit,
            rocks=state.rocks_revealed,
            auto=auto,
        )
    ]
    second_rock = state.rocks_revealed >= 2
    at_limit = state.revealed >= state.setup.draw_limit
    if second_rock or at_limit:
        reason = "both" if second_rock and at_limit else ("rock" if second_rock else "limit")
        stop_draw(state, reason, events)
    elif not state.bag:  # BB-9: unreachable by the Rock invariant, kept as a safe fallback
        stop_draw(state, "bag_empty", events)
    return events


def claim(state: GameState, seat: int, grab: int) -> list[Event]:
    state.grabs[grab - 1] = seat
    return [Event.public("grab", seat=seat, token=grab, count=state.revealed)]


def stop_draw(state: GameState, reason: str, events: list[Event]) -> None:
    """Close the grab window, take the Rocks out of the pool (step 2), then resolve."""
    events.append(
        Event.public("draw_stopped", drawer=state.drawer, reason=reason, count=state.revealed)
    )
    rocks = state.rocks_revealed
    if rocks:
        state.pool = subtract(state.pool, one(ROCK, rocks))
    if rocks == 1:
        state.bag = add(state.bag, one(ROCK))
    elif rocks >= 2:
        state.pairs += 1
        state.final = state.pairs >= state.setup.pairs_needed
    if rocks:
        events.append(
            Event.public(
                "rocks",
                count=rocks,
                result="returned" if rocks == 1 else "paired",
                pairs=state.pairs,
                needed=state.setup.pairs_needed,
                last=state.final,
            )
        )
    state.phase = RESOLVE
    state.stage = GRABS
    state.next_grab = 1
    bump(state)
    run(state, events)


# -- resolution -------------------------------------------------------------------------------
def run(state: GameState, events: list[Event]) -> None:
    """Do every automatic step until a real question is open or the next draw begins."""
    while True:
        if state.held_winds:
            if _resolve_wind(state, events):
                return
            continue
        state.wind_holder = None
        if state.stage == GRABS:
            if _resolve_next_grab(state, events):
                return
            continue
        if state.stage == LEFTOVERS:
            if not state.pool:
                state.stage = CLEANUP
                continue
            ask(state, LEFTOVER, state.drawer, events)
            return
        cleanup(state, events)
        return


def _resolve_wind(state: GameState, events: list[Event]) -> bool:
    """One held Wind (BB-10..BB-13, BB-23); True when the giver must be asked."""
    giver = state.wind_holder
    assert giver is not None
    kinds = list(canon(state.collections[giver]))
    if not kinds:
        _return_wind(state)
        events.append(
            Event.public("wind", seat=giver, to=state.left_of(giver), token=None, how=EMPTY)
        )
        return False
    if len(kinds) == 1:
        give(state, kinds[0], ONLY, events)
        return False
    ask(state, GIVE, giver, events)
    return True


def _resolve_next_grab(state: GameState, events: list[Event]) -> bool:
    """The next claimed Grab token, 1 → 5 (BB-16); True when its owner must be asked."""
    for grab in range(state.next_grab, 6):
        holder = state.grabs[grab - 1]
        if holder is None:
            continue
        state.next_grab = grab + 1
        choices = take_options(grab, state.pool)
        if not choices:  # BB-15
            events.append(Event.public("take", seat=holder, grab=grab, tokens={}, how=EMPTY))
            return False
        if len(choices) == 1:
            take(state, holder, grab, choices[0], ONLY, events)
            return False
        ask(state, TAKE, holder, events, grab)
        return True
    state.next_grab = 6
    state.stage = LEFTOVERS
    return False


def ask(state: GameState, kind: str, seat: int, events: list[Event], grab: int = 0) -> None:
    bump(state)
    state.choice = Choice(kind, seat, state.step, grab)
    events.append(
        Event.public(
            "choice", seat=seat, kind=kind, step=state.step, grab=grab, options=options(state)
        )
    )


def _collect(state: GameState, seat: int, tokens: Counts) -> None:
    """Tokens enter a collection together; Winds are held to be resolved next (BB-10)."""
    state.collections[seat] = add(
        state.collections[seat], {k: tokens[k] for k in COLLECTABLE if k in tokens}
    )
    winds = tokens.get(WIND, 0)
    if winds:
        state.held_winds += winds
        state.wind_holder = seat


def _return_wind(state: GameState) -> None:
    state.held_winds -= 1
    state.bag = add(state.bag, one(WIND))  # BB-14


def take(
    state: GameState, seat: int, grab: int, tokens: Counts, how: str, events: list[Event]
) -> None:
    tokens = canon(tokens)
    state.pool = subtract(state.pool, tokens)
    _collect(state, seat, tokens)
    events.append(Event.public("take", seat=seat, grab=grab, tokens=tokens, how=how))


def give(state: GameState, token: str, how: str, events: list[Event]) -> None:
    giver = state.wind_holder
    assert giver is not None
    receiver = state.left_of(giver)
    state.collections[giver] = subtract(state.collections[giver], one(token))
    state.collections[receiver] = add(state.collections[receiver], one(token))
    _return_wind(state)
    events.append(Event.public("wind", seat=giver, to=receiver, token=token, how=how))


def leftovers(state: GameState, choice: str, how: str, events: list[Event]) -> None:
    tokens = canon(state.pool)
    state.pool = {}
    if choice == TAKE_ALL:
        _collect(state, state.drawer, tokens)
    else:
        state.bag = add(state.bag, tokens)
    state.stage = CLEANUP
    events.append(
        Event.public("leftovers", seat=state.drawer, choice=choice, tokens=tokens, how=how)
    )


def answer(state: GameState, picked: Counts | str, how: str) -> list[Event]:
    """Settle the open choice with ``picked`` (already validated), then carry on."""
    choice = state.choice
    assert choice is not None
    state.choice = None
    events: list[Event] = []
    if choice.kind == TAKE:
        assert isinstance(picked, dict)
        take(state, choice.seat, choice.grab, picked, how, events)
    elif choice.kind == GIVE:
        assert isinstance(picked, str)
        give(state, picked, how, events)
    else:
        assert isinstance(picked, str)
        leftovers(state, picked, how, events)
    run(state, events)
    return events


def timeout(state: GameState) -> list[Event]:
    """BB-22: a random legal take, a random token for Wind, RETURN_ALL for leftovers."""
    choice = state.choice
    assert choice is not None
    picked: Counts | str
    if choice.kind == TAKE:
        picked = state.rng.choice(take_options(choice.grab, state.pool))
    elif choice.kind == GIVE:
        picked = _random_token(state, state.collections[choice.seat])
    else:
        picked = RETURN_ALL
    return answer(state, picked, TIMEOUT)


def _random_token(state: GameState, zone: Counts) -> str:
    """A uniformly random token (not type) of ``zone``."""
    index = state.rng.below(total(zone))
    for token in TYPES:
        count = zone.get(token, 0)
        if index < count:
            return token
        index -= count
    raise AssertionError("zone count mismatch")


# -- end of turn ------------------------------------------------------------------------------
def cleanup(state: GameState, events: list[Event]) -> None:
    """Step 5: Grab tokens back; the bag passes left, or the game ends (BB-20)."""
    if not state.final:
        # RULINGS §1.1: Rocks leave the bag only as pairs, so the next turn starts with
        # 2N+1-2*pairs >= 3 of them and its 2nd Rock stops the draw before the bag can empty.
        rocks = state.bag.get(ROCK, 0)
        expected = 2 * state.setup.pairs_needed + 1 - 2 * state.pairs
        assert rocks == expected >= 3, f"Rock invariant broken: {rocks} Rocks, {state.pairs} pairs"
    events.append(Event.public("turn_end", turn_number=state.turn_number, drawer=state.drawer))
    state.grabs = [None] * 5
    state.stage = ""
    state.choice = None
    bump(state)
    if state.final:
        state.phase = OVER
        parts = scoring.breakdowns(state.collections)
        scores = [p["total"] for p in parts]
        events.append(
            Event.public("game_over", scores=scores, winners=scoring.best(scores), breakdowns=parts)
        )
        return
    state.turn_number += 1
    state.drawer = state.left_of(state.drawer)
    state.phase = DRAW
    state.revealed = 0
    state.rocks_revealed = 0
    state.order = []
    state.next_grab = 1
    events.append(
        Event.public(
            "turn_start",
            turn_number=state.turn_number,
            drawer=state.drawer,
            limit=state.setup.draw_limit,
            bag=total(state.bag),
        )
    )
