"""Bug Run in players' words: rewards, cards, choices and public log lines.

Everything here reads static card content and the data it is given, never the engine, so log
lines rebuilt after a restart (the engine then holds the final state) read as they did live.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rules.bug_run import content as C

from ..text import LINE_MAX, clip, esc

HERO_EMOJI: dict[str, str] = {
    "spider": "🕷️",
    "caterpillar": "🐛",
    "wasp": "🐝",
    "fly": "🪰",
    "grasshopper": "🦗",
    "beetle": "🪲",
}
STOCK_EMOJI = {"hearts": "❤️", "arrows": "🏹", "coins": "🪙"}
CODE_STOCK = {"h": "hearts", "a": "arrows", "c": "coins"}
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


def hero_tag(heroes: Sequence[Mapping[str, Any]], names: Sequence[str], h: int | None) -> str:
    """``🪲 beetle (alice)``: which hero, and whose."""
    if h is None or not 0 <= h < len(heroes):
        return "a hero"
    hero = heroes[h]
    return f"{HERO_EMOJI.get(hero['name'], '')} {hero['name']} ({esc(names[hero['seat']])})"


def card_text(card: str) -> str:
    """One line saying what a bazaar, loot or basic card does."""
    d = C.card(card)
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
    return int(C.card(card).get("price", 0))


def place_text(col: int, floor: str, columns: int) -> str:
    """Where a card lies, as the picture shows it (its floor at 5-6 players; card names are
    unique, so the name says the rest)."""
    if col == columns - 1:
        return "stairs"
    return {"U": "upper floor", "D": "lower floor"}.get(floor, "")


def dice_text(dice: Sequence[int]) -> str:
    parts = []
    for face in dice:
        symbol = C.DICE[face - 1]["symbol"]
        parts.append(f"{DIE_FACES.get(face, face)} {face} ({DIE_MEANING.get(symbol, symbol)})")
    return ", ".join(parts)


def roof_path_text(path: Mapping[str, Any]) -> str:
    if "cost" in path:
        return "pay " + rewards_text(path["cost"]).replace("−", "")
    kind, need = path["challenge"][0], path["challenge"][1]
    if kind == "flip":
        return "toss a coin, green to climb"
    return f"{kind} attack of {need}+"


# -- log lines ---------------------------------------------------------------------------------


def event_line(
    event_type: str,
    d: Mapping[str, Any],
    heroes: Sequence[Mapping[str, Any]],
    names: Sequence[str],
) -> str | None:
    """A public event as one log line (``None`` for events the board says better itself)."""

    def who(key: str = "hero") -> str:
        return hero_tag(heroes, names, d.get(key))

    t = event_type
    text: str | None
    if t == "phase":
        text = f"📜 Level {d['level']}: {PHASE_WORD.get(d['phase'], d['phase'])} begins"
    elif t == "level_built":
        text = f"🗺️ Level {d['level']} is laid out"
    elif t == "trade_turn":
        text = f"🛒 {who()} trades"
    elif t == "buy":
        text = f"🛒 {who()} bought {d['name']} for {d['price']} 🪙"
    elif t == "buy_stock":
        text = f"🛒 {who()} bought {d['amount']} {STOCK_EMOJI[d['stock']]} for {d['price']} 🪙"
    elif t == "sell":
        text = f"💱 {who()} sold {d['name']} (+{d['coins']} 🪙)"
    elif t == "trade_end":
        text = f"🛒 {who()} ends trading"
    elif t == "market_renewed":
        text = "🛒 The bazaar is renewed"
    elif t == "turn":
        text = f"▶ {who()}'s turn"
    elif t == "activate":
        text = f"▶ {who()} is chosen to act"
    elif t == "move":
        over = f", over {len(d['bridges'])} bridge(s)" if d.get("bridges") else ""
        text = f"🚶 {who()} moved to {d.get('name') or 'the stairs'}{over}"
    elif t == "bridge":
        text = f"🌉 {who()} crosses {d['name']} {d['mode'].upper()}"
    elif t == "toss":
        text = f"🪙 {who()} tossed {d['result'].upper()} ({WHY_WORD.get(d['why'], d['why'])})"
    elif t == "forcing_fate":
        text = f"🪙 {who()} forced fate: {d['result'].upper()}"
    elif t == "second_chance":
        text = f"🪙 {who()} uses a Second Chance"
    elif t == "good_fortune":
        text = f"🍀 {who()} uses Good Fortune: now {d['result'].upper()}"
    elif t == "roll":
        text = f"🎲 {who()} rolled {dice_text(d['dice'])} ({WHY_WORD.get(d['why'], d['why'])})"
    elif t == "reroll":
        text = f"🎲 {who()} re-rolled: {dice_text(d['dice'])}"
    elif t == "bravery":
        text = f"🎲 {who()} plays {d['name']}"
    elif t == "tireless_archer":
        text = f"🏹 {who()}'s Tireless Archer: +{d['arrows']} 🏹"
    elif t == "attack":
        need = f" (needs {d['need']}+)" if d.get("need") else ""
        text = f"⚔️ {who()} attacks with the {d['weapon']}{need}"
    elif t == "strike":
        text = f"💥 {who()} strikes: {d.get('total', '?')} against shield {d.get('shield', '?')}"
        if d.get("wounds") is not None:
            text += f", {d['wounds']} wound(s)"
    elif t == "strike_back":
        text = f"🩸 The monster strikes back at {who()}: {d['damage']} damage"
    elif t == "hurt":
        text = f"🩸 {who()} loses {d['hearts']} ❤️"
    elif t == "shield":
        text = f"🛡️ {who()}'s {d['kind']} shield blocks {d.get('blocked', 0)}"
    elif t == "energy_boost":
        text = f"⚡ {who()} uses Energy Boost"
    elif t == "defeated":
        text = f"🏆 {who()} defeated {C.card_name(d['monster'])}!"
    elif t == "award":
        parts = [
            f"+{d['coins']} 🪙" if d.get("coins") else "",
            f"+{d['vp']} VP" if d.get("vp") else "",
        ]
        text = f"✨ {who()}'s weapon pays: {' '.join(p for p in parts if p)}"
    elif t == "death":
        text = f"💀 {who()} fainted: back to 5 ❤️, and loses VP"
    elif t == "gain":
        text = _gain_line(who(), d)
    elif t == "loss":
        text = f"➖ {who()} loses {reward_text(d['item']).replace('−', '')}"
    elif t == "pay":
        text = f"➖ {who()} pays {d['amount']} {STOCK_EMOJI[d['stock']]}"
    elif t == "quest":
        text = f"🗝️ {who()} takes on {d['name']}"
    elif t == "vault":
        text = f"🗝️ {who()} opens the vault: {reward_text(d['item'])}"
    elif t == "gamble":
        text = f"🎰 {who()} gambled: {d['greens']} green(s)"
    elif t == "duel":
        text = f"🤺 {who()} duels (plank {d['plank']}): {d['result'].upper()}"
    elif t == "archery":
        again = " (already taken)" if d.get("already") else ""
        text = f"🎯 {who()} shoots: plank {d['plank']}{again}"
    elif t == "padlock":
        text = f"🔒 {C.card_name(d['card'])} is padlocked"
    elif t == "loot":
        text = f"🎁 {who()} found {d['name']}"
    elif t == "loot_equip":
        text = f"🎁 {who()} equips {d['name']}"
    elif t == "loot_store":
        text = f"🎁 {who()} stores {d['name']}"
    elif t == "loot_secret":
        text = f"🤫 {who()} found a secret loot card (hand: {d['hand_size']})"
    elif t == "play":
        text = f"🃏 {who()} plays {d['name']}"
    elif t == "steal":
        text = (
            f"🦝 {who()} steals {d['taken']} {STOCK_EMOJI[d['stock']]} from "
            f"{hero_tag(heroes, names, d['target'])}"
        )
    elif t == "flash":
        text = f"⚡ Flash Phase for {who()}"
    elif t == "flash_end":
        text = "⚡ The Flash Phase ends"
    elif t == "dibs":
        text = f"☝️ {who()} calls Dibs!"
    elif t == "pick":
        text = f"🎁 {who()} takes {reward_text(d['item'])}"
    elif t == "crown_space":
        text = f"👑 {who()} takes the crown space"
    elif t == "wait":
        text = f"⏳ {who()} waits on the stairs"
    elif t == "teams":
        text = "⚔️ Teams are set for the stairs fight"
    elif t == "fight_weapon":
        text = f"⚔️ {who()} fights with the {d['weapon']}"
    elif t == "fight":
        text = f"⚔️ Stairs fight: the {d['winner']} team wins"
    elif t == "fight_tie":
        text = "⚔️ Stairs fight: a tie, fight again"
    elif t == "level_end":
        text = f"🏁 Level {d['level']} is over"
    elif t == "escape_start":
        text = f"🏃 {who()} starts the Final Escape"
    elif t == "roof_path":
        side = "left" if d["side"] == "L" else "right"
        text = f"🏃 {who()} takes the {side} path of roof step {d['step']}"
    elif t == "roof_step":
        text = f"🏃 {who()} {'reaches' if d['success'] else 'fails'} roof step {d['step']}"
    elif t == "roof_attack":
        text = f"🏃 {who()} attacks the roof: {d['total']} against {d['need']}+"
    elif t == "escape_end":
        text = f"🏁 {who()} stops at roof step {d['reached']}: {d['vp']} VP"
    elif t == "afk":
        text = f"⏰ {esc(names[d['seat']])} ran out of time: {d['action'].replace('_', ' ')}"
    elif t == "game_over":
        text = "🏁 The game is over!"
    else:
        text = None
    return clip(text, LINE_MAX) if text else None


def _gain_line(who: str, d: Mapping[str, Any]) -> str:
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
