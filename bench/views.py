"""What the presenters' view of a table costs per move (issue #22), next to the engine's move.

For random games of the four games, every move is timed in two parts, as the bot spends them:

- ``host``: the engine applies the move and the host makes its ``Outcome`` (with the table's
  view, ``Table.view()``: made under the lock at every commit);
- ``draw``: what the listeners and the pump then draw from it: the public log's lines, the
  boards and every seat's DM (``public_boards``, ``hand``), as a pump pass does after a move.

On this commit it also times, in the same process and move, one ``Table.view()`` alone and
the pump's drawing again with a view of its own for each presenter call (so no answer is
shared between them, as when presenters asked the engine each time).

No database and no Discord: only what the view changes. Run it on this commit and on one
before views (``--root`` of an exported tree, e.g. ``git archive bf62c5b | tar -x -C /tmp/a``)
in turn, several times, and compare medians; the same script measures both (before views, the
presenters were handed the table itself)::

    .venv/bin/python bench/views.py [--games 3] [--root PATH]

Times are this process's CPU time (``time.process_time``), so other processes on a shared
machine do not count; still quote medians and ratios over A/B runs taken in turn.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path
from typing import Any


def parse() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=3, help="random games per game")
    parser.add_argument("--root", type=Path, default=Path(__file__).resolve().parents[1])
    return parser.parse_args()


def main() -> None:
    args = parse()
    sys.path.insert(0, str(args.root))
    import bot
    import bot.ui.games  # registers every game's presenter
    from bot.games import games
    from bot.host.table import Outcome, Table
    from bot.ui.presenter import presenter_for
    from rules.core import GAMES, Rng, random_playout
    from tests.support.tables import make_table

    def shown(table: Table) -> Any:
        """What a presenter is handed: the table's view, or (before views) the table."""
        return table.view() if hasattr(table, "view") else table

    print(f"bot from {Path(bot.__file__).parent}")
    for slug in [g.slug for g in games() if g.shipped]:
        presenter = presenter_for(slug)
        host_us: list[float] = []
        draw_us: list[float] = []
        view_us: list[float] = []
        unshared_us: list[float] = []
        for seed in range(1, args.games + 1):
            cls = GAMES[slug]
            players = min(max(4, cls.min_players), cls.max_players)
            log = random_playout(GAMES[slug].new(players, seed), Rng(seed)).log
            table = make_table(slug, players, seed)
            engine = table.running()
            lines: list[str] = []
            for seat, action in log:
                started = time.process_time()
                before = engine.turn
                events = engine.apply(seat, action)
                table.tail.append((seat, action))
                outcome = Outcome(
                    shown(table), seat, action, events, engine.is_over, before, engine.turn
                )
                drawn = time.process_time()
                lines += presenter.log_lines(getattr(outcome, "view", table), outcome)
                pass_view = shown(table)  # one per pump pass, under the lock
                presenter.public_boards(pass_view, lines[-10:])
                for s in range(players):
                    presenter.hand(pass_view, s)
                done = time.process_time()
                host_us.append((drawn - started) * 1e6)
                draw_us.append((done - drawn) * 1e6)
                if hasattr(table, "view"):  # the same pass again, each call its own view
                    started = time.process_time()
                    table.view()
                    made = time.process_time()
                    presenter.public_boards(table.view(), lines[-10:])
                    for s in range(players):
                        presenter.hand(table.view(), s)
                    unshared_us.append((time.process_time() - made) * 1e6)
                    view_us.append((made - started) * 1e6)
        print(
            f"{slug:12} moves {len(host_us):5}  host median {statistics.median(host_us):7.1f} µs"
            f"  draw median {statistics.median(draw_us):8.1f} µs"
            + (
                f"  | one view {statistics.median(view_us):5.1f} µs, draw with a view per"
                f" call {statistics.median(unshared_us):8.1f} µs"
                if view_us
                else ""
            )
        )


if __name__ == "__main__":
    main()
