"""The Bugs & Co presenter: a real-time table of face-down tiles, the peek reply, the results.

What may be shown where (RULINGS §2, BC-8, BC-9, BC-17, BC-X8):

- the board reads only ``view(None)`` (which slots hold a tile, who holds a tile from which
  slot, hand *counts*, trophies), ``table.names()``, ``table.timers`` (the persisted deadlines,
  shown as Discord timestamps) and the public log; it never names a symbol, so it cannot show a
  held, kept or removed tile;
- log lines read only public events and ``table.names()``: after a restart the host replays the
  action log through ``log_lines`` while the table's engine already holds the *final* state, so
  a line must never depend on the engine;
- a peeked symbol reaches its peeker only, in the ephemeral ``reply()`` to the click, built from
  the private ``peeked`` event. ``hand()`` is ``None``: the only private thing is the tile in the
  right hand, and DMing it on every pick-up would spam; kept tiles are never shown, not even to
  their owner (BC-8), until the final message reveals every hand and the box.

The table is one button per slot: a face-down tile (🂠, click = peek), an empty slot (click =
put the tile you hold there, BC-X10) or a slot whose tile someone holds (✋ and their name; also
empty, so also a put-back target). Rows of five keep slot numbers aligned: the first message has
the status embed, the Trophy button and slots 1–20; every further message holds 25 slots.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any, Final, cast

from rules.bugs_and_co import BugsAndCo
from rules.bugs_and_co.components import SYMBOL_NAMES, eyes_of
from rules.bugs_and_co.contract import (
    BugsAndCoView,
    FinalCountData,
    GameOverData,
    KeepData,
    PeekData,
    PeekedData,
    PutBackData,
    Result,
    StartData,
    StopData,
    TrophyAction,
    TrophyData,
    YouView,
)
from rules.bugs_and_co.engine import CAP_KEY, FINAL_KEY, FINAL_SECONDS, START_KEY, START_SECONDS
from rules.core import SYSTEM, Event

from ...games import Game, register_game
from ...host.table import Outcome
from ...host.view import Moment, TableView
from ..howto import bugs_and_co as bugs_and_co_howto
from ..options import OptionWords
from ..presenter import HAND_BUTTON, Presenter
from ..results import game_over_line, headline, ranked, results_screen, standing
from ..specs import (
    ButtonSpec,
    EmbedSpec,
    Field,
    MessageSpec,
    Row,
    SelectSpec,
    Style,
    chunk_buttons,
)
from ..text import FIELD_MAX, LINE_MAX, clip, esc, plural

SLUG: Final = "bugs-and-co"
TITLE: Final = "🐞 Bugs & Co"
PER_ROW: Final = 5
ROWS_PER_MESSAGE: Final = 5
FIRST_PAGE_TILES: Final = PER_ROW * (ROWS_PER_MESSAGE - 1)
"""The first message gives one row to the Trophy and My hand buttons."""
PAGE_TILES: Final = PER_ROW * ROWS_PER_MESSAGE
REFRESH_SECONDS: Final = 2.5
"""How often a running countdown is redrawn (Discord allows about five edits per 5 s)."""
LABEL_NAME: Final = 24
FACE_DOWN: Final = "🂠"
TROPHY_ACTION: Final[TrophyAction] = {"type": "trophy"}
EYES: Final = {1: "👁", 2: "👁👁", 3: "👁👁👁"}
EYES_WORD: Final = {1: "one-eyed", 2: "two-eyed", 3: "three-eyed"}


def trophy_list(values: Sequence[int]) -> str:
    return " · ".join(str(v) for v in values) or "none"


def when(due: datetime | None, style: str = "R") -> str | None:
    """A Discord timestamp (``R``: "in 7 seconds", counting live in every client)."""
    return None if due is None else f"<t:{int(due.timestamp())}:{style}>"


def seconds_left(due: datetime | None) -> str:
    """ "About N s left", , refreshed by redraws, for clients that show timestamps as dates."""
    if due is None:
        return ""
    left = math.ceil((due - datetime.now(UTC)).total_seconds())
    return f" About **{left} s** left." if left > 0 else ""


def symbol_text(symbol: int) -> str:
    return f"**{SYMBOL_NAMES[symbol]}** {EYES[eyes_of(symbol)]}"


def symbol_counts(symbols: Iterable[int]) -> str:
    """``Ant ×3, Bee`` in symbol order (for the results only)."""
    counts = Counter(symbols)
    parts = [f"{SYMBOL_NAMES[s]}{f' ×{n}' if n > 1 else ''}" for s, n in sorted(counts.items())]
    return ", ".join(parts)


def pages_for(slots: int) -> list[range]:
    """Slot ranges per message: 20 in the first (under the Trophy row), 25 in each further one.
    38 slots → 2 messages, 53 and 68 → 3."""
    out = [range(0, min(slots, FIRST_PAGE_TILES))]
    start = FIRST_PAGE_TILES
    while start < slots:
        out.append(range(start, min(slots, start + PAGE_TILES)))
        start += PAGE_TILES
    return out


class BugsAndCoPresenter(Presenter):
    slug = SLUG
    colour = 0x2E9E5B
    board_log_lines = 8

    def score_words(self, score: int, *, over: bool) -> str:
        """Kept tiles count only at the end (BC-8, BC-X4): until then, the trophy."""
        return plural(score, "point") if over else plural(score, "trophy point")

    # -- the board ---------------------------------------------------------------------------
    def boards(self, table: TableView, log: Sequence[str] = ()) -> list[MessageSpec]:
        engine = _bugs_and_co(table)
        if engine.is_over:
            return [self.final(table, log)]
        view = engine.view(None)
        names = table.names()
        pages = pages_for(len(view["slots"]))
        tiles = self._tile_buttons(view, names)
        first = self._status(table, view, names, pages, log)
        first_rows: list[Row] = [(self._trophy_button(view), HAND_BUTTON)]
        first_rows += chunk_buttons(tiles[pages[0].start : pages[0].stop], PER_ROW)
        out = [MessageSpec(embed=first, rows=tuple(first_rows))]
        for page in pages[1:]:
            content = f"{FACE_DOWN} **Tiles {page.start + 1}–{page.stop}** of {len(tiles)}"
            rows = chunk_buttons(tiles[page.start : page.stop], PER_ROW)
            out.append(MessageSpec(content=content, rows=tuple(rows)))
        return out

    def _status(
        self,
        table: TableView,
        view: BugsAndCoView,
        names: Sequence[str],
        pages: list[range],
        log: Sequence[str],
    ) -> EmbedSpec:
        phase = view["phase"]
        slots = len(view["slots"])
        if phase == "start":
            due = when(table.timers.get(START_KEY))
            go = f"play starts {due}" if due else f"play starts in {START_SECONDS:g} seconds"
            head = [
                f"🔔 **1… 2… 3…** Get ready: {go}. No tile may be touched before that.",
                "",
                "How to play: click a face-down tile to pick it up; only you see its symbol. "
                "**Keep** it (face down: you never see it again) or **Put back** where it came "
                "from, or click any empty slot to put it there. One tile at a time. Complete "
                "trios score +3, every other kept tile −1.",
            ]
        elif phase == "final":
            due = when(table.timers.get(FINAL_KEY))
            at = when(table.timers.get(FINAL_KEY), "T")
            stop = f"**STOP {due}** (at {at})" if due else f"**STOP in {FINAL_SECONDS:g} s**"
            head = [
                f"⏳ The last trophy is gone: {stop}!{seconds_left(table.timers.get(FINAL_KEY))}",
                "Players without a trophy: keep playing until then.",
            ]
        else:
            cap = when(table.timers.get(CAP_KEY), "t")
            head = [
                "▶️ **Play!** Click a face-down tile to look at it, then **Keep** or **Put back** "
                "(or click an empty slot). Take a trophy to stop playing.",
            ]
            if cap:
                head.append(f"⏱️ The game stops at {cap} at the latest.")
        on_table = view["on_table"]
        lines = [
            *head,
            "",
            f"🏆 Trophies left: **{trophy_list(view['trophies_left'])}**"
            + (" (taking one stops you)" if phase != "final" else ""),
            f"{FACE_DOWN} {plural(on_table, 'tile')} face down on the table of {slots} slots · "
            f"{view['removed_count']} in the box, unseen",
        ]
        if view["extra_set"]:
            lines.append(f"🐛 Sets: two-eyed + {view['extra_set']}")
        fields = [Field("Players", self._players(view, names))]
        fields += list(self._log_field(log))
        if len(pages) > 1:
            rest = ", ".join(f"{p.start + 1}–{p.stop}" for p in pages[1:])
            footer = f"Slots {pages[0].start + 1}–{pages[0].stop} below · {rest} further down"
        else:
            footer = f"Slots 1–{slots} below"
        return EmbedSpec(
            title=TITLE,
            description="\n".join(lines),
            fields=tuple(fields),
            footer=footer,
            colour=self.colour,
        )

    def _players(self, view: BugsAndCoView, names: Sequence[str]) -> str:
        lines = []
        for info in view["seats"]:
            parts = [f"{plural(info['kept'], 'tile')} kept"]
            if (came := info["holding_from"]) is not None:  # exactly when ``holding``
                parts.append(f"✋ holding the tile from {came + 1}")
            if info["trophy"] is not None:
                parts.append(f"🏆 {info['trophy']} · stopped")
            elif info["status"] == "stopped":
                parts.append("stopped")
            marker = "▶ " if info["status"] == "playing" and view["phase"] != "start" else ""
            name = clip(esc(names[info["seat"]]), 40)
            lines.append(f"{marker}**{name}** — {', '.join(parts)}")
        return clip("\n".join(lines), FIELD_MAX)

    def _trophy_button(self, view: BugsAndCoView) -> ButtonSpec:
        left = view["trophies_left"]
        if left:
            label = f"🏆 Take trophy {left[0]} (left: {trophy_list(left)})"
        else:
            label = "🏆 No trophy left"
        return ButtonSpec(
            clip(label, 80),
            action=dict(TROPHY_ACTION),
            style=Style.DANGER,
            disabled=view["phase"] != "live" or not left,
        )

    def _tile_buttons(self, view: BugsAndCoView, names: Sequence[str]) -> list[ButtonSpec]:
        holders: dict[int, list[str]] = {}
        for info in view["seats"]:
            if (came := info["holding_from"]) is not None:  # exactly when ``holding``
                holders.setdefault(came, []).append(names[info["seat"]])
        waiting = view["phase"] == "start"
        out = []
        for slot, full in enumerate(view["slots"]):
            n = slot + 1
            if full:
                out.append(
                    ButtonSpec(
                        f"{FACE_DOWN} {n}",
                        action={"type": "peek", "slot": slot},
                        style=Style.SECONDARY,
                        disabled=waiting,
                    )
                )
                continue
            who = holders.get(slot)
            if who:
                label = clip(f"✋ {n} {'+'.join(who)}", LABEL_NAME + 8)
                style = Style.PRIMARY
            else:
                label, style = f"{n} · empty", Style.SUCCESS
            out.append(
                ButtonSpec(
                    label, action={"type": "return", "slot": slot}, style=style, disabled=waiting
                )
            )
        return out

    def ping_text(self, table: TableView, seats: list[int]) -> str:
        return f"— {TITLE}: 1, 2, 3… play!"

    # -- the results -------------------------------------------------------------------------
    def final(self, table: TableView, log: Sequence[str] = ()) -> MessageSpec:
        result = _bugs_and_co(table).view(None)["result"]
        assert result is not None, "the results of a game that is over"
        raw = table.names()
        names = [esc(n) for n in raw]
        scores = result["scores"]
        winners = result["winners"]
        why = "the 15-minute limit" if result["why"] == "cap" else "the countdown"
        lines = [
            headline(names, winners, f"**{plural(max(scores), 'point')}**"),
            f"🛑 STOP was called by {why}. Every hand is revealed below.",
        ]
        fields = [
            self._hand_field(raw[s], s in winners, result, s) for s in ranked(scores, winners)
        ]
        removed = result["removed"]
        fields.append(
            Field(
                f"📦 Back in the box, never in play ({len(removed)})",
                clip(symbol_counts(removed) or "—", FIELD_MAX),
            )
        )
        return results_screen(
            TITLE,
            "\n".join(lines),
            fields,
            log=self._log_field(log),
            footer="Trios +3 each · every other kept tile −1 · plus the trophy",
            colour=self.colour,
        )

    def _hand_field(self, name: str, winner: bool, result: Result, seat: int) -> Field:
        parts = result["breakdowns"][seat]
        hand = result["hands"][seat]
        trophy = result["trophies"][seat]
        counts = Counter(hand)
        trios = sorted(s for s, n in counts.items() if n == 3)
        others = [s for s in hand if counts[s] != 3]
        if not hand:
            kept = "No tiles kept."
        else:
            trio_text = ", ".join(SYMBOL_NAMES[s] for s in trios) or "none"
            other_text = symbol_counts(others) or "none"
            kept = (
                f"Trios ({parts['trios']:+d}): {trio_text}\n"
                f"Other tiles ({_signed(parts['other_tiles'])}): {other_text}"
            )
        trophy_text = f"Trophy: +{trophy}" if trophy is not None else "Trophy: none"
        value = f"{kept}\n{trophy_text} · {plural(len(hand), 'tile')} kept"
        return standing(name, winner, plural(parts["total"], "point"), clip(value, FIELD_MAX))

    # -- the log -----------------------------------------------------------------------------
    def log_lines(self, table: TableView, outcome: Outcome) -> list[str]:
        return event_lines(table.names(), outcome.events)

    # -- private -----------------------------------------------------------------------------
    def hand(self, table: TableView, seat: int) -> MessageSpec | None:
        """No DM'd hand: the held tile is shown in the reply to the pick-up, and kept tiles are
        never shown (BC-8)."""
        return None

    def reply(self, table: TableView, outcome: Outcome) -> MessageSpec | None:
        seat = outcome.seat
        if seat == SYSTEM:
            return None
        kind = outcome.action.get("type")
        if kind == "peek":
            return self._peek_reply(table, outcome)
        if kind == "trophy":
            return MessageSpec(content=_trophy_reply(seat, outcome.events))
        return None

    def _peek_reply(self, table: TableView, outcome: Outcome) -> MessageSpec | None:
        seat = outcome.seat
        peeked = [
            cast(PeekedData, e.data)
            for e in outcome.events
            if e.type == "peeked" and e.visible_to(seat) and e.data.get("seat") == seat
        ]
        if not peeked:
            return None
        d = peeked[-1]
        live = table.running().turn == outcome.turn_after
        return self._held(int(d["symbol"]), int(d["slot"]), int(d["pickup"]), live=live)

    def _held(self, symbol: int, slot: int, pickup: int, *, live: bool) -> MessageSpec:
        """The tile in a player's hand, with Keep / Put back (only that player sees this)."""
        n = slot + 1
        lines = [
            f"{symbol_text(symbol)} ({EYES_WORD[eyes_of(symbol)]}) — only you can see this.",
            "",
            "**Keep** it: it goes face down into your hand and you will not see it again. "
            f"**Put back** returns it to slot {n} (or the next empty one); to put it somewhere "
            "else, click any empty slot on the table.",
        ]
        rows: tuple[Row, ...] = ()
        if live:
            rows = (
                (
                    ButtonSpec(
                        "✋ Keep", action={"type": "keep", "pickup": pickup}, style=Style.SUCCESS
                    ),
                    ButtonSpec(
                        f"↩ Put back ({n})",
                        action={"type": "return", "pickup": pickup},
                        style=Style.SECONDARY,
                    ),
                ),
            )
        else:  # STOP came in between: the buttons could only be refused
            lines.append("STOP has been called meanwhile: the tile went back to the table.")
        embed = EmbedSpec(
            title=f"You picked up tile {n}",
            description="\n".join(lines),
            footer="Only your left hand scores: a tile still held at STOP goes back.",
            colour=self.colour,
        )
        return MessageSpec(embed=embed, rows=rows)

    def settled_by(self, outcome: Outcome, seat: int, spec: MessageSpec) -> str | None:
        """Where the tile of a pick-up answer went, read from the public event of the move
        that took it out of ``seat``'s hand (a seat holds one tile at a time, P-61)."""
        pickup = _pickup_offered(spec)
        if pickup is None:
            return None
        if outcome.action.get("pickup", pickup) != pickup:
            return None  # a Keep / Put back of another pick-up: not this answer's tile
        for event in outcome.events:
            if not event.is_public or event.data.get("seat") != seat:
                continue
            if event.type == "keep":
                return _kept_words(cast(KeepData, event.data))
            if event.type == "put_back":
                return _put_back_words(cast(PutBackData, event.data))
        return None

    def answered(
        self, table: TableView, seat: int, spec: MessageSpec, fate: str | None = None
    ) -> MessageSpec:
        """A pick-up answer once its tile has left the hand: where it went (``settled_by``),
        and the face hidden again, as on the table (BC-8 for a kept tile)."""
        if fate is None:  # its move was not seen here (P-61): the log says where it went
            fate = (
                "✔️ That tile has left your hand. Its face is hidden again, as on the table; "
                "the log says where it went."
            )
        return MessageSpec(content=fate)

    def my_hand(self, table: TableView, seat: int) -> MessageSpec | None:
        """The tile you hold (if any), privately; kept tiles stay unseen even to you (BC-8)."""
        engine = _bugs_and_co(table)
        you: YouView | None = engine.view(seat)["you"]
        assert you is not None, "a seat's own view"
        held = you["hand"]
        if held is not None and not engine.is_over:
            return self._held(
                int(held["symbol"]), int(held["slot"]), int(held["pickup"]), live=True
            )
        kept = int(you["kept"])
        text = (
            f"You hold no tile. You have kept {plural(kept, 'tile')}, face down: nobody may look "
            "at them until the end, not even you."
        )
        return MessageSpec(content=text)

    def refresh_at(self, table: TableView) -> datetime | None:
        """During the start count and the final countdown, redraw every couple of seconds."""
        if table.moment is None or table.moment.is_over:
            return None
        due = table.timers.get(FINAL_KEY) or table.timers.get(START_KEY)
        if due is None:
            return None
        now = datetime.now(UTC)
        return None if due <= now else min(due, now + timedelta(seconds=REFRESH_SECONDS))

    def stale_text(self, action: dict[str, Any]) -> str:
        return (
            "That button is from before the count of three (or from a finished game): "
            "use the table as it is now."
        )


