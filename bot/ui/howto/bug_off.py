"""Bug Off!, how to play (P-54): the game's rulebook and its BO rulings in docs/rulings.md."""

from __future__ import annotations

from typing import Final

from . import RulesPage

PAGES: Final = (
    RulesPage(
        "Overview",
        "**2–6 players.** Collect the most BUG cards.\n\n"
        "The deck holds 120 BUG cards in six colours (🟥 red, 🟧 orange, 🟨 yellow, 🟩 green, "
        "🟦 blue, 🟪 purple) and six **BUG OFF** cards, one per colour. Everyone starts with 3 "
        "BUG cards in hand; your hand is secret (it is in your DM, or behind **My hand**).\n\n"
        "In front of each player lie their face-up cards, sorted by colour. Scoring a colour "
        "moves everyone's face-up cards of it into their own **points pile**, face down. A "
        "BUG OFF wipes colours off the table instead.\n\n"
        "The game ends at once when the sixth BUG OFF is drawn.",
    ),
    RulesPage(
        "A turn",
        "1. **Draw a card.**\n"
        "2. If it is a **BUG card**, you now hold 4. Play one of them (the new one too):\n"
        "• **Place** it face up in front of you, or\n"
        "• **Score** it: it goes to the score pile in the centre (it counts for nobody), and "
        "**every** player's face-up cards of that colour, yours included, go to their points "
        "piles.\n"
        "Your turn ends and the next player to the left draws.\n"
        "3. If it is a **BUG OFF**, it goes face up beside the score pile: every face-up card "
        "on the table of its colour **and of the colours of every earlier BUG OFF** is "
        "discarded, out of the game. Hands and points piles are untouched. A BUG OFF is not "
        "your draw: draw again.\n\n"
        "A clock runs for each step; when it runs out, the bot draws for you and places the "
        "card you drew.",
    ),
    RulesPage(
        "Scoring",
        "When the sixth BUG OFF comes, every card still face up is wiped, and each player "
        "scores **one point per card in their points pile**.\n\n"
        "**Ties** are broken by the most cards of the colour of the first BUG OFF drawn; "
        "still tied, the second BUG OFF's colour, and so on.\n\n"
        "**Worked example.** Bea has 🟦×4 face up and Cal 🟦×2. Dan draws 🟦 and scores it: "
        "Bea's 4 blue cards go to her points pile, Cal's 2 to his, and Dan's blue card lies on "
        "the score pile. Later the 🟥 BUG OFF wipes every red card on the table, and from "
        "then on every new BUG OFF wipes red again too. At the end Bea and Cal both have 9 "
        "cards in their points piles; the first BUG OFF was 🟥: Bea has 3 red cards in her "
        "pile, Cal 1, so **Bea wins**.",
    ),
    RulesPage(
        "The buttons",
        "**On the board**\n"
        "• **Draw** (the player whose turn it is): draw a card. Your card is told only to "
        "you.\n"
        "• 🃏 **My hand**: your hand, privately (it is also in your DM, kept up to date).\n"
        "• 📖 **How to play**: these pages, only for you.\n\n"
        "**After you drew** (privately, and in your DM): **Place** 🟥 … and **Score** 🟥 … "
        "buttons, one per colour in your hand, with what a score would move.\n\n"
        "**In the lobby**: **Join**, **Leave**, 🤖 **Add easy / normal / hard bot**, **Start** "
        "and **Cancel**. "
        "After the game, 🔁 **Rematch**.",
    ),
)
