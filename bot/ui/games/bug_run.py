"""The Bug Run presenter: a rendered board with a text summary, every decision as components,
and each player's secrets (VP, secret loot, a loot choice) in one DM edited in place.

What may be shown where:

- the board reads only ``view(None)`` and table names; the picture is rendered from the same
  public view, so neither can show a hand or a seat's VP;
- the board offers the deciding seat's *public* choices only: a choice that names a card in
  the player's hand (a secret loot card, the loot cards to choose from) or that exists only
  because of one (Dibs!) is offered in that player's DM or **My hand**, never in the channel;
- log lines read only public events (``bug_run_words.event_line``);
- a hand reads ``view(seat)``: that seat's VP, hand and options, nobody else's.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, cast

from rules.bug_run import BugRun
from rules.bug_run import content as C
from rules.bug_run.contract import (
    AcceptAction,
    ActionType,
    ActivateAction,
    AttackAction,
    BraveryAction,
    BridgeAction,
    BugRunAction,
    BugRunView,
    BuyAction,
    BuyArrowsAction,
    BuyBasicAction,
    BuyHeartsAction,
    CorrosionAction,
    DibsAction,
    EndAttackAction,
    EndTurnAction,
    EnergyBoostAction,
    EquipAction,
    FightWeaponAction,
    ForceAction,
    GoodFortuneAction,
    HeroView,
    KeepAction,
    LootChoiceData,
    LootSecretCardData,
    MetalShieldAction,
    MoveAction,
    NoShieldAction,
    PassAction,
    PathAction,
    PickAction,
    PlayAction,
    PotionAction,
    QuestAction,
    RerollAction,
    RetossAction,
    RollAction,
    SellAction,
    SlotView,
    Stock,
    StopAction,
    StoreAction,
    TossAction,
    VpLostData,
    WaitAction,
)
from rules.core import SYSTEM

from ...games import Game, register_game
from ...host.table import Outcome
from ...host.view import Moment, TableView
from ..howto import bug_run as bug_run_howto
from ..images.bug_run import board_fingerprint, board_scene, render_board
from ..images.bug_run_phone import describe, phone_fingerprint, render_phone_png
from ..options import OptionWords
from ..presenter import HAND_BUTTON, Presenter
from ..results import headline, ranked, results_screen, standing
from ..specs import (
    ButtonSpec,
    EmbedSpec,
    Field,
    ImageSpec,
    MessageSpec,
    Row,
    SelectOption,
    SelectSpec,
    Style,
)
from ..text import FIELD_MAX, LINE_MAX, clip, esc, newest_lines
from .bug_run_words import (
    HERO_EMOJI,
    PHASE_WORD,
    POWER_WORD,
    SPACE_WORD,
    STOCK_EMOJI,
    WHY_WORD,
    card_line,
    card_text,
    dice_text,
    event_line,
    hero_tag,
    place_text,
    price_of,
    quest_item,
    reward_text,
    rewards_text,
    roof_path_text,
    stairs_space,
)

TITLE = "🏃 Bug Run"
IN_DM = "📬 Your secrets (VP, loot, your hero) are in your DM, kept up to date there."
IMAGE_NAME = "bug-run.png"
FULL_IMAGE_NAME = "bug-run-full.png"
BOARD_ROWS = 4
"""Component rows for choices on the board (the fifth holds **My hand**, **Details**, **Full
board** and **How to play**)."""
DETAILS_BUTTON = ButtonSpec("Details", host="details", emoji="📋")
FULL_BOARD_BUTTON = ButtonSpec("Full board", host="fullboard", emoji="🖼️")
DETAIL_LOG_LINES = 12
HAND_ROWS = 5
PER_ROW = 5
PER_SELECT = 25
LABEL_MAX = 80
OPTION_MAX = 100


@dataclass(frozen=True)
class Choice:
    """One legal action as a player sees it."""

    action: BugRunAction
    label: str
    group: str
    emoji: str | None = None
    style: Style = Style.SECONDARY
    detail: str | None = None


STOCKS: tuple[Stock, ...] = ("hearts", "arrows", "coins")
"""A hero's stocks, in the order shown."""

GROUPS: dict[str, tuple[str, bool]] = {
    "main": ("Choose…", False),
    "move": ("Move to…", True),
    "buy": ("Buy from the bazaar…", False),
    "sell": ("Sell for 1 🪙…", True),
    "play": ("Play a card…", False),
    "pick": ("Take a reward…", False),
}
"""Group → (select placeholder, shown as a select menu even when buttons would fit)."""


