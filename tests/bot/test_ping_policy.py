"""The turn-ping policy (docs/rulings.md P-46) on a moved clock: who is due a ping and when,
one ping per wait, one ping message per game, and waits across a restart."""

from __future__ import annotations

from datetime import timedelta

from bot.discord.pings import PingPolicy
from tests.support.clock import ManualClock

AFTER = 20.0


def test_a_seat_that_acts_within_ping_after_is_never_pinged() -> None:
    clock, policy = ManualClock(), PingPolicy(AFTER)
    for _ in range(5):  # seat 0 and seat 1 take turns, each answering in 19 s
        for seat, other in ((0, 1), (1, 0)):
            policy.observe([seat], [other], clock())
            assert policy.next_due() == clock() + timedelta(seconds=AFTER)
            clock.advance(AFTER - 1)
            assert policy.plan(clock()).ping == ()
    policy.observe([], [1], clock())
    assert policy.next_due() is None and policy.message is None


def test_a_slow_seat_is_pinged_exactly_once_per_wait() -> None:
    clock, policy = ManualClock(), PingPolicy(AFTER)
    policy.observe([0], [], clock())
    clock.advance(AFTER - 0.5)
    assert policy.plan(clock()).ping == ()
    clock.advance(0.5)
    plan = policy.plan(clock())
    assert plan.ping == (0,) and plan.delete == ()
    policy.pinged(plan, [0], 100)
    for _ in range(10):  # still slow: no second ping in this wait, however long it lasts
        clock.advance(AFTER)
        assert policy.plan(clock()).ping == () and policy.next_due() is None
    # Another seat's move keeps the game waiting on seat 0: the same wait, no new ping.
    policy.observe([0], [1], clock())
    clock.advance(AFTER)
    assert policy.plan(clock()).ping == ()
    # Seat 0 acts and the game still waits on it: a new wait, with its own ping when slow.
    policy.observe([0], [0], clock())
    assert policy.plan(clock()).ping == ()
    clock.advance(AFTER)
    assert policy.plan(clock()).ping == (0,)


def test_a_ping_that_was_not_wanted_still_ends_the_waits_turn_to_be_pinged() -> None:
    clock, policy = ManualClock(), PingPolicy(AFTER)
    policy.observe([0], [], clock())
    clock.advance(AFTER)
    plan = policy.plan(clock())
    policy.pinged(plan, [], None)  # pings turned off: no message, and not asked again
    clock.advance(AFTER)
    assert policy.plan(clock()).ping == () and policy.message is None


def test_one_message_per_game_the_old_one_deleted_before_the_new_one_is_sent() -> None:
    clock, policy = ManualClock(), PingPolicy(AFTER)
    policy.observe([0, 1], [], clock())
    clock.advance(AFTER)
    first = policy.plan(clock())
    assert first.ping == (0, 1) and first.delete == ()  # everyone due now, in one message
    policy.pinged(first, [0, 1], 100)
    # Seat 0 acts; seat 1 is still waited on, so the ping that names it stays.
    policy.observe([1, 2], [0], clock())
    assert policy.plan(clock()).delete == () and policy.message == 100
    clock.advance(AFTER)
    second = policy.plan(clock())
    # Seat 2 is due: the new message replaces the old one, which is deleted first.
    assert second.ping == (2,) and second.replaces == 100 and policy.message == 100
    policy.sending(second)
    assert policy.doomed == [100] and policy.message is None
    policy.deleted(100)
    policy.pinged(second, [2], 101)
    assert policy.doomed == [] and (policy.message, policy.named) == (101, frozenset({2}))


def test_a_due_seat_with_pings_off_leaves_the_live_ping_of_the_others() -> None:
    clock, policy = ManualClock(), PingPolicy(AFTER)
    policy.observe([0], [], clock())
    clock.advance(AFTER)
    plan = policy.plan(clock())
    policy.sending(plan)
    policy.pinged(plan, [0], 100)
    policy.observe([0, 1], [], clock())  # seat 0 still slow; seat 1's wait begins
    clock.advance(AFTER)
    plan = policy.plan(clock())
    assert plan.ping == (1,) and plan.replaces == 100
    policy.pinged(plan, [], None)  # seat 1 has pings off: nothing is sent, nothing deleted
    assert (policy.message, policy.doomed) == (100, []) and policy.plan(clock()).ping == ()


def test_a_ping_goes_once_the_game_waits_on_nobody_it_names() -> None:
    clock, policy = ManualClock(), PingPolicy(AFTER)
    policy.observe([0], [], clock())
    clock.advance(AFTER)
    plan = policy.plan(clock())
    policy.pinged(plan, [0], 100)
    policy.observe([1], [0], clock())
    assert policy.plan(clock()).delete == (100,)
    policy.deleted(100)
    assert policy.plan(clock()).delete == ()


def test_a_wait_that_ends_while_its_ping_is_sent_is_not_marked_pinged() -> None:
    clock, policy = ManualClock(), PingPolicy(AFTER)
    policy.observe([0], [], clock())
    clock.advance(AFTER)
    plan = policy.plan(clock())
    policy.observe([0], [0], clock())  # seat 0 acted while the ping was on its way
    policy.pinged(plan, [0], 100)
    clock.advance(AFTER)
    assert policy.plan(clock()).ping == (0,)  # its new wait gets its own ping


def test_zero_pings_at_once() -> None:
    clock, policy = ManualClock(), PingPolicy(0.0)
    policy.observe([0], [], clock())
    assert policy.plan(clock()).ping == (0,)


def test_after_a_restart_a_wait_is_timed_from_the_games_last_change() -> None:
    clock = ManualClock()
    changed = clock()
    clock.advance(5)  # the bot restarts 5 s after the last move
    policy = PingPolicy(AFTER)
    policy.restore([0], changed, pinged=False, message=None)
    assert policy.plan(clock()).ping == ()  # not at once
    assert policy.next_due() == changed + timedelta(seconds=AFTER)  # nor forgotten
    clock.advance(AFTER - 5)
    assert policy.plan(clock()).ping == (0,)


def test_after_a_restart_a_wait_already_pinged_is_not_pinged_again() -> None:
    clock = ManualClock()
    changed = clock()
    clock.advance(300)
    policy = PingPolicy(AFTER)
    policy.restore([0, 1], changed, pinged=True, message=100)
    plan = policy.plan(clock())
    assert plan.ping == () and plan.delete == () and policy.next_due() is None
    policy.observe([1], [0], clock())  # the ping still names seat 1, who is still waited on
    assert policy.plan(clock()).delete == ()


def test_after_a_restart_an_older_ping_goes_and_an_overdue_wait_is_pinged() -> None:
    """A ping from an earlier wait names nobody known to be waited on now; a wait whose time
    came while the bot was down is pinged as soon as it is back."""
    clock = ManualClock()
    changed = clock()
    clock.advance(300)
    policy = PingPolicy(AFTER)
    policy.restore([0], changed, pinged=False, message=99)
    plan = policy.plan(clock())
    assert plan.delete == (99,) and plan.ping == (0,)
