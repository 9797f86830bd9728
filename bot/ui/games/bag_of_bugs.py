"""The Bag of Bugs presenter: one public board for the grab race, the turn log, and the results.

Everything on the table is public (BB-21), so there is no hand and every control sits on the
board. Who may press what is the engine's business: the board offers the Drawer's **Draw**, the
Grab tokens and the open choice's options to everyone, and a click by the wrong member reaches
the engine, which refuses it with a message fit for players.

- The board reads ``view(None)`` and the chooser's ``legal_actions``; its choice controls are
  exactly those actions (buttons for a few, select menus of at most 25 for many).
- Log lines read only the outcome's events and ``table.names()``: after a restart the host
  replays the action log through ``log_lines`` while the engine already holds the newest state,
  so a line must never depend on the engine. A new Drawer's line (``TURN_MARK``) separates the
  turns, so the board can show this turn's log apart from the last one's.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, cast

from rules.bag_of_bugs import BagOfBugs
from rules.bag_of_bugs.contract import (
    BagOfBugsAction,
    BagOfBugsView,
    ChoiceData,
    ChoiceView,
    DrawAction,
    DrawStoppedData,
    GameOverData,
    GrabData,
    LeftoversData,
    RevealData,
    RocksData,
    TakeData,
    TurnEndData,
    TurnStartData,
    WindData,
)
from rules.bag_of_bugs.tokens import COLOURS
from rules.core import SYSTEM, Event

from ...games import Game, register_game
from ...host.table import Outcome
from ...host.view import Moment, TableView
from ..howto import bag_of_bugs as bag_of_bugs_howto
from ..presenter import Presenter
from ..results import game_over_line, headline, ranked, results_screen, standing
from ..specs import (
    ButtonSpec,
    EmbedSpec,
    Field,
    MessageSpec,
    Row,
    SelectOption,
    SelectSpec,
    Style,
)
from ..text import LINE_MAX, clip, esc, newest_lines, plural

EMOJI: dict[str, str] = {
    "c1": "🔴",
    "c2": "🟡",
    "c3": "🟢",
    "c4": "🔵",
    "c5": "🟣",
    "scary": "🕷️",
    "larva": "🐛",
    "wind": "💨",
    "rock": "🪨",
}
"""One distinct emoji per token type, used everywhere a token is shown."""

NAMES: dict[str, str] = {
    "c1": "Red",
    "c2": "Yellow",
    "c3": "Green",
    "c4": "Blue",
    "c5": "Purple",
    "scary": "Scary Bug",
    "larva": "Larva",
    "wind": "Wind",
    "rock": "Rock",
}
"""Short names (the rulebook does not name the five colours; these follow the emoji)."""

GRAB_MARK: dict[int, str] = {1: "①", 2: "②", 3: "③", 4: "④", 5: "⑤"}
GRAB_SHORT: dict[int, str] = {
    1: "largest group",
    2: "smallest group",
    3: "2 identical",
    4: "2 different",
    5: "3 different",
}
"""What each Grab token takes, short enough for a button label."""
GRAB_TAKES: dict[int, str] = {
    1: "1 token from a largest group",
    2: "1 token from a smallest group",
    3: "2 identical tokens",
    4: "2 different tokens",
    5: "3 different tokens",
}

TITLE = "🎒 Bag of Bugs"
TURN_MARK = "🎒 Turn "
"""Prefix of the log line that opens a turn (no other log line starts with it)."""
LEGEND = (
    "🔴 Red · 🟡 Yellow · 🟢 Green · 🔵 Blue · 🟣 Purple Bugs · 🕷️ Scary Bug · 🐛 Larva · "
    "💨 Wind · 🪨 Rock"
)
GRAB_LEGEND = " · ".join(f"{GRAB_MARK[k]} {GRAB_SHORT[k]}" for k in GRAB_MARK)
SCORING_LEGEND = (
    "Each colour: 1 Bug 1 · 2 Bugs 3 · 3 Bugs 6 · 4+ Bugs 0 · all 5 colours +5 · "
    "🐛 Larva +3 · 🕷️ Scary Bug -1 · most 🕷️ -2"
)
LOG_LINES = 10
BUTTONS_MAX = 5
"""Choices with more options than fit one row of buttons go into select menus."""
SELECT_MAX = 25
LABEL_MAX = 80
OPTION_MAX = 100
PLACEHOLDER_MAX = 150
DRAW_ACTION: DrawAction = {"type": "draw"}
STOP_REASONS = {
    "limit": "the limit",
    "rock": "a 2nd 🪨",
    "both": "the limit and a 2nd 🪨",
    "bag_empty": "an empty bag",
}


def icon(token: str) -> str:
    return EMOJI.get(token, "❔")


def tokens_text(tokens: Mapping[str, int]) -> str:
    """``🔴🔴 🐛`` for a handful of tokens (a take, the leftovers)."""
    parts = [icon(t) * n for t, n in _ordered(tokens)]
    return " ".join(parts) if parts else "nothing"


def counts_text(tokens: Mapping[str, int], *, empty: str = "—") -> str:
    """``🔴×2 🐛×1`` for a zone (a collection, the pool)."""
    parts = [f"{icon(t)}×{n}" for t, n in _ordered(tokens)]
    return " ".join(parts) if parts else empty


def option_label(tokens: Mapping[str, int]) -> str:
    """``🔴×2 Red`` or ``🔴 Red + 🐛 Larva``: a take option as a button or menu label."""
    parts = [
        f"{icon(t)}{'×' + str(n) if n > 1 else ''} {NAMES.get(t, t)}" for t, n in _ordered(tokens)
    ]
    return " + ".join(parts) or "nothing"


def points(value: int) -> str:
    return f"{value:+d}" if value else "0"


def _ordered(tokens: Mapping[str, int]) -> list[tuple[str, int]]:
    known = [(t, tokens[t]) for t in EMOJI if tokens.get(t, 0) > 0]
    return known + [(t, n) for t, n in tokens.items() if t not in EMOJI and n > 0]


class BagOfBugsPresenter(Presenter):
    slug = "bag-of-bugs"
    colour = 0x9C6B30

    # -- the board ---------------------------------------------------------------------------
    def boards(self, table: TableView, log: Sequence[str] = ()) -> list[MessageSpec]:
        engine = _bag_of_bugs(table)
        if engine.is_over:
            return [self.final(table, log)]
        view = engine.view(None)
        choice = view["choice"]
        actions = engine.legal_actions(choice["seat"]) if choice is not None else []
        return [self._board(table, view, actions, log)]

    def _board(
        self,
        table: TableView,
        view: BagOfBugsView,
        actions: list[dict[str, Any]],
        log: Sequence[str],
    ) -> MessageSpec:
        raw = table.names()
        names = [esc(n) for n in raw]
        drawer = view["drawer"]
        choice = view["choice"]
        drawing = view["phase"] == "draw"
        lines = [f"🎒 **{names[drawer]}** holds the bag · turn {view['turn_number']}"]
        if view["last_turn"]:
            lines.append("⚠️ **Last turn**: the last Rock pair is set aside.")
        lines.append(f"**Revealed {view['revealed']} / {view['draw_limit']}:** {_reveals(view)}")
        lines.append(
            f"🪨 Rocks this turn: **{view['rocks_revealed']}** · pairs set aside: "
            f"**{view['pairs']} / {view['pairs_needed']}** · "
            f"{plural(view['bag_count'], 'token')} left in the bag"
        )
        if not drawing:
            lines.append(
                f"**Pool now:** {counts_text(view['pool'], empty='empty')}"
                f" ({plural(view['pool_count'], 'token')})"
            )
        lines.append("")
        if drawing and not view["revealed"]:
            lines.append(
                f"▶ **{names[drawer]}**, press **Draw** to reveal the first token. "
                "The Grab tokens open with the first reveal."
            )
        elif drawing:
            lines.append(
                "✋ **Grab window open!** Grabbers, take a Grab token before the draw stops "
                f"({view['draw_limit']} tokens or a 2nd 🪨)."
            )
        cooldown = self.cooldown_until(table, "draw") if drawing else None
        if cooldown is not None:
            lines.append(
                f"⏳ **Draw** again <t:{math.ceil(cooldown.timestamp())}:R>: a short pause after "
                "each reveal lets the grabbers react."
            )
        elif choice is not None:
            lines.append(_waiting_text(choice, names, view["players"]))
        lines.append(f"Grab tokens: {GRAB_LEGEND}")

        holders = {g["seat"]: g["token"] for g in view["grabs"] if g["seat"] is not None}
        chooser = choice["seat"] if choice is not None else None
        fields = []
        for seat in range(view["players"]):
            score = plural(view["scores"][seat], "pt")
            head = f"{'🎒 ' if seat == drawer else ''}{raw[seat]} · {score}"
            value = counts_text(view["collections"][seat], empty="no tokens yet")
            notes = []
            if seat in holders:
                notes.append(f"✋ holds {GRAB_MARK[holders[seat]]}")
            if seat == chooser:
                notes.append("⏳ choosing")
            if notes:
                value += "\n" + " · ".join(notes)
            fields.append(Field(clip(head, 256), value, inline=True))
        fields += self._log_fields(log)

        rows: list[Row] = [tuple(_grab_buttons(view, raw))]
        if drawing:
            draw = ButtonSpec(
                "Draw",
                action=dict(DRAW_ACTION),
                style=Style.PRIMARY,
                emoji="🎒",
                disabled=cooldown is not None,
            )
            rows.append((draw,))
        elif choice is not None:
            rows += _choice_rows(choice, actions, _bag_of_bugs(table), raw)
        embed = EmbedSpec(
            title=TITLE,
            description="\n".join(lines),
            fields=tuple(fields),
            footer=LEGEND,
            colour=self.colour,
        )
        return MessageSpec(embed=embed, rows=tuple(rows))

    def _log_fields(self, log: Sequence[str]) -> list[Field]:
        """This turn's lines, and the previous turn's (the newest that fit when there are many)."""
        turns: list[list[str]] = [[]]
        for line in log:
            if line.startswith(TURN_MARK):
                turns.append([])
            else:
                turns[-1].append(line)
        fields = []
        if len(turns) > 1 and turns[-2]:
            fields.append(Field("Previous turn", newest_lines(turns[-2], LOG_LINES)))
        if turns[-1]:
            fields.append(Field("This turn", newest_lines(turns[-1], LOG_LINES)))
        return fields

    def ping_text(self, table: TableView, seats: list[int]) -> str:
        """The Drawer's turn, the grab window opening, or a choice to make."""
        view = _bag_of_bugs(table).view(None)
        if view["phase"] == "draw" and view["drawer"] in seats:
            return f"— {TITLE}: you hold the bag, press **Draw**."
        if view["phase"] == "draw":
            return f"— {TITLE}: the grab window is open, grab a token!"
        return f"— {TITLE}: your choice."

    def refresh_at(self, table: TableView) -> datetime | None:
        """The end of the pause after a reveal: **Draw** comes back then (P-29)."""
        if table.moment is None or table.moment.is_over:
            return None
        return self.cooldown_until(table, "draw")

    # -- the results -------------------------------------------------------------------------
    def final(self, table: TableView, log: Sequence[str] = ()) -> MessageSpec:
        view = _bag_of_bugs(table).view(None)
        raw = table.names()
        names = [esc(n) for n in raw]
        scores = view["scores"]
        winners = view["winners"]
        lines = [
            headline(names, winners, f"**{plural(max(scores), 'point')}**"),
            f"🪨 All {view['pairs_needed']} Rock pairs were set aside after "
            f"{plural(view['turn_number'], 'turn')}.",
            "",
            f"Scoring: {SCORING_LEGEND}",
        ]
        fields = [
            standing(
                raw[seat],
                seat in winners,
                plural(scores[seat], "point"),
                _breakdown_text(view["collections"][seat], view["breakdowns"][seat]),
            )
            for seat in ranked(scores, winners)
        ]
        turns = [f for f in self._log_fields(log) if f.name == "This turn"]
        return results_screen(
            TITLE,
            "\n".join(lines),
            fields,
            log=[Field("Final turn", f.value) for f in turns],
            footer=LEGEND,
            colour=self.colour,
        )

    # -- the log -----------------------------------------------------------------------------
    def log_lines(self, table: TableView, outcome: Outcome) -> list[str]:
        return event_lines(table.names(), outcome.events)

    def move_lines(self, table: TableView, outcome: Outcome) -> list[str]:
        """The log lines, and every reveal too: the channel sees a draw on the board, a replay
        lists it (P-60). Nothing in the bag is secret (BB-21)."""
        return event_lines(table.names(), outcome.events, draws=True)

    # -- private -----------------------------------------------------------------------------
    def hand(self, table: TableView, seat: int) -> MessageSpec | None:
        return None  # nothing is secret (BB-21)

    def reply(self, table: TableView, outcome: Outcome) -> MessageSpec | None:
        """Grabs and draws show on the board; a choice gets a one-line confirmation."""
        seat = outcome.seat
        if seat == SYSTEM or outcome.action.get("type") not in (
            "take",
            "give",
            "take_all",
            "return_all",
        ):
            return None
        names = [esc(n) for n in table.names()]
        said = ""
        again = ""
        for event in outcome.events:
            d = event.data
            if not event.is_public or d.get("seat") != seat:
                continue
            if not said and event.type == "take":
                said = f"✅ You took {tokens_text(cast(TakeData, d)['tokens'])}."
            elif not said and event.type == "wind":
                wind = cast(WindData, d)
                said = f"✅ You gave {icon(wind['token'] or '')} to **{names[wind['to']]}**."
            elif not said and event.type == "leftovers":
                left = cast(LeftoversData, d)
                if left["choice"] == "take_all":
                    said = f"✅ You took the leftovers: {tokens_text(left['tokens'])}."
                else:
                    said = (
                        f"✅ You returned the leftovers to the bag: {tokens_text(left['tokens'])}."
                    )
            elif event.type == "choice" and cast(ChoiceData, d)["kind"] == "give":
                again = " 💨 You collected a Wind: choose a token to give away, on the board."
        return MessageSpec(content=clip(said + again, 1900)) if said else None

    def stale_text(self, action: dict[str, Any]) -> str:
        kind = action.get("type")
        if kind == "grab":
            return "Too late: that draw is over."
        if kind == "draw":
            return (
                "That **Draw** button is from an earlier turn: that draw is over. "
                "The board shows who holds the bag now."
            )
        if kind in ("take", "give", "take_all", "return_all"):
            return "That choice is already settled (answered, or its time ran out)."
        return "That button is from an earlier turn of Bag of Bugs: the game has moved on."


