"""Bug Run's bot players: imagined games and a one-look-ahead normal player.

Hidden from a seat: the other players' hands (secret loot) and VP tokens, the order of every
deck, the stairs still to come, and another player's two-card loot choice. Imagining deals the
loot nobody has seen into those hands and the deck, shuffles each deck, and sets the other VP
tokens to what public history says (memory.py). The normal player plays each option in one
imagined game and keeps the one that leaves the best score margin (the rulebook's scoring:
trinkets, roof, coins and VP); search plays the games on from there, 60 actions at most (a
level or so), then judges them by the scores as they stand.
"""

from __future__ import annotations

from rules.core import Action, Engine, Rng
from rules.core.bots import GameBots, Memory, best_of, fork, register_bots

from . import content as C
from .engine import BugRun
from .frames import LootFrame
from .memory import VpMemory, vp_memory


def _sorted_shuffle(cards: list[str], rng: Rng) -> list[str]:
    """A random order of ``cards`` that depends on what they are, not on their hidden order."""
    out = sorted(cards)
    rng.shuffle(out)
    return out


def imagine(engine: Engine, seat: int, memory: Memory, rng: Rng) -> Engine:
    world = fork(engine)
    assert isinstance(world, BugRun) and isinstance(memory, VpMemory)
    state = world.state
    owners = [hero.seat for hero in state.heroes]
    start = 10 if state.two else 5
    others = [s for s in range(state.players) if s != seat]
    decision = state.stack[-1] if state.stack else None
    hidden_limbo = (
        isinstance(decision, LootFrame)
        and decision.stage == "keep"
        and bool(state.limbo)
        and owners[decision.hero] != seat
    )
    pool = [card for s in others for card in state.seats[s].hand] + state.loot.deck
    if hidden_limbo:
        pool += state.limbo
    pool = _sorted_shuffle(pool, rng)
    for s in others:
        size = len(state.seats[s].hand)
        secret = [card for card in pool if C.card(card)["type"] == "secret"][:size]
        for card in secret:
            pool.remove(card)
        state.seats[s].hand = secret
        state.seats[s].vp = memory.vp(start, owners, s)
    if hidden_limbo:
        state.limbo = [pool.pop() for _ in state.limbo]
    state.loot.deck = pool
    state.bazaar.deck = _sorted_shuffle(state.bazaar.deck, rng)
    state.explore = _sorted_shuffle(state.explore, rng)
    state.monsters = [_sorted_shuffle(deck, rng) for deck in state.monsters]
    unseen = state.stairs_stack[state.level :] + state.stairs_out
    unseen = _sorted_shuffle(unseen, rng)
    upcoming = len(state.stairs_stack) - state.level
    state.stairs_stack = state.stairs_stack[: state.level] + unseen[: max(0, upcoming)]
    state.stairs_out = unseen[max(0, upcoming) :]
    world.context.rng = Rng(rng.next_u64())
    return world


def margin(engine: Engine, seat: int) -> float:
    scores = engine.scores()
    others = [score for s, score in enumerate(scores) if s != seat]
    return scores[seat] - max(others)


def normal(engine: Engine, seat: int, memory: Memory, rng: Rng) -> Action | None:
    """Each option played once in one imagined game; the best margin after it wins."""
    actions = engine.legal_actions(seat)
    if len(actions) <= 1:
        return actions[0] if actions else None
    world = imagine(engine, seat, memory, Rng(rng.next_u64()))
    scored: list[tuple[float, Action]] = []
    for action in actions:
        after = fork(world)
        after.apply(seat, action)
        scored.append((margin(after, seat), action))
    return best_of(scored, rng)


def rollout(world: Engine, seat: int, rng: Rng) -> Action | None:
    """Inside an imagined game: a random legal action (one look ahead per step costs a copy
    per option, too dear for whole playouts)."""
    actions = world.legal_actions(seat)
    return rng.choice(actions) if actions else None


BOTS = register_bots(
    GameBots(
        slug=BugRun.slug,
        imagine=imagine,
        normal=normal,
        rollout=rollout,
        memory=vp_memory,
        playout_steps=60,
    )
)