class Describer:
    """Turns a seat's legal actions into labelled choices, reading only what that seat may
    know (``view`` is the seat's own view, or the public view for the board)."""

    def __init__(self, view: BugRunView, names: Sequence[str]) -> None:
        self.view = view
        self.names = names
        self.heroes: list[HeroView] = view["heroes"]
        self.columns = len(view["board"])

    def hero(self, h: int | None) -> str:
        return hero_tag(self.heroes, self.names, h)

    def hero_name(self, h: int) -> str:
        return str(self.heroes[h]["name"])

    def slot(self, col: int, floor: str) -> SlotView:
        return dict(self.view["board"][col])[floor]

    def choice(self, action: Mapping[str, Any]) -> Choice:
        # The boundary: a legal action arrives as a plain dict; its "type" picks the handler.
        a = cast(BugRunAction, dict(action))
        t = a["type"]
        chooser = CHOOSERS.get(t)
        if chooser is not None:
            return chooser(self, a)
        return Choice(a, t.replace("_", " "), "main")

    def _prompt(self) -> str | None:
        """The kind of decision asked (``keep`` means keeping the dice after a roll)."""
        active = self.view.get("active")
        return active.get("prompt") if active else None

    def _choose_end_turn(self, a: EndTurnAction) -> Choice:
        return Choice(a, "End trading", "main", "✅", Style.PRIMARY)

    def _choose_buy(self, a: BuyAction) -> Choice:
        name = C.card_name(a["card"])
        label = f"Buy {name} ({price_of(a['card'])} 🪙)"
        if "replace" in a:
            label += f", selling {C.card_name(a['replace'])}"
        return Choice(a, label, "buy", "🛒", Style.SUCCESS, card_text(a["card"]))

    def _choose_buy_basic(self, a: BuyBasicAction) -> Choice:
        label = f"Buy basic {a['side']} (3 🪙)"
        if "replace" in a:
            label += f", selling {C.card_name(a['replace'])}"
        return Choice(a, label, "buy", "🗡️" if a["side"] == "sword" else "🏹", Style.SUCCESS)

    def _choose_buy_hearts(self, a: BuyHeartsAction) -> Choice:
        return Choice(a, "Buy 3 ❤️ (3 🪙)", "buy", "❤️", Style.SUCCESS)

    def _choose_buy_arrows(self, a: BuyArrowsAction) -> Choice:
        return Choice(a, "Buy 2 🏹 (3 🪙)", "buy", "🏹", Style.SUCCESS)

    def _choose_sell(self, a: SellAction) -> Choice:
        return Choice(a, f"Sell {C.card_name(a['card'])}", "sell", "💱", detail="+1 🪙")

    def _choose_attack(self, a: AttackAction) -> Choice:
        weapon = a["weapon"]
        emoji = "🗡️" if weapon == "sword" else "🏹"
        cost = " (1 🏹)" if weapon == "bow" else ""
        return Choice(a, f"Attack with the {weapon}{cost}", "main", emoji, Style.DANGER)

    def _choose_wait(self, a: WaitAction) -> Choice:
        return Choice(a, "Wait on the stairs", "main", "⏳", Style.PRIMARY)

    def _choose_activate(self, a: ActivateAction) -> Choice:
        return Choice(
            a,
            f"Play {self.hero_name(a['hero'])}",
            "main",
            self._emoji(a["hero"]),
            Style.PRIMARY,
        )

    def _choose_toss(self, a: TossAction) -> Choice:
        return Choice(a, "Toss the coin", "main", "🪙", Style.PRIMARY)

    def _choose_force(self, a: ForceAction) -> Choice:
        return Choice(a, f"Forcing Fate: make it {a['result'].upper()}", "main", "🔮")

    def _choose_accept(self, a: AcceptAction) -> Choice:
        return Choice(a, "Keep the result", "main", "✅", Style.PRIMARY)

    def _choose_retoss(self, a: RetossAction) -> Choice:
        return Choice(a, "Second Chance: toss again", "main", "🔁")

    def _choose_good_fortune(self, a: GoodFortuneAction) -> Choice:
        return Choice(a, "Good Fortune: pay 2 🪙 to flip it", "main", "🍀")

    def _choose_keep(self, a: KeepAction) -> Choice:
        if self._prompt() == "roll":
            return Choice(a, "Keep these dice", "main", "✅", Style.PRIMARY)
        name = C.card_name(a["card"])
        return Choice(a, f"Keep {name}", "main", "🎁", Style.PRIMARY, card_text(a["card"]))

    def _choose_bravery(self, a: BraveryAction) -> Choice:
        return Choice(a, f"Play {C.card_name(a['card'])}", "play", "🦸", Style.SUCCESS)

    def _choose_roll(self, a: RollAction) -> Choice:
        return Choice(a, "Roll the dice", "main", "🎲", Style.PRIMARY)

    def _choose_potion(self, a: PotionAction) -> Choice:
        return Choice(a, f"Drink {C.card_name(a['card'])}", "play", "🧪", Style.SUCCESS)

    def _choose_corrosion(self, a: CorrosionAction) -> Choice:
        return Choice(a, "Play Corrosion (shield counts 0)", "play", "🧪", Style.SUCCESS)

    def _choose_no_shield(self, a: NoShieldAction) -> Choice:
        return Choice(a, "Keep the Metal Shield unused", "main", "🚫")

    def _choose_metal_shield(self, a: MetalShieldAction) -> Choice:
        return Choice(a, "Use the Metal Shield", "main", "🛡️", Style.PRIMARY)

    def _choose_end_attack(self, a: EndAttackAction) -> Choice:
        return Choice(a, "End the attack", "main", "✅", Style.PRIMARY)

    def _choose_energy_boost(self, a: EnergyBoostAction) -> Choice:
        return Choice(a, f"Energy Boost: attack again ({a['weapon']})", "main", "⚡")

    def _choose_fight_weapon(self, a: FightWeaponAction) -> Choice:
        emoji = "🗡️" if a["weapon"] == "sword" else "🏹"
        return Choice(a, f"Fight with the {a['weapon']}", "main", emoji, Style.DANGER)

    def _choose_pick(self, a: PickAction) -> Choice:
        label = f"Take {reward_text(a['item'])}"
        if "hero" in a:
            label = f"{self.hero_name(a['hero'])}: {label.lower()}"
        return Choice(a, label, "pick", "🎁", Style.SUCCESS)

    def _choose_pass(self, a: PassAction) -> Choice:
        return Choice(a, "No Dibs!", "main", "🙅")

    def _choose_dibs(self, a: DibsAction) -> Choice:
        return Choice(a, f"Dibs! for {self.hero_name(a['hero'])}", "main", "☝️", Style.SUCCESS)

    def _choose_equip(self, a: EquipAction) -> Choice:
        label = "Equip it"
        if "replace" in a:
            label += f", storing {C.card_name(a['replace'])}"
        return Choice(a, label, "main", "🗡️", Style.PRIMARY)

    def _choose_store(self, a: StoreAction) -> Choice:
        return Choice(a, "Store it", "main", "📦")

    def _choose_stop(self, a: StopAction) -> Choice:
        active = self.view.get("active")
        reached = int((active.get("reached") if active else None) or 0)
        return Choice(a, f"Stop at roof step {reached} ({C.ROOF_VP[reached]} VP)", "main", "🛑")

    def _emoji(self, h: int) -> str | None:
        return HERO_EMOJI.get(self.hero_name(h))

    def _move(self, a: MoveAction) -> Choice:
        slot = self.slot(a["col"], a["floor"])
        name = slot.get("name") or ("the stairs" if slot["kind"] == "stairs" else "a card")
        where = place_text(a["col"], a["floor"], self.columns)
        label = f"{name} ({where})" if where and where != name else name
        parts: list[str] = []
        if "space" in a:
            spaces = slot.get("spaces") or []
            if 0 <= a["space"] < len(spaces):
                weapon = SPACE_WORD.get(spaces[a["space"]]["weapon"], "")
                parts.append(f"space {a['space'] + 1}: {weapon}")
        if slot["kind"] == "stairs" and "space" in a:
            entry = self._stairs_entry(a["space"])
            if entry:
                parts.append(entry)
        if "route" in a:
            parts.append("upper route" if a["route"] == "U" else "lower route")
        if "extra" in a:
            parts.append("using An Optional Extra")
        return Choice(a, label, "move", "🚶", Style.PRIMARY, ", ".join(parts) or None)

    def _stairs_entry(self, space: int) -> str:
        stairs = self.view.get("stairs")
        if not stairs or stairs not in C.STAIRS:
            return ""
        sp = stairs_space(stairs, space)
        bits = [rewards_text(sp["entry"])] if sp["entry"] else []
        if sp["crown"]:
            bits.append("the crown")
        return "on entry: " + " + ".join(bits) if bits else ""

    def _play(self, a: PlayAction) -> Choice:
        name = C.card_name(a["card"])
        label = f"Play {name}"
        if "space" in a:
            label += f" on stairs space {a['space'] + 1}"
        if "target" in a:
            label += f" against {self.hero_name(a['target'])}"
        return Choice(a, label, "play", "🃏", Style.SUCCESS, card_text(a["card"]))

    def _quest(self, a: QuestAction) -> Choice:
        active = self.view.get("active")
        h = active.get("hero") if active else None
        hero = self.heroes[h] if h is not None else None
        pos = hero["pos"] if hero else None
        slot = self.slot(pos["col"], pos["floor"]) if pos else None
        name = (slot.get("name") if slot is not None else None) or "the quest"
        card = slot.get("card") if slot is not None else None
        if "item" in a and card is not None and card in C.QUESTS:
            item = quest_item(card, a["item"])
            return Choice(a, f"{name}: take {reward_text(item)}", "main", "🗝️", Style.SUCCESS)
        return Choice(a, f"Do the quest: {name}", "main", "🗝️", Style.SUCCESS)

    def _bridge(self, a: BridgeAction) -> Choice:
        active = self.view.get("active")
        card = active.get("card") if active else None
        b = C.BRIDGES.get(card) if card else None
        if a["mode"] == "stable":
            what = f" ({rewards_text(b['stable'])})" if b else ""
            return Choice(a, f"STABLE{what}", "main", "🌉", Style.PRIMARY)
        what = (
            f" (toss: green {rewards_text(b['green'])}, red {rewards_text(b['red'])})" if b else ""
        )
        return Choice(a, f"RISKY{what}", "main", "🎲", Style.DANGER)

    def _reroll(self, a: RerollAction) -> Choice:
        active = self.view.get("active")
        dice = (active.get("dice") if active else None) or []
        if len(a["dice"]) > 1:
            return Choice(a, "Re-roll both dice", "main", "🔁")
        i = a["dice"][0]
        face = f" {dice[i]}" if i < len(dice) else ""
        return Choice(a, f"Re-roll the{face}", "main", "🔁", detail=C.card_name(a["card"]))

    def _path(self, a: PathAction) -> Choice:
        active = self.view.get("active")
        reached = int((active.get("reached") if active else None) or 0)
        paths = self.view.get("roof_paths") or []
        side = "left" if a["side"] == "L" else "right"
        what = ""
        if reached < len(paths):
            path = paths[reached][0 if a["side"] == "L" else 1]
            what = f": {roof_path_text(path)}"
        return Choice(a, f"Climb the {side} path{what}", "main", "🧗", Style.PRIMARY)


