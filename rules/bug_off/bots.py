"""Bug Off!'s bot players: other hands and the deck's order are what a seat does not know.

Everything else follows from what every seat saw: tableaux, the score pile and the discard are
face up, the BUG OFFs drawn are public, and every points pile is the sum of the public SCOREs
(each ``scored`` event names the colour and every seat's gain), so imagining deals only the
BUG cards nobody has seen into the other hands and shuffles the rest, with the undrawn BUG OFFs,
into the deck. The normal player scores where its lead in a colour is largest and places the
colour least likely to be wiped before it can score it; the hard player also keeps a card of a
colour in hand to SCORE it with (P-83).
"""

from __future__ import annotations

from collections.abc import Callable

from rules.core import Action, Engine, Rng
from rules.core.bots import GameBots, Memory, best_of, fork, memoryless, register_bots

from .cards import BUGS_PER_COLOUR, COLOURS, Counts, bug_off, empty_counts
from .engine import BugOff
from .state import CHOOSE, GameState


def unseen(state: GameState, seat: int) -> Counts:
    """BUG cards per colour in the other hands or the deck: none of them is face up or the
    seat's own."""
    left = dict.fromkeys(COLOURS, BUGS_PER_COLOUR)
    piles = [state.seats[seat].hand, state.score_pile, state.discard]
    piles += [p.tableau for p in state.seats] + [p.points for p in state.seats]
    for pile in piles:
        for colour in COLOURS:
            left[colour] -= pile[colour]
    return left


def imagine(engine: Engine, seat: int, memory: Memory, rng: Rng) -> Engine:
    """Deal the unseen BUG cards into the other hands (their sizes kept), shuffle the rest and
    the undrawn BUG OFFs into a deck of the same size, and give the game a new generator."""
    world = fork(engine)
    assert isinstance(world, BugOff)
    state = world.state
    left = unseen(state, seat)
    cards = [colour for colour in COLOURS for _ in range(left[colour])]
    rng.shuffle(cards)
    for other, piles in enumerate(state.seats):
        if other == seat:
            continue
        size = sum(piles.hand.values())
        hand = empty_counts()
        for colour in cards[:size]:
            hand[colour] += 1
        del cards[:size]
        piles.hand = hand
    cards += [bug_off(c) for c in COLOURS if c not in state.bug_offs]
    rng.shuffle(cards)
    state.deck = cards
    if state.phase == CHOOSE and state.active != seat:
        hand = state.seats[state.active].hand
        state.drawn = rng.choice([c for c in COLOURS for _ in range(hand[c])])
    state.rng = Rng(rng.next_u64())
    return world


def wipe_risk(state: GameState, colour: str) -> float:
    """The chance a card of ``colour`` placed now is wiped before a round comes back to its
    owner: each draw may be a BUG OFF that wipes it (its own, or any once its own is out)."""
    left = [c for c in COLOURS if c not in state.bug_offs]
    harmful = len(left) if colour in state.bug_offs else (1 if colour in left else 0)
    deck = max(1, len(state.deck))
    per_draw = harmful / deck
    return 1 - (1 - per_draw) ** state.players


def normal(engine: Engine, seat: int, memory: Memory, rng: Rng) -> Action | None:
    """Draw when asked; else SCORE the colour of the best lead, or place the safest colour."""
    return _pick(engine, seat, rng, weigh)


Weigh = Callable[[GameState, int, list[Action]], list[tuple[float, Action]]]
"""A player's worth of each of its SCORE and place actions."""


def _pick(engine: Engine, seat: int, rng: Rng, by: Weigh) -> Action | None:
    """Nothing to do, the one thing to do (Draw), or the best-weighed choice by ``by``."""
    actions = engine.legal_actions(seat)
    if not actions:
        return None
    if len(actions) == 1:
        return actions[0]
    assert isinstance(engine, BugOff)
    return best_of(by(engine.state, seat, actions), rng)


def weigh(state: GameState, seat: int, actions: list[Action]) -> list[tuple[float, Action]]:
    """The normal player's worth of each SCORE or place: a lead scored now, a card likely to
    survive until it can be scored."""
    mine = state.seats[seat].tableau
    scored: list[tuple[float, Action]] = []
    for action in actions:
        colour = action["colour"]
        rivals = max(p.tableau[colour] for s, p in enumerate(state.seats) if s != seat)
        risk = wipe_risk(state, colour)
        if action["type"] == "score":
            value = mine[colour] - rivals + risk * 0.5 * mine[colour]
        else:
            value = (1 - risk) * (0.6 + 0.25 * mine[colour]) - 0.2 * rivals
        scored.append((value, action))
    return scored


KEEP = 0.6
"""What the hard player adds to placing a colour of which a card stays in its hand: the card
it needs to SCORE that colour later (P-83)."""
LAST = 0.3
"""What it takes off placing its last card of a colour: it could score that colour only with
a card still to be drawn."""


def hard_weigh(state: GameState, seat: int, actions: list[Action]) -> list[tuple[float, Action]]:
    """The normal player's weights, with a place worth more while the hand keeps a card of its
    colour to SCORE it with, and less when it is the last (P-83)."""
    hand = state.seats[seat].hand
    weighed: list[tuple[float, Action]] = []
    for value, action in weigh(state, seat, actions):
        if action["type"] != "score":
            value += KEEP if hand[action["colour"]] >= 2 else -LAST
        weighed.append((value, action))
    return weighed


def hard(engine: Engine, seat: int, memory: Memory, rng: Rng) -> Action | None:
    """The hard player's pick (P-83): the normal player's, by ``hard_weigh``."""
    return _pick(engine, seat, rng, hard_weigh)


SEARCHED = 3
"""How many of the hard player's best-weighed choices its search compares (P-81): with all
eight, a budget of 24 simulations gave each three imagined games, too few for any to beat the
pick clearly."""


def options(engine: Engine, seat: int) -> list[Action]:
    """The choices worth searching: the ``SEARCHED`` best by the hard player's weights."""
    actions = engine.legal_actions(seat)
    assert isinstance(engine, BugOff)
    if len(actions) <= SEARCHED:
        return actions
    ranked = sorted(hard_weigh(engine.state, seat, actions), key=lambda pair: -pair[0])
    return [action for _, action in ranked[:SEARCHED]]


def estimate(world: Engine) -> list[float]:
    """A cut-off playout's scores: the points piles, and half of each face-up card not yet
    exposed to every BUG OFF (it may still be scored)."""
    assert isinstance(world, BugOff)
    state = world.state
    return [
        sum(p.points.values())
        + 0.5 * sum(n for c, n in p.tableau.items() if c not in state.bug_offs)
        for p in state.seats
    ]


BOTS = register_bots(
    GameBots(
        slug=BugOff.slug,
        imagine=imagine,
        normal=normal,
        anchor=hard,
        rollout=memoryless(normal),
        options=options,
        estimate=estimate,
        playout_steps=48,
    )
)
