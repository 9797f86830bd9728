"""The presenter contract, and a generic presenter that fits any engine (a game's own is in its
record, bot/games.py).

A game gets a dedicated presenter (``bot/ui/games/<slug>.py``) for a good-looking board; the
generic one draws any engine from its public view and legal actions, which is enough for the
test game and for an engine whose presenter is not written yet.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any, ClassVar

from rules.core import SYSTEM, Event

from ..games import game_for
from ..host.table import Outcome, SeatChange
from ..host.view import TableView
from .howto import how_to_play_button
from .results import ranked, results_screen, standing, win_verb
from .specs import ButtonSpec, EmbedSpec, Field, ImageSpec, MessageSpec, Style, chunk_buttons
from .text import esc, newest_lines, plural

HAND_BUTTON = ButtonSpec("My hand", host="hand", emoji="🃏")
REMATCH_BUTTON = ButtonSpec("Rematch", host="rematch", emoji="🔁", style=Style.SUCCESS)
MAX_ROWS = 5
MAX_BOARD_BUTTONS = 20
SETTLED = "✔️ Settled: these buttons are used up. The board shows what happened."
BOARD_COPY_FOOTER = "The board as your move left it; the channel's board follows"
"""Under the copy of the board a settled panel shows beneath (it is a snapshot, not live)."""


def action_label(action: dict[str, Any]) -> str:
    """A readable label for an action, e.g. ``grab 3`` or ``place red``."""
    parts = [str(action.get("type", "?")).replace("_", " ")]
    for key, value in action.items():
        if key == "type":
            continue
        parts.append(",".join(map(str, value)) if isinstance(value, list) else str(value))
    return " ".join(parts)[:80]


class Presenter:
    """Turns a table into messages. Never changes state; may read the engine's views."""

    slug: ClassVar[str] = "*"
    colour: ClassVar[int] = 0x5B8C3A
    board_log_lines: ClassVar[int] = 8
    """The newest public log lines a board shows (as many as fit in one field)."""

    # -- public --------------------------------------------------------------------------
    def public_boards(self, table: TableView, log: Sequence[str] = ()) -> list[MessageSpec]:
        """What the channel shows: ``boards()`` with, on the first message, **Rematch** once
        the game is over and **How to play** (where a row has room): added here once for every
        game rather than in each ``boards()``. ``log`` is the game's public log
        (``PublicLog.lines``), oldest first."""
        boards = self.boards(table, log)
        if not boards:
            return boards
        first = boards[0]
        if table.running().is_over:
            first = with_button(first, REMATCH_BUTTON)
        return [with_button(first, how_to_play_button(table.slug)), *boards[1:]]

    def boards(self, table: TableView, log: Sequence[str] = ()) -> list[MessageSpec]:
        """The public messages of a running or finished game, in channel order."""
        engine = table.running()
        if engine.is_over:
            return [self.final(table, log)]
        view = engine.view(None)
        lines = [f"**{k}**: {_short(v)}" for k, v in view.items() if k not in ("players",)]
        names = table.names()
        scores = engine.public_scores()
        players = "\n".join(
            f"{'▶ ' if i in engine.waiting_for() else ''}{names[i]}: {scores[i]}"
            for i in range(engine.players)
        )
        buttons: list[ButtonSpec] = []
        seen: set[str] = set()
        for seat in range(engine.players):
            for action in engine.legal_actions(seat):
                key = json.dumps(action, sort_keys=True)
                if key not in seen and len(buttons) < MAX_BOARD_BUTTONS:
                    seen.add(key)
                    buttons.append(ButtonSpec(action_label(action), action=action))
        buttons.append(HAND_BUTTON)
        embed = EmbedSpec(
            title=table.title,
            description="\n".join(lines)[:3000],
            fields=(Field("Players", players or "—"), *self._log_field(log)),
            colour=self.colour,
        )
        return [MessageSpec(embed=embed, rows=tuple(chunk_buttons(buttons)))]

    def _log_field(self, log: Sequence[str]) -> tuple[Field, ...]:
        """The board's "Log" field: the newest lines that fit, or nothing before the first."""
        text = newest_lines(log, self.board_log_lines)
        return (Field("Log", text),) if text else ()

    def final(self, table: TableView, log: Sequence[str] = ()) -> MessageSpec:
        """The results: score table with breakdowns and the winners."""
        engine = table.running()
        names = table.names()
        result = engine.final_result()
        scores, winners = result.scores, result.winners
        fields = []
        for seat in ranked(scores, winners)[:20]:
            parts = result.breakdowns[seat]
            detail = ", ".join(f"{k} {v}" for k, v in parts.items() if k != "total")
            fields.append(standing(names[seat], seat in winners, str(scores[seat]), detail or "—"))
        won = " and ".join(names[s] for s in winners) or "nobody"
        return results_screen(
            table.title,
            f"**{won}** {win_verb(winners)}!",
            fields,
            log=self._log_field(log),
            colour=self.colour,
        )

    def score_words(self, score: int, *, over: bool) -> str:
        """A seat's score in words, as `/bugs status` gives it: while the game is played it is
        the public score (``Engine.public_scores``), so a game whose score hides parts says
        what it counts ("visible VP"); once the game is over, the final score."""
        return plural(score, "point")

    def log_lines(self, table: TableView, outcome: Outcome) -> list[str]:
        """Public log lines for an outcome (only public events may appear here)."""
        names = table.names()
        who = "⏰ Timer" if outcome.seat == SYSTEM else names[outcome.seat]
        lines = [f"{who}: {_event_text(e)}" for e in outcome.events if e.is_public]
        return lines

    def move_lines(self, table: TableView, outcome: Outcome) -> list[str]:
        """A move in words for the game's replay page (P-60): its public log lines, which a
        game whose board alone shows some moves (Bag of Bugs' draws) extends. Public events
        only, like ``log_lines``: the page follows a game in play too. A move with nothing
        public to say still says who moved, never what the action held."""
        lines = self.log_lines(table, outcome)
        if lines:
            return lines
        who = "⏰ Timer" if outcome.seat == SYSTEM else f"**{esc(table.names()[outcome.seat])}**"
        return [f"{who} moved; nothing of that move was shown to the table"]

    def details(self, table: TableView, log: Sequence[str] = ()) -> MessageSpec | None:
        """What **Details** shows privately beside a board kept short (``None``: the board
        shows everything already)."""
        return None

    def full_picture(self, table: TableView) -> ImageSpec | None:
        """What **Full board** shows privately: the desktop picture, for a game whose board
        carries a smaller one (``None``: none)."""
        return None

    # -- private -------------------------------------------------------------------------
    def hand(self, table: TableView, seat: int) -> MessageSpec | None:
        """What only ``seat`` may see (DM / "My hand"), or ``None`` if the game has no secrets."""
        engine = table.running()
        public = engine.view(None)
        mine = engine.view(seat)
        secret = {k: v for k, v in mine.items() if public.get(k) != v}
        if not secret:
            return None
        lines = "\n".join(f"**{k}**: {_short(v)}" for k, v in secret.items())
        buttons = [
            ButtonSpec(action_label(a), action=a, style=Style.PRIMARY)
            for a in engine.legal_actions(seat)[:MAX_BOARD_BUTTONS]
        ]
        return MessageSpec(
            embed=EmbedSpec(title=f"{table.title} — your hand", description=lines),
            rows=tuple(chunk_buttons(buttons)),
        )

    def my_hand(self, table: TableView, seat: int) -> MessageSpec | None:
        """The answer to "My hand" / `/bugs hand` (ephemeral). By default the same as the DM'd
        hand; a game whose secret is momentary (a peeked tile) shows it here without DMs."""
        return self.hand(table, seat)

    def ping_text(self, table: TableView, seats: list[int]) -> str:
        """What follows the mentions of a turn ping, for ``seats`` the game has waited on for
        ``PING_AFTER`` (P-46; public words only: everyone reads the channel)."""
        return f"— **{table.title}** is waiting for you."

    def seat_line(self, table: TableView, change: SeatChange) -> str:
        """The log line for a seat handed to a bot or taken back (P-30, P-31)."""
        held = table.user_at(change.seat)
        name, bot = esc(held.name), f"a {held.bot_level} bot"
        if change.why == "left":
            return f"🚪 **{name}** left: 🤖 {bot} plays their seat (`/bugs join` takes it back)"
        if change.why == "kicked":
            return (
                f"🛡️ A moderator handed **{name}**'s seat to 🤖 {bot} (`/bugs join` takes it back)"
            )
        if change.why == "clock":
            return (
                f"💤 **{name}**'s clock ran out {change.strikes} times in a row: 🤖 {bot} plays "
                "their seat (`/bugs join` takes it back)"
            )
        return f"↩️ **{name}** is back and plays their own seat again"

    def seat_notice(self, table: TableView, change: SeatChange) -> str | None:
        """What the member is told in the channel (after a mention; no secret), or ``None``:
        only a member replaced for their clock learns it this way (one who left was answered
        privately; one a moderator replaced is told here, as they may not be looking)."""
        if change.why == "kicked":
            return (
                f"a moderator handed your seat in **{table.title}** to a bot. `/bugs join` here "
                "takes it back before the game ends."
            )
        if change.why != "clock":
            return None
        return (
            f"your clock ran out {change.strikes} times in a row, so a bot now plays your seat "
            f"in **{table.title}**. `/bugs join` here takes it back before the game ends."
        )

    def settled_by(self, outcome: Outcome, seat: int, spec: MessageSpec) -> str | None:
        """Words for what ``outcome`` did with the choice a private reply of ``seat`` (``spec``)
        offered, if this outcome decided it (Bugs & Co: which way the held tile went), else
        ``None``. Asked at every commit while the reply's buttons may act, from the outcome's
        public events, so the words stay exact when several moves land before the reply is
        settled (P-61); they are handed to ``answered``."""
        return None

    def answered(
        self, table: TableView, seat: int, spec: MessageSpec, fate: str | None = None
    ) -> MessageSpec:
        """A private reply (``spec``) whose buttons can no longer act, as it is left (P-27): by
        default the same message without its buttons, and one line saying why. ``fate``: what
        ``settled_by`` said of it, if it said anything."""
        content = f"{spec.content}\n{SETTLED}" if spec.content else SETTLED
        return dataclasses.replace(spec, content=content[-2000:], rows=())

    def cooldown_until(self, table: TableView, action_type: str) -> datetime | None:
        """When actions of this type may be taken again if the host paces them (``pacing``)
        and the gap is still running, else ``None``: such a button is shown disabled with the
        time, and ``refresh_at`` brings it back (P-29)."""
        setting = table.pacing.get(action_type)
        until = table.paced_until.get(setting) if setting is not None else None
        return until if until is not None and until > datetime.now(UTC) else None

    def refresh_at(self, table: TableView) -> datetime | None:
        """When the board should be redrawn even if nothing happens (a live countdown), or
        ``None``. Asked after every redraw."""
        return None

    def private_reply(
        self, table: TableView, outcome: Outcome, *, in_dm: bool
    ) -> MessageSpec | None:
        """``reply`` as the member's panel shows it; ``in_dm``: their DM shows their hand now,
        and a game whose answer repeats the hand leaves it out (P-48)."""
        return self.reply(table, outcome)

    def private_hand(self, table: TableView, seat: int, *, in_dm: bool) -> MessageSpec | None:
        """``my_hand`` as the member's panel shows it, likewise (P-48)."""
        return self.my_hand(table, seat)

    def reply(self, table: TableView, outcome: Outcome) -> MessageSpec | None:
        """An ephemeral answer for the member who acted, or ``None`` to just acknowledge."""
        seat = outcome.seat
        lines = [_event_text(e) for e in outcome.events if not e.is_public and e.visible_to(seat)]
        return MessageSpec(content="\n".join(lines)[:1900]) if lines else None

    def stale_text(self, action: dict[str, Any]) -> str:
        return "That button is from an earlier turn: the game has moved on."


