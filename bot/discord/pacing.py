"""Discord's per-channel limits, kept by the bot itself: a channel's messages take at most
``limit`` sends, ``limit`` edits and ``limit`` deletes in any ``window`` seconds.

Discord answers one request too many with a 429, and discord.py then sleeps and sends the
*old* state. The publisher asks first instead: a request without a free slot is not sent, the
game stays dirty, and the pump comes back when a slot frees up with the newest state
(docs/rulings.md P-26). Slots are taken before the request (so two pumps sharing a DM channel
never both take the last one) and stamped when its answer arrives, which is never earlier than
Discord saw it: a gap the bot measured is at least as long on Discord's side.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from typing import Literal

Kind = Literal["send", "edit", "delete"]
MARGIN = 0.05
"""The window is kept 5 % longer than Discord's, for clocks and queues between the two."""
PENDING_RETRY = 0.05
"""How soon to look again when every slot is held by a request still on its way."""


@dataclass
class Slot:
    """One request's place in a channel's window; ``at`` is stamped when its answer arrives."""

    at: float | None = None
    _clock: Callable[[], float] = field(default=time.monotonic, repr=False)

    def release(self) -> None:
        """The request was answered (or failed): its slot counts from now."""
        self.at = self._clock()


class ChannelPacer:
    """Sliding windows per channel and kind of request."""

    def __init__(
        self, limit: int, window: float, *, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.limit = max(1, limit)
        self.window = window * (1 + MARGIN)
        self.clock = clock
        self._used: dict[tuple[Hashable, Kind], list[Slot]] = {}

    def _live(self, channel: Hashable, kind: Kind) -> list[Slot]:
        now = self.clock()
        key = (channel, kind)
        used = [s for s in self._used.get(key, []) if s.at is None or now - s.at < self.window]
        if used:
            self._used[key] = used
        else:
            self._used.pop(key, None)
        return used

    def delay(self, channel: Hashable, kind: Kind) -> float:
        """Seconds until ``channel`` has a free slot of this kind (0: one is free now)."""
        used = self._live(channel, kind)
        if len(used) < self.limit:
            return 0.0
        stamped = [s.at for s in used if s.at is not None]
        if len(stamped) <= len(used) - self.limit:
            return PENDING_RETRY
        # The slot that frees first is the oldest stamped one beyond what the pending ones hold.
        stamped.sort()
        oldest = stamped[len(used) - self.limit]
        return max(0.001, oldest + self.window - self.clock())

    def take(self, channel: Hashable, kind: Kind) -> Slot | None:
        """A slot for one request now, or ``None`` if the channel has none free."""
        if self.delay(channel, kind) > 0:
            return None
        slot = Slot(_clock=self.clock)
        self._used.setdefault((channel, kind), []).append(slot)
        return slot
