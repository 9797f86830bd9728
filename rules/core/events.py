"""Events say what happened and who may see it, so a presenter cannot leak by accident."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

JSON = Any
Action = dict[str, Any]
"""An action is a small JSON-safe dict with a ``"type"`` key, so the log can be stored and replayed."""


@dataclass(frozen=True)
class Event:
    """Something that happened in a game.

    ``to`` is ``None`` for a public event, or the set of seats allowed to see it.
    ``data`` must be JSON-safe.
    """

    type: str
    data: dict[str, Any] = field(default_factory=dict)
    to: frozenset[int] | None = None

    @classmethod
    def public(cls, type: str, **data: Any) -> Event:
        return cls(type, data, None)

    @classmethod
    def private(cls, seats: int | Iterable[int], type: str, **data: Any) -> Event:
        group = frozenset([seats]) if isinstance(seats, int) else frozenset(seats)
        return cls(type, data, group)

    @property
    def is_public(self) -> bool:
        return self.to is None

    def visible_to(self, seat: int | None) -> bool:
        """Whether ``seat`` (``None`` = spectators / the channel) may see this event."""
        if self.to is None:
            return True
        return seat is not None and seat in self.to

    def to_dict(self) -> dict[str, Any]:
        return {
            "type": self.type,
            "data": self.data,
            "to": None if self.to is None else sorted(self.to),
        }

    @classmethod
    def from_dict(cls, raw: dict[str, Any]) -> Event:
        to = raw.get("to")
        return cls(raw["type"], dict(raw.get("data", {})), None if to is None else frozenset(to))
