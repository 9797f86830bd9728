"""`python -m bot demo [game]`: a whole game among simulated members, through the emulator.

The real bot (in this process) talks to the local Discord emulator exactly as it would talk to
Discord. Simulated members only click what Discord shows them: each picks its move as a
``normal`` bot player would (issue #23; seeing only its own seat's view and events) and must
find the button or menu for it on the board, in its DMs or in its ephemeral replies. Several members may click at the
same moment, so Bag of Bugs grabs are real races.

By default it prints one screen: the game, the final board, and what the game sent (messages,
edits, pings and DMs per member). ``--full`` prints the channel as players saw it all along,
and what each member alone saw (their DM, their private replies), marked 🔒. Discord's
timestamps read as text ("in 12 s"), and ``--pictures DIR`` saves every board picture.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import re
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from pydantic import SecretStr

from rules.core import Action, Engine
from rules.core.player import Bot, bot_for
from rules.core.rng import Rng

from .cli import quiet_start
from .discord.client import BugtableBot, point_at
from .discord.codec import encode_action, game_button_id
from .emulator import ChannelLimit, Emulator
from .emulator.traffic import measure
from .games import games, load_game_modules
from .host.policy import Speed
from .host.table import Outcome, Table
from .settings import Settings

NAMES = ["Ada", "Bram", "Cleo", "Dov", "Esme", "Finn", "Gus", "Hana"]
TOKEN = "demo.emulator-token-0123456789"
WINDOW = 0.5
"""The demo runs ten times faster than Discord: its timers are short, and so is the window of
the per-channel limits, for the emulator and the bot alike."""
PICTURE_INTERVAL = 0.2
"""A board's pictures at most this often: ten times as often as the bot's default (P-86), as
the rest of the demo runs."""


MENTION = re.compile(r"<@!?(\d+)>")
TIMESTAMP = re.compile(r"<t:(-?\d+)(?::([tTdDfFR]))?>")
"""Discord's timestamp markup, which a Discord client shows in the reader's own time."""


def readable(text: str, now: float | None = None) -> str:
    """``text`` with Discord's timestamps as a reader would see them: relative ones as "in 12 s"
    or "12 s ago", the others as the UTC time."""
    at = time.time() if now is None else now

    def one(match: re.Match[str]) -> str:
        when, style = int(match[1]), match[2] or "f"
        if style == "R":
            seconds = round(when - at)
            return f"in {seconds} s" if seconds >= 0 else f"{-seconds} s ago"
        return datetime.fromtimestamp(when, UTC).strftime("%H:%M:%S UTC")

    return TIMESTAMP.sub(one, text)


class Transcript:
    """Follows every message the members can see, each new version once: printed as it comes
    (``full``), and its new pictures saved to ``pictures``. The channel, and each simulated
    member's DMs and private replies, marked as private to that member."""

    def __init__(self, out: Any = None, *, full: bool = True, pictures: Path | None = None) -> None:
        self.out = out if out is not None else sys.stdout  # looked up now: it may be redirected
        self.full = full
        self.pictures = pictures
        if pictures is not None:
            pictures.mkdir(parents=True, exist_ok=True)
        self.saved: list[Path] = []
        self.seen: dict[int, str] = {}
        self.names: dict[int, str] = {}
        self._files: set[str] = set()

    def show(self, emulator: Emulator, messages: list[Any], private_to: Any = None) -> None:
        for message in messages:
            text = readable(MENTION.sub(self._name, message.text().strip()))
            labels = [b.label for b in message.buttons() if b.label]
            shown = f"{text}\n{labels}"
            saved = self._save_pictures(emulator, message)
            if self.seen.get(message.id) == shown and not saved:
                continue
            edited = message.id in self.seen
            self.seen[message.id] = shown
            if not self.full:
                continue
            header = "✎ (edited)" if edited else "▶"
            if private_to is None:
                where = f"{message.author.name}:"
            elif message.ephemeral_to is not None:
                where = f"🔒 private reply, only {private_to.name} sees it:"
            else:
                where = f"🔒 DM to {private_to.name}:"
            print(f"\n{header} {where}", file=self.out)
            for line in text.splitlines():
                print(f"    {'🔒 ' if private_to is not None else ''}{line}", file=self.out)
            if labels:
                print(f"    [{'] ['.join(labels)}]", file=self.out)
            for path in saved:
                print(f"    🖼 {path}", file=self.out)

    def show_all(self, emulator: Emulator, channel: Any, members: list[Any]) -> None:
        """The channel, then every member's DMs and private replies, each new version once."""
        self.names.update({m.id: m.name for m in members})
        self.show(emulator, emulator.channel_messages(channel))
        for member in members:
            self.show(
                emulator, [*emulator.dms(member), *emulator.ephemerals(member)], private_to=member
            )

    def summary(self, emulator: Emulator, channel: Any, members: list[Any]) -> None:
        """One screen: who played, the final board as the channel shows it, the pictures."""
        board = next(
            (m for m in reversed(emulator.channel_messages(channel)) if m.author.bot), None
        )
        who = ", ".join(m.name for m in members)
        print(f"🎲 {len(members)} members played: {who}", file=self.out)
        if board is not None:
            print("\nThe board at the end:", file=self.out)
            for line in readable(MENTION.sub(self._name, board.text().strip())).splitlines():
                print(f"    {line}", file=self.out)
        if self.saved:
            print(
                f"\n🖼 {len(self.saved)} pictures saved, the last: {self.saved[-1]}", file=self.out
            )
        print("\n(--full prints every message as the members saw it)", file=self.out)

    def _save_pictures(self, emulator: Emulator, message: Any) -> list[Path]:
        """Save the message's pictures not saved yet (``pictures``); their paths."""
        if self.pictures is None:
            return []
        saved = []
        for attachment in message.attachments:
            if str(attachment["id"]) in self._files:
                continue
            self._files.add(str(attachment["id"]))
            path = self.pictures / f"{len(self.saved) + 1:03d}-{attachment['filename']}"
            path.write_bytes(emulator.attachment_bytes(attachment))
            self.saved.append(path)
            saved.append(path)
        return saved

    def _name(self, match: re.Match[str]) -> str:
        return "@" + self.names.get(int(match[1]), match[1])


