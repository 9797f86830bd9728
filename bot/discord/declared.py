"""A slash command is run only when it carries exactly what bugtable declared (P-24, P-41).

discord.py follows the first subcommand of each level and ignores every option its command has
no parameter for, so a forged client's `/bugs new bag-of-bugs nonexistent:x` would open a lobby.
The tree checks the whole payload against the declared commands first and refuses anything else:
an unknown command or subcommand, a level carrying anything beside its one subcommand, an option
the command does not have, given twice, or of another type than declared."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import discord
from discord import app_commands

SUBCOMMAND = 1
GROUP = 2


class UndeclaredInput(app_commands.AppCommandError):
    """A slash command carrying a command, subcommand or option bugtable did not declare."""


def is_declared(tree: app_commands.CommandTree[Any], data: Mapping[str, Any]) -> bool:
    """Whether a chat-input command's ``data`` names only what ``tree`` declares."""
    name = data.get("name")
    if not isinstance(name, str):
        return False
    command: Any = None
    guild_id = data.get("guild_id")
    if guild_id is not None and str(guild_id).isdigit():
        command = tree.get_command(name, guild=discord.Object(int(guild_id)))
    if command is None:
        command = tree.get_command(name)
    return command is not None and _matches(command, data.get("options") or [])


def _matches(command: Any, options: Any) -> bool:
    if not isinstance(options, list) or not all(isinstance(o, Mapping) for o in options):
        return False
    if isinstance(command, app_commands.Group):
        if len(options) != 1:  # a group is run through exactly one of its subcommands
            return False
        (option,) = options
        child = command.get_command(str(option.get("name")))
        if child is None:
            return False
        kind = GROUP if isinstance(child, app_commands.Group) else SUBCOMMAND
        return option.get("type") == kind and _matches(child, option.get("options") or [])
    if not isinstance(command, app_commands.Command):
        return False
    parameters = {p.display_name: p for p in command.parameters}
    names = [o.get("name") for o in options]
    if len(set(names)) != len(names):
        return False
    return all(
        (parameter := parameters.get(str(o.get("name")))) is not None
        and o.get("type") == parameter.type.value
        for o in options
    )


class DeclaredOnlyTree(app_commands.CommandTree[Any]):
    """The bot's command tree: a chat-input command that does not match the declarations raises
    ``UndeclaredInput``, which the tree's error handler answers (``Edge.command_error``)."""

    async def interaction_check(self, interaction: discord.Interaction[Any], /) -> bool:
        if interaction.type is discord.InteractionType.application_command:
            data: Mapping[str, Any] = interaction.data or {}
            if data.get("type", 1) == 1 and not is_declared(self, data):
                raise UndeclaredInput()
        return True
