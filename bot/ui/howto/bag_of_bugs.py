"""Bag of Bugs, how to play (P-54): the game's rulebook and its BB rulings in docs/rulings.md."""

from __future__ import annotations

from typing import Final

from . import RulesPage

PAGES: Final = (
    RulesPage(
        "Overview",
        "**3–5 players.** A bag full of tokens and a race for the best handful.\n\n"
        "Each turn one player, the **Drawer**, reveals tokens from the bag into a pool everyone "
        "sees. The others, the **Grabbers**, race for the five **Grab** tokens: each one lets "
        "its owner take certain tokens from the pool once the drawing stops.\n\n"
        "The tokens: Bugs in five colours (🔴 red, 🟡 yellow, 🟢 green, 🔵 blue, 🟣 purple), "
        "🐛 Larvae (worth 3 each), 🕷️ Scary Bugs (they cost you), 💨 Wind (you give a token "
        "away) and 🪨 Rocks (they end the draw and, in pairs, the game).\n\n"
        "The game ends after the turn that sets aside the last pair of Rocks: 4 pairs with 3 "
        "players, 5 with 4, 6 with 5. The best score wins; a tie shares the win.",
    ),
    RulesPage(
        "A turn",
        "1. **The Drawer reveals** one token at a time (the **Draw** button). The draw stops at "
        "the limit (6 tokens with 3 players, 8 with 4, 9 with 5) or as soon as a second Rock "
        "shows. If the Drawer waits too long, the bot reveals for them.\n"
        "2. **Grabbers grab** while the pool grows: at most one Grab token each per turn, "
        "first click wins, and a Grab taken is never given back. The Drawer does not grab.\n"
        "3. **Rocks leave the pool**: a single Rock goes back into the bag; two are set aside "
        "as a pair.\n"
        "4. **Grabs resolve in order, ① to ⑤**, each taking from what is left:\n"
        "① one token from a largest group · ② one token from a smallest group · ③ two "
        "identical tokens (one if there is no pair) · ④ two different tokens · ⑤ three "
        "different tokens (one of each type if fewer).\n"
        "When a grab leaves a real choice (a tie, several pairs), its owner picks; with one "
        "way only, it happens at once.\n"
        "5. **Wind**: whoever takes a 💨 gives one token of their collection to the player on "
        "their left, and the Wind goes back into the bag.\n"
        "6. **Leftovers**: the Drawer takes all that is left in the pool, or returns it all to "
        "the bag.\n"
        "Then the bag passes to the left and the next turn begins. A choice left open too "
        "long is made for you (a random option; leftovers go back to the bag).",
    ),
    RulesPage(
        "Scoring",
        "At the end, each player scores their collection:\n"
        "• **Each Bug colour on its own**: 1 Bug = 1 point, 2 = 3 points, 3 = 6 points, "
        "**4 or more = 0**.\n"
        "• **At least one Bug of every colour**: +5 (once).\n"
        "• **Each Larva** 🐛: +3.\n"
        "• **Each Scary Bug** 🕷️: −1, and **the most Scary Bugs**: −2 more (every player tied "
        "for most pays it).\n\n"
        "**Worked example.** Ann ends with 🔴🔴🔴🔴 (4 red: 0), 🟡🟡🟡 (3 yellow: 6), 🟢🟢 "
        "(2 green: 3), 🔵 (1), 🟣 (1), one 🐛 (3) and three 🕷️ (−3), and nobody has more "
        "Scary Bugs than her (−2). She has every colour: +5.\n"
        "0 + 6 + 3 + 1 + 1 + 3 − 3 − 2 + 5 = **14 points**.\n\n"
        "The board keeps each player's running score up to date.",
    ),
    RulesPage(
        "The buttons",
        "**On the board**\n"
        "• 🎒 **Draw** (the Drawer): reveal the next token.\n"
        "• **① … ⑤** (Grabbers): take that Grab token. A taken one shows its owner's name "
        "and cannot be clicked.\n"
        "• **Choice buttons and menus**: when your grab or your Wind needs a choice, the board "
        "offers what you may take or give; only you can use them.\n"
        "• **Give …** (after you took a 💨 Wind): the token you give to your left.\n"
        "• **Take all** / **Return all** (the Drawer): the leftovers.\n"
        "• 📖 **How to play**: these pages, only for you.\n\n"
        "**In the lobby**: **Join**, **Leave**, 🤖 **Add easy / normal / hard bot** (the "
        "levels the server allows), **Start** and **Cancel** (the opener).\n"
        "After the game, 🔁 **Rematch** opens a new lobby for the same players.",
    ),
)
