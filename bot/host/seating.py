"""Who sits where: the seat questions a live ``Table`` and its ``TableView`` both answer."""

from __future__ import annotations

from collections.abc import Sequence

from ..store.records import SeatRecord
from .policy import BotLevel


class Seating:
    """Seat look-ups over ``seats`` (join order in the lobby, seat numbers once playing)."""

    __slots__ = ()
    seats: Sequence[SeatRecord]

    def seat_of(self, user_id: int) -> int | None:
        for s in self.seats:
            if s.user_id == user_id and s.seat is not None:
                return s.seat
        return None

    def confirmed(self) -> list[SeatRecord]:
        """The places taken for real: in a rematch lobby, not those still held for a previous
        player who has not pressed Join."""
        return [s for s in self.seats if s.confirmed]

    def user_at(self, seat: int) -> SeatRecord:
        for s in self.seats:
            if s.seat == seat:
                return s
        raise KeyError(seat)

    def bot_level(self, seat: int) -> BotLevel:
        """The level of the bot playing ``seat`` (meaningful where ``bot_plays``)."""
        return self.user_at(seat).bot_level

    def bot_plays(self, seat: int) -> bool:
        """A bot player's seat, or a member's that a bot plays while they are away (P-30)."""
        held = self.user_at(seat)
        return held.is_bot or held.away


def bot_label(level: BotLevel) -> str:
    """How boards, the lobby and results name a level: ``Hard bot``."""
    return f"{level.capitalize()} bot"


def bot_name(level: BotLevel, taken: Sequence[str]) -> str:
    """A new bot player's name: ``🤖 Hard bot``, then ``🤖 Hard bot 2`` and so on, so every
    seat's name differs (the public log names seats)."""
    base = f"🤖 {bot_label(level)}"
    return next(
        name for n in range(1, 100) if (name := base if n == 1 else f"{base} {n}") not in taken
    )


def names_by_seat(seats: Sequence[SeatRecord], players: int | None) -> list[str]:
    """Display names by seat, or in join order while in the lobby (``players`` None); a seat
    a bot plays for its member shows a 🤖 before the member's name and the stand-in's level
    after it: ``🤖 bob (Normal bot)``."""
    if players is None:
        return [s.name for s in seats]
    by_seat = {s.seat: s for s in seats}
    held = [by_seat[i] for i in range(players)]  # KeyError, as user_at, for an empty seat
    return [f"🤖 {s.name} ({bot_label(s.bot_level)})" if s.away else s.name for s in held]
