"""``python -m bot.emulator``: a standalone emulator to point a bot at by hand."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging

from .server import Emulator

#: The token the emulator accepts when run by hand: shaped like a real bot token, so the bot
#: pointed at it with the printed lines in `.env` accepts it too.
LOCAL_TOKEN = "emulator.local-bot-token-0123456789"


async def _serve(args: argparse.Namespace) -> None:
    emu = Emulator(args.token, host=args.host, port=args.port)
    guild = emu.add_guild("Bug Club")
    emu.add_text_channel(guild, "games")
    for name in args.users:
        emu.add_user(name)
    await emu.start()
    face = None
    if args.face is not None:
        from .face import Face

        face = Face(emu, host=args.host, port=args.face)
        await face.start()
    print(
        "The emulator is running: a server 'Bug Club' with a #games channel and the members "
        f"{', '.join(args.users) or '(none)'}.\n"
        "Put these three lines into the bot's .env (or its environment), then start the bot "
        "with `python -m bot` in another terminal; Ctrl-C here stops the emulator:\n"
    )
    print(f"DISCORD_API_BASE={emu.api_base}")
    print(f"DISCORD_GATEWAY_URL={emu.gateway_url}")
    print(f"DISCORD_TOKEN={emu.token}", flush=True)
    if face is not None:
        print(f"\nOnce the bot is connected, play as the members at {face.url}", flush=True)
    try:
        await asyncio.Event().wait()
    finally:
        if face is not None:
            await face.stop()
        await emu.stop()


def main() -> None:
    parser = argparse.ArgumentParser(
        prog="python -m bot.emulator",
        description=(
            "Run a local stand-in for Discord (its REST API and gateway) that the bot can connect "
            "to without a Discord account: it prints the three settings to put into the bot's "
            ".env. The tests drive the same emulator."
        ),
    )
    parser.add_argument(
        "--token",
        default=LOCAL_TOKEN,
        help="the bot token the emulator accepts (default: a local one, printed for .env)",
    )
    parser.add_argument(
        "--host", default="127.0.0.1", help="the address to listen on (default: 127.0.0.1)"
    )
    parser.add_argument(
        "--port", type=int, default=0, help="the port to listen on (default: 0, any free one)"
    )
    parser.add_argument(
        "--users",
        nargs="*",
        default=["alice", "bob"],
        metavar="NAME",
        help="the members of its one server (default: alice bob)",
    )
    parser.add_argument(
        "--face",
        type=int,
        default=None,
        metavar="PORT",
        help=(
            "also serve a web page on this port where you play as the members: their channel, "
            "DMs and private replies, and a box for the bot's slash commands (0: any free port; "
            "`python -m bot try` starts all of it in one command)"
        ),
    )
    args = parser.parse_args()
    logging.basicConfig(level=logging.INFO)
    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(_serve(args))


if __name__ == "__main__":
    main()
