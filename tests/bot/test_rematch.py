"""Rematch (docs/rulings.md P-12): same game, options and seats; each player confirms."""

from __future__ import annotations

import pytest

import bot.ui.games  # noqa: F401  (registers every game's presenter)
from bot.discord.commands import status_text
from bot.games import games
from bot.host.errors import GameGone, NotAllowed, NotAPlayer
from bot.host.host import Host
from bot.host.table import Table
from bot.settings import Settings
from bot.store import ChannelBusy, Store, TableFull
from bot.ui.lobby import lobby_message
from bot.ui.presenter import REMATCH_BUTTON, presenter_for, with_button
from bot.ui.specs import ButtonSpec, MessageSpec
from rules.core import GAMES, Rng
from rules.core.policy import random_playout
from tests.support.tables import make_table

CHANNEL = 600
ALICE, BOB, CAROL, DAVE = 1, 2, 3, 4


async def finished(host: Host, *others: int, bot: bool = False) -> Table:
    table = await host.open(
        "ladybug-dash",
        guild_id=9,
        channel_id=CHANNEL,
        user_id=ALICE,
        name="alice",
        options={"clock": "1"},
    )
    for user in others:
        await host.join(table.id, user, f"user{user}")
    if bot:
        await host.add_bot(table.id, ALICE)
    await host.start(table.id, ALICE)
    for claimer in (ALICE, ALICE, ALICE):
        await host.act(table.id, claimer, {"type": "claim"})
        for seat in range(table.running().players):
            user = table.user_at(seat)
            await host.act(table.id, user.user_id, {"type": "pick", "n": 1})
    assert table.status == "finished"
    return table


async def test_a_rematch_holds_the_seats_until_each_player_confirms(
    host: Host, store: Store
) -> None:
    old = await finished(host, BOB, CAROL, bot=True)
    table = await host.rematch(old.id, CAROL, "Carol")
    assert (table.slug, table.game.options, table.game.creator_id) == (
        "ladybug-dash",
        {"clock": "1"},
        CAROL,
    )
    assert [(s.user_id, s.name, s.confirmed) for s in table.seats] == [
        (ALICE, "alice", False),
        (BOB, "user2", False),
        (CAROL, "Carol", True),
        (-1, "🤖 Easy bot", True),
    ]
    lobby = lobby_message(table.view())
    assert lobby.content is not None and f"<@{ALICE}> <@{BOB}>" in lobby.content
    assert "Waiting for alice, user2 to confirm" in str(lobby.embed)
    assert "Players (2/4): alice (invited), user2 (invited), Carol, 🤖 Easy bot" in status_text(
        Settings(_env_file=None),  # type: ignore[call-arg]
        table,
        None,
    )
    join = next(b for b in lobby.buttons() if b.label == "Join")
    assert not join.disabled  # the table is full of held seats, yet their players may confirm

    # Newcomers find the held seats taken; a player confirms with Join; only the opener starts.
    with pytest.raises(TableFull):
        await host.join(table.id, DAVE, "dave")
    table = await host.join(table.id, BOB, "Bob")
    with pytest.raises(NotAllowed):
        await host.start(table.id, BOB)
    # The opener starts with those who confirmed: alice's held seat is given up.
    table = await host.start(table.id, CAROL)
    assert [table.user_at(s).user_id for s in range(3)] == [BOB, CAROL, -1]
    assert [s.user_id for s in await store.seats(table.id)] == [BOB, CAROL, -1]


async def test_a_rematch_is_refused_to_others_while_busy_and_before_the_end(host: Host) -> None:
    old = await finished(host, BOB)
    with pytest.raises(NotAPlayer):
        await host.rematch(old.id, DAVE, "dave")
    with pytest.raises(NotAPlayer):
        await host.rematch(old.id, -1, "a bot")
    first = await host.rematch(old.id, BOB, "bob")
    with pytest.raises(ChannelBusy):
        await host.rematch(old.id, ALICE, "alice")
    with pytest.raises(GameGone, match="finished game"):
        await host.rematch(first.id, ALICE, "alice")


def test_every_games_final_board_offers_a_rematch_once() -> None:
    slugs = [game.slug for game in games()]
    assert len(slugs) > 4  # the four shipped games and the test game
    for slug in slugs:
        table = make_table(slug, GAMES[slug].min_players + 1)
        presenter = presenter_for(slug)
        assert REMATCH_BUTTON not in presenter.public_boards(table.view())[0].buttons()
        random_playout(table.running(), Rng(7))
        boards = presenter.public_boards(table.view())
        assert boards[0].buttons().count(REMATCH_BUTTON) == 1, slug
        assert len(boards[0].rows) <= 5


def test_a_full_final_board_takes_the_button_on_its_last_row() -> None:
    row = tuple(ButtonSpec(str(i), host="hand") for i in range(4))
    spec = MessageSpec(rows=(row,) * 5)
    assert with_button(spec, REMATCH_BUTTON).rows[-1] == (*row, REMATCH_BUTTON)
    full = MessageSpec(rows=((*row, REMATCH_BUTTON),) * 5)
    assert with_button(full, REMATCH_BUTTON) == full