CHOOSERS: dict[ActionType, Callable[[Describer, Any], Choice]] = {
    "move": Describer._move,
    "play": Describer._play,
    "end_turn": Describer._choose_end_turn,
    "buy": Describer._choose_buy,
    "buy_basic": Describer._choose_buy_basic,
    "buy_hearts": Describer._choose_buy_hearts,
    "buy_arrows": Describer._choose_buy_arrows,
    "sell": Describer._choose_sell,
    "attack": Describer._choose_attack,
    "quest": Describer._quest,
    "wait": Describer._choose_wait,
    "activate": Describer._choose_activate,
    "bridge": Describer._bridge,
    "toss": Describer._choose_toss,
    "force": Describer._choose_force,
    "accept": Describer._choose_accept,
    "retoss": Describer._choose_retoss,
    "good_fortune": Describer._choose_good_fortune,
    "keep": Describer._choose_keep,
    "reroll": Describer._reroll,
    "bravery": Describer._choose_bravery,
    "roll": Describer._choose_roll,
    "potion": Describer._choose_potion,
    "corrosion": Describer._choose_corrosion,
    "no_shield": Describer._choose_no_shield,
    "metal_shield": Describer._choose_metal_shield,
    "end_attack": Describer._choose_end_attack,
    "energy_boost": Describer._choose_energy_boost,
    "fight_weapon": Describer._choose_fight_weapon,
    "pick": Describer._choose_pick,
    "pass": Describer._choose_pass,
    "dibs": Describer._choose_dibs,
    "equip": Describer._choose_equip,
    "store": Describer._choose_store,
    "stop": Describer._choose_stop,
    "path": Describer._path,
}
"""Action type -> how a player's choice of it is labelled; tests hold it to
``contract.ActionType``. Each handler takes its own action ``TypedDict`` (``Any`` here only
because mypy cannot tie a table key to one member of the ``BugRunAction`` union)."""


