"""The numbers a message may show of a game's standings (issue #20).

While a game is played only ``Engine.public_scores()`` may be shown: ``scores()``, ``winners()``
and ``score_breakdown()`` are the final result, and may count what nobody at the table sees
(Bug Run's face-down VP tokens). Everything in ``bot/`` and ``bench/`` reads scores here (a test
checks that no other module calls those three), and ``final_result`` refuses a game that is not
over, so no board, command, page or record can show a hidden part by mistake.
"""

from __future__ import annotations

from dataclasses import dataclass

from rules.core import Engine


class NotOver(RuntimeError):
    """A final result was asked of a game still being played: a bug in the caller."""


@dataclass(frozen=True)
class FinalResult:
    """A finished game's scores, winners (ties share) and each seat's per-rule breakdown."""

    scores: list[int]
    winners: list[int]
    breakdowns: list[dict[str, int]]


def public_scores(engine: Engine) -> list[int]:
    """What everyone may see of the standings now (the final scores once the game is over)."""
    return engine.public_scores()


def final_result(engine: Engine) -> FinalResult:
    """The result of a finished game; ``NotOver`` before the end."""
    if not engine.is_over:
        raise NotOver(f"{engine.slug} is not over: only its public scores may be shown")
    return FinalResult(
        scores=engine.scores(),
        winners=engine.winners(),
        breakdowns=[engine.score_breakdown(seat) for seat in range(engine.players)],
    )
