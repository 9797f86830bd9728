"""End of the Game: Gold Coins cashed, then VP tokens, loot, Show-Off, the roof and coins."""

from __future__ import annotations

from ..core import Event
from . import content as C
from . import stocks
from .context import Run


def cash_gold_coins(game: Run, events: list[Event]) -> None:
    """BR-49: Gold Coins still in hand are cashed before scoring (2p: the poorer hero)."""
    for seat in range(game.state.players):
        for card in game.find_in_hand(seat, "gold_coins"):
            mine = [hero for hero in range(game.n_heroes()) if game.owner(hero) == seat]
            hero = min(mine, key=lambda x: (game.hero(x).coins, x))
            game.hand(seat).remove(card)
            game.discard(card)
            got = stocks.gain(game, hero, "coins", int(C.card(card)["coins"]))
            events.append(
                Event.public("play", hero=hero, card=card, name=C.card(card)["name"], coins=got)
            )


def _visible(game: Run, seat: int) -> tuple[int, int, int]:
    """The parts of a seat's score the whole table sees: face-up loot trinkets, the roof, and
    1 VP per 3 coins of each hero (BR-55)."""
    mine = [hero for hero in range(game.n_heroes()) if game.owner(hero) == seat]
    loot = sum(
        int(C.card(card)["vp"])
        for hero in mine
        for card in game.hero(hero).faceup
        if C.card(card)["effect"] == "trinket"
    )
    roof = sum(C.ROOF_VP[game.hero(hero).roof or 0] for hero in mine)
    coins = sum(int(game.hero(hero).coins) // 3 for hero in mine)
    return loot, roof, coins


def breakdown(game: Run, seat: int) -> dict[str, int]:
    """A seat's score by part: VP tokens, loot trinkets, Show-Off cards, the roof, and 1 VP per 3
    coins of each hero (BR-55)."""
    loot, roof, coins = _visible(game, seat)
    show = sum(int(C.card(card)["vp"]) for card in game.find_in_hand(seat, "show_off"))
    vp = int(game.state.seats[seat].vp)
    total = vp + loot + show + roof + coins
    return {
        "vp_tokens": vp,
        "loot": loot,
        "show_off": show,
        "escape": roof,
        "coins": coins,
        "total": total,
    }


def scores(game: Run) -> list[int]:
    """Every seat's total."""
    return [breakdown(game, seat)["total"] for seat in range(game.state.players)]


def public_scores(game: Run) -> list[int]:
    """What the table sees of every seat's score (BR-50): during play the face-up trinkets, the
    roof and the coins, never the face-down VP tokens or the Show-Off cards in hand; once the
    game is over, the totals."""
    if game.state.phase == "over":
        return scores(game)
    return [sum(_visible(game, seat)) for seat in range(game.state.players)]


def winners(game: Run) -> list[int]:
    """The best total's seats once the game is over (a tie shares the win, BR-56)."""
    if game.state.phase != "over":
        return []
    totals = scores(game)
    best = max(totals)
    return [seat for seat, total in enumerate(totals) if total == best]