def secret_cards(view: BugRunView) -> set[str]:
    """Card ids only this seat may know of: its hand and the loot cards it chooses between."""
    you = view.get("you")
    if you is None:
        return set()
    return {*you.get("hand", ()), *you.get("loot_choice", ())}


def is_private(action: Mapping[str, object], view: BugRunView) -> bool:
    """Whether offering ``action`` in public would reveal a secret of the deciding seat."""
    active = view.get("active")
    if active and active.get("prompt") == "flash" and active.get("stage") == "dibs":
        return True  # being asked at all shows the seat holds Dibs!
    if "extra" in action:
        return True
    secrets = secret_cards(view)
    return any(isinstance(v, str) and v in secrets for v in action.values())


def pack(choices: Sequence[Choice], rows: int) -> tuple[Row, ...]:
    """Lay choices out in at most ``rows`` component rows: buttons flow five to a row in group
    order; a group that is a menu by nature, or too big, becomes a select menu (25 options
    each). If even that does not fit, every choice goes into menus."""
    if not choices:
        return ()
    groups: dict[str, list[Choice]] = {}
    for c in choices:
        groups.setdefault(c.group, []).append(c)
    as_select = {g for g in groups if GROUPS.get(g, ("", False))[1] and len(groups[g]) > 1}

    def needed() -> int:
        buttons = sum(len(v) for g, v in groups.items() if g not in as_select)
        menus = sum(math.ceil(len(v) / PER_SELECT) for g, v in groups.items() if g in as_select)
        return math.ceil(buttons / PER_ROW) + menus

    while needed() > rows:
        candidates = [g for g in groups if g not in as_select and len(groups[g]) > 1]
        if not candidates:
            break
        as_select.add(max(candidates, key=lambda g: len(groups[g])))
    if needed() > rows:
        return tuple(_menus(list(choices), "Choose…", rows))
    out: list[Row] = []
    buttons = [c for g, v in groups.items() if g not in as_select for c in v]
    for i in range(0, len(buttons), PER_ROW):
        out.append(tuple(_button(c) for c in buttons[i : i + PER_ROW]))
    for g, v in groups.items():
        if g in as_select:
            out.extend(_menus(v, GROUPS.get(g, ("Choose…", True))[0], rows))
    return tuple(out[:rows])


def _button(c: Choice) -> ButtonSpec:
    return ButtonSpec(clip(c.label, LABEL_MAX), action=dict(c.action), style=c.style, emoji=c.emoji)


def _menus(choices: list[Choice], placeholder: str, rows: int) -> list[Row]:
    menus: list[Row] = []
    for i in range(0, len(choices), PER_SELECT):
        part = choices[i : i + PER_SELECT]
        options = tuple(
            SelectOption(
                clip(c.label, OPTION_MAX),
                dict(c.action),
                clip(c.detail, OPTION_MAX) if c.detail else None,
                c.emoji,
            )
            for c in part
        )
        menus.append(SelectSpec(placeholder, options))
    return menus[:rows]