# -- board helpers -----------------------------------------------------------------------------


def _reveals(view: BagOfBugsView) -> str:
    """The pool in reveal order; tokens that left are struck through, Rocks say where they went."""
    parts = []
    for entry in view["pool_order"]:
        mark = icon(entry["token"])
        status = entry["status"]
        if status == "pool":
            parts.append(mark)
        else:
            parts.append(f"~~{mark}~~")
    text = " ".join(parts) if parts else "nothing yet"
    fates = {e["status"] for e in view["pool_order"] if e["token"] == "rock"}
    if "returned" in fates:
        text += " (the 🪨 went back into the bag)"
    elif "paired" in fates:
        text += " (🪨🪨 set aside as a pair)"
    return text


def _waiting_text(choice: ChoiceView, names: Sequence[str], players: int) -> str:
    who = f"**{names[choice['seat']]}**"
    if choice["kind"] == "take":
        k = choice["grab"]
        return f"⏳ Waiting for {who} to choose the tokens for {GRAB_MARK[k]}: {GRAB_TAKES[k]}."
    if choice["kind"] == "give":
        to = names[(choice["seat"] + 1) % players]
        return f"⏳ Waiting for {who} to choose a token to give to **{to}** (💨 Wind)."
    return f"⏳ Waiting for {who} to choose: take all the leftovers, or return them to the bag."


