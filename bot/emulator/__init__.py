"""A local Discord (REST + gateway) so the real discord.py client can be tested offline.

``Emulator`` is the entry point; DESIGN.md §4 lists the discord.py facts it relies on.
"""

from __future__ import annotations

from .errors import ApiError, EmulatorError
from .interactions import InteractionResult
from .models import Button, Channel, Guild, Message, MessageVersion, Role, SelectMenu, User
from .rest import GLOBAL, INTERACTION, ChannelLimit, GlobalLimit, RequestRecord
from .server import Emulator

__all__ = [
    "GLOBAL",
    "INTERACTION",
    "ApiError",
    "Button",
    "Channel",
    "ChannelLimit",
    "Emulator",
    "EmulatorError",
    "GlobalLimit",
    "Guild",
    "InteractionResult",
    "Message",
    "MessageVersion",
    "RequestRecord",
    "Role",
    "SelectMenu",
    "User",
]
