"""Members who play a whole game of any kind by clicking what Discord shows them.

Each step, the members the game waits on look at the board, their DM and their newest private
answers for a button or menu option that carries one of their legal moves (the engine is
rebuilt from the bot's stored log, as a member knows the rules), and one of them clicks it.
When none is on screen they wait for it (an edit in flight, a timer), and a member whose move
has been on no message for a while presses **My hand**. Nothing here knows a game by name: the
request budget of issue #21 is counted over whole games of every kind with it.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from bot.discord.codec import encode_action, game_button_id
from bot.emulator import Emulator, EmulatorError, Message, User
from bot.store import Store
from rules.core import SYSTEM, Engine, replay

LOOK = 0.005
"""Seconds between two looks at the screen while no move is on it."""
HAND_AFTER = 1.0
"""Seconds a member whose move is on no message waits before pressing My hand."""
PRIVATE_LOOKBACK = 4
"""A member looks at their newest private answers only (older ones lose their buttons)."""


@dataclass(frozen=True)
class Control:
    seat: int
    message: Message
    custom_id: str
    value: str | None
    """The select value, or ``None`` for a button."""


Ids = dict[str, set[int]]
"""Button ids (or select values) of legal moves, each with the seats it is a move of."""


def wanted_controls(
    game_id: int,
    engine: Engine,
    movers: Iterable[int],
    *,
    skip: Callable[[dict[str, Any]], bool] = lambda action: False,
) -> tuple[Ids, Ids]:
    """Button ids and select values of the movers' legal actions (but those ``skip`` says),
    each with who may use it."""
    buttons: Ids = {}
    values: Ids = {}
    for seat in movers:
        for action in engine.legal_actions(seat):
            if skip(action):
                continue
            with contextlib.suppress(ValueError):  # too long for a button: only a menu has it
                buttons.setdefault(game_button_id(game_id, engine.turn, action), set()).add(seat)
            values.setdefault(encode_action(action), set()).add(seat)
    return buttons, values


def controls_on(
    message: Message, seats: set[int], game_id: int, turn: int, buttons: Ids, values: Ids
) -> Iterator[Control]:
    """The enabled controls on ``message`` that carry a legal move of one of ``seats``."""
    if message.deleted:
        return
    for button in message.buttons():
        for seat in buttons.get(button.custom_id or "", set()) & seats:
            if not button.disabled and button.custom_id:
                yield Control(seat, message, button.custom_id, None)
    prefix = f"s:{game_id}:{turn}:"
    for select in message.selects():
        if select.disabled or not select.custom_id.startswith(prefix):
            continue
        for option in select.options:
            value = str(option.get("value"))
            for seat in values.get(value, set()) & seats:
                yield Control(seat, message, select.custom_id, value)


@dataclass
class Played:
    """What a whole game cost: its members' committed moves and every click they made."""

    game_id: int
    moves: int = 0
    """Member (not clock) actions in the stored log."""
    clicks: int = 0
    hand_presses: int = 0


@dataclass
class ClickingMembers:
    emu: Emulator
    store: Store
    board: Message
    members: list[User]
    rng: random.Random
    game_id: int = 0
    engine: Engine | None = None
    applied: int = 0
    log: list[tuple[int, dict[str, Any]]] = field(default_factory=list)

    async def start(self, channel_id: int) -> None:
        record = await self.store.active_game_in_channel(channel_id)
        assert record is not None and record.status == "playing", record
        self.game_id = record.id
        self.engine = replay(record.slug, record.players or 0, record.seed, record.options, [])

    async def follow(self) -> Engine:
        """The engine after every stored action."""
        assert self.engine is not None
        for entry in await self.store.actions_after(self.game_id, self.applied):
            self.engine.apply(entry.seat, entry.action)
            self.log.append((entry.seat, entry.action))
            self.applied += 1
        return self.engine

    def controls(self, engine: Engine, movers: list[int]) -> list[Control]:
        buttons, values = wanted_controls(self.game_id, engine, movers)
        found = list(
            controls_on(self.board, set(movers), self.game_id, engine.turn, buttons, values)
        )
        for seat in movers:
            user = self.members[seat]
            for message in [*self.emu.dms(user), *self.emu.ephemerals(user)[-PRIVATE_LOOKBACK:]]:
                found += controls_on(message, {seat}, self.game_id, engine.turn, buttons, values)
        return found

    async def press(self, control: Control) -> None:
        user = self.members[control.seat]
        with contextlib.suppress(EmulatorError):  # gone between the look and the click
            if control.value is None:
                await self.emu.click(user, control.message, control.custom_id)
            else:
                await self.emu.select(user, control.message, control.custom_id, [control.value])

    async def my_hand(self, seat: int) -> bool:
        hand = f"h:{self.game_id}:hand"
        if not self.board.has_button(custom_id_prefix=hand):
            return False
        with contextlib.suppress(EmulatorError):
            await self.emu.click(self.members[seat], self.board, hand)
        return True

    async def play(self, *, timeout: float) -> Played:  # noqa: ASYNC109
        """Play to the end; fails if the game stops moving for ``timeout`` seconds."""
        played = Played(self.game_id)
        version, moved, since = -1, time.monotonic(), time.monotonic()
        while True:
            engine = await self.follow()
            if engine.is_over:
                break
            if len(self.log) != version:
                version, moved, since = len(self.log), time.monotonic(), time.monotonic()
            elif time.monotonic() - moved > timeout:
                raise AssertionError(
                    f"game {self.game_id} stopped at turn {engine.turn}:\n{self.board.text()}"
                )
            movers = [s for s in sorted(engine.waiting_for()) if s >= 0 and engine.legal_actions(s)]
            found = self.controls(engine, movers) if movers else []
            if found:
                played.clicks += 1
                await self.press(self.rng.choice(found))
                continue
            if movers and time.monotonic() - since > HAND_AFTER:
                since = time.monotonic()
                played.hand_presses += await self.my_hand(self.rng.choice(movers))
            await asyncio.sleep(LOOK)
        played.moves = sum(1 for seat, _ in self.log if seat != SYSTEM)
        return played