# -- helpers -------------------------------------------------------------------------------


def _bugs_and_co(table: TableView) -> Moment[BugsAndCo]:
    """The table's running engine, typed, so its views are read by their contract."""
    return table.running().of(BugsAndCo)


def _signed(n: int) -> str:
    return f"−{-n}" if n < 0 else f"+{n}"


def _pickup_offered(spec: MessageSpec) -> int | None:
    """The pick-up serial a held tile's answer carries on its Keep button (``_held``)."""
    for row in spec.rows:
        if isinstance(row, SelectSpec):
            continue
        for button in row:
            if button.action is not None and button.action.get("type") == "keep":
                return int(button.action["pickup"])
    return None


def _kept_words(d: KeepData) -> str:
    return (
        f"✋ You kept the tile from slot {d['slot'] + 1}: it is face down in your hand, "
        "unseen by anyone until the end, you included."
    )


def _put_back_words(d: PutBackData) -> str:
    into, came = d["slot"] + 1, d["from_slot"] + 1
    if d["reason"] == "trophy":
        went = f"🏆 Your trophy sent the tile from slot {came} back face down into slot {into}."
    elif d["reason"] == "stop":
        went = f"🛑 STOP sent the tile from slot {came} back face down into slot {into}."
    elif into == came:
        went = f"↩ You put the tile back face down into slot {into}."
    else:
        went = f"↩ You put the tile from slot {came} face down into slot {into}."
    return f"{went} Its face is hidden again, as on the table."


