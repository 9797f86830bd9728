"""Game Setup: shuffling the decks, dealing the heroes, and laying out the first level.

The order of the shuffles is part of every stored game (the seed replays it), so it must not
change.
"""

from __future__ import annotations

from ..core import Event, Rng
from . import board, phases
from . import content as C
from .context import Run
from .state import Bazaar, GameState, Hero, LootDecks, Seat
from .stocks import START


def deal(players: int, seed: int, mode: str) -> tuple[GameState, Rng]:
    """The state before the first level, and the generator that dealt it."""
    rng = Rng(seed)
    two = players == 2
    names = [hero["name"] for hero in C.HEROES]
    rng.shuffle(names)
    n_heroes = 4 if two else players
    heroes = [
        Hero(
            name=names[i],
            seat=i // 2 if two else i,
            hearts=START["hearts"],
            arrows=START["arrows"],
            coins=START["coins"],
            sword=[],
            bow=[],
            shield=[],
            stored=[],
            faceup=[],
            pos=None,
            roof=None,
        )
        for i in range(n_heroes)
    ]
    bazaar = list(C.BAZAAR_CARDS)
    rng.shuffle(bazaar)
    loot = list(C.LOOT_CARDS)
    rng.shuffle(loot)
    level_card = rng.choice(sorted(C.LEVELS))
    explore = sorted(C.EXPLORATION)
    rng.shuffle(explore)
    monsters = []
    for level in range(1, 5):
        deck = sorted(m for m, info in C.MONSTERS.items() if info["level"] == level)
        rng.shuffle(deck)
        monsters.append(deck)
    stairs = sorted(C.STAIRS)
    rng.shuffle(stairs)
    state = GameState(
        players=players,
        seed=seed,
        mode=mode,
        two=two,
        serial=0,
        level=1,
        phase="setup",
        level_card=level_card,
        heroes=heroes,
        seats=[Seat(vp=10 if two else 5, hand=[]) for _ in range(players)],
        crown=rng.below(n_heroes),
        bazaar=Bazaar(deck=bazaar, market=[], discard=[]),
        basics=list(C.BASIC_CARDS),
        basic_side={},
        loot=LootDecks(deck=loot, discard=[]),
        limbo=[],
        explore=explore,
        monsters=monsters,
        stairs_stack=stairs[:4],
        stairs_out=stairs[4:],
        roof=[],
        boxed=[],
        board=[],
        teams={},
        markers={},
        flash=None,
        order=None,
        fought=False,
        escape_queue=[],
        stack=[],
        rng=[],
    )
    return state, rng


def first_level(game: Run, events: list[Event]) -> None:
    """Fill the market, lay out level 1 and open its Trading Phase."""
    game.refill_market()
    board.build_level(game, 1, events)
    phases.start_phase(game, "trading", events)
