"""The Bug Off! presenter: the public table, each player's private hand, the log and results.

What may be shown where follows BO-15 and the engine's event visibility:

- the board reads only ``view(None)`` (face-up cards, pile and hand *sizes*, the BUG OFF stack,
  the deck size, whose turn and whether they have drawn), so it cannot show a hand, the drawn
  card or a points pile's colours;
- log lines read only public events and ``table.names()``: after a restart the host replays the
  action log through ``log_lines`` while the table's engine already holds the *final* state, so
  a line must never depend on the engine;
- the hand reads ``view(seat)`` and nobody else's secrets; its buttons are exactly the seat's
  legal actions.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, cast

from rules.bug_off import BugOff
from rules.bug_off.cards import COLOURS
from rules.bug_off.contract import (
    BugOffData,
    BugOffView,
    DrawAction,
    DrewCardData,
    DrewData,
    GameOverData,
    MeView,
    PlacedData,
    ScoredData,
    Tiebreak,
    TimeoutData,
    TurnData,
    Wiped,
)
from rules.core import SYSTEM, Event

from ...games import Game, register_game
from ...host.table import Outcome
from ...host.view import Moment, TableView
from ..howto import bug_off as bug_off_howto
from ..options import OptionWords
from ..presenter import HAND_BUTTON, Presenter
from ..results import headline, join_and, ranked, results_screen, standing, win_verb
from ..specs import ButtonSpec, EmbedSpec, Field, MessageSpec, Style, chunk_buttons
from ..text import FIELD_MAX, LINE_MAX, clip, esc, plural

EMOJI: dict[str, str] = {
    "red": "🟥",
    "orange": "🟧",
    "yellow": "🟨",
    "green": "🟩",
    "blue": "🟦",
    "purple": "🟪",
}
"""One clear square per colour, used everywhere a colour is named (buttons too)."""

TITLE = "🐞 Bug Off!"
IN_DM = "📬 Your hand is in your DM, kept up to date there."
DRAW_ACTION: DrawAction = {"type": "draw"}
ORDINALS = ("1st", "2nd", "3rd", "4th", "5th", "6th")


def chip(colour: str) -> str:
    return EMOJI.get(colour, "⬜")


def counts(pile: Mapping[str, int], order: Iterable[str] = COLOURS, *, zeros: bool = False) -> str:
    """``🟥×3 🟦×1`` (colours with no card are left out unless ``zeros``)."""
    parts = [f"{chip(c)}×{pile.get(c, 0)}" for c in order if zeros or pile.get(c, 0)]
    return " ".join(parts) if parts else "—"


def ordinal(n: int) -> str:
    return ORDINALS[n - 1] if 1 <= n <= len(ORDINALS) else f"#{n}"


class BugOffPresenter(Presenter):
    slug = "bug-off"
    colour = 0xD9472B
    board_log_lines = 8

    # -- the board ---------------------------------------------------------------------------
    def boards(self, table: TableView, log: Sequence[str] = ()) -> list[MessageSpec]:
        engine = _bug_off(table)
        if engine.is_over:
            return [self.final(table, log)]
        return [self._board(table, engine.view(None), log)]

    def _board(self, table: TableView, view: BugOffView, log: Sequence[str]) -> MessageSpec:
        names = [esc(n) for n in table.names()]
        active = view["active"]
        assert active is not None, "the board of a game still running"
        choosing = view["phase"] == "choose"
        stack: list[str] = view["bug_offs"]
        if choosing:
            turn = f"▶ **{names[active]}** has drawn and is choosing: place or score a card."
        else:
            turn = f"▶ **{names[active]}**'s turn: draw a card."
        if stack:
            chain = " → ".join(chip(c) for c in stack)
            bug_offs = (
                f"💥 BUG OFF stack (first → last): {chain} · {len(stack)} of 6\n"
                f"\u2003every new BUG OFF also wipes face-up {''.join(chip(c) for c in stack)}"
            )
        else:
            bug_offs = "💥 BUG OFF stack: none yet · 0 of 6"
        lines = [
            turn,
            f"🂠 Deck: **{view['deck_size']}** cards left",
            bug_offs,
            f"🎯 Score pile: {counts(view['score_pile'])}",
            f"🗑️ Wiped out: {counts(view['discard'])}",
        ]
        fields = []
        for info in view["seats"]:
            seat = info["seat"]
            marker = "▶ " if seat == active else ""
            fields.append(
                Field(
                    clip(f"{marker}{table.names()[seat]}", 256),
                    f"Face up: {counts(info['tableau'])}\n"
                    f"Hand: {info['hand_size']} · Points: **{info['points_size']}**",
                    inline=True,
                )
            )
        embed = EmbedSpec(
            title=TITLE,
            description="\n".join(lines),
            fields=(*fields, *self._log_field(log)),
            footer="Draw on your turn · My hand shows your cards privately",
            colour=self.colour,
        )
        draw = ButtonSpec(
            "Draw", action=dict(DRAW_ACTION), style=Style.PRIMARY, emoji="🃏", disabled=choosing
        )
        return MessageSpec(embed=embed, rows=((draw, HAND_BUTTON),))

    def ping_text(self, table: TableView, seats: list[int]) -> str:
        return f"— {TITLE}: your turn, press **Draw**."

    # -- the results -------------------------------------------------------------------------
    def final(self, table: TableView, log: Sequence[str] = ()) -> MessageSpec:
        view = _bug_off(table).view(None)
        final = view["final"]
        assert final is not None, "the results of a game that is over"
        names = table.names()
        shown = [esc(n) for n in names]
        scores: list[int] = final["scores"]
        winners: list[int] = final["winners"]
        stack: list[str] = view["bug_offs"]
        order = [*stack, *(c for c in COLOURS if c not in stack)]
        lines = [headline(shown, winners, f"**{max(scores)}** points")]
        if stack:
            lines.append(f"💥 BUG OFF stack (first → last): {' → '.join(chip(c) for c in stack)}")
        tiebreak = final["tiebreak"]
        if tiebreak:
            lines.append("")
            lines.append(_tiebreak_text(tiebreak, shown))
        fields = [
            standing(
                names[seat],
                seat in winners,
                plural(scores[seat], "point"),
                counts(final["points"][seat], order, zeros=True),
            )
            for seat in ranked(scores, winners)
        ]
        return results_screen(
            TITLE,
            clip("\n".join(lines), 4000),
            fields,
            log=self._log_field(log),
            footer="Points piles are listed in BUG OFF order, the tie-break order",
            colour=self.colour,
        )

    # -- the log -----------------------------------------------------------------------------
    def log_lines(self, table: TableView, outcome: Outcome) -> list[str]:
        return event_lines(table.names(), outcome.events)

    # -- private -----------------------------------------------------------------------------
    def hand(self, table: TableView, seat: int) -> MessageSpec | None:
        """The DM: the player's cards between their turns. It carries no button and no turn
        line, and while its player chooses what to do with a drawn card (in the private answer
        to Draw, which shows that card and the choices) it still shows the hand from before the
        draw: so it is edited once a turn at most, when the turn's choice is made, and the
        drawn card is never in two places at once (P-8, issue #21)."""
        engine = _bug_off(table)
        view = engine.view(seat)
        me = _me(view)
        drawn = me["drawn"]
        if drawn is not None and (me["place"] or me["score"]):
            hand = dict(me["hand"])
            hand[drawn] -= 1
            before: MeView = {**me, "hand": hand, "drawn": None, "place": [], "score": []}
            view = {**view, "me": before}
        return self._hand(table, seat, view, engine.view(None), standing=True)

    def my_hand(self, table: TableView, seat: int) -> MessageSpec | None:
        """My hand answers once, privately: it may say whose turn it is and offer Draw."""
        engine = _bug_off(table)
        return self._hand(table, seat, engine.view(seat), engine.view(None))

    def _hand(
        self,
        table: TableView,
        seat: int,
        view: BugOffView,
        public: BugOffView,
        *,
        heading: str | None = None,
        standing: bool = False,
        beside_dm: bool = False,
    ) -> MessageSpec:
        """A player's cards and choices; ``standing`` (the DM, edited in place) leaves out
        what changes with whose turn it is: the turn line and the Draw button; ``beside_dm``
        (the channel's panel while the member's DM shows the hand) leaves out the hand: the
        choices and the score preview stay (P-48)."""
        me = _me(view)
        names = table.names()
        footer = f"Game #{table.id} · {names[seat]} · only you can see this"
        points = me["points"]
        points_field = Field(
            f"Your points pile ({sum(points.values())}) — secret until the end",
            counts(points),
        )
        if view["phase"] == "over":
            embed = EmbedSpec(
                title=f"{TITLE} — your cards",
                description="The game is over: the results are on the board.",
                fields=() if beside_dm else (points_field,),
                footer=footer,
                colour=self.colour,
            )
            return MessageSpec(embed=embed)
        hand = me["hand"]
        drawn = me["drawn"]
        if me["place"] or me["score"]:
            assert drawn is not None and not standing
            description = (
                f"You drew {chip(drawn)} **{drawn}**. **Place** one card in front of you, or "
                "**score** one: everyone's face-up cards of that colour go to their points piles."
            )
        elif standing:
            description = (
                "Your cards between turns. On your turn, **Draw** on the board: the card you "
                "draw and your choices are answered there, only to you."
            )
        elif me["can_draw"]:
            description = "**Your turn!** Draw a card."
        else:
            # Also shown by "My hand" to a player whose DMs are closed: promise no DM.
            description = "Not your turn yet: the board shows whose turn it is."
        if heading:
            description = f"{heading}\n{description}"
        if beside_dm:
            description = f"{description}\n{IN_DM}"
        held = [c for c in COLOURS if hand[c]]
        hand_lines = [f"{chip(c)} {c} ×{hand[c]}" for c in held]
        fields = [
            Field(f"Your hand ({sum(hand.values())})", "\n".join(hand_lines) or "—"),
            Field("Face up in front of you", counts(public["seats"][seat]["tableau"])),
            points_field,
        ]
        if beside_dm:
            fields = []
        if me["score"]:
            preview = _score_preview(_bug_off(table), seat, me["score"], names)
            fields.append(Field("If you score…", preview))
        buttons: list[tuple[ButtonSpec, ...]] = []
        if me["can_draw"] and not standing:
            draw = ButtonSpec("Draw", action=dict(DRAW_ACTION), style=Style.PRIMARY, emoji="🃏")
            buttons.append((draw,))
        buttons += chunk_buttons(
            [
                ButtonSpec(
                    f"Place {c}",
                    action={"type": "place", "colour": c},
                    style=Style.PRIMARY,
                    emoji=chip(c),
                )
                for c in me["place"]
            ]
        )
        buttons += chunk_buttons(
            [
                ButtonSpec(
                    f"Score {c}",
                    action={"type": "score", "colour": c},
                    style=Style.SUCCESS,
                    emoji=chip(c),
                )
                for c in me["score"]
            ]
        )
        embed = EmbedSpec(
            title=f"{TITLE} — your move" if beside_dm else f"{TITLE} — your hand",
            description=description,
            fields=tuple(fields),
            footer=footer,
            colour=self.colour,
        )
        return MessageSpec(embed=embed, rows=tuple(buttons))

    def private_hand(self, table: TableView, seat: int, *, in_dm: bool) -> MessageSpec | None:
        if not in_dm:
            return self.my_hand(table, seat)
        engine = _bug_off(table)
        return self._hand(table, seat, engine.view(seat), engine.view(None), beside_dm=True)

    def private_reply(
        self, table: TableView, outcome: Outcome, *, in_dm: bool
    ) -> MessageSpec | None:
        return self._reply(table, outcome, beside_dm=in_dm)

    def reply(self, table: TableView, outcome: Outcome) -> MessageSpec | None:
        """After your own draw: the drawn card and your choices, even with DMs closed."""
        return self._reply(table, outcome, beside_dm=False)

    def _reply(self, table: TableView, outcome: Outcome, *, beside_dm: bool) -> MessageSpec | None:
        seat = outcome.seat
        if seat == SYSTEM or outcome.action.get("type") != "draw":
            return None
        offs = [
            cast(BugOffData, e.data) for e in outcome.events if e.is_public and e.type == "bug_off"
        ]
        drawn = [
            cast(DrewCardData, e.data)["colour"]
            for e in outcome.events
            if e.type == "drew_card" and e.visible_to(seat) and e.data.get("seat") == seat
        ]
        first = ""
        if offs:
            first = "💥 You drew " + ", then ".join(
                f"the {ordinal(o['number'])} BUG OFF {chip(o['colour'])}" for o in offs
            )
        if not drawn:
            if outcome.finished and offs:
                return MessageSpec(
                    content=f"{first}: that was the last one, so the game is over. "
                    "The results are on the board."
                )
            return None
        if first:
            first += " first (see the board), then a BUG card."
        engine = _bug_off(table)
        if engine.turn != outcome.turn_after:
            # Something else happened since (a timer): the buttons would only be stale.
            colour = drawn[-1]
            return MessageSpec(content=f"{first} You drew {chip(colour)} **{colour}**.".strip())
        return self._hand(
            table, seat, engine.view(seat), engine.view(None), heading=first, beside_dm=beside_dm
        )

    def stale_text(self, action: dict[str, Any]) -> str:
        kind = action.get("type")
        if kind == "draw":
            # Also the answer to a double click on Draw: the first click drew the card.
            return (
                "That **Draw** button is from an earlier turn: that draw was already made, or "
                "the game has moved on. Check the board for whose turn it is; **My hand** shows "
                "your cards."
            )
        if kind in ("place", "score"):
            return (
                f"That **{str(kind).capitalize()}** button is from an earlier turn: that choice "
                "was already made (or the turn clock made it). Press **My hand** for your cards now."
            )
        return "That button is from an earlier turn of Bug Off!: the game has moved on."


# -- helpers -------------------------------------------------------------------------------


def _bug_off(table: TableView) -> Moment[BugOff]:
    """The table's running engine, typed: the score preview is this game's own."""
    return table.running().of(BugOff)


def _score_preview(
    engine: Moment[BugOff], seat: int, colours: Sequence[str], names: Sequence[str]
) -> str:
    """What scoring each colour would move right now, as the engine works it out."""
    lines = []
    for c in colours:
        gains = engine.score_preview(seat, {"type": "score", "colour": c})
        moved = ", ".join(
            f"{'you' if owner == seat else esc(names[owner])} +{n}" for owner, n in gains.items()
        )
        lines.append(f"{chip(c)} {c} → {moved or 'nobody (no face-up cards)'}")
    return clip("\n".join(lines), FIELD_MAX)


def _me(view: BugOffView) -> MeView:
    """The viewer's part of a seat's view (a private screen is only built for a seat)."""
    me = view["me"]
    assert me is not None, "a private screen of a seated player"
    return me


def _tiebreak_text(tiebreak: Tiebreak, names: Sequence[str]) -> str:
    tied = join_and([f"**{names[s]}**" for s in tiebreak["tied"]])
    parts = [
        f"⚖️ **Tie-break:** {tied} tied on {plural(tiebreak['score'], 'point')}; "
        "compared on the BUG OFF colours, first one first:"
    ]
    for number, step in enumerate(tiebreak["steps"], start=1):
        row = ", ".join(f"{names[c['seat']]} {c['count']}" for c in step["counts"])
        survivors = step["survivors"]
        if len(survivors) == 1:
            verdict = f"**{names[survivors[0]]}** wins the tie-break"
        else:
            verdict = "still tied: " + join_and([names[s] for s in survivors])
        parts.append(f"• {ordinal(number)} BUG OFF {chip(step['colour'])}: {row} → {verdict}")
    if tiebreak["shared"]:
        parts.append("Still tied after every BUG OFF colour, so the win is shared.")
    return "\n".join(parts)


def _wiped_text(wiped: Sequence[Wiped], names: Sequence[str]) -> str:
    by_seat: dict[int, list[str]] = {}
    for w in wiped:
        by_seat.setdefault(w["seat"], []).append(f"{chip(w['colour'])}×{w['count']}")
    return ", ".join(f"{names[s]} {' '.join(parts)}" for s, parts in by_seat.items())


@dataclass
class _Lines:
    """One outcome's log lines while its events are read, for the formatters below.

    The turn's own doings share one line, reserved where the first of them happened and
    written at the end; BUG OFFs and the end of the game get lines of their own."""

    names: list[str]
    lines: list[str] = field(default_factory=list)
    main_at: int | None = None
    actor: int | None = None
    timed_out: bool = False
    icon: str = "🐛"
    doings: list[str] = field(default_factory=list)
    next_seat: int | None = None

    def reserve(self, seat: int) -> None:
        if self.main_at is None:
            self.main_at = len(self.lines)
            self.lines.append("")
        if self.actor is None:
            self.actor = seat

    def done(self) -> list[str]:
        names = self.names
        passing = f" → **{names[self.next_seat]}**'s turn" if self.next_seat is not None else ""
        if self.main_at is not None and self.actor is not None:
            if self.timed_out:
                what = ", ".join(self.doings) or "the clock drew for them"
                text = f"⏰ {names[self.actor]} ran out of time: {what}"
            else:
                text = f"{self.icon} {names[self.actor]} {', '.join(self.doings)}"
            self.lines[self.main_at] = text + passing
        elif passing:
            self.lines.append(passing.strip())
        return [clip(line, LINE_MAX) for line in self.lines]


def _timeout(out: _Lines, d: TimeoutData) -> None:
    out.timed_out = True
    out.reserve(d["seat"])


def _bug_off_line(out: _Lines, d: BugOffData) -> None:
    names = out.names
    head = f"💥 {names[d['seat']]} drew the {ordinal(d['number'])} BUG OFF {chip(d['colour'])}"
    if d["wiped"]:
        total = plural(d["wiped_total"], "card")
        out.lines.append(f"{head}: wiped {_wiped_text(d['wiped'], names)} ({total})")
    else:
        out.lines.append(f"{head}: nothing to wipe")


def _drew(out: _Lines, d: DrewData) -> None:
    out.reserve(d["seat"])
    out.doings.append(f"drew a card ({d['deck_size']} left)")
    out.icon = "🃏"


def _placed(out: _Lines, d: PlacedData) -> None:
    out.reserve(d["seat"])
    c = chip(d["colour"])
    out.doings.append(f"placed {c} ({c}×{d['count']} face up)")
    out.icon = "🐛"


def _scored(out: _Lines, d: ScoredData) -> None:
    out.reserve(d["seat"])
    out.icon = "🎯"
    c = chip(d["colour"])
    gains = ", ".join(f"{out.names[g['seat']]} +{g['count']}" for g in d["gains"])
    out.doings.append(f"scored {c}: " + (gains or f"nobody had {c} face up"))


def _turn(out: _Lines, d: TurnData) -> None:
    out.next_seat = d["seat"]


def _game_over(out: _Lines, d: GameOverData) -> None:
    winners = d["winners"]
    won = join_and([f"**{out.names[s]}**" for s in winners])
    verb = win_verb(winners)
    decided = d["tiebreak"] is not None and not d["tiebreak"]["shared"]
    tie = " after a tie-break" if decided else ""
    best = plural(max(d["scores"]), "point")
    out.lines.append(f"🏁 Game over: {won} {verb} with {best}{tie}.")


Formatter = Callable[[_Lines, Any], None]
"""Reads one public event's data (typed by its own signature, ``contract.EVENTS``)."""

FORMATTERS: dict[str, Formatter] = {
    "timeout": _timeout,
    "bug_off": _bug_off_line,
    "drew": _drew,
    "placed": _placed,
    "scored": _scored,
    "turn": _turn,
    "game_over": _game_over,
}
"""Public event type -> its formatter; tests hold it to ``contract.PublicEventType``."""


def event_lines(raw_names: Sequence[str], events: Iterable[Event]) -> list[str]:
    """Public log lines for one outcome's events (private events are skipped unread).

    The turn's own doings share one line (``⏰ bob ran out of time: placed 🟦 (🟦×2 face up) →
    carol's turn``); each BUG OFF gets a line of its own, and so does the end of the game.
    """
    out = _Lines([esc(n) for n in raw_names])
    for event in events:
        if event.is_public and (formatter := FORMATTERS.get(event.type)) is not None:
            formatter(out, event.data)
    return out.done()


def _nth(n: int) -> str:
    return f"{n}{'st' if n == 1 else 'nd' if n == 2 else 'rd' if n == 3 else 'th'}"


OPTION_WORDS = {
    "first_player": OptionWords(
        "First player",
        "Who plays first",
        {"random": "Drawn at random", **{str(n): f"The {_nth(n)} to join" for n in range(1, 7)}},
    ),
}

register_game(
    Game(
        BugOff,
        BugOffPresenter(),
        rules_pages=bug_off_howto.PAGES,
        option_words=OPTION_WORDS,
        secrets=("deck", "hands"),
        demo_timers={"bugoff_turn": 5.0},
    )
)