def _trophy_reply(seat: int, events: Iterable[Event]) -> str:
    lines: list[str] = []
    for event in events:
        if not event.is_public or event.data.get("seat", seat) != seat:
            continue
        if event.type == "trophy":
            value = cast(TrophyData, event.data)["value"]
            lines.insert(0, f"🏆 You took the **{value}** trophy and stopped playing.")
        elif event.type == "put_back":
            back = cast(PutBackData, event.data)
            if back["reason"] == "trophy":
                slot = back["slot"] + 1
                lines.append(f"The tile in your hand went back face down into slot {slot}.")
        elif event.type == "final_count":
            seconds = cast(FinalCountData, event.data)["seconds"]
            lines.append(
                f"It was the last trophy: everyone else has {seconds:g} seconds until STOP."
            )
    return "\n".join(lines) or "🏆 Trophy taken."


@dataclass
class _Lines:
    """One outcome's log lines while its events are read, for the formatters below."""

    names: list[str]
    lines: list[str] = field(default_factory=list)
    home: dict[int, int] = field(default_factory=dict)
    """Seat -> the slot its held tile went back into when it took a trophy (same line)."""


def _start(out: _Lines, d: StartData) -> None:
    out.lines.append(
        f"🔔 1, 2, 3… go! {plural(d['slots'], 'tile')} face down; "
        f"trophies {trophy_list(d['trophies'])}."
    )