def _bug_run(table: TableView) -> Moment[BugRun]:
    """The table's running engine, typed: its views follow Bug Run's contract."""
    return table.running().of(BugRun)


class BugRunPresenter(Presenter):
    slug = "bug-run"
    colour = 0x7A4FBF
    board_log_lines = 3
    """The board keeps to 15 lines (P-55); **Details** shows ``DETAIL_LOG_LINES``."""

    # -- the board ---------------------------------------------------------------------------
    def boards(self, table: TableView, log: Sequence[str] = ()) -> list[MessageSpec]:
        """The phone board (P-55): the picture, and beside it at most 15 lines of text, what
        the deciding member must read; the rest is a click away (**Details**)."""
        engine = _bug_run(table)
        if engine.is_over:
            return [self.final(table, log)]
        public = engine.view(None)
        names = table.names()
        describer = Describer(public, names)
        shown = self._shown(table, engine, public)
        embed = EmbedSpec(
            title=f"{TITLE} — level {public['level']} of 4 · {PHASE_WORD[public['phase']]}",
            description=clip("\n".join(self._head(table, public, describer, shown)), 4000),
            fields=(self._heroes_field(public, names), *self._log_field(log)),
            colour=self.colour,
        )
        rows: list[Row] = list(pack([describer.choice(a) for a in shown], BOARD_ROWS))
        rows.append((HAND_BUTTON, DETAILS_BUTTON, FULL_BOARD_BUTTON))
        return [MessageSpec(embed=embed, rows=tuple(rows), image=self.image(table, public))]

    def details(self, table: TableView, log: Sequence[str] = ()) -> MessageSpec | None:
        """**Details**, privately: every hero's equipment, place and secret-loot count, the
        bazaar and a longer log, all public."""
        engine = _bug_run(table)
        public = engine.view(None)
        names = table.names()
        describer = Describer(public, names)
        lines = self._head(table, public, describer, self._shown(table, engine, public))
        fields = [*self._hero_fields(public, names), self._market_field(public)]
        text = newest_lines(log, DETAIL_LOG_LINES)
        if text:
            fields.append(Field("Log", text))
        return MessageSpec(
            embed=EmbedSpec(
                title=f"{TITLE} — details, level {public['level']} of 4",
                description=clip("\n".join(lines), 4000),
                fields=tuple(fields),
                footer="Secrets (your VP, secret loot) are in your DM · My hand shows them here",
                colour=self.colour,
            )
        )

    def full_picture(self, table: TableView) -> ImageSpec | None:
        """**Full board**: the desktop picture, every card and space (the web page's too)."""
        public = _bug_run(table).view(None)
        names = table.names()
        key = f"{table.id}:{board_fingerprint(public, names)}"
        return ImageSpec(
            FULL_IMAGE_NAME,
            key,
            functools.partial(render_board, public, list(names)),
            description=describe(board_scene(public, names)),
        )

    def _shown(
        self, table: TableView, engine: Moment[BugRun], public: BugRunView
    ) -> list[dict[str, Any]]:
        """The deciding seat's choices the board may show (a member's, not a bot's)."""
        active = public.get("active")
        if active is None or table.user_at(active["seat"]).is_bot:
            return []
        # Privacy is judged with the deciding seat's own view: only it knows its hand.
        seat_view = engine.view(active["seat"])
        return [a for a in seat_view["you"]["options"] if not is_private(a, seat_view)]

    def _head(
        self,
        table: TableView,
        public: BugRunView,
        describer: Describer,
        shown: Sequence[Mapping[str, Any]],
    ) -> list[str]:
        """Who decides and what, the dice or bridge at hand, the crown and the Flash token."""
        lines = [self._status(table, public, describer, shown)]
        lines += self._prompt_details(public, describer)
        marks = []
        crown = public.get("crown")
        if crown is not None:
            marks.append(f"👑 Crown: {describer.hero(crown)}")
        if public.get("flash") is not None:
            marks.append(f"⚡ Flash Phase: {describer.hero(public['flash'])}")
        if marks:
            lines.append(" · ".join(marks))
        return lines

    def _heroes_field(self, view: BugRunView, names: Sequence[str]) -> Field:
        """One line per hero: its stocks, the one deciding marked."""
        active = view.get("active")
        acting = active.get("hero") if active else None
        lines = []
        for hero in view["heroes"]:
            mark = "▶ " if acting == hero["index"] else ""
            stocks = " ".join(f"{STOCK_EMOJI[s]}{hero[s]}" for s in STOCKS)
            who = f"{HERO_EMOJI.get(hero['name'], '')} {hero['name']} — {esc(names[hero['seat']])}"
            lines.append(clip(f"{mark}{who}: {stocks}", LINE_MAX))
        return Field("Heroes", clip("\n".join(lines), FIELD_MAX))

    def score_words(self, score: int, *, over: bool) -> str:
        """The face-down VP tokens and Show-Off cards in hand count only at the end (BR-50)."""
        return f"{score} VP" if over else f"{score} visible VP"

    def ping_text(self, table: TableView, seats: list[int]) -> str:
        return f"— {TITLE}: your decision (on the board, or in your DM)."

    def image(self, table: TableView, public: BugRunView) -> ImageSpec:
        """The phone picture (P-55), and in its alt text the position in words."""
        scene = board_scene(public, table.names())
        return ImageSpec(
            IMAGE_NAME,
            f"{table.id}:{phone_fingerprint(scene)}",
            functools.partial(render_phone_png, scene),
            description=describe(scene),
        )

    def _status(
        self,
        table: TableView,
        view: BugRunView,
        d: Describer,
        shown: Sequence[Mapping[str, Any]],
    ) -> str:
        active = view.get("active")
        if active is None:
            return "⏳ Setting up…"
        who = esc(table.names()[active["seat"]])
        asked = self._asked(view, d, shown)
        h = active.get("hero")
        if h is None or active["prompt"] == "activate":
            return f"▶ **{who}**: {asked}"
        hero = d.heroes[h]
        return f"▶ **{who}** ({HERO_EMOJI.get(hero['name'], '')} {hero['name']}): {asked}"

    def _asked(
        self,
        view: BugRunView,
        d: Describer,
        options: Sequence[Mapping[str, Any]] | None = None,
    ) -> str:
        """What the deciding seat is asked, in words that reveal no secret (``options``: the
        choices shown where this text appears)."""
        a = view["active"]
        assert a is not None  # only asked while a decision is waited on
        prompt, stage = a["prompt"], a.get("stage")
        if prompt == "trade":
            if a.get("merchant"):
                return "an Itinerant Merchant's private trading turn: buy or sell"
            return "trading: buy, sell, or end trading"
        if prompt == "turn":
            return "your turn: " + _verbs(options)
        if prompt == "activate":
            return "choose which of your heroes acts next"
        if prompt == "bridge":
            card = a.get("card")
            return f"crossing {C.card_name(card) if card else 'a bridge'}: STABLE or RISKY?"
        if prompt == "toss":
            why = WHY_WORD.get(a.get("why") or "", "a toss")
            if a.get("result"):
                return f"the coin shows **{a['result'].upper()}** ({why}): keep it or use a card"
            return f"about to toss a coin ({why})"
        if prompt == "roll":
            return f"rolled for the {WHY_WORD.get(a.get('why') or '', 'roll')}: keep or re-roll"
        if prompt == "attack":
            if stage == "metal":
                return "may use the Metal Shield against the strike back"
            if stage == "energy":
                return "may use Energy Boost to attack again"
            need = f" (needs {a['need']}+)" if a.get("need") else ""
            return (
                f"attacking with the {a.get('weapon', 'weapon')}{need}: roll, or play a card first"
            )
        if prompt == "fight":
            return "choose a weapon for the stairs fight"
        if prompt == "flash":
            if stage == "dibs":
                return "deciding (Flash Phase)"
            items = ", ".join(reward_text(i) for i in a.get("items", []))
            return f"picking a reward ({items})"
        if prompt == "freemove":
            return "Flash Phase: move to another card"
        if prompt == "loot":
            if stage == "keep":
                return "choosing which loot card to keep"
            card = a.get("card")
            return f"found {C.card_name(card) if card else 'equipment'}: equip it or store it"
        if prompt == "escape":
            return f"Final Escape, roof step {int(a.get('reached') or 0) + 1}: climb or stop"
        return "deciding"

    def _prompt_details(self, view: BugRunView, d: Describer) -> list[str]:
        a = view.get("active")
        out: list[str] = []
        if a is None:
            return out
        dice = a.get("dice")
        if a.get("prompt") == "roll" and dice:
            out.append(f"🎲 Dice: {dice_text(dice)}")
        card = a.get("card")
        if a.get("prompt") == "bridge" and card is not None and card in C.BRIDGES:
            b = C.BRIDGES[card]
            out.append(
                f"🌉 STABLE: {rewards_text(b['stable'])} · RISKY: toss, green "
                f"{rewards_text(b['green'])} / red {rewards_text(b['red'])}"
            )
        return out

    def _hero_fields(self, view: BugRunView, names: Sequence[str]) -> list[Field]:
        fields = []
        seats = {s["seat"]: s for s in view["seats"]}
        active = view.get("active")
        acting = active.get("hero") if active else None
        for hero in view["heroes"]:
            mark = "▶ " if acting == hero["index"] else ""
            crown = " 👑" if view.get("crown") == hero["index"] else ""
            title = f"{mark}{HERO_EMOJI.get(hero['name'], '')} {hero['name']}{crown} — {names[hero['seat']]}"
            lines = [" · ".join(f"{STOCK_EMOJI[s]} {hero[s]}" for s in STOCKS)]
            lines.append(f"📍 {self._where(view, hero)}")
            lines += _equipment_lines(hero)
            lines.append(f"🂠 secret loot: {seats[hero['seat']]['hand_size']}")
            power = hero.get("power")
            if power:
                lines.append(f"✨ {POWER_WORD.get(power, power)}")
            fields.append(Field(clip(title, 256), clip("\n".join(lines), FIELD_MAX), inline=True))
        return fields

    def _where(self, view: BugRunView, hero: HeroView) -> str:
        if hero.get("roof") is not None:
            return f"roof step {hero['roof']}"
        pos = hero.get("pos")
        if not pos:
            return "not on the board"
        columns = len(view["board"])
        slot = dict(view["board"][pos["col"]]).get(pos["floor"])
        if slot is None:
            name = "a card"
        elif slot["kind"] == "entrance":
            return "entrance"
        else:
            name = slot.get("name") or slot["kind"]
        where = place_text(pos["col"], pos["floor"], columns)
        space = pos.get("space")
        parts = [p for p in (where, f"space {space + 1}" if space is not None else "") if p]
        return f"{name} ({', '.join(parts)})" if parts else str(name)

    def _market_field(self, view: BugRunView) -> Field:
        lines = [f"{card_line(c)} · {price_of(c)} 🪙" for c in view["market"]]
        lines.append("Basic equipment (sword or bow +2) · 3 🪙 · 3 ❤️ or 2 🏹 · 3 🪙")
        return Field("🛒 Bazaar", clip("\n".join(lines), FIELD_MAX))

    # -- the results -------------------------------------------------------------------------
    def final(self, table: TableView, log: Sequence[str] = ()) -> MessageSpec:
        engine = _bug_run(table)
        public = engine.view(None)
        names = table.names()
        result = engine.final_result()
        scores, winners = result.scores, result.winners
        fields = []
        for seat in ranked(scores, winners):
            parts = result.breakdowns[seat]
            detail = (
                f"VP tokens: {parts['vp_tokens']} · trinkets: {parts['loot']} · "
                f"Show-Off: {parts['show_off']} · Final Escape: {parts['escape']} · "
                f"coins: {parts['coins']}"
            )
            heroes = ", ".join(
                f"{HERO_EMOJI.get(h['name'], '')} {h['name']} (roof {h['roof'] or 0})"
                for h in public["heroes"]
                if h["seat"] == seat
            )
            fields.append(
                standing(
                    names[seat],
                    seat in winners,
                    f"{scores[seat]} VP",
                    clip(f"{heroes}\n{detail}", FIELD_MAX),
                )
            )
        shown = [esc(n) for n in names]
        return results_screen(
            TITLE,
            headline(shown, winners, f"**{max(scores)}** VP", mark="🏁"),
            fields,
            log=self._log_field(log),
            colour=self.colour,
            image=self.image(table, public),
        )

    # -- the log -----------------------------------------------------------------------------
    def log_lines(self, table: TableView, outcome: Outcome) -> list[str]:
        public = _bug_run(table).view(None)  # hero names and seats never change in a game
        names = table.names()
        lines = []
        for event in outcome.events:
            if not event.is_public:
                continue
            line = event_line(event.type, event.data, public["heroes"], names)
            if line:
                lines.append(line)
        return lines

    # -- private -----------------------------------------------------------------------------
    def hand(self, table: TableView, seat: int) -> MessageSpec | None:
        """The DM: secrets, and only the choices the board cannot show (P-16), so it changes
        only when this player's secrets or secret choices do (issue #21's request budget)."""
        return self._secrets(table, seat, standing=True)

    def my_hand(self, table: TableView, seat: int) -> MessageSpec | None:
        """My hand answers once, privately: every choice of the deciding seat."""
        return self._secrets(table, seat, standing=False)

    def private_hand(self, table: TableView, seat: int, *, in_dm: bool) -> MessageSpec | None:
        """**My hand** while the member's DM shows their secrets: every choice of the deciding
        seat, and where the secrets are, not the secrets again (P-48)."""
        return self._secrets(table, seat, standing=False, beside_dm=in_dm)

    def _secrets(
        self, table: TableView, seat: int, *, standing: bool, beside_dm: bool = False
    ) -> MessageSpec:
        engine = _bug_run(table)
        view = engine.view(seat)
        names = table.names()
        you = view["you"]
        d = Describer(view, names)
        footer = f"Game #{table.id} · {names[seat]} · only you can see this"
        fields = [Field("⭐ Your victory points (secret)", f"**{you['vp']}** VP")]
        if engine.is_over:  # the end's scoring adds to them: say both, so 7 under 17 is clear
            total = (you.get("score") or engine.final_result().breakdowns[seat])["total"]
            fields = [
                Field(
                    "⭐ Your victory points",
                    f"**{you['vp']}** VP collected during the game; **{total}** VP in all "
                    "with the end's scoring (the board shows how)",
                )
            ]
        hand = [card_line(c) for c in you["hand"]]
        fields.append(
            Field(f"🂠 Your secret loot ({len(hand)})", clip("\n".join(hand) or "—", FIELD_MAX))
        )
        if beside_dm:
            fields = []
        if you.get("loot_choice"):
            fields.append(
                Field(
                    "🎁 Loot found: keep one (the other goes under the deck)",
                    clip("\n".join(card_line(c) for c in you["loot_choice"]), FIELD_MAX),
                )
            )
        for hero in [] if beside_dm else view["heroes"]:
            if hero["seat"] == seat:
                lines = [" · ".join(f"{STOCK_EMOJI[s]} {hero[s]}" for s in STOCKS)]
                lines += _equipment_lines(hero, detailed=True)
                fields.append(
                    Field(
                        f"{HERO_EMOJI.get(hero['name'], '')} Your hero {hero['name']}",
                        clip("\n".join(lines), FIELD_MAX),
                    )
                )
        if engine.is_over:
            score = you.get("score") or engine.final_result().breakdowns[seat]
            description = (
                f"The game is over: you scored **{score['total']}** VP. Results are on the board."
            )
            if beside_dm:
                description = f"{description}\n{IN_DM}"
            embed = EmbedSpec(
                title=f"{TITLE} — your secrets",
                description=description,
                fields=tuple(fields),
                footer=footer,
                colour=self.colour,
            )
            return MessageSpec(embed=embed)
        active = view.get("active")
        rows: tuple[Row, ...] = ()
        options = you["options"]
        if standing:
            options = [a for a in options if is_private(a, view)]
        if active is not None and active["seat"] == seat and options:
            who = d.hero(active.get("hero")) if active.get("hero") is not None else "you"
            description = f"**Your decision** — {who}: {self._asked(view, d, you['options'])}"
            details = self._prompt_details(view, d)
            if details:
                description += "\n" + "\n".join(details)
            if len(options) < len(you["options"]):
                description += "\nYour other choices are on the board."
            rows = pack([d.choice(a) for a in options], HAND_ROWS)
        elif standing:
            description = "The board shows the game and your choices; secret ones come here."
        elif active is not None:
            waiting = esc(names[active["seat"]])
            description = f"Waiting for **{waiting}**. The board shows the game."
        else:
            description = "The board shows the game."
        if beside_dm:
            description = f"{clip(description, 3900)}\n{IN_DM}"
        embed = EmbedSpec(
            title=f"{TITLE} — your secrets",
            description=clip(description, 4000),
            fields=tuple(fields),
            footer=footer,
            colour=self.colour,
        )
        return MessageSpec(embed=embed, rows=rows)

    def reply(self, table: TableView, outcome: Outcome) -> MessageSpec | None:
        """What only the actor learned (secret loot drawn, VP lost), said privately at once."""
        seat = outcome.seat
        if seat == SYSTEM:
            return None
        lines = []
        for event in outcome.events:
            if event.is_public or not event.visible_to(seat):
                continue
            if event.type == "loot_secret_card":
                found = cast(LootSecretCardData, event.data)
                lines.append(f"🤫 You found {card_line(found['card'])}: it is in your secret hand.")
            elif event.type == "loot_choice":
                drawn = cast(LootChoiceData, event.data)
                names = " or ".join(f"**{C.card_name(c)}**" for c in drawn["cards"])
                lines.append(f"🎁 You found two loot cards: keep {names}.")
            elif event.type == "vp_lost":
                lost = cast(VpLostData, event.data)
                lines.append(f"⭐ You lost {lost['amount']} VP (now {lost['vp']}).")
        if not lines:
            return None
        engine = _bug_run(table)
        if not engine.is_over and seat in engine.waiting_for():
            view = engine.view(seat)
            if any(is_private(a, view) for a in view["you"]["options"]):
                lines.append("Make your choice in your DM, or with **My hand**.")
        return MessageSpec(content=clip("\n".join(lines), 1900))

    def stale_text(self, action: dict[str, Any]) -> str:
        return (
            "That button is from an earlier decision of Bug Run: the game has moved on. "
            "The board (or **My hand**) shows what can be done now."
        )


