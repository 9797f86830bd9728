"""Bug Run in players' words: rewards, cards, choices and public log lines.

Everything here reads static card content and the data it is given, never the engine, so log
lines rebuilt after a restart (the engine then holds the final state) read as they did live.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, cast

from rules.bug_run import content as C
from rules.bug_run.contract import (
    ActivateData,
    AfkData,
    ArcheryData,
    AttackData,
    AwardData,
    BraveryData,
    BridgeData,
    BuyData,
    BuyStockData,
    CrownSpaceData,
    DeathData,
    DefeatedData,
    DibsData,
    DieFace,
    DuelData,
    EnergyBoostData,
    EscapeEndData,
    EscapeStartData,
    FightData,
    FightTieData,
    FightWeaponData,
    FlashData,
    FlashEndData,
    ForcingFateData,
    GainData,
    GambleData,
    GameOverData,
    GoodFortuneData,
    HeroView,
    HurtData,
    ItemCard,
    LevelBuiltData,
    LevelEndData,
    LootData,
    LootEquipData,
    LootSecretData,
    LootStoreData,
    LossData,
    MarketRenewedData,
    MoveData,
    PadlockData,
    PayData,
    PhaseData,
    PickData,
    PlayData,
    QuestData,
    RerollData,
    RollData,
    RoofAttackData,
    RoofPath,
    RoofPathData,
    RoofStepData,
    SecondChanceData,
    SellData,
    ShieldData,
    StairsSpace,
    StealData,
    Stock,
    StrikeBackData,
    StrikeData,
    TeamsData,
    TirelessArcherData,
    TossData,
    TradeEndData,
    TradeTurnData,
    TurnData,
    VaultData,
    WaitData,
)

from ..text import LINE_MAX, clip, esc

HERO_EMOJI: dict[str, str] = {
    "spider": "🕷️",
    "caterpillar": "🐛",
    "wasp": "🐝",
    "fly": "🪰",
    "grasshopper": "🦗",
    "beetle": "🪲",
}
STOCK_EMOJI: dict[Stock, str] = {"hearts": "❤️", "arrows": "🏹", "coins": "🪙"}
CODE_STOCK: dict[str, Stock] = {"h": "hearts", "a": "arrows", "c": "coins"}
DIE_FACES = {1: "⚀", 2: "⚁", 3: "⚂", 4: "⚃", 5: "⚄", 6: "⚅"}
DIE_MEANING = {
    "star": "1 success",
    "star-star": "2 successes",
    "star-bone": "1 success + 1 bone",
    "bone": "1 bone",
    "white": "blank",
}
SPACE_WORD = {"any": "any weapon", "sw": "sword only", "bw": "bow only"}
PHASE_WORD = {
    "trading": "Trading",
    "adventure": "Adventure",
    "escape": "Final Escape",
    "over": "Game over",
}
POWER_WORD = {
    "master_crocheter": "Master Crocheter: draws 2 loot cards and keeps one",
    "tireless_archer": "Tireless Archer: an arrow back after a bow attack with a bone",
    "fierce_frenzy": "Fierce Frenzy: +2 sword at 3 hearts or fewer",
    "teleportation": "Teleportation: moves first in a Flash Phase",
    "good_fortune": "Good Fortune: may pay 2 coins to flip a coin toss",
    "armored_exoskeleton": "Armored Exoskeleton: blocks 1 damage, never uses shields",
}
WHY_WORD = {
    "attack": "attack",
    "archery": "Archery quest",
    "crafty": "Crafty One",
    "bridge": "risky bridge",
    "shield": "Wooden Shield",
    "roof": "roof step",
    "duel": "Duel",
    "gamble": "Gamble",
    "escape": "Escape quest",
}


def reward_text(item: str) -> str:
    """``"3c"`` → ``3 🪙``; ``"-1h"`` → ``−1 ❤️``; ``"4vp"`` → ``4 VP``; ``"L"`` → ``loot``."""
    if item == "L":
        return "loot"
    if item.endswith("vp"):
        amount = item[:-2]
        return f"{amount.replace('-', '−')} VP"
    amount, code = item[:-1], item[-1]
    return f"{amount.replace('-', '−')} {STOCK_EMOJI[CODE_STOCK[code]]}"


def rewards_text(items: Sequence[str]) -> str:
    return " + ".join(reward_text(i) for i in items) or "nothing"


def hero_tag(heroes: Sequence[HeroView], names: Sequence[str], h: int | None) -> str:
    """``🪲 beetle (alice)``: which hero, and whose."""
    if h is None or not 0 <= h < len(heroes):
        return "a hero"
    hero = heroes[h]
    return f"{HERO_EMOJI.get(hero['name'], '')} {hero['name']} ({esc(names[hero['seat']])})"


# -- card content, read by the contract's shapes (tests/bot/test_contracts.py checks every card) --


def item_card(card: str) -> ItemCard:
    """A bazaar, loot or basic card's content."""
    return cast(ItemCard, C.card(card))


