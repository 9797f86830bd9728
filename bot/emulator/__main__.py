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
    print(f"DISCORD_API_BASE={emu.api_base}")
    print(f"DISCORD_GATEWAY_URL={emu.gateway_url}")
    print(f"DISCORD_TOKEN={emu.token}", flush=True)
    try:
        await asyncio.Event().wait()
    finally:
        await emu.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description="Run the local Discord emulator.")
    parser.add_argument("--token", default=LOCAL_TOKEN)
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--users", nargs="*", default=["alice", "bob"])
    args = parser.parse_args()
    logging.basicConfig(level=logging.INFO)
    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(_serve(args))


if __name__ == "__main__":
    main()