def _find_control(
    emulator: Emulator, user: Any, game_id: int, turn: int, action: dict[str, Any]
) -> tuple[Any, str, str | None] | None:
    """The message and control (button id, or select id + value) that carries ``action``."""
    try:
        wanted = game_button_id(game_id, turn, action)
    except ValueError:
        wanted = None
    value = encode_action(action)
    for message in reversed(emulator.visible_to(user)):
        for button in message.buttons():
            if wanted is not None and button.custom_id == wanted and not button.disabled:
                return message, button.custom_id, None
        for select in message.selects():
            values = [o.get("value") for o in select.options]
            if select.custom_id.startswith(f"s:{game_id}:{turn}:") and value in values:
                return message, select.custom_id, value
    return None


async def run_demo(
    game: str | None,
    *,
    players: int | None = None,
    seed: int = 1,
    quiet_logs: bool = True,
    pace: float = 1.0,
    full: bool = False,
    pictures: Path | None = None,
    speed: Speed | None = None,
) -> int:
    """Play one game among simulated members and print it: one screen, or every message
    (``full``); board pictures saved to ``pictures``. ``pace`` multiplies the per-channel
    window (of the emulator and the bot alike), the board edit interval and the least time
    between a board's pictures: tests shorten them, nobody reads along. The game's own timers
    stay as they are. ``speed``: the time control the lobby is opened with (P-71; the lobby
    shows it)."""
    window = WINDOW * pace
    settings = Settings(_env_file=None)  # type: ignore[call-arg]
    load_game_modules(settings.extra_modules())
    playable = {record.slug: record for record in games()}
    slug = game or min(playable)
    if slug not in playable:
        known = ", ".join(sorted(playable))
        print(f"No game '{slug}' to play on Discord. Known: {known}", file=sys.stderr)
        return 2
    cls = playable[slug].engine
    count = players or min(max(cls.min_players, 3), cls.max_players)
    if not cls.min_players <= count <= cls.max_players:
        print(f"{cls.title} takes {cls.min_players}-{cls.max_players} players.", file=sys.stderr)
        return 2
    if quiet_logs:
        logging.basicConfig(level=logging.WARNING)
        quiet_start(logging.WARNING)  # no voice warnings: the demo joins no voice channel
    rng = random.Random(seed)
    emulator = Emulator(token=TOKEN, channel_limit=ChannelLimit(5, window))
    await emulator.start()
    with tempfile.TemporaryDirectory() as tmp:
        settings = Settings(  # type: ignore[call-arg]
            _env_file=None,
            discord_token=SecretStr(TOKEN),
            database_url=f"sqlite+aiosqlite:///{Path(tmp) / 'demo.db'}",
            discord_api_base=emulator.api_base,
            discord_gateway_url=emulator.gateway_url,
            timers=dict(playable[slug].demo_timers),
            board_edit_interval=0.05 * pace,
            picture_interval=PICTURE_INTERVAL * pace,
            channel_edit_window=window,
        )
        point_at(settings)
        guild = emulator.add_guild("Bug Club")
        channel = emulator.add_text_channel(guild, "bug-games")
        members = [emulator.add_user(NAMES[i % len(NAMES)]) for i in range(count)]
        bot = BugtableBot(settings)
        runner = asyncio.create_task(bot.start(TOKEN))
        transcript = Transcript(full=full, pictures=pictures)
        try:
            await emulator.wait_identified(timeout=60)
            code = await _play(emulator, bot, channel, members, slug, rng, transcript, speed)
            if not full:
                transcript.summary(emulator, channel, members)
            traffic = measure(emulator, channel, members, window=window)
            print("\n📊 What this game sent (the demo runs ten times faster than Discord):")
            for line in traffic.lines():
                print(f"    {line}")
        finally:
            await bot.close()
            runner.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await runner
            await emulator.stop()
    return code


