"""The frame driver: the registry of frame kinds and the loop that steps frames until a
decision with a real choice is pending (see context.py for what a frame is)."""

from __future__ import annotations

from ..core import Event
from . import (
    cards,
    chance,
    combat,
    escape,
    flash,
    loot,
    moving,
    quests,
    stairs,
    trading,
    turns,
)
from .context import Action, FrameKind, Run
from .frames import Frame

FRAME_KINDS: dict[str, FrameKind] = {
    "activate": FrameKind(options=turns.options_activate, answer=turns.answer_activate),
    "attack": FrameKind(combat.options_attack, combat.answer_attack, combat.step_attack),
    "bridge": FrameKind(moving.options_bridge, moving.answer_bridge, moving.step_bridge),
    "crafty": FrameKind(step=cards.step_crafty),
    "escape": FrameKind(escape.options_escape, escape.answer_escape, escape.step_escape),
    "fight": FrameKind(stairs.options_fight, stairs.answer_fight, stairs.step_fight),
    "flash": FrameKind(flash.options_flash, flash.answer_flash, flash.step_flash),
    "freemove": FrameKind(moving.options_freemove, moving.answer_freemove, moving.step_freemove),
    "loot": FrameKind(loot.options_loot, loot.answer_loot, loot.step_loot),
    "move": FrameKind(step=moving.step_move),
    "quest": FrameKind(step=quests.step_quest),
    "reward": FrameKind(step=loot.step_reward),
    "roll": FrameKind(chance.options_roll, chance.answer_roll, chance.step_roll),
    "toss": FrameKind(chance.options_toss, chance.answer_toss, chance.step_toss),
    "trade": FrameKind(trading.options_trade, trading.answer_trade, trading.step_trade),
    "turn": FrameKind(turns.options_turn, turns.answer_turn, turns.step_turn),
}
"""Every frame kind Bug Run pushes, with its handlers (options, answer, step): the frame
driver's only dispatch table."""


def settle(game: Run, events: list[Event]) -> None:
    """Step frames until a decision with a real choice is pending or the game is over.

    A decision with a single legal option is taken at once (the contract prefers it).
    """
    for _ in range(100_000):
        frame = game.top()
        if frame is None:
            if game.state.phase == "over":
                return
            turns.schedule(game, events)
            continue
        if frame.wait:
            options = frame_options(game, frame)
            if not options:
                raise RuntimeError(f"bug-run: frame {frame.kind} waits with no option")
            if len(options) > 1:
                return
            game.state.serial += 1
            frame.wait = False
            answer_frame(game, frame, options[0], events)
            continue
        step = FRAME_KINDS[frame.kind].step
        if step is None:
            raise RuntimeError(f"bug-run: frame {frame.kind} cannot step on by itself")
        step(game, frame, events)
    raise RuntimeError("bug-run: the frame driver did not settle")


def frame_options(game: Run, frame: Frame) -> list[Action]:
    """The waiting frame's choices, which are exactly the legal actions of its seat."""
    options = FRAME_KINDS[frame.kind].options
    if options is None:
        raise RuntimeError(f"bug-run: frame {frame.kind} never waits for a decision")
    return options(game, frame)


def answer_frame(game: Run, frame: Frame, action: Action, events: list[Event]) -> None:
    """Play a decision listed by ``frame_options(frame)``."""
    answer = FRAME_KINDS[frame.kind].answer
    if answer is None:
        raise RuntimeError(f"bug-run: frame {frame.kind} never waits for a decision")
    answer(game, frame, action, events)


def deciding(game: Run) -> tuple[int, Frame] | None:
    """The seat that decides now and its frame, or None (the game is over)."""
    frame = game.top()
    if frame is None or not frame.wait or game.state.phase == "over":
        return None
    return int(frame.seat), frame


def legal_actions(game: Run, seat: int) -> list[Action]:
    """The deciding seat's options; nobody else has any."""
    decision = deciding(game)
    if decision is None or decision[0] != seat:
        return []
    return frame_options(game, decision[1])


def default_action(game: Run, frame: Frame) -> Action:
    """The AFK choice (BR-X19): the first legal option, which every frame lists as its safe
    default; a move never spends a card (Optional Extra) on the player's behalf."""
    options = frame_options(game, frame)
    if frame.kind in ("turn", "freemove"):
        for option in options:
            if option["type"] == "wait" or (option["type"] == "move" and "extra" not in option):
                return option
    return options[0]