def _grab_buttons(view: BagOfBugsView, raw: Sequence[str]) -> list[ButtonSpec]:
    buttons = []
    for grab in view["grabs"]:
        k, holder = grab["token"], grab["seat"]
        if holder is None:
            label = f"{GRAB_MARK[k]} {GRAB_SHORT[k]}"
        else:
            label = clip(f"{GRAB_MARK[k]} {raw[holder]}", LABEL_MAX)
        buttons.append(
            ButtonSpec(
                label,
                action={"type": "grab", "token": k},
                style=Style.SUCCESS if holder is not None else Style.PRIMARY,
                disabled=holder is not None or not view["window_open"],
            )
        )
    return buttons


def _choice_rows(
    choice: ChoiceView,
    actions: list[dict[str, Any]],
    engine: Moment[BagOfBugs],
    raw: Sequence[str],
) -> list[Row]:
    """Exactly the chooser's legal actions: a row of buttons, or menus of 25 options each."""
    seat = choice["seat"]
    if choice["kind"] == "leftovers":
        return [tuple(_leftover_button(a) for a in actions)]
    if len(actions) <= BUTTONS_MAX:
        return [tuple(ButtonSpec(clip(_action_label(a), LABEL_MAX), action=a) for a in actions)]
    rows: list[Row] = []
    chunks = [actions[i : i + SELECT_MAX] for i in range(0, len(actions), SELECT_MAX)]
    what = "the tokens" if choice["kind"] == "take" else "a token to give away"
    for n, chunk in enumerate(chunks):
        first = n * SELECT_MAX + 1
        span = f" ({first}–{first + len(chunk) - 1} of {len(actions)})" if len(chunks) > 1 else ""
        placeholder = clip(f"{raw[seat]}: choose {what}{span}", PLACEHOLDER_MAX)
        options = tuple(
            SelectOption(
                clip(_action_label(a), OPTION_MAX),
                a,
                description=clip(_score_preview(engine, seat, a), OPTION_MAX),
            )
            for a in chunk
        )
        rows.append(SelectSpec(placeholder, options))
    return rows


