"""The lobby message and the cancelled notice (the same message later becomes the board)."""

from __future__ import annotations

from ..host.policy_values import policy_from_values
from ..host.view import TableView
from .admin import house_rules
from .howto import how_to_play_button
from .options import chosen_in_words
from .specs import ButtonSpec, EmbedSpec, Field, MessageSpec, Style

LOBBY_COLOUR = 0x3A7BD5


def lobby_message(table: TableView) -> MessageSpec:
    count = len(table.confirmed())
    held = [s for s in table.seats if not s.confirmed]  # a rematch's invited players
    players = (
        "\n".join(
            f"{i + 1}. {s.name}{'' if s.confirmed else ' — invited: press **Join** to confirm'}"
            for i, s in enumerate(table.seats)
        )
        or "nobody yet"
    )
    fields = [Field(f"Players ({count}/{table.max_players})", players)]
    chosen = chosen_in_words(table.slug, table.game.options)
    if chosen:
        fields.append(Field("Options", "\n".join(chosen)))
    rules = house_rules(policy_from_values(table.game.policy or {}))
    if rules:  # what this server set differently, as the game opened with it (P-64)
        fields.append(Field("This server's settings", "\n".join(rules)))
    ready = table.min_players <= count <= table.max_players
    need = (
        "Ready to start."
        if ready
        else f"Needs {table.min_players - count} more player{'s' if table.min_players - count != 1 else ''}."
    )
    if held:
        waiting = ", ".join(s.name for s in held)
        need += f" Waiting for {waiting} to confirm; the opener may start without them."
    creator = next((s.name for s in table.seats if s.user_id == table.game.creator_id), None)
    opener = f"Opened by **{creator}**. " if creator else ""
    embed = EmbedSpec(
        title=f"{table.title} — lobby",
        description=(
            f"{opener}{table.min_players}–{table.max_players} players. {need}\n"
            "Press **Join** to take a seat; seats go clockwise in join order. The opener may "
            "**Add bot** players, which play random legal moves."
        ),
        fields=tuple(fields),
        colour=LOBBY_COLOUR,
    )
    full = len(table.seats) >= table.max_players  # held seats count as taken
    rows = (
        (
            ButtonSpec("Join", host="join", style=Style.SUCCESS, disabled=full and not held),
            ButtonSpec("Leave", host="leave"),
            ButtonSpec("Add bot", host="addbot", emoji="🤖", disabled=full),
            ButtonSpec("Start", host="start", style=Style.PRIMARY, disabled=not ready),
            ButtonSpec("Cancel", host="cancel", style=Style.DANGER),
        ),
        (how_to_play_button(table.slug),),
    )
    content = (
        "🔁 Rematch! " + " ".join(f"<@{s.user_id}>" for s in held) + ": press **Join** to "
        "confirm your seat."
        if held
        else None
    )
    return MessageSpec(content=content, embed=embed, rows=rows)


def cancelled_message(table: TableView) -> MessageSpec:
    return MessageSpec(
        embed=EmbedSpec(
            title=f"{table.title} — cancelled",
            description="This game was cancelled. Start a new one with `/bugs new`.",
            colour=0x888888,
        )
    )