def _peek(out: _Lines, d: PeekData) -> None:
    out.lines.append(f"👀 {out.names[d['seat']]} picked up tile {d['slot'] + 1}")


def _keep(out: _Lines, d: KeepData) -> None:
    out.lines.append(
        f"✋ {out.names[d['seat']]} kept the tile from {d['slot'] + 1} ({d['kept']} kept)"
    )


def _put_back(out: _Lines, d: PutBackData) -> None:
    who, to, came = out.names[d["seat"]], d["slot"] + 1, d["from_slot"] + 1
    if d["reason"] == "trophy":
        out.home[d["seat"]] = to
    elif d["reason"] == "stop":
        out.lines.append(f"↩ STOP: {who}'s tile from {came} went back into {to}")
    elif to == came:
        out.lines.append(f"↩ {who} put tile {came} back")
    else:
        out.lines.append(f"↩ {who} moved the tile from {came} into {to}")


def _trophy(out: _Lines, d: TrophyData) -> None:
    seat = d["seat"]
    back = f" (the tile in hand went back into {out.home[seat]})" if seat in out.home else ""
    out.lines.append(
        f"🏆 {out.names[seat]} took trophy {d['value']} and stopped{back} · "
        f"left: {trophy_list(d['trophies_left'])}"
    )


def _final_count(out: _Lines, d: FinalCountData) -> None:
    out.lines.append(f"⏳ Last trophy gone: STOP in {d['seconds']:g} seconds!")