def _bag_of_bugs(table: TableView) -> Moment[BagOfBugs]:
    """The table's running engine, typed: the score previews are this game's own."""
    return table.running().of(BagOfBugs)


def _typed(action: Mapping[str, Any]) -> BagOfBugsAction:
    """A listed action read by its contract (tests hold ``legal_actions`` to it); the host
    keeps handling it as the plain dict it is."""
    return cast(BagOfBugsAction, action)


def _leftover_button(action: dict[str, Any]) -> ButtonSpec:
    if _typed(action)["type"] == "take_all":
        return ButtonSpec("Take all", action=action, style=Style.SUCCESS, emoji="🧺")
    return ButtonSpec("Return all", action=action, style=Style.SECONDARY, emoji="↩️")


def _action_label(listed: Mapping[str, Any]) -> str:
    action = _typed(listed)
    if action["type"] == "take":
        return option_label(action["tokens"])
    if action["type"] == "give":
        token = action["token"]
        return f"Give {icon(token)} {NAMES.get(token, token)}"
    return str(action["type"]).replace("_", " ")


def _score_preview(engine: Moment[BagOfBugs], seat: int, action: Mapping[str, Any]) -> str:
    """What the choice does to the chooser's running score (a Wind's give-away comes after)."""
    wind = ""
    typed = _typed(action)
    if typed["type"] == "take" and "wind" in typed["tokens"]:
        wind = " · then give 1 token away (💨)"
    before = engine.public_scores()[seat]
    after = engine.score_preview(seat, dict(action))
    return f"score {before} → {after}{wind}"


