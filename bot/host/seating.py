"""Who sits where: the seat questions a live ``Table`` and its ``TableView`` both answer."""

from __future__ import annotations

from collections.abc import Sequence

from ..store.records import SeatRecord


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

    def bot_plays(self, seat: int) -> bool:
        """A bot player's seat, or a member's that a bot plays while they are away (P-30)."""
        held = self.user_at(seat)
        return held.is_bot or held.away


def names_by_seat(seats: Sequence[SeatRecord], players: int | None) -> list[str]:
    """Display names by seat, or in join order while in the lobby (``players`` None); a seat
    a bot plays for its member shows a 🤖 before the member's name."""
    if players is None:
        return [s.name for s in seats]
    by_seat = {s.seat: s for s in seats}
    held = [by_seat[i] for i in range(players)]  # KeyError, as user_at, for an empty seat
    return [f"🤖 {s.name}" if s.away else s.name for s in held]
