"""Bugs & Co, how to play (P-54): the game's rulebook and its BC rulings in docs/rulings.md."""

from __future__ import annotations

from typing import Final

from . import RulesPage

PAGES: Final = (
    RulesPage(
        "Overview",
        "**2–8 players, all at once: there are no turns.**\n\n"
        "Monster tiles lie face down on the table. Each monster's symbol comes on exactly "
        "three tiles; the number of eyes (👁) only tells which set it belongs to, and colour "
        "does not matter. Collect complete trios of a symbol.\n\n"
        "Seven tiles are put away unseen at the start (they are shown at the end). The "
        "trophies (worth 3, 3, 2, 2 and 1, fewer with fewer players) wait in the middle.\n\n"
        "The game ends when the last trophy is taken and 10 seconds have passed (or when the "
        "table's time cap runs out).",
    ),
    RulesPage(
        "A turn",
        "There are no turns: everyone clicks as fast as they like.\n"
        "1. **Pick up** a face-down tile (click it): only you see its symbol. You can hold one "
        "tile at a time.\n"
        "2. Then either **Keep** it: it goes face down into your hand, and from then on "
        "**nobody, you included, can look at it** until the end; or **Put back** the tile face "
        "down in any empty space (its own by default), so you can group tiles where you will "
        "find them.\n"
        "3. Whenever you like, take the **highest trophy left**: you stop playing at once (a "
        "tile you still hold goes back to the table and does not score).\n"
        "When the last trophy is taken, the players without one have **10 seconds** more; then "
        "STOP.\n\n"
        "Everyone sees how many tiles each player kept, never which.",
    ),
    RulesPage(
        "Scoring",
        "Sort your kept tiles by symbol:\n"
        "• each **complete trio** of one symbol: **+3**;\n"
        "• **every other tile**: **−1**;\n"
        "• plus your **trophy**'s value.\n"
        "The best score wins; a tie shares the win.\n\n"
        "**Worked example.** Eve kept four complete trios, two tiles of a fifth symbol and one "
        "lone tile, and took the 2 trophy: 4 × 3 = 12, three other tiles −3, trophy +2: "
        "**11 points**.",
    ),
    RulesPage(
        "The buttons",
        "**On the board**\n"
        "• 🂠 **1, 2, …**: a face-down tile; click to pick it up. Its symbol is shown only to "
        "you.\n"
        "• **n · empty** / ✋ **n name**: an empty space, or one whose tile someone holds; "
        "click an empty one to put your tile back there.\n"
        "• 🏆 **Take trophy**: take the highest trophy left and stop.\n"
        "• 🃏 **My hand**: the tile you hold (with Keep and Put back) and how many you kept.\n"
        "• 📖 **How to play**: these pages, only for you.\n\n"
        "**After a pick-up** (only you see it): ✋ **Keep** or ↩ **Put back**.\n\n"
        "**In the lobby**: **Join**, **Leave**, 🤖 **Add easy / normal / hard bot**, **Start** "
        "and **Cancel**. "
        "After the game, 🔁 **Rematch**.",
    ),
)
