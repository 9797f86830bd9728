"""Final results: each seat's score, rank and breakdown when a game ends."""

from __future__ import annotations

from ..standings import final_result
from ..store.records import ResultSpec
from .table import Table


def final_results(table: Table) -> list[ResultSpec]:
    """What the store keeps of a finished game: one line per seat (winners rank first)."""
    result = final_result(table.running())
    scores, winners = result.scores, set(result.winners)
    out = []
    for seat, mine in enumerate(scores):
        if seat in winners:
            rank = 1
        else:
            better = sum(1 for score in scores if score > mine)
            tied_winners = sum(1 for s in winners if scores[s] == mine)
            rank = 1 + better + tied_winners
        out.append(
            ResultSpec(
                user_id=table.user_at(seat).user_id,
                seat=seat,
                score=mine,
                rank=rank,
                winner=seat in winners,
                breakdown=result.breakdowns[seat],
            )
        )
    return out
