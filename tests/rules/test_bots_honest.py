"""Never cheats, proven (issue #23 item 3): for many positions, a normal or hard bot's decision
with the same seed is the same when every part of the game hidden from its seat is changed and
what the seat observed is not.

The scramblers here are written apart from the bots' own imagining, so a bot that read a hidden
part (another hand, a deck's order, a face-down tile, the generator) would be caught."""

from __future__ import annotations

import copy
from collections.abc import Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.bag_of_bugs import BagOfBugs
from rules.bug_off import BugOff
from rules.bug_off.cards import COLOURS, is_bug_off
from rules.bug_run import BugRun
from rules.bug_run import content as C
from rules.bugs_and_co import BugsAndCo
from rules.bugs_and_co.memory import TileMemory
from rules.core import Engine, Rng
from rules.core.bots import Level, fork
from rules.core.player import Bot
from tests.support.examples import examples

from .bot_positions import SHIPPED, position


def scramble_bag(game: BagOfBugs, seat: int, rng: Rng) -> None:
    game.state.rng = Rng(rng.next_u64())


def scramble_bug_off(game: BugOff, seat: int, rng: Rng) -> None:
    """Swap cards between the other hands and the deck (BUG OFFs stay in the deck)."""
    state = game.state
    others = [s for s in range(state.players) if s != seat]
    cards = [c for s in others for c in COLOURS for _ in range(state.seats[s].hand[c])]
    bugs_in_deck = [c for c in state.deck if not is_bug_off(c)]
    cards += bugs_in_deck
    rng.shuffle(cards)
    for s in others:
        size = sum(state.seats[s].hand.values())
        state.seats[s].hand = {c: 0 for c in COLOURS}
        for card in cards[:size]:
            state.seats[s].hand[card] += 1
        del cards[:size]
    deck = [c if is_bug_off(c) else cards.pop() for c in state.deck]
    rng.shuffle(deck)
    state.deck = deck
    if state.drawn is not None and state.active != seat:
        hand = state.seats[state.active].hand
        state.drawn = rng.choice([c for c in COLOURS if hand[c]])
    state.rng = Rng(rng.next_u64())


def scramble_bugs_and_co(game: BugsAndCo, seat: int, rng: Rng, memory: TileMemory) -> None:
    """Permute the tiles of every place the seat has no memory of."""
    state = game.state
    places: list[tuple[str, int, int]] = []
    for slot, tile in enumerate(state.slots):
        if tile is not None and slot not in memory.slots:
            places.append(("slot", slot, 0))
    for other, player in enumerate(state.seats):
        if other != seat and player.held is not None and other not in memory.holding:
            places.append(("held", other, 0))
        known = len(memory.kept.get(other, []))
        places += [("kept", other, i) for i in range(known, len(player.kept))]
    places += [("removed", 0, i) for i in range(len(state.removed))]

    def get(place: tuple[str, int, int]) -> int:
        kind, where, i = place
        if kind == "slot":
            tile = state.slots[where]
            assert tile is not None
            return tile
        if kind == "held":
            held = state.seats[where].held
            assert held is not None
            return held.tile
        return state.seats[where].kept[i] if kind == "kept" else state.removed[i]

    tiles = [get(place) for place in places]
    rng.shuffle(tiles)
    for (kind, where, i), tile in zip(places, tiles, strict=True):
        if kind == "slot":
            state.slots[where] = tile
        elif kind == "held":
            held = state.seats[where].held
            assert held is not None
            held.tile = tile
        elif kind == "kept":
            state.seats[where].kept[i] = tile
        else:
            state.removed[i] = tile
    state.rng = Rng(rng.next_u64())


def scramble_bug_run(game: BugRun, seat: int, rng: Rng) -> None:
    """Swap secret cards between the other hands and the loot deck, reorder every deck and the
    stairs to come, change the other seats' VP tokens and the generator."""
    state = game.state
    others = [s for s in range(state.players) if s != seat]
    secret = [c for s in others for c in state.seats[s].hand]
    secret += [c for c in state.loot.deck if C.card(c)["type"] == "secret"]
    rng.shuffle(secret)
    for s in others:
        size = len(state.seats[s].hand)
        state.seats[s].hand, secret = secret[:size], secret[size:]
        state.seats[s].vp = rng.below(20)
    deck = [c if C.card(c)["type"] != "secret" else secret.pop() for c in state.loot.deck]
    rng.shuffle(deck)
    state.loot.deck = deck
    for pile in (state.bazaar.deck, state.explore, *state.monsters):
        rng.shuffle(pile)
    later = state.stairs_stack[state.level :] + state.stairs_out
    rng.shuffle(later)
    cut = len(state.stairs_stack) - state.level
    state.stairs_stack = state.stairs_stack[: state.level] + later[:cut]
    state.stairs_out = later[cut:]
    game.context.rng = Rng(rng.next_u64())


def scrambled(engine: Engine, bot: Bot, rng: Rng) -> Engine:
    other = fork(engine)
    if isinstance(other, BagOfBugs):
        scramble_bag(other, bot.seat, rng)
    elif isinstance(other, BugOff):
        scramble_bug_off(other, bot.seat, rng)
    elif isinstance(other, BugsAndCo):
        assert isinstance(bot.memory, TileMemory)
        scramble_bugs_and_co(other, bot.seat, rng, bot.memory)
    elif isinstance(other, BugRun):
        scramble_bug_run(other, bot.seat, rng)
    return other


def decision(bot: Bot, engine: Engine, seed: int) -> object:
    twin = copy.deepcopy(bot)
    twin.rng = Rng(seed)
    return twin.decide(engine).action


LEVELS: tuple[Level, ...] = ("normal", "hard")


@pytest.mark.parametrize("slug", SHIPPED)
@pytest.mark.parametrize("level", LEVELS)
@settings(max_examples=examples(24), deadline=None)
@given(seed=st.integers(0, 10**6), steps=st.integers(0, 150), other=st.integers(0, 2**32))
def test_a_decision_ignores_everything_hidden_from_the_seat(
    slug: str, level: Level, seed: int, steps: int, other: int
) -> None:
    found = position(slug, seed, steps, level=level, simulations=6)
    if found is None:
        return
    engine, bot = found.engine, found.bot
    changed = scrambled(engine, bot, Rng(other))
    assert changed.view(bot.seat) == engine.view(bot.seat)
    assert changed.to_dict() != engine.to_dict(), "the scramble changed nothing"
    assert decision(bot, changed, seed) == decision(bot, engine, seed)


def test_the_check_catches_a_bot_that_peeks() -> None:
    """The same check fails for a player that reads the other hands: the test can fail."""
    found = position("bug-off", 4, 40, level="normal")
    assert found is not None
    engine, bot = found.engine, found.bot

    def cheat(game: Engine) -> object:
        assert isinstance(game, BugOff)
        return sorted(game.state.seats[(bot.seat + 1) % game.players].hand.items())

    peeks: Callable[[Engine], object] = cheat
    differs = any(peeks(scrambled(engine, bot, Rng(k))) != peeks(engine) for k in range(5))
    assert differs
