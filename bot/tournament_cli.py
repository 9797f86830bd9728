"""The ``tournament`` command: its arguments to a run, its report to standard output."""

from __future__ import annotations

import argparse
import sys

import rules  # noqa: F401  (registers the games and their bot players)

from .tournament import TournamentError, format_report, parse_seats, report_json, run_tournament


def tournament_command(args: argparse.Namespace) -> int:
    """Exit 0 with the report, or 2 with one line for arguments that cannot run."""
    try:
        seats = parse_seats(
            args.seats or ",".join(["hard"] + ["easy"] * (args.players - 1)), args.players
        )
        if args.games < 1 or args.simulations < 1:
            raise TournamentError("--games and --simulations must be at least 1")
        report = run_tournament(
            args.game, seats, args.games, args.seed, args.simulations, args.think
        )
    except TournamentError as exc:
        print(f"bugtable tournament: {exc}", file=sys.stderr)
        return 2
    print(report_json(report) if args.json else format_report(report))
    return 0