def stairs_space(stairs: str, space: int) -> StairsSpace:
    """One space of a stairs card."""
    spaces: list[StairsSpace] = C.STAIRS[stairs]["spaces"]
    return spaces[space]


def quest_item(card: str, item: int) -> str:
    """The reward of one item of an item quest."""
    items: list[str] = C.QUESTS[card]["items"]
    return items[item]


def die_face(face: int) -> DieFace:
    """What a die face (1-6) shows."""
    faces: list[DieFace] = cast(list[DieFace], C.DICE)
    return faces[face - 1]


def card_text(card: str) -> str:
    """One line saying what a bazaar, loot or basic card does."""
    d = item_card(card)
    eff = d["effect"]
    if eff == "full_potion":
        return "back to 10 ❤️"
    if eff == "potion":
        return f"+{d['hearts']} ❤️"
    if eff == "strength":
        weapon = "any weapon" if d["weapon"] == "any" else d["weapon"] + " only"
        return f"+{d['bonus']} to one attack ({weapon})"
    if eff == "forcing_fate":
        return "choose a coin toss result (3 uses)"
    if eff == "second_chance":
        return "toss a coin again (3 uses)"
    if eff == "reroll":
        return f"re-roll {d['dice']} {'die' if d['dice'] == 1 else 'dice'} (3 uses)"
    if eff == "energy_boost":
        return "attack again after an attack"
    if eff == "equipment":
        if "shield" in d:
            return f"{d['shield']} shield"
        zone = "sword or bow" if d["zone"] == "either" else d["zone"]
        parts = [f"{zone} +{d['bonus']}"]
        if d.get("award_coins"):
            parts.append(f"+{d['award_coins']} 🪙 per kill")
        if d.get("award_vp"):
            parts.append(f"+{d['award_vp']} VP per kill")
        return ", ".join(parts)
    if eff == "gold_coins":
        return f"+{d['coins']} 🪙"
    if eff == "show_off":
        return f"{d['vp']} VP at the end"
    if eff == "crafty":
        return f"steal {d['steal']} (roll + {d['plus']}) from a hero on your card"
    if eff == "merchant":
        return "a private trading turn"
    if eff == "bravery":
        return "on a roll with 2 bones: " + (
            "take the riches" if d["variant"] == "riches" else "fix the dice"
        )
    if eff == "corrosion":
        return "the monster's shield counts 0"
    if eff == "dibs":
        return "pick first in a Flash Phase"
    if eff == "extra":
        return "an extra space on a full monster"
    if eff == "reserved_seat":
        return "reserve a stairs space"
    if eff == "trinket":
        return f"{d['vp']} VP at the end"
    return eff.replace("_", " ")


def card_line(card: str) -> str:
    return f"**{C.card_name(card)}** — {card_text(card)}"


def price_of(card: str) -> int:
    return item_card(card).get("price", 0)


def place_text(col: int, floor: str, columns: int) -> str:
    """Where a card lies, as the picture shows it (its floor at 5-6 players; card names are
    unique, so the name says the rest)."""
    if col == columns - 1:
        return "stairs"
    return {"U": "upper floor", "D": "lower floor"}.get(floor, "")


def dice_text(dice: Sequence[int]) -> str:
    parts = []
    for face in dice:
        symbol = die_face(face)["symbol"]
        parts.append(f"{DIE_FACES.get(face, face)} {face} ({DIE_MEANING.get(symbol, symbol)})")
    return ", ".join(parts)


def roof_path_text(path: RoofPath) -> str:
    if "cost" in path:
        return "pay " + rewards_text(path["cost"]).replace("−", "")
    kind, need = path["challenge"][0], path["challenge"][1]
    if kind == "flip":
        return "toss a coin, green to climb"
    return f"{kind} attack of {need}+"


# -- log lines ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Line:
    """What a log line may read besides its event: the heroes and the players' names."""

    heroes: Sequence[HeroView]
    names: Sequence[str]

    def who(self, h: int | None) -> str:
        return hero_tag(self.heroes, self.names, h)


def _line_phase(x: _Line, d: PhaseData) -> str:
    return f"📜 Level {d['level']}: {PHASE_WORD.get(d['phase'], d['phase'])} begins"