def _breakdown_text(collection: Mapping[str, int], parts: Mapping[str, int]) -> str:
    colours = " · ".join(
        f"{icon(c)}×{collection.get(c, 0)} **{points(parts[c])}**" for c in COLOURS
    )
    extras = (
        f"🌈 all colours **{points(parts['all_colours'])}** · "
        f"🐛×{collection.get('larva', 0)} **{points(parts['larvae'])}** · "
        f"🕷️×{collection.get('scary', 0)} **{points(parts['scary_bugs'])}** · "
        f"most 🕷️ **{points(parts['most_scary'])}**"
    )
    return f"{colours}\n{extras}"


# -- the log -----------------------------------------------------------------------------------


@dataclass
class _Lines:
    """One outcome's log lines while its events are read, for the formatters below."""

    names: list[str]
    lines: list[str] = field(default_factory=list)
    limit: int | None = None
    """The draw limit, from this outcome's reveal (for the stop line)."""
    stop_at: int | None = None
    """Where the draw-stopped line is, so the Rocks' fate can join it."""
    draws: bool = False
    """Every reveal gets a line (a replay's move list), not only the automatic ones."""


def _late(how: str) -> str:
    return " (time ran out)" if how == "timeout" else ""


def _reveal(out: _Lines, d: RevealData) -> None:
    """Reveals stay on the board, except automatic ones, which are worth a word (and every
    one in a replay's move list)."""
    out.limit = d["limit"]
    at = f"({d['count']} / {d['limit']})"
    if d["auto"]:  # the log's wording, kept byte for byte (old games' logs, P-53)
        out.lines.append(
            f"⏰ **{out.names[d['drawer']]}** was idle: the bag revealed {icon(d['token'])} {at}"
        )
    elif out.draws:
        token = d["token"]
        out.lines.append(f"🎒 **{out.names[d['drawer']]}** drew {icon(token)} {NAMES[token]} {at}")


