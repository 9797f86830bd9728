"""After the game, through the real bot process: leaderboard, stats, history and status."""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from openskill.models import PlackettLuce

from bot.store import Store
from bot.ui.stats import rating_text

from .conftest import World
from .helpers import card_of, play_dash, start_game, told


def picks_summing_to(total: int) -> list[int]:
    """Three picks of 1-3 adding up to ``total`` (3..9)."""
    picks, left = [], total
    for still_to_come in (2, 1, 0):
        pick = min(3, left - still_to_come)
        picks.append(pick)
        left -= pick
    return picks


async def expected_leaderboard(world: World) -> list[tuple[str, float, int, int]]:
    """Name, rating, games and wins as openskill itself rates the stored results in order."""
    model = PlackettLuce()
    store = await Store.open(world.bot.db_url, migrate=False)
    try:
        games = sorted(await store.finished_games(), key=lambda g: g.id)
        ratings: dict[int, Any] = {}
        names: dict[int, str] = {}
        played: dict[int, list[int]] = defaultdict(lambda: [0, 0])
        for game in games:
            seats = {s.user_id: s.name for s in await store.seats(game.id)}
            results = await store.results(game.id)
            for r in results:
                names[r.user_id] = seats[r.user_id]
                played[r.user_id][0] += 1
                played[r.user_id][1] += r.winner
            teams = [[ratings.get(r.user_id) or model.rating()] for r in results]
            rated = model.rate(teams, ranks=[r.rank for r in results])
            ratings.update({r.user_id: t[0] for r, t in zip(results, rated, strict=True)})
    finally:
        await store.close()
    rows = [(names[u], rating.ordinal(), *played[u]) for u, rating in ratings.items()]
    return sorted(rows, key=lambda row: -row[1])


async def test_leaderboard_stats_history_and_status_after_three_games_with_a_tie(
    world: World,
) -> None:
    emu, chan = world.emulator, world.channel
    alice, bob, carol = world.alice, world.bob, world.carol
    nothing = told(await emu.slash(alice, chan, "bugs status"))
    assert "no game in this channel" in nothing

    # 1. alice takes every prize: she beats bob.
    board = await start_game(emu, alice, [bob], chan)
    await play_dash(emu, board, [alice, bob], [alice, alice, alice])
    # 2. carol takes every prize and picks high: she beats alice and bob.
    board = await start_game(emu, carol, [alice, bob], chan)
    await play_dash(emu, board, [carol, alice, bob], [carol] * 3, {carol: [3, 3, 3]})
    # 3. alice and bob tie: whoever holds the lower card takes two prizes and picks low, the
    #    other picks exactly enough to draw level (5 + picks + card on both sides).
    board = await start_game(emu, alice, [bob], chan)
    cards = {alice: await card_of(emu, alice, board), bob: await card_of(emu, bob, board)}
    low, high = sorted((alice, bob), key=lambda u: (cards[u], u is bob))
    picks = {low: [1, 1, 1], high: picks_summing_to(8 - (cards[high] - cards[low]))}
    final = await play_dash(emu, board, [alice, bob], [low, high, low], picks)
    assert "share the win" in final, final
    tie = 13 + cards[low]

    # /bugs leaderboard: public, ordered by openskill's conservative rating.
    result = await emu.slash(carol, chan, "bugs leaderboard", game="ladybug-dash")
    assert result.acknowledged and not result.ephemeral
    text = (await result.wait_message()).text()
    assert "Ladybug Dash — leaderboard" in text
    expected = await expected_leaderboard(world)
    lines = [line for line in text.splitlines() if line[:1].isdigit()]
    assert lines == [
        f"{i}. **{name}** — rating {rating_text(rating)} · {games} game{'s' * (games != 1)} · "
        f"{wins} win{'s' * (wins != 1)}"
        for i, (name, rating, games, wins) in enumerate(expected, start=1)
    ]
    by_name = {name: (games, wins) for name, _, games, wins in expected}
    assert by_name == {"alice": (3, 2), "bob": (3, 1), "carol": (1, 1)}
    empty = await emu.slash(carol, chan, "bugs leaderboard", game="bug-off")
    assert "Nobody is rated here yet" in (await empty.wait_message()).text()

    # /bugs stats: privately, for yourself or for another member.
    mine = await emu.slash(bob, chan, "bugs stats")
    assert mine.ephemeral
    bob_rating = next(r for n, r, *_ in expected if n == "bob")
    assert "bob — stats in this server" in told(mine)
    # bob's best is the tie (13 + a card); his other games scored at most 3 + 6.
    assert f"3 games · 1 win (33%) · rating {rating_text(bob_rating)} · best score {tie}" in told(
        mine
    )
    theirs = await emu.slash(carol, chan, "bugs stats", member=alice)
    assert theirs.ephemeral and "alice — stats in this server" in told(theirs)
    assert "3 games · 2 wins (67%)" in told(theirs)
    assert "No finished games" in told(await emu.slash(world.dave, chan, "bugs stats"))

    # /bugs history: this channel's and this server's games, newest first, with scores.
    history = told(await emu.slash(dave := world.dave, chan, "bugs history"))
    here, server = history.split("**In this server**")
    assert here.count("**Ladybug Dash**") == 3 and server.count("**Ladybug Dash**") == 3
    newest = next(line for line in here.splitlines() if "Ladybug Dash" in line)
    assert f"🏆 {low.name} {tie}" in newest and f"🏆 {high.name} {tie}" in newest
    elsewhere = emu.add_text_channel(world.guild, "elsewhere")
    away = told(await emu.slash(dave, elsewhere, "bugs history"))
    assert "No finished games here yet." in away and f"in <#{chan.id}>" in away

    # /bugs status after the game: how the last one ended, instead of "no game".
    status = told(await emu.slash(dave, chan, "bugs status"))
    assert "No game is running in this channel" in status
    assert "shared the win" in status and f"{low.name} {tie}" in status
    assert "no game in this channel" in told(await emu.slash(dave, elsewhere, "bugs status"))