def _line_level_built(x: _Line, d: LevelBuiltData) -> str:
    return f"🗺️ Level {d['level']} is laid out"


def _line_trade_turn(x: _Line, d: TradeTurnData) -> str:
    return f"🛒 {x.who(d['hero'])} trades"


def _line_buy(x: _Line, d: BuyData) -> str:
    return f"🛒 {x.who(d['hero'])} bought {d['name']} for {d['price']} 🪙"


def _line_buy_stock(x: _Line, d: BuyStockData) -> str:
    return (
        f"🛒 {x.who(d['hero'])} bought {d['amount']} {STOCK_EMOJI[d['stock']]} for {d['price']} 🪙"
    )


def _line_sell(x: _Line, d: SellData) -> str:
    return f"💱 {x.who(d['hero'])} sold {d['name']} (+{d['coins']} 🪙)"


def _line_trade_end(x: _Line, d: TradeEndData) -> str:
    return f"🛒 {x.who(d['hero'])} ends trading"


def _line_market_renewed(x: _Line, d: MarketRenewedData) -> str:
    return "🛒 The bazaar is renewed"


def _line_turn(x: _Line, d: TurnData) -> str:
    return f"▶ {x.who(d['hero'])}'s turn"


def _line_activate(x: _Line, d: ActivateData) -> str:
    return f"▶ {x.who(d['hero'])} is chosen to act"


def _line_move(x: _Line, d: MoveData) -> str:
    over = f", over {len(d['bridges'])} bridge(s)" if d.get("bridges") else ""
    return f"🚶 {x.who(d['hero'])} moved to {d.get('name') or 'the stairs'}{over}"


def _line_bridge(x: _Line, d: BridgeData) -> str:
    return f"🌉 {x.who(d['hero'])} crosses {d['name']} {d['mode'].upper()}"


def _line_toss(x: _Line, d: TossData) -> str:
    return (
        f"🪙 {x.who(d['hero'])} tossed {d['result'].upper()} ({WHY_WORD.get(d['why'], d['why'])})"
    )


def _line_forcing_fate(x: _Line, d: ForcingFateData) -> str:
    return f"🪙 {x.who(d['hero'])} forced fate: {d['result'].upper()}"


def _line_second_chance(x: _Line, d: SecondChanceData) -> str:
    return f"🪙 {x.who(d['hero'])} uses a Second Chance"


def _line_good_fortune(x: _Line, d: GoodFortuneData) -> str:
    return f"🍀 {x.who(d['hero'])} uses Good Fortune: now {d['result'].upper()}"


def _line_roll(x: _Line, d: RollData) -> str:
    return (
        f"🎲 {x.who(d['hero'])} rolled {dice_text(d['dice'])} ({WHY_WORD.get(d['why'], d['why'])})"
    )


def _line_reroll(x: _Line, d: RerollData) -> str:
    return f"🎲 {x.who(d['hero'])} re-rolled: {dice_text(d['dice'])}"


def _line_bravery(x: _Line, d: BraveryData) -> str:
    return f"🎲 {x.who(d['hero'])} plays {d['name']}"


def _line_tireless_archer(x: _Line, d: TirelessArcherData) -> str:
    return f"🏹 {x.who(d['hero'])}'s Tireless Archer: +{d['arrows']} 🏹"


def _line_attack(x: _Line, d: AttackData) -> str:
    need = f" (needs {d['need']}+)" if d.get("need") else ""
    return f"⚔️ {x.who(d['hero'])} attacks with the {d['weapon']}{need}"


def _line_strike(x: _Line, d: StrikeData) -> str:
    text = f"💥 {x.who(d['hero'])} strikes: {d.get('total', '?')} against shield {d.get('shield', '?')}"
    if d.get("wounds") is not None:
        text += f", {d['wounds']} wound(s)"
    return text


def _line_strike_back(x: _Line, d: StrikeBackData) -> str:
    return f"🩸 The monster strikes back at {x.who(d['hero'])}: {d['damage']} damage"


def _line_hurt(x: _Line, d: HurtData) -> str:
    return f"🩸 {x.who(d['hero'])} loses {d['hearts']} ❤️"


def _line_shield(x: _Line, d: ShieldData) -> str:
    return f"🛡️ {x.who(d['hero'])}'s {d['kind']} shield blocks {d.get('blocked', 0)}"


def _line_energy_boost(x: _Line, d: EnergyBoostData) -> str:
    return f"⚡ {x.who(d['hero'])} uses Energy Boost"


def _line_defeated(x: _Line, d: DefeatedData) -> str:
    return f"🏆 {x.who(d['hero'])} defeated {C.card_name(d['monster'])}!"


