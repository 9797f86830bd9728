"""Ratings (openskill Plackett-Luce), leaderboards, member stats and history in the store."""

from __future__ import annotations

from typing import Any

import pytest
from openskill.models import PlackettLuce
from sqlalchemy.exc import IntegrityError

import bot.store.commit as commit
from bot.store import GameRecord, LobbySeat, ResultSpec, Store
from bot.store.ratings import Skill, rate

GUILD = 700
SLUG = "ladybug-dash"
ALICE, BOB, CAROL = 1, 2, 3
NAMES = {ALICE: "alice", BOB: "bob", CAROL: "carol", -1: "🤖 Bot 1", -2: "🤖 Bot 2"}
_channels = iter(range(1000, 2000))


async def finish(
    store: Store,
    ranked: list[tuple[int, int]],
    *,
    guild: int | None = GUILD,
    slug: str = SLUG,
    results: list[ResultSpec] | None = None,
) -> GameRecord:
    """Play a game to its end among ``ranked`` (user, score); negative users are bots."""
    users = [u for u, _ in ranked]
    lobby = await store.create_lobby(
        slug=slug,
        guild_id=guild,
        channel_id=next(_channels),
        creator_id=users[0],
        creator_name=NAMES[users[0]],
        options={},
        seed=1,
        seats=[LobbySeat(u, NAMES[u], is_bot=u < 0) for u in users],
    )
    game = await store.start(
        lobby.id, expected_version=lobby.version, seat_order=users, snapshot={}, timers=[]
    )
    scores = [score for _, score in ranked]
    specs = results or [
        ResultSpec(
            user_id=u,
            seat=seat,
            score=score,
            rank=1 + sum(1 for other in scores if other > score),
            winner=score == max(scores),
        )
        for seat, (u, score) in enumerate(ranked)
    ]
    await store.record_action(
        game,
        seat=0,
        action={"type": "end"},
        snapshot={},
        timers=None,
        results=specs,
    )
    return game


def openskill_says(*ranked: tuple[Skill, int]) -> list[tuple[float, float]]:
    """What openskill itself gives, called directly (not through bot.store.ratings)."""
    model = PlackettLuce()
    teams = [[model.rating(mu=s.mu, sigma=s.sigma)] for s, _ in ranked]
    return [(t[0].mu, t[0].sigma) for t in model.rate(teams, ranks=[r for _, r in ranked])]


async def skills(store: Store, slug: str = SLUG, guild: int = GUILD) -> dict[int, Skill]:
    return {e.user_id: Skill(e.mu, e.sigma) for e in await store.leaderboard(guild, slug, 50)}


def test_a_tie_shares_a_rank() -> None:
    fresh = Skill.initial()
    first, second, third = rate([(fresh, 1), (fresh, 1), (fresh, 3)])
    assert first == second and first.mu > third.mu
    # Two equal players who tie learn nothing about who is better, only more certainty.
    a, b = rate([(fresh, 1), (fresh, 1)])
    assert a == b and a.mu == pytest.approx(fresh.mu) and a.sigma < fresh.sigma
    assert rate([(fresh, 1)]) == [fresh]  # alone: nothing to learn


async def test_finishing_a_game_rates_its_members(store: Store) -> None:
    fresh = Skill.initial()
    await finish(store, [(ALICE, 20), (BOB, 12), (CAROL, 20)])  # alice and carol tie
    expected = openskill_says((fresh, 1), (fresh, 3), (fresh, 1))
    got = await skills(store)
    assert [(got[u].mu, got[u].sigma) for u in (ALICE, BOB, CAROL)] == expected
    board = await store.leaderboard(GUILD, SLUG)
    assert [e.user_id for e in board[:2]] == sorted([ALICE, CAROL]) and board[2].user_id == BOB
    assert board[0].rating == pytest.approx(board[0].mu - 3 * board[0].sigma)
    assert [(e.name, e.games, e.wins) for e in board] == [
        ("alice", 1, 1),
        ("carol", 1, 1),
        ("bob", 1, 0),
    ]

    # The next game starts from the stored skills.
    before = await skills(store)
    await finish(store, [(BOB, 30), (ALICE, 5)])
    after = await skills(store)
    assert [(after[u].mu, after[u].sigma) for u in (BOB, ALICE)] == openskill_says(
        (before[BOB], 1), (before[ALICE], 2)
    )
    assert after[CAROL] == before[CAROL]