def _grab(out: _Lines, d: GrabData) -> None:
    out.lines.append(
        f"✋ **{out.names[d['seat']]}** grabbed {GRAB_MARK[d['token']]} after "
        f"{plural(d['count'], 'token')}"
    )


def _draw_stopped(out: _Lines, d: DrawStoppedData) -> None:
    at = f"{d['count']} / {out.limit}" if out.limit is not None else str(d["count"])
    why = STOP_REASONS.get(d["reason"], d["reason"])
    out.stop_at = len(out.lines)
    out.lines.append(f"🛑 The draw stopped at {at} ({why})")


def _rocks(out: _Lines, d: RocksData) -> None:
    if d["result"] == "returned":
        text = "the 🪨 goes back into the bag"
    else:
        text = f"🪨🪨 set aside: {d['pairs']} / {d['needed']} pairs"
        if d["last"]:
            text += " — this is the last turn!"
    if out.stop_at is not None:
        out.lines[out.stop_at] += f"; {text}"
    else:
        out.lines.append(text[0].upper() + text[1:])


def _take(out: _Lines, d: TakeData) -> None:
    mark = GRAB_MARK.get(d["grab"], "?")
    who = f"**{out.names[d['seat']]}**"
    if d["how"] == "empty":
        out.lines.append(f"{mark} {who} found the pool empty: nothing to take")
    else:
        out.lines.append(f"{mark} {who} took {tokens_text(d['tokens'])}{_late(d['how'])}")


def _wind(out: _Lines, d: WindData) -> None:
    who = f"**{out.names[d['seat']]}**"
    if d["token"] is None:
        out.lines.append(f"💨 {who} had nothing to give; the Wind goes back into the bag")
    else:
        to = out.names[d["to"]]
        out.lines.append(f"💨 {who} gave {icon(d['token'])} to **{to}**{_late(d['how'])}")


def _leftovers(out: _Lines, d: LeftoversData) -> None:
    who = f"**{out.names[d['seat']]}**"
    late = _late(d["how"])
    if d["choice"] == "take_all":
        out.lines.append(f"🧺 {who} took the leftovers: {tokens_text(d['tokens'])}{late}")
    else:
        out.lines.append(
            f"↩️ {who} returned the leftovers to the bag: {tokens_text(d['tokens'])}{late}"
        )


def _choice(out: _Lines, d: ChoiceData) -> None:
    """No line: the board shows the open choice and who is choosing."""


def _turn_end(out: _Lines, d: TurnEndData) -> None:
    """No line: the next ``turn_start`` (or ``game_over``) says it."""


def _turn_start(out: _Lines, d: TurnStartData) -> None:
    out.lines.append(f"{TURN_MARK}{d['turn_number']}: **{out.names[d['drawer']]}** draws")


def _game_over(out: _Lines, d: GameOverData) -> None:
    out.lines.append(game_over_line(out.names, d["winners"], d["scores"]))


Formatter = Callable[[_Lines, Any], None]
"""Reads one event's data (typed by its own signature, ``contract.EVENTS``)."""

FORMATTERS: dict[str, Formatter] = {
    "reveal": _reveal,
    "grab": _grab,
    "draw_stopped": _draw_stopped,
    "rocks": _rocks,
    "take": _take,
    "wind": _wind,
    "leftovers": _leftovers,
    "choice": _choice,
    "turn_end": _turn_end,
    "turn_start": _turn_start,
    "game_over": _game_over,
}
"""Event type -> its formatter (one that writes nothing says why); tests hold it to
``contract.EventType``."""


def event_lines(
    raw_names: Sequence[str], events: Iterable[Event], *, draws: bool = False
) -> list[str]:
    """Public log lines for one outcome's events (``draws``: a line for every reveal)."""
    out = _Lines([esc(n) for n in raw_names], draws=draws)
    for event in events:
        if event.is_public and (formatter := FORMATTERS.get(event.type)) is not None:
            formatter(out, event.data)
    return [clip(line, LINE_MAX) for line in out.lines]


register_game(
    Game(
        BagOfBugs,
        BagOfBugsPresenter(),
        rules_pages=bag_of_bugs_howto.PAGES,
        demo_timers={"bag_idle_draw": 2.0, "bag_choice": 3.0, "bag_min_gap": 0.3},
    )
)