def _line_award(x: _Line, d: AwardData) -> str:
    parts = [
        f"+{d['coins']} 🪙" if d.get("coins") else "",
        f"+{d['vp']} VP" if d.get("vp") else "",
    ]
    return f"✨ {x.who(d['hero'])}'s weapon pays: {' '.join(p for p in parts if p)}"


def _line_death(x: _Line, d: DeathData) -> str:
    return f"💀 {x.who(d['hero'])} fainted: back to 5 ❤️, and loses VP"


def _line_gain(x: _Line, d: GainData) -> str:
    return _gain_line(x.who(d.get("hero")), d)


def _line_loss(x: _Line, d: LossData) -> str:
    return f"➖ {x.who(d['hero'])} loses {reward_text(d['item']).replace('−', '')}"


def _line_pay(x: _Line, d: PayData) -> str:
    return f"➖ {x.who(d['hero'])} pays {d['amount']} {STOCK_EMOJI[d['stock']]}"


def _line_quest(x: _Line, d: QuestData) -> str:
    return f"🗝️ {x.who(d['hero'])} takes on {d['name']}"


def _line_vault(x: _Line, d: VaultData) -> str:
    return f"🗝️ {x.who(d['hero'])} opens the vault: {reward_text(d['item'])}"


def _line_gamble(x: _Line, d: GambleData) -> str:
    return f"🎰 {x.who(d['hero'])} gambled: {d['greens']} green(s)"


def _line_duel(x: _Line, d: DuelData) -> str:
    return f"🤺 {x.who(d['hero'])} duels (plank {d['plank']}): {d['result'].upper()}"


def _line_archery(x: _Line, d: ArcheryData) -> str:
    again = " (already taken)" if d.get("already") else ""
    return f"🎯 {x.who(d['hero'])} shoots: plank {d['plank']}{again}"


def _line_padlock(x: _Line, d: PadlockData) -> str:
    return f"🔒 {C.card_name(d['card'])} is padlocked"


def _line_loot(x: _Line, d: LootData) -> str:
    return f"🎁 {x.who(d['hero'])} found {d['name']}"


def _line_loot_equip(x: _Line, d: LootEquipData) -> str:
    return f"🎁 {x.who(d['hero'])} equips {d['name']}"


def _line_loot_store(x: _Line, d: LootStoreData) -> str:
    return f"🎁 {x.who(d['hero'])} stores {d['name']}"


def _line_loot_secret(x: _Line, d: LootSecretData) -> str:
    return f"🤫 {x.who(d['hero'])} found a secret loot card (hand: {d['hand_size']})"


def _line_play(x: _Line, d: PlayData) -> str:
    return f"🃏 {x.who(d['hero'])} plays {d['name']}"


def _line_steal(x: _Line, d: StealData) -> str:
    text = (
        f"🦝 {x.who(d['hero'])} steals {d['taken']} {STOCK_EMOJI[d['stock']]} from "
        f"{x.who(d['target'])}"
    )
    return text


def _line_flash(x: _Line, d: FlashData) -> str:
    return f"⚡ Flash Phase for {x.who(d['hero'])}"


def _line_flash_end(x: _Line, d: FlashEndData) -> str:
    return "⚡ The Flash Phase ends"


def _line_dibs(x: _Line, d: DibsData) -> str:
    return f"☝️ {x.who(d['hero'])} calls Dibs!"


def _line_pick(x: _Line, d: PickData) -> str:
    return f"🎁 {x.who(d['hero'])} takes {reward_text(d['item'])}"


def _line_crown_space(x: _Line, d: CrownSpaceData) -> str:
    return f"👑 {x.who(d['hero'])} takes the crown space"


def _line_wait(x: _Line, d: WaitData) -> str:
    return f"⏳ {x.who(d['hero'])} waits on the stairs"


def _line_teams(x: _Line, d: TeamsData) -> str:
    return "⚔️ Teams are set for the stairs fight"


def _line_fight_weapon(x: _Line, d: FightWeaponData) -> str:
    return f"⚔️ {x.who(d['hero'])} fights with the {d['weapon']}"


def _line_fight(x: _Line, d: FightData) -> str:
    return f"⚔️ Stairs fight: the {d['winner']} team wins"


def _line_fight_tie(x: _Line, d: FightTieData) -> str:
    return "⚔️ Stairs fight: a tie, fight again"


def _line_level_end(x: _Line, d: LevelEndData) -> str:
    return f"🏁 Level {d['level']} is over"


def _line_escape_start(x: _Line, d: EscapeStartData) -> str:
    return f"🏃 {x.who(d['hero'])} starts the Final Escape"


