"""Checks on message specs shared by the presenter tests: Discord's limits and field lookup."""

from __future__ import annotations

from bot.discord.codec import MAX_CUSTOM_ID, game_button_id, option_value, select_id
from bot.ui.specs import EmbedSpec, MessageSpec, SelectSpec

BIG_GAME_ID = 10**12
"""Custom ids are checked with a large game id, as a long-running bot would have."""


def embed_size(embed: EmbedSpec) -> int:
    """What Discord counts towards an embed's 6000 characters."""
    parts = [embed.title or "", embed.description or "", embed.footer or ""]
    parts += [p for f in embed.fields for p in (f.name, f.value)]
    return sum(len(p) for p in parts)


def check_limits(spec: MessageSpec, turn: int = 1) -> None:
    """What Discord enforces on a message, custom ids included (as the renderer builds them)."""
    assert spec.content or spec.embed, "a message needs content or an embed"
    assert len(spec.content or "") <= 2000
    assert len(spec.rows) <= 5
    for index, row in enumerate(spec.rows):
        if isinstance(row, SelectSpec):
            assert 1 <= len(row.options) <= 25
            assert 0 < len(row.placeholder) <= 150
            assert len(select_id(BIG_GAME_ID, turn, index)) <= MAX_CUSTOM_ID
            for option in row.options:
                assert 0 < len(option.label) <= 100
                assert len(option.description or "") <= 100
                assert len(option_value(option.action)) <= MAX_CUSTOM_ID
            assert len({option_value(o.action) for o in row.options}) == len(row.options)
        else:
            assert 1 <= len(row) <= 5
            for button in row:
                assert 0 < len(button.label) <= 80
                if button.action is not None:
                    assert len(game_button_id(BIG_GAME_ID, turn, button.action)) <= MAX_CUSTOM_ID
    if spec.embed:
        e = spec.embed
        assert len(e.title or "") <= 256
        assert len(e.description or "") <= 4096
        assert len(e.fields) <= 25
        assert len(e.footer or "") <= 2048
        for f in e.fields:
            assert 0 < len(f.name) <= 256
            assert 0 < len(f.value) <= 1024
        assert embed_size(e) <= 6000


def field(spec: MessageSpec, prefix: str) -> str:
    """The value of the one embed field whose name starts with ``prefix``."""
    assert spec.embed is not None
    found = [f.value for f in spec.embed.fields if f.name.startswith(prefix)]
    assert len(found) == 1, (prefix, spec.embed.fields)
    return found[0]