class NormalMembers:
    """The simulated members' minds: a normal bot per seat, told what its seat sees of every
    committed change (a host listener); a game without bot players is played at random."""

    def __init__(self, slug: str, players: int, rng: random.Random) -> None:
        self.rng = rng
        self.bots: list[Bot] = []
        with contextlib.suppress(KeyError):  # no bot players for this game
            self.bots = [
                bot_for(slug, seat, "normal", Rng(rng.getrandbits(64))) for seat in range(players)
            ]

    def table_changed(self, table: Table, outcome: Outcome | None) -> None:
        if outcome is not None:
            for bot in self.bots:
                bot.observe(outcome.events)

    def choose(self, engine: Engine, seat: int) -> Action | None:
        """The member's move now (``None``: it waits, in a real-time window)."""
        if not self.bots:
            return self.rng.choice(engine.legal_actions(seat))
        return self.bots[seat].decide(engine).action


async def _play(
    emulator: Emulator,
    bot: BugtableBot,
    channel: Any,
    members: list[Any],
    slug: str,
    rng: random.Random,
    transcript: Transcript,
    speed: Speed | None = None,
) -> int:
    creator = members[0]
    chosen = {} if speed is None else {"speed": speed}
    result = await emulator.slash(creator, channel, f"bugs new {slug}", **chosen)
    lobby = await result.wait_message()
    transcript.show_all(emulator, channel, members)
    for member in members[1:]:
        await emulator.click(member, lobby, lobby.find_button(label="Join"))
    await bot.publisher.flush()
    transcript.show_all(emulator, channel, members)
    minds = NormalMembers(slug, len(members), rng)
    bot.host.listeners.append(minds)
    await emulator.click(creator, lobby, lobby.find_button(label="Start"))
    await bot.publisher.flush()
    table = bot.host.tables[next(iter(bot.host.tables))]
    stuck = 0
    while not table.running().is_over:
        engine: Engine = table.running()
        await bot.publisher.flush()
        transcript.show_all(emulator, channel, members)
        clicks = []
        movers = [s for s in sorted(engine.waiting_for()) if s >= 0 and engine.legal_actions(s)]
        rng.shuffle(movers)
        for seat in movers[: max(1, rng.randint(1, len(movers)))] if movers else []:
            action = minds.choose(engine, seat)
            if action is None:
                continue
            member = members[seat]
            control = _find_control(emulator, member, table.id, engine.turn, action)
            if control is None:
                await _open_hand(emulator, member, channel, table.id)
                control = _find_control(emulator, member, table.id, engine.turn, action)
            if control is None:
                continue
            message, custom_id, value = control
            if value is None:
                clicks.append(emulator.click(member, message, custom_id))
            else:
                clicks.append(emulator.select(member, message, custom_id, [value]))
        if clicks:
            before = table.game.version
            await asyncio.gather(*clicks)
            stuck = 0 if table.game.version != before else stuck + 1
        else:
            stuck += 1
            await asyncio.sleep(0.2)  # nobody can act: a timer (e.g. a countdown) will
        if stuck > 400:
            print("The demo is stuck: no legal action could be found on screen.", file=sys.stderr)
            return 1
    await bot.publisher.flush()
    transcript.show_all(emulator, channel, members)
    return 0


async def _open_hand(emulator: Emulator, member: Any, channel: Any, game_id: int) -> None:
    """Press "My hand" on the board (what a member with closed DMs would do)."""
    for message in reversed(emulator.channel_messages(channel)):
        if message.has_button(custom_id_prefix=f"h:{game_id}:hand"):
            button = message.find_button(custom_id_prefix=f"h:{game_id}:hand")
            await emulator.click(member, message, button)
            return
