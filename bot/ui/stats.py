"""After the game: leaderboards, member stats, history and how the last game ended.

Pure functions of store records, so they are tested without Discord.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from rules.core import GAMES

from ..store.records import GameSummary, LeaderboardEntry, MemberGameStats
from .specs import EmbedSpec, Field, MessageSpec
from .text import clip, esc, plural

STATS_COLOUR = 0xE0A526
DESCRIPTION_MAX = 4000
"""A little under Discord's 4096 for an embed description."""
RATING_NOTE = (
    "Rating: a cautious skill estimate (openskill, μ − 3σ). It grows as you win, and as more "
    "games make it surer. Games with bots rate only the members in them."
)


def title_of(slug: str) -> str:
    cls = GAMES.get(slug)
    return cls.title if cls is not None else slug


def _when(moment: datetime | None, style: str = "d") -> str:
    """A Discord timestamp: every reader sees it in their own time zone."""
    return f"<t:{int(moment.timestamp())}:{style}>" if moment is not None else "?"


def rating_text(rating: float | None) -> str:
    """One decimal, "—" when unrated, never "-0.0"."""
    return "—" if rating is None else f"{round(rating, 1) or 0.0:.1f}"


def ended_line(summary: GameSummary) -> str:
    """A game a moderator ended (P-72): who ended it and why, and who played; no scores."""
    game = summary.game
    why = f" ({esc(game.end_reason)})" if game.end_reason else ""
    names = ", ".join(esc(p.name) for p in summary.players) or "nobody"
    return f"⛔ ended by {esc(game.ended_by_name or 'a moderator')}{why} · {names}"


def scores_line(summary: GameSummary) -> str:
    """``🏆 alice 20 · bob 15``: best first, winners crowned (an ended game: who ended it)."""
    if summary.game.ended_by is not None:
        return ended_line(summary)
    return " · ".join(
        f"{'🏆 ' if p.winner else ''}{esc(p.name)} {p.score}" for p in summary.players
    )


def leaderboard_message(slug: str, entries: Sequence[LeaderboardEntry]) -> MessageSpec:
    if entries:
        lines = [
            f"{i}. **{esc(e.name)}** — rating {rating_text(e.rating)} · "
            f"{plural(e.games, 'game')} · {plural(e.wins, 'win')}"
            for i, e in enumerate(entries, start=1)
        ]
        description = clip("\n".join(lines), DESCRIPTION_MAX)
    else:
        description = "Nobody is rated here yet: finish a game with at least two members to appear."
    return MessageSpec(
        embed=EmbedSpec(
            title=f"🏆 {title_of(slug)} — leaderboard",
            description=description,
            footer=RATING_NOTE,
            colour=STATS_COLOUR,
        )
    )


def stats_message(name: str, stats: Sequence[MemberGameStats]) -> MessageSpec:
    fields = tuple(
        Field(
            title_of(s.slug),
            f"{plural(s.games, 'game')} · {plural(s.wins, 'win')} ({s.win_rate:.0%}) · "
            f"rating {rating_text(s.rating)} · best score {s.best_score}",
        )
        for s in sorted(stats, key=lambda s: (-s.games, title_of(s.slug)))
    )
    return MessageSpec(
        embed=EmbedSpec(
            title=f"📊 {name} — stats in this server",
            description=None if fields else "No finished games in this server yet.",
            fields=fields[:25],
            footer=RATING_NOTE if fields else None,
            colour=STATS_COLOUR,
        )
    )


def history_message(
    here: Sequence[GameSummary], server: Sequence[GameSummary], channel_id: int
) -> MessageSpec:
    def line(summary: GameSummary, *, where: bool) -> str:
        game = summary.game
        place = f" in <#{game.channel_id}>" if where and game.channel_id != channel_id else ""
        return clip(
            f"{_when(game.finished_at)} **{title_of(game.slug)}**{place} — {scores_line(summary)}",
            300,
        )

    parts = ["**In this channel**"]
    parts += [line(s, where=False) for s in here] or ["No finished games here yet."]
    parts += ["", "**In this server**"]
    parts += [line(s, where=True) for s in server] or ["No finished games yet."]
    return MessageSpec(
        embed=EmbedSpec(
            title="📜 Recent games",
            description=clip("\n".join(parts), DESCRIPTION_MAX),
            colour=STATS_COLOUR,
        )
    )


def last_game_text(summary: GameSummary) -> str:
    """`/bugs status` with no game running: how the channel's last game ended."""
    if summary.game.ended_by is not None:
        return (
            "No game is running in this channel. "
            f"The last one, **{title_of(summary.game.slug)}**, stopped "
            f"{_when(summary.game.finished_at, 'R')}: {ended_line(summary)}.\n"
            "Start another with `/bugs new`."
        )
    winners = [f"**{esc(p.name)}**" for p in summary.winners]
    if len(winners) > 1:
        verdict = f"{', '.join(winners[:-1])} and {winners[-1]} shared the win"
    elif winners:
        verdict = f"{winners[0]} won"
    else:
        verdict = "nobody won"
    return (
        "No game is running in this channel. "
        f"The last one, **{title_of(summary.game.slug)}**, ended "
        f"{_when(summary.game.finished_at, 'R')}: {verdict}.\n"
        f"Scores: {scores_line(summary)}\n"
        "Start another with `/bugs new`, or press **Rematch** on its board."
    )