def _line_roof_path(x: _Line, d: RoofPathData) -> str:
    side = "left" if d["side"] == "L" else "right"
    return f"🏃 {x.who(d['hero'])} takes the {side} path of roof step {d['step']}"


def _line_roof_step(x: _Line, d: RoofStepData) -> str:
    text = f"🏃 {x.who(d['hero'])} {'reaches' if d['success'] else 'fails'} roof step {d['step']}"
    return text


def _line_roof_attack(x: _Line, d: RoofAttackData) -> str:
    return f"🏃 {x.who(d['hero'])} attacks the roof: {d['total']} against {d['need']}+"


def _line_escape_end(x: _Line, d: EscapeEndData) -> str:
    return f"🏁 {x.who(d['hero'])} stops at roof step {d['reached']}: {d['vp']} VP"


def _line_afk(x: _Line, d: AfkData) -> str:
    return f"⏰ {esc(x.names[d['seat']])} ran out of time: {d['action'].replace('_', ' ')}"


def _line_game_over(x: _Line, d: GameOverData) -> str:
    return "🏁 The game is over!"


Formatter = Callable[[_Line, Any], str]
"""Words for one public event's data (typed by its own signature, ``contract.EVENTS``)."""

LINES: dict[str, Formatter] = {
    "phase": _line_phase,
    "level_built": _line_level_built,
    "trade_turn": _line_trade_turn,
    "buy": _line_buy,
    "buy_stock": _line_buy_stock,
    "sell": _line_sell,
    "trade_end": _line_trade_end,
    "market_renewed": _line_market_renewed,
    "turn": _line_turn,
    "activate": _line_activate,
    "move": _line_move,
    "bridge": _line_bridge,
    "toss": _line_toss,
    "forcing_fate": _line_forcing_fate,
    "second_chance": _line_second_chance,
    "good_fortune": _line_good_fortune,
    "roll": _line_roll,
    "reroll": _line_reroll,
    "bravery": _line_bravery,
    "tireless_archer": _line_tireless_archer,
    "attack": _line_attack,
    "strike": _line_strike,
    "strike_back": _line_strike_back,
    "hurt": _line_hurt,
    "shield": _line_shield,
    "energy_boost": _line_energy_boost,
    "defeated": _line_defeated,
    "award": _line_award,
    "death": _line_death,
    "gain": _line_gain,
    "loss": _line_loss,
    "pay": _line_pay,
    "quest": _line_quest,
    "vault": _line_vault,
    "gamble": _line_gamble,
    "duel": _line_duel,
    "archery": _line_archery,
    "padlock": _line_padlock,
    "loot": _line_loot,
    "loot_equip": _line_loot_equip,
    "loot_store": _line_loot_store,
    "loot_secret": _line_loot_secret,
    "play": _line_play,
    "steal": _line_steal,
    "flash": _line_flash,
    "flash_end": _line_flash_end,
    "dibs": _line_dibs,
    "pick": _line_pick,
    "crown_space": _line_crown_space,
    "wait": _line_wait,
    "teams": _line_teams,
    "fight_weapon": _line_fight_weapon,
    "fight": _line_fight,
    "fight_tie": _line_fight_tie,
    "level_end": _line_level_end,
    "escape_start": _line_escape_start,
    "roof_path": _line_roof_path,
    "roof_step": _line_roof_step,
    "roof_attack": _line_roof_attack,
    "escape_end": _line_escape_end,
    "afk": _line_afk,
    "game_over": _line_game_over,
}
"""Public event type -> its log line; tests hold it to ``contract.PublicEventType``."""


def event_line(
    event_type: str,
    d: Mapping[str, Any],
    heroes: Sequence[HeroView],
    names: Sequence[str],
) -> str | None:
    """A public event as one log line (``None`` for an event type with no line)."""
    formatter = LINES.get(event_type)
    text = formatter(_Line(heroes, names), d) if formatter is not None else None
    return clip(text, LINE_MAX) if text else None


def _gain_line(who: str, d: GainData) -> str:
    if d.get("loot_empty"):
        return f"✨ {who} gains 1 VP (no loot left)"
    if d.get("at_max"):
        return f"✨ {who} gains 1 VP ({STOCK_EMOJI[d['at_max']]} already full)"
    for stock, emoji in STOCK_EMOJI.items():
        if stock in d:
            return f"✨ {who} gains {d[stock]} {emoji}"
    if "vp" in d:
        return f"✨ {who} gains {d['vp']} VP"
    return f"✨ {who} gains {reward_text(d['item'])}"