def _stop(out: _Lines, d: StopData) -> None:
    if d["why"] == "cap":
        out.lines.append("🛑 STOP! The 15-minute limit is up.")
    else:
        out.lines.append("🛑 STOP!")


def _game_over(out: _Lines, d: GameOverData) -> None:
    out.lines.append(game_over_line(out.names, d["winners"], d["scores"]))


Formatter = Callable[[_Lines, Any], None]
"""Reads one public event's data (typed by its own signature, ``contract.EVENTS``)."""

FORMATTERS: dict[str, Formatter] = {
    "start": _start,
    "peek": _peek,
    "keep": _keep,
    "put_back": _put_back,
    "trophy": _trophy,
    "final_count": _final_count,
    "stop": _stop,
    "game_over": _game_over,
}
"""Public event type -> its formatter; tests hold it to ``contract.PublicEventType``."""


def event_lines(raw_names: Sequence[str], events: Iterable[Event]) -> list[str]:
    """Public log lines for one outcome's events (private events are skipped unread).

    Slot numbers are shown from 1, as on the buttons. A tile sent home by a trophy shares the
    trophy's line.
    """
    out = _Lines([esc(n) for n in raw_names])
    for event in events:
        if event.is_public and (formatter := FORMATTERS.get(event.type)) is not None:
            formatter(out, event.data)
    return [clip(line, LINE_MAX) for line in out.lines]


OPTION_WORDS = {
    "extra_set": OptionWords(
        "Extra tiles (5–6 players)",
        "With 5 or 6 players: which bugs join the two-eyed ones",
        {
            "random": "One-eyed or three-eyed, drawn at random",
            "one-eyed": "One-eyed bugs",
            "three-eyed": "Three-eyed bugs",
        },
    ),
}

register_game(
    Game(
        BugsAndCo,
        BugsAndCoPresenter(),
        rules_pages=bugs_and_co_howto.PAGES,
        option_words=OPTION_WORDS,
        secrets=("slots",),
    )
)
