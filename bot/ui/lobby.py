"""The lobby message and the cancelled notice (the same message later becomes the board)."""

from __future__ import annotations

from ..host.policy import BOT_LEVELS, BotLevel
from ..host.policy_values import policy_from_values
from ..host.seating import bot_label
from ..host.view import TableView
from .admin import house_rules
from .howto import how_to_play_button
from .options import chosen_in_words
from .specs import ButtonSpec, EmbedSpec, Field, MessageSpec, Style
from .text import esc

LOBBY_COLOUR = 0x3A7BD5

ADD_BOT = "addbot"
"""Add bot as lobbies before bot levels had it; such a button, still on an old lobby, adds an
easy bot (the only level there was, P-77)."""

LEVEL_WORDS: dict[BotLevel, str] = {
    "easy": "easy plays random legal moves",
    "normal": "normal plays by the rulebook's strategy",
    "hard": "hard looks ahead through imagined games",
}


def add_bot_op(level: BotLevel) -> str:
    """The host operation of a lobby's Add bot button for ``level``: ``addbot-hard``."""
    return f"{ADD_BOT}-{level}"


def bot_level_of(op: str) -> BotLevel | None:
    """The level an Add bot operation asks for (``None``: not an Add bot operation)."""
    if op == ADD_BOT:
        return "easy"
    for level in BOT_LEVELS:
        if op == add_bot_op(level):
            return level
    return None


def lobby_message(table: TableView, clocks: str | None = None) -> MessageSpec:
    """The lobby; ``clocks``: its time control in words (``bot/ui/speeds.py``, P-71)."""
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
    if clocks:
        fields.append(Field("Speed", clocks))
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
    offered = table.bot_levels
    bots = (
        f" The opener may add bot players: {'; '.join(LEVEL_WORDS[lvl] for lvl in offered)}."
        if offered
        else ""
    )
    embed = EmbedSpec(
        title=f"{table.title} — lobby",
        description=(
            f"{opener}{table.min_players}–{table.max_players} players. {need}\n"
            f"Press **Join** to take a seat; seats go clockwise in join order.{bots}"
        ),
        fields=tuple(fields),
        colour=LOBBY_COLOUR,
    )
    full = len(table.seats) >= table.max_players  # held seats count as taken
    rows = (
        (
            ButtonSpec("Join", host="join", style=Style.SUCCESS, disabled=full and not held),
            ButtonSpec("Leave", host="leave"),
            ButtonSpec("Start", host="start", style=Style.PRIMARY, disabled=not ready),
            ButtonSpec("Cancel", host="cancel", style=Style.DANGER),
        ),
        (
            *(
                ButtonSpec(
                    f"Add {bot_label(level).lower()}",
                    host=add_bot_op(level),
                    emoji="🤖",
                    disabled=full,
                )
                for level in offered
            ),
            how_to_play_button(table.slug),
        ),
    )
    content = (
        "🔁 Rematch! " + " ".join(f"<@{s.user_id}>" for s in held) + ": press **Join** to "
        "confirm your seat."
        if held
        else None
    )
    return MessageSpec(content=content, embed=embed, rows=rows)


def cancelled_message(table: TableView) -> MessageSpec:
    """A cancelled game's board; one a moderator ended says who and why (P-72)."""
    game = table.game
    if game.ended_by is not None:
        why = f": {esc(game.end_reason)}" if game.end_reason else "."
        return MessageSpec(
            embed=EmbedSpec(
                title=f"{table.title} — ended by a moderator",
                description=(
                    f"⛔ **{esc(game.ended_by_name or 'A moderator')}** ended this game{why}\n"
                    "Nobody wins and no rating changes. Start a new one with `/bugs new`."
                ),
                colour=0x888888,
            )
        )
    return MessageSpec(
        embed=EmbedSpec(
            title=f"{table.title} — cancelled",
            description="This game was cancelled. Start a new one with `/bugs new`.",
            colour=0x888888,
        )
    )


def leave_question(title: str) -> MessageSpec:
    """`/bugs leave` during play (P-73): what happens to the seat, and a button that alone
    acts."""
    return MessageSpec(
        content=(
            f"Leave **{esc(title)}**? 🤖 A bot will play your seat from your next turn to the "
            "end. The seat stays yours: `/bugs join` here takes it back before the game ends, "
            "and its result and rating are yours whoever finishes it."
        ),
        rows=(
            (
                ButtonSpec("Leave: a bot plays my seat", host="leavego", style=Style.DANGER),
                ButtonSpec("Stay", host="stay", style=Style.SECONDARY),
            ),
        ),
    )


def leave_answer(left: str | None) -> MessageSpec:
    """The question once answered: ``left`` is the game's title if the member left."""
    if left is None:
        return MessageSpec(content="You stay in the game: nothing changed.")
    return MessageSpec(
        content=(
            f"You left **{esc(left)}**: a bot plays your seat now. `/bugs join` here takes it "
            "back before the game ends."
        )
    )
