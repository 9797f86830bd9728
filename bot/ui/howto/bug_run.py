"""Bug Run, how to play (P-54): the game's rulebook and its BR rulings in docs/rulings.md."""

from __future__ import annotations

from typing import Final

from . import RulesPage

PAGES: Final = (
    RulesPage(
        "Overview",
        "**2–6 players.** Your heroes escape a dungeon of four levels and then run over the "
        "roof. The most **victory points (VP)** wins; a tie shares the win.\n\n"
        "Each hero has ❤️ hearts (start 5, at most 10), 🏹 arrows (start 4, at most 6) and 🪙 "
        "coins (start 5, at most 15), a sword zone and a bow zone (two cards each) and a "
        "shield zone (one card). Everyone has a plain sword and bow from the start. Your VP "
        "(5 to start) and your **secret loot** are yours alone: they are in your DM.\n\n"
        "**With 2 players** each of you plays **two heroes**; their VP and secret loot are "
        "shared, everything else is each hero's own. In each round you pick which of your "
        "heroes acts, until all four have acted.\n\n"
        "The hero on the 👑 **crown** starts every phase. The game option **powers** gives each "
        "hero a special power.",
    ),
    RulesPage(
        "A turn",
        "**Each level** has two phases.\n"
        "**1. Trading**, one hero after another from the crown: buy bazaar cards, basic "
        "equipment (sword or bow side, 3 🪙), 3 ❤️ or 2 🏹 (3 🪙 each), sell a card for 1 🪙, then "
        "end trading.\n"
        "**2. Adventure**, in turns from the crown. On your turn do **one** thing:\n"
        "• **Move** right to any card with a free space (you may jump over cards, never go "
        "back, never onto a defeated monster or finished quest). Crossing a **bridge**: "
        "STABLE takes the sure reward, RISKY tosses the coin for a better one or nothing.\n"
        "• Or **act** on your card: **attack** the monster (sword, or bow for 1 arrow), do "
        "the **quest**, or **wait** on the stairs for their reward while others are still in "
        "the level.\n"
        "**Attacks**: roll two dice; with at least one ★ success, add your equipment of that "
        "weapon, take off the monster's shield, and each success left is a wound. A **sword** "
        "attack hurts you: one heart per bone on your dice and on the monster. A hero who "
        "loses their last heart loses 5 VP and is back at 5 hearts.\n"
        "A defeated monster or a finished quest starts a **Flash Phase**: the heroes on it "
        "share its rewards (the winner picks first) and every one of them moves.\n"
        "When every hero is on the stairs, a stairs fight may follow (top team against bottom "
        "team); then the next level is built. The 👑 space on the stairs takes the crown.\n"
        "**Final Escape**: after level 4 each hero climbs the roof, paying costs or passing "
        "challenges step by step, or stops.",
    ),
    RulesPage(
        "Scoring",
        "At the end, add up:\n"
        "• your **VP tokens** (collected during the game, secret until the end);\n"
        "• VP on your **loot** (Show-Off and other cards);\n"
        "• the **roof**: 0, 2, 4, 7 or 10 VP for the last step your hero reached;\n"
        "• **coins**: 1 VP per 3 🪙, counted per hero (Gold Coins still in hand are cashed "
        "first).\n"
        "During the game the board shows only the **visible VP** (face-up loot, the roof, "
        "coins); your full total is in your DM.\n\n"
        "**Worked example.** Kit ends with 12 VP in tokens, a Show-Off worth 2, reaches the "
        "third roof step (7 VP) and keeps 8 🪙 (2 VP): 12 + 2 + 7 + 2 = **23 VP**. On the "
        "roof she paid 3 arrows for step one, rolled 4 successes with her sword for step two, "
        "paid 3 coins for step three, and missed the bow challenge of step four.",
    ),
    RulesPage(
        "The buttons",
        "**On the board** (only the hero whose decision it is can use them; the board says "
        "whose it is):\n"
        "• 🛒 **Buy …**, 💱 **Sell …**, ✅ **End trading**: the trading phase.\n"
        "• 🚶 **a card's name**: move there (🌉 **STABLE** / 🎲 **RISKY** for a bridge on the way).\n"
        "• 🗡️ / 🏹 **Attack with the sword / bow**, 🗝️ **Do the quest** (on a vault, "
        "one button per reward, named by the quest and the reward), ⏳ **Wait on the stairs**.\n"
        "• 🗡️ / 🏹 **Fight with the sword / bow**: your roll in a stairs fight.\n"
        "• **Climb the left / right path** and 🛑 **Stop at roof step …**: the Final "
        "Escape.\n"
        "• 🎲 **Roll the dice**, 🪙 **Toss the coin**, ✅ **Keep the result** / **Keep these "
        "dice**, 🔁 re-rolls and tosses from your cards, 🎁 reward picks in a Flash Phase.\n"
        "• 🃏 **Play …** / 🧪 **Drink …**: use a card you hold.\n"
        "• 🃏 **My hand**: your VP, secret loot and choices, privately.\n"
        "• 📋 **Details**: every hero's equipment and place, the bazaar and a longer log; "
        "🖼️ **Full board**: the whole dungeon picture. Both only for you.\n"
        "• 📖 **How to play**: these pages, only for you.\n\n"
        "**In your DM**: your secrets, kept up to date.\n"
        "**In the lobby**: **Join**, **Leave**, 🤖 **Add easy / normal / hard bot**, **Start** "
        "and **Cancel**. "
        "After the game, 🔁 **Rematch**.",
    ),
)
