"""Discord's per-channel limits, kept by the bot itself: a channel's messages take at most
``limit`` sends, ``limit`` edits and ``limit`` deletes in any ``window`` seconds.

Discord answers one request too many with a 429, and discord.py then sleeps and sends the
*old* state. The publisher asks first instead: a request without a free slot is not sent, the
game stays dirty, and the pump comes back when a slot frees up with the newest state
(docs/rulings.md P-26). Slots are taken before the request (so two pumps sharing a DM channel
never both take the last one) and stamped when its answer arrives, which is never earlier than
Discord saw it: a gap the bot measured is at least as long on Discord's side.

Edits are also spread out: past ``EDIT_BURST`` in a window, the next waits a window's even
share (``window / limit``) after the last. Without it a busy channel spent its five edits in
two or three seconds and then showed nothing new for the rest of the window: in a fast game
played from the DMs, its board sat 3.8 s behind the moves (``bench/e2e.py --runs 1``, p99).
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
EDIT_BURST = 2
"""Edits a channel takes at once in a window; the later ones are spread (see above)."""


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
        self,
        limit: int,
        window: float,
        *,
        clock: Callable[[], float] = time.monotonic,
        edit_burst: int = EDIT_BURST,
    ) -> None:
        self.limit = max(1, limit)
        self.window = window * (1 + MARGIN)
        self.clock = clock
        self.edit_burst = max(1, edit_burst)
        self.spacing = self.window / self.limit
        """The even share of the window that spread edits keep between them."""
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
            if kind != "edit" or len(used) < self.edit_burst:
                return 0.0
            # One still on its way counts as answered now: it is stamped at least that late.
            now = self.clock()
            newest = max(now if s.at is None else s.at for s in used)
            return max(0.0, newest + self.spacing - now)
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
