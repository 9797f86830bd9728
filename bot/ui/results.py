"""The results screen every game's final board is made of.

Each game says what its scores mean (the detail under each player, lines of its own, a footer);
the shape is shared: the winners' headline, one field per player from the winners down, then the
game's log if the embed has room for it.
"""

from __future__ import annotations

from collections.abc import Sequence

from .specs import EmbedSpec, Field, ImageSpec, MessageSpec
from .text import clip, plural

EMBED_MAX = 6000
"""Discord's limit for the text of one embed (title, description, fields, footer)."""
NAME_MAX = 256
"""Discord's limit for an embed field's name."""
CROWN = "🏆 "


def join_and(items: Sequence[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``; ``nobody`` for none."""
    if len(items) <= 1:
        return "".join(items) or "nobody"
    return ", ".join(items[:-1]) + " and " + items[-1]


def ranked(scores: Sequence[int], winners: Sequence[int]) -> list[int]:
    """Seats in the order the results list them: winners first, then by score, then by seat."""
    return sorted(range(len(scores)), key=lambda s: (s not in winners, -scores[s], s))


def win_verb(winners: Sequence[int]) -> str:
    return "share the win" if len(winners) > 1 else "wins"


def headline(names: Sequence[str], winners: Sequence[int], score: str, mark: str = "🏆") -> str:
    """``🏆 **ann** wins with <score>!`` (``names`` already escaped; ``score`` as the game says
    it, markdown included)."""
    won = join_and([f"**{names[s]}**" for s in winners])
    return f"{mark} {won} {win_verb(winners)} with {score}!"


def standing(name: str, winner: bool, score: str, detail: str, *, inline: bool = False) -> Field:
    """One player's field: a crown for a winner, the name and score, then the game's detail."""
    return Field(clip(f"{CROWN if winner else ''}{name} — {score}", NAME_MAX), detail, inline)


def embed_size(embed: EmbedSpec) -> int:
    parts = [embed.title or "", embed.description or "", embed.footer or ""]
    parts += [p for f in embed.fields for p in (f.name, f.value)]
    return sum(len(p) for p in parts)


def results_screen(
    title: str,
    description: str,
    fields: Sequence[Field],
    *,
    log: Sequence[Field] = (),
    footer: str | None = None,
    colour: int | None = None,
    image: ImageSpec | None = None,
) -> MessageSpec:
    """The final board: ``<title> — game over``, the fields (the standings first), then the log
    fields, left out when the embed would be too long with them (the results always fit)."""
    embed = EmbedSpec(
        title=f"{title} — game over",
        description=description,
        fields=(*fields, *log),
        footer=footer,
        colour=colour,
    )
    if log and embed_size(embed) > EMBED_MAX:
        embed = EmbedSpec(
            title=embed.title,
            description=description,
            fields=tuple(fields),
            footer=footer,
            colour=colour,
        )
    return MessageSpec(embed=embed, image=image)


def game_over_line(names: Sequence[str], winners: Sequence[int], scores: Sequence[int]) -> str:
    """The log's last line for a game won on points: ``🏁 Game over: **Ann** wins with 9 points.``"""
    won = join_and([f"**{names[s]}**" for s in winners])
    return f"🏁 Game over: {won} {win_verb(winners)} with {plural(max(scores), 'point')}."