async def test_bots_neither_get_nor_move_ratings(store: Store) -> None:
    fresh = Skill.initial()
    # alice beats the bot, the bot beats bob: for the ratings, alice simply beat bob.
    await finish(store, [(ALICE, 30), (-1, 20), (BOB, 10)])
    got = await skills(store)
    assert set(got) == {ALICE, BOB}
    assert [(got[u].mu, got[u].sigma) for u in (ALICE, BOB)] == openskill_says(
        (fresh, 1), (fresh, 3)
    )
    # One member among bots: no rating changes, though the game counts in the records.
    before = await skills(store)
    await finish(store, [(-1, 9), (ALICE, 3), (-2, 1)])
    assert await skills(store) == before
    (alice,) = [e for e in await store.leaderboard(GUILD, SLUG) if e.user_id == ALICE]
    assert (alice.games, alice.wins) == (2, 1)


async def test_ratings_are_per_server_and_per_game(store: Store) -> None:
    await finish(store, [(ALICE, 3), (BOB, 1)])
    await finish(store, [(BOB, 3), (ALICE, 1)], guild=GUILD + 1)
    await finish(store, [(BOB, 3), (ALICE, 1)], slug="bug-off")
    await finish(store, [(BOB, 3), (ALICE, 1)], guild=None)  # outside a server: not rated
    assert [e.user_id for e in await store.leaderboard(GUILD, SLUG)] == [ALICE, BOB]
    assert [e.user_id for e in await store.leaderboard(GUILD + 1, SLUG)] == [BOB, ALICE]
    assert [e.user_id for e in await store.leaderboard(GUILD, "bug-off")] == [BOB, ALICE]
    assert [(e.games, e.wins) for e in await store.leaderboard(GUILD, SLUG)] == [(1, 1), (1, 0)]


async def test_a_failed_results_insert_leaves_ratings_unchanged(store: Store) -> None:
    await finish(store, [(ALICE, 3), (BOB, 1)])
    before = await skills(store)
    duplicate_seat = [ResultSpec(ALICE, 0, 1, 2, False), ResultSpec(BOB, 0, 5, 1, True)]
    with pytest.raises(IntegrityError):
        await finish(store, [(ALICE, 1), (BOB, 5)], results=duplicate_seat)
    assert await skills(store) == before
    assert [(e.games, e.wins) for e in await store.leaderboard(GUILD, SLUG)] == [(1, 1), (1, 0)]


async def test_ratings_and_results_are_one_transaction(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Ratings written, then a failure later in the same commit: nothing of it remains."""
    await finish(store, [(ALICE, 3), (BOB, 1)])
    before = await skills(store)
    real = commit.update_ratings

    def write_then_fail(*args: Any, **kwargs: Any) -> None:
        real(*args, **kwargs)
        raise OSError("disk full")

    monkeypatch.setattr(commit, "update_ratings", write_then_fail)
    with pytest.raises(OSError):
        await finish(store, [(ALICE, 1), (BOB, 5)])
    assert await skills(store) == before
    assert len(await store.finished_games()) == 1  # only the first game finished
    playing = await store.games_in_play()
    assert len(playing) == 1 and await store.results(playing[0].id) == []
    assert await store.actions(playing[0].id) == []


async def test_member_stats_and_history(store: Store) -> None:
    first = await finish(store, [(ALICE, 20), (BOB, 12)])
    await finish(store, [(ALICE, 7), (-1, 9)])  # lost to a bot: counted, not rated
    await finish(store, [(BOB, 4), (ALICE, 4)], slug="bug-off")  # a shared win
    await finish(store, [(ALICE, 50), (BOB, 1)], guild=GUILD + 1)  # another server

    stats = {s.slug: s for s in await store.member_stats(GUILD, ALICE)}
    assert set(stats) == {SLUG, "bug-off"}
    dash = stats[SLUG]
    assert (dash.games, dash.wins, dash.best_score) == (2, 1, 20)
    assert dash.win_rate == 0.5
    assert dash.rating == pytest.approx((await skills(store))[ALICE].ordinal)
    assert (stats["bug-off"].games, stats["bug-off"].wins) == (1, 1)
    assert await store.member_stats(GUILD, 404) == []

    history = await store.recent_games(guild_id=GUILD)
    assert [g.game.slug for g in history] == ["bug-off", SLUG, SLUG]
    tie, bots, oldest = history
    assert [(p.name, p.score, p.winner) for p in tie.winners] == [
        ("bob", 4, True),
        ("alice", 4, True),
    ]
    assert [(p.name, p.is_bot, p.rank) for p in bots.players] == [
        ("🤖 Bot 1", True, 1),
        ("alice", False, 2),
    ]
    assert oldest.game.id == first.id
    (last,) = await store.recent_games(channel_id=first.channel_id)
    assert last.game.id == first.id and [p.score for p in last.players] == [20, 12]
    assert len(await store.recent_games(guild_id=GUILD, limit=2)) == 2
    assert await store.recent_games(channel_id=4040) == []