def with_button(spec: MessageSpec, button: ButtonSpec) -> MessageSpec:
    """``spec`` with ``button`` at the end of the last row of buttons that are not game moves
    (My hand) with room, else on a row of its own, else at the end of the last row with room;
    a message with no room is left as it is."""
    rows = spec.rows

    def added(index: int) -> MessageSpec:
        row = rows[index]
        assert isinstance(row, tuple)
        return dataclasses.replace(spec, rows=(*rows[:index], (*row, button), *rows[index + 1 :]))

    roomy = [i for i, row in enumerate(rows) if isinstance(row, tuple) and len(row) < MAX_ROWS]
    for index in reversed(roomy):
        row = rows[index]
        if isinstance(row, tuple) and all(b.action is None for b in row):
            return added(index)
    if len(rows) < MAX_ROWS:
        return dataclasses.replace(spec, rows=(*rows, (button,)))
    return added(roomy[-1]) if roomy else spec


def _short(value: Any) -> str:
    text = value if isinstance(value, str) else json.dumps(value, separators=(",", ":"))
    return text if len(text) <= 300 else text[:297] + "…"


def _event_text(event: Event) -> str:
    data = ", ".join(f"{k} {_short(v)}" for k, v in event.data.items())
    return f"{event.type.replace('_', ' ')}{': ' + data if data else ''}"


_GENERIC = Presenter()


def presenter_for(slug: str) -> Presenter:
    """The presenter of the game's record (bot/games.py), or the generic one."""
    game = game_for(slug)
    return game.presenter if game is not None else _GENERIC


def playable(slug: str) -> bool:
    """Whether a game can be played on Discord: it is registered with its presenter.

    An engine may land before its Discord play (Bug Run did); until then it is offered by
    `/bugs rules` but not by `/bugs new`.
    """
    return game_for(slug) is not None


__all__ = [
    "HAND_BUTTON",
    "REMATCH_BUTTON",
    "Presenter",
    "Style",
    "playable",
    "presenter_for",
]
