"""`python -m bot [--shards 0-3 --shard-count 8]` runs the bot; `python -m bot sync [--guild ID]`;
`python -m bot try` (in a browser, without Discord); `python -m bot demo [game]`;
`python -m bot tournament <game> --seats hard,easy,easy,easy`."""

from __future__ import annotations

import argparse
import asyncio
import sys
from pathlib import Path

from .host.policy import SPEEDS
from .settings import SettingsError


def _sharding(default: object) -> argparse.ArgumentParser:
    """``--shards``/``--shard-count``, before or after ``run`` (after it, they only override
    what was given before: their default there is to leave it)."""
    options = argparse.ArgumentParser(add_help=False)
    options.add_argument(
        "--shards", default=default, help="run these shards only, e.g. 0-3 or 0,2 (SHARD_IDS)"
    )
    options.add_argument(
        "--shard-count", type=int, default=default, help="shards over all processes (SHARD_COUNT)"
    )
    return options


def members_count(text: str) -> int:
    """``try --members``: 2 to 8 (the emulator's server has that many members to play as)."""
    count = int(text) if text.strip().isdigit() else 0
    if not 2 <= count <= 8:
        raise argparse.ArgumentTypeError(f"give 2 to 8, not {text!r}")
    return count


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bot", description="bugtable, the bug games bot", parents=[_sharding(None)]
    )
    sub = parser.add_subparsers(dest="command")
    sub.add_parser("run", help="run the bot (the default)", parents=[_sharding(argparse.SUPPRESS)])
    sync = sub.add_parser("sync", help="register the slash commands with Discord now")
    sync.add_argument("--guild", type=int, default=None, help="sync to one guild (instant)")
    trying = sub.add_parser(
        "try",
        help="play in your browser as several members, against a local Discord emulator",
        description=(
            "Start a local Discord emulator, the bot and a web page where you play as each of "
            "the emulator's members in turn: no Discord account or token needed. Ctrl-C stops "
            "all of it."
        ),
    )
    trying.add_argument(
        "--port", type=int, default=8000, help="the page's port (default: 8000; 0: any free one)"
    )
    trying.add_argument(
        "--host", default="127.0.0.1", help="the address to listen on (default: 127.0.0.1)"
    )
    trying.add_argument(
        "--members",
        type=members_count,
        default=4,
        metavar="N",
        help="how many members to play as, 2 to 8 (default: 4)",
    )
    trying.add_argument(
        "--open", action="store_true", help="open the page in your web browser at once"
    )
    trying.add_argument(
        "--database",
        type=Path,
        default=None,
        metavar="FILE",
        help="keep the games in this SQLite file (default: a temporary one, deleted at the end)",
    )
    trying.add_argument(
        "--verbose", action="store_true", help="log what the bot does, not only warnings"
    )
    demo = sub.add_parser("demo", help="play a game among simulated members on a local emulator")
    demo.add_argument("game", nargs="?", default=None, help="which game (default: the first one)")
    demo.add_argument("--players", type=int, default=None, help="how many players")
    demo.add_argument("--seed", type=int, default=1, help="seed for the simulated players")
    demo.add_argument(
        "--full", action="store_true", help="print every message as the members saw it"
    )
    demo.add_argument(
        "--pictures", type=Path, default=None, metavar="DIR", help="save the board pictures here"
    )
    demo.add_argument(
        "--speed",
        choices=SPEEDS,
        default=None,
        help="the game's time control, as `/bugs new <game> speed:` picks it (default: normal)",
    )
    tournament = sub.add_parser("tournament", help="play seeded games among bot players")
    tournament.add_argument("game", help="which game (a slug, e.g. bug-off)")
    tournament.add_argument("--players", type=int, default=4, help="players per game")
    tournament.add_argument(
        "--seats", default=None, help="one level per seat, e.g. hard,easy,easy,easy"
    )
    tournament.add_argument("--games", type=int, default=200, help="games to play")
    tournament.add_argument("--seed", type=int, default=1, help="seed of the first game")
    tournament.add_argument(
        "--simulations", type=int, default=200, help="a hard bot's simulations per decision"
    )
    tournament.add_argument(
        "--think", type=float, default=None, help="also stop a hard decision after this many s"
    )
    tournament.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)

    try:
        if args.command == "sync":
            from .cli import sync_commands

            return asyncio.run(sync_commands(args.guild))
        if args.command == "tournament":
            from .tournament_cli import tournament_command

            return tournament_command(args)
        if args.command == "try":
            from .tryout import TryOptions, run_try

            return run_try(
                TryOptions(
                    port=args.port,
                    host=args.host,
                    members=args.members,
                    open_browser=args.open,
                    database=args.database,
                    verbose=args.verbose,
                )
            )
        if args.command == "demo":
            from .demo import run_demo

            return asyncio.run(
                run_demo(
                    args.game,
                    players=args.players,
                    seed=args.seed,
                    full=args.full,
                    pictures=args.pictures,
                    speed=args.speed,
                )
            )
        from .cli import run_bot

        return run_bot(shards=args.shards, shard_count=args.shard_count)
    except SettingsError as exc:
        print(f"bugtable: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