TURN_VERBS = {
    "move": "move",
    "attack": "attack",
    "quest": "take on the quest",
    "wait": "wait on the stairs",
    "play": "play a card",
}


def _verbs(options: Sequence[Mapping[str, object]] | None) -> str:
    """The kinds of action a turn offers, e.g. ``move or attack`` (all kinds when unknown)."""
    kinds = (
        list(TURN_VERBS)
        if options is None
        else [t for t in TURN_VERBS if any(o["type"] == t for o in options)]
    )
    words = [TURN_VERBS[k] for k in kinds]
    if len(words) <= 1:
        return "".join(words) or "decide"
    return ", ".join(words[:-1]) + " or " + words[-1]


def _equipment_lines(hero: HeroView, *, detailed: bool = False) -> list[str]:
    def names(cards: Sequence[str]) -> str:
        if detailed:
            return ", ".join(f"{C.card_name(c)} ({card_text(c)})" for c in cards) or "—"
        return ", ".join(C.card_name(c) for c in cards) or "—"

    lines = [
        f"🗡️ {names(hero['sword'])}",
        f"🏹 {names(hero['bow'])}",
        f"🛡️ {names(hero['shield'])}",
    ]
    if hero["faceup"]:
        lines.append(f"🃏 {names(hero['faceup'])}")
    if hero["stored"]:
        lines.append(f"📦 {names(hero['stored'])}")
    return lines


OPTION_WORDS = {
    "mode": OptionWords(
        "Hero powers",
        "Play with hero powers or without",
        {"normal": "Without hero powers", "powers": "With hero powers"},
    ),
}

register_game(
    Game(
        BugRun,
        BugRunPresenter(),
        rules_pages=bug_run_howto.PAGES,
        option_words=OPTION_WORDS,
        picture="bot.ui.images.bug_run",
        secrets=("loot.deck", "seats"),
        demo_timers={"bugrun_turn": 5.0},
    )
)
