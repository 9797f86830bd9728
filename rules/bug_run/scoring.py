"""End of the Game: Gold Coins cashed, then VP tokens, loot, Show-Off, the roof and coins."""

from __future__ import annotations

from ..core import Event
from . import content as C
from . import stocks
from .context import Run


def cash_gold_coins(g: Run, ev: list[Event]) -> None:
    """BR-49: Gold Coins still in hand are cashed before scoring (2p: the poorer hero)."""
    for seat in range(g.players):
        for c in g.find_in_hand(seat, "gold_coins"):
            mine = [h for h in range(g.n_heroes()) if g.owner(h) == seat]
            h = min(mine, key=lambda x: (g.hero(x).coins, x))
            g.hand(seat).remove(c)
            g.discard(c)
            got = stocks.gain(g, h, "coins", int(C.card(c)["coins"]))
            ev.append(Event.public("play", hero=h, card=c, name=C.card(c)["name"], coins=got))


def breakdown(g: Run, seat: int) -> dict[str, int]:
    mine = [h for h in range(g.n_heroes()) if g.owner(h) == seat]
    loot = sum(
        int(C.card(c)["vp"])
        for h in mine
        for c in g.hero(h).faceup
        if C.card(c)["effect"] == "trinket"
    )
    show = sum(int(C.card(c)["vp"]) for c in g.find_in_hand(seat, "show_off"))
    roof = sum(C.ROOF_VP[g.hero(h).roof or 0] for h in mine)
    coins = sum(int(g.hero(h).coins) // 3 for h in mine)
    vp = int(g.s.seats[seat].vp)
    total = vp + loot + show + roof + coins
    return {
        "vp_tokens": vp,
        "loot": loot,
        "show_off": show,
        "escape": roof,
        "coins": coins,
        "total": total,
    }


def scores(g: Run) -> list[int]:
    return [breakdown(g, seat)["total"] for seat in range(g.players)]


def winners(g: Run) -> list[int]:
    """The best total's seats once the game is over (a tie shares the win, BR-56)."""
    if g.s.phase != "over":
        return []
    totals = scores(g)
    best = max(totals)
    return [seat for seat, total in enumerate(totals) if total == best]
