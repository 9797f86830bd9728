"""Short how-to-play texts for `/bugs rules` (the rulebooks are the full reference)."""

from __future__ import annotations

import inspect

from rules.core import GAMES

from .specs import EmbedSpec, MessageSpec

RULES: dict[str, str] = {
    "bag-of-bugs": (
        "**3–5 players.** Each turn one player is the **Drawer** and reveals tokens from the bag "
        "one at a time (press **Draw**). Everyone else races to click a **Grab** token ①–⑤: the "
        "first click wins it, one grab each per turn. The draw stops at the limit (9/8/6 for "
        "5/4/3 players) or at the second Rock.\n"
        "Rocks leave the pool: a single Rock goes back into the bag, two are set aside as a "
        "pair. Then grabs resolve in order: "
        "① one token from a largest group, ② one from a smallest group, ③ two identical tokens, "
        "④ two different tokens, ⑤ three different tokens. Taking a **Wind** makes you give one "
        "token from your collection to the player on your left. The Drawer takes or returns the "
        "leftovers. The game ends after the turn that sets aside the last pair.\n"
        "**Scoring:** per colour 1/2/3/4+ bugs = 1/3/6/0; all five colours +5; Larva +3; "
        "Scary Bug −1; most Scary Bugs −2."
    ),
    "bugs-and-co": (
        "**2–8 players, everyone at once.** Face-down tiles cover the table. Click a tile to pick "
        "it up: only you see its symbol. **Keep** it (it joins your hand face down, and you can "
        "never look at it again) or **Put back** into any empty space. One tile in your hand at "
        "a time.\n"
        "Whenever you like, take the highest **trophy** left and stop playing. When the last "
        "trophy goes, everyone still playing has **10 seconds**.\n"
        "**Scoring:** each complete trio of a symbol +3, every other tile −1, plus your trophy."
    ),
    "bug-off": (
        "**2–6 players.** You hold 3 BUG cards. On your turn draw a card: a BUG card makes 4 in "
        "your hand, then **place** one face up in front of you or **score** one: everyone's face-up "
        "cards of that colour go to their points piles.\n"
        "A drawn **BUG OFF** wipes every face-up card of its colour, and of every earlier BUG OFF's "
        "colour, from all tables; then you draw again. The sixth BUG OFF ends the game at once.\n"
        "**Scoring:** one point per card in your points pile; ties are broken by the colour of the "
        "first BUG OFF, then the second, and so on."
    ),
    "bug-run": (
        "**2–6 players.** A dungeon crawl over four levels. Each level: a **trading** phase (buy "
        "equipment, hearts and arrows), then an **adventure**: move right along the level's cards, "
        "fight monsters with dice, complete quests, cross bridges, and reach the stairs. Defeating "
        "a monster or finishing a quest starts a **Flash Phase**: rewards are shared out and every "
        "hero on the card must move.\n"
        "After level four comes the **Final Escape** over the roof. Victory points, loot, the "
        "escape and leftover coins decide the winner."
    ),
}


def rules_message(slug: str) -> MessageSpec:
    cls = GAMES.get(slug)
    if cls is None:
        return MessageSpec(embed=EmbedSpec(title="Unknown game", description="No such game."))
    text = RULES.get(slug) or inspect.getdoc(cls) or "No summary yet."
    return MessageSpec(
        embed=EmbedSpec(
            title=f"How to play {cls.title}",
            description=text,
            footer="Open a game with /bugs new; friends join with the Join button.",
        )
    )
