"""A tiny real discord.py bot for the emulator's end-to-end tests (in-process or subprocess).

Run as ``python -m tests.support.echo_bot`` with EMU_API_BASE, EMU_GATEWAY_URL and EMU_TOKEN set.
"""

from __future__ import annotations

import asyncio
import logging
import os
import re
from typing import Any

import discord
import yarl
from discord import app_commands
from discord.ext import commands

log = logging.getLogger("echo_bot")


def point_discord_at(api_base: str, gateway_url: str) -> tuple[str, yarl.URL]:
    """Aims discord.py at the emulator; returns the old values so tests can restore them."""
    old = (discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY)
    discord.http.Route.BASE = api_base
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway_url)
    return old


def restore_discord(old: tuple[str, yarl.URL]) -> None:
    discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = old


class JoinButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"echo:join:(?P<game>[a-z0-9-]+)"
):
    """Persistent: any process rebuilds it from the custom_id, so clicks survive restarts."""

    def __init__(self, game: str) -> None:
        super().__init__(
            discord.ui.Button(
                label="Join", style=discord.ButtonStyle.primary, custom_id=f"echo:join:{game}"
            )
        )
        self.game = game

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
    ) -> JoinButton:
        return cls(match["game"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        assert interaction.message is not None
        content = (
            f"{interaction.message.content}\n{interaction.user.name} joined (pid {os.getpid()})"
        )
        await interaction.response.edit_message(content=content, view=game_view(self.game))


def game_view(game: str) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(JoinButton(game))
    return view


class PickView(discord.ui.View):
    def __init__(self) -> None:
        super().__init__(timeout=None)

    @discord.ui.select(
        custom_id="echo:pick",
        options=[discord.SelectOption(label=n.title(), value=n) for n in ("ant", "bee", "cricket")],
    )
    async def pick(
        self, interaction: discord.Interaction[Any], select: discord.ui.Select[Any]
    ) -> None:
        await interaction.response.edit_message(content=f"picked {select.values[0]}", view=None)


class EchoBot(commands.Bot):
    """Records what went wrong on its side, so tests can assert on discord.py's exceptions."""

    def __init__(self) -> None:
        super().__init__(command_prefix=commands.when_mentioned, intents=discord.Intents.default())
        self.errors: list[BaseException] = []
        self.notes: list[str] = []
        self.tree.add_command(bugs)

    async def setup_hook(self) -> None:
        self.add_dynamic_items(JoinButton)
        await self.tree.sync()

    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        """discord.py waits 5 s before identifying again (Discord's limit on identifies); the
        emulator has no such limit, and the tests of identifying again need not wait for it."""


def _bot(interaction: discord.Interaction[Any]) -> EchoBot:
    client = interaction.client
    assert isinstance(client, EchoBot)
    return client


bugs = app_commands.Group(name="bugs", description="Emulator test commands")


@bugs.command(name="new", description="Start a game with a persistent Join button")
async def bugs_new(interaction: discord.Interaction[Any], game: str) -> None:
    await interaction.response.send_message(f"New game of {game}", view=game_view(game))


@bugs.command(name="secret", description="An ephemeral answer")
async def bugs_secret(interaction: discord.Interaction[Any]) -> None:
    await interaction.response.send_message(
        f"psst {interaction.user.name}: the secret is 42", ephemeral=True
    )


@bugs.command(name="slow", description="Answers after a delay")
async def bugs_slow(interaction: discord.Interaction[Any], delay: float) -> None:
    await asyncio.sleep(delay)
    try:
        await interaction.response.send_message("too late?")
    except discord.HTTPException as exc:
        _bot(interaction).errors.append(exc)


@bugs.command(name="twice", description="Acknowledges twice")
async def bugs_twice(interaction: discord.Interaction[Any]) -> None:
    await interaction.response.send_message("first")
    # discord.py refuses a second response client-side; forget the first to reach the server.
    interaction.response._response_type = None
    try:
        await interaction.response.send_message("second")
    except discord.HTTPException as exc:
        _bot(interaction).errors.append(exc)


@bugs.command(name="dm", description="Sends the caller a DM")
async def bugs_dm(interaction: discord.Interaction[Any]) -> None:
    try:
        await interaction.user.send("hello by DM")
    except discord.Forbidden as exc:
        _bot(interaction).errors.append(exc)
        await interaction.response.send_message(f"DMs closed ({exc.code})", ephemeral=True)
    else:
        await interaction.response.send_message("check your DMs", ephemeral=True)


@bugs.command(name="long", description="Tries to post 2001 characters")
async def bugs_long(interaction: discord.Interaction[Any]) -> None:
    await interaction.response.defer(ephemeral=True, thinking=True)
    assert isinstance(interaction.channel, discord.TextChannel)
    try:
        await interaction.channel.send("x" * 2001)
    except discord.HTTPException as exc:
        _bot(interaction).errors.append(exc)
        await interaction.followup.send(f"rejected {exc.status} {exc.code}", ephemeral=True)


@bugs.command(name="edit", description="Posts then edits a channel message")
async def bugs_edit(interaction: discord.Interaction[Any]) -> None:
    await interaction.response.send_message("editing", ephemeral=True)
    assert isinstance(interaction.channel, discord.TextChannel)
    message = await interaction.channel.send("v0")
    await message.edit(content="v1")
    _bot(interaction).notes.append("edited")


@bugs.command(name="pick", description="A select menu")
async def bugs_pick(interaction: discord.Interaction[Any]) -> None:
    await interaction.response.send_message("pick a bug", view=PickView())


@bugs.command(name="perms", description="Reports permissions")
async def bugs_perms(interaction: discord.Interaction[Any]) -> None:
    await interaction.response.send_message(
        f"manage_channels={interaction.permissions.manage_channels} "
        f"app_embed_links={interaction.app_permissions.embed_links}",
        ephemeral=True,
    )


async def _main() -> None:
    point_discord_at(os.environ["EMU_API_BASE"], os.environ["EMU_GATEWAY_URL"])
    discord.utils.setup_logging(level=logging.INFO)
    bot = EchoBot()
    async with bot:
        await bot.start(os.environ["EMU_TOKEN"])


if __name__ == "__main__":
    asyncio.run(_main())
