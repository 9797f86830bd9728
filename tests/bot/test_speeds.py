"""Time controls (docs/rulings.md P-71, P-74): each preset's numbers per game, what scales and
what stays as the rules say, and the reminders of a turn-based wait, on a moved clock."""

from __future__ import annotations

from datetime import timedelta

import pytest

from bot.discord.pings import PingPolicy
from bot.games import games
from bot.host.policy import SPEEDS
from bot.settings import Settings
from bot.speeds import CONTROLS, DAY, HOUR, control_of, deadline_seconds, numbers, reminders
from bot.ui.speeds import clock_words, duration, speeds_words
from tests.support.clock import ManualClock

DECISION_CLOCKS = {"bugoff_turn": 60.0, "bugrun_turn": 90.0, "bag_choice": 30.0}
"""Every decision clock the shipped games declare, at normal (their declared seconds)."""
EXPECTED = {
    "fast": {"bugoff_turn": 30.0, "bugrun_turn": 45.0, "bag_choice": 15.0},
    "normal": DECISION_CLOCKS,
    "slow": {"bugoff_turn": 180.0, "bugrun_turn": 270.0, "bag_choice": 90.0},
    "turn-based": {name: DAY for name in DECISION_CLOCKS},
}


def settings(**values: object) -> Settings:
    return Settings(_env_file=None, **values)  # type: ignore[call-arg]


def test_each_preset_sets_each_games_decision_clocks() -> None:
    plain = settings()
    found: dict[str, dict[str, float]] = {speed: {} for speed in SPEEDS}
    for game in games():
        for speed in SPEEDS:
            for n in numbers(plain, game.engine, speed):
                if n.scaled:
                    found[speed][n.timer.name] = n.seconds
                    deadline = deadline_seconds(plain, game.engine, speed, n.timer.name, None)
                    assert deadline == n.seconds
    assert found == EXPECTED
    # TIMERS sets normal; the presets scale what the bot is set to.
    set_to = settings(timers={"bugoff_turn": 40})
    bug_off = next(g.engine for g in games() if "bugoff_turn" in {t.name for t in g.engine.timers})
    assert deadline_seconds(set_to, bug_off, "slow", "bugoff_turn", None) == 120
    assert deadline_seconds(set_to, bug_off, "turn-based", "bugoff_turn", None) == DAY
    # A game stored before time controls (None) runs as normal.
    assert deadline_seconds(set_to, bug_off, None, "bugoff_turn", None) == 40


def test_rule_timers_keep_their_time_under_every_preset() -> None:
    plain = settings()
    kept = 0
    for game in games():
        for timer in game.engine.timers:
            if timer.kind == "decision":
                continue
            for speed in SPEEDS:
                assert deadline_seconds(plain, game.engine, speed, timer.name, None) == (
                    timer.seconds
                )
                kept += 1
        # A deadline with the rule's own seconds (no timer named) never scales either.
        for speed in SPEEDS:
            assert deadline_seconds(plain, game.engine, speed, None, 10.0) == 10.0
    assert kept  # Bugs & Co's cap, Bag of Bugs' pacing and idle reveal
    assert {t.name for g in games() for t in g.engine.timers if t.kind == "decision"} == set(
        DECISION_CLOCKS
    )


def test_timer_scale_still_multiplies_everything() -> None:
    scaled = settings(timer_scale=0.001)
    for game in games():
        for timer in game.engine.timers:
            for speed in SPEEDS:
                plain = deadline_seconds(settings(), game.engine, speed, timer.name, None)
                assert deadline_seconds(scaled, game.engine, speed, timer.name, None) == (
                    pytest.approx(plain * 0.001)
                )


def test_presets_say_their_numbers_in_words() -> None:
    plain = settings()
    assert [control_of(s).title for s in SPEEDS] == ["Fast", "Normal", "Slow", "Turn-based"]
    assert (duration(30), duration(270), duration(3600), duration(DAY)) == (
        "30 s",
        "4.5 min",
        "1 h",
        "1 day",
    )
    assert reminders(plain.ping_after, "normal") == (20.0,) and reminders(45.0, "turn-based") == (
        HOUR,
        12 * HOUR,
    )
    for game in games():
        words = clock_words(plain, game.engine, "turn-based")
        assert "Turn-based" in words and "1 h and 12 h" in words
        assert "nobody is replaced by a bot" in words
        every = speeds_words(plain, game.engine)
        assert all(CONTROLS[s].title in every for s in SPEEDS)
        for n in numbers(plain, game.engine, "slow"):
            assert duration(n.seconds) in clock_words(plain, game.engine, "slow")
    assert control_of("turn-based").strikes is False
    assert all(control_of(s).strikes for s in SPEEDS if s != "turn-based")


def test_turn_based_reminds_twice_per_wait() -> None:
    clock = ManualClock()
    policy = PingPolicy(HOUR, (12 * HOUR,))
    policy.observe([0], [], clock())
    assert policy.next_due() == clock() + timedelta(hours=1)
    clock.advance(HOUR - 1)
    assert policy.plan(clock()).ping == ()
    clock.advance(1)
    first = policy.plan(clock())
    assert first.ping == (0,)
    policy.sending(first)
    policy.pinged(first, [0], 100)
    assert policy.plan(clock()).ping == ()
    assert policy.next_due() == clock() + timedelta(hours=11)
    clock.advance(11 * HOUR)
    second = policy.plan(clock())
    assert second.ping == (0,) and second.replaces == 100
    policy.sending(second)
    policy.pinged(second, [0], 101)
    assert policy.doomed == [100]  # the first reminder goes when the second comes
    assert policy.next_due() is None  # two per wait, however long it lasts
    clock.advance(DAY)
    assert policy.plan(clock()).ping == ()
    # The seat acts: a new wait, reminded twice again.
    policy.observe([0], [0], clock())
    assert policy.next_due() == clock() + timedelta(hours=1)


def test_a_restart_counts_the_reminders_already_sent() -> None:
    clock = ManualClock()
    changed = clock()
    # The 1 h reminder went before the restart: only the 12 h one is still due.
    policy = PingPolicy(HOUR, (12 * HOUR,))
    policy.restore(
        [0], changed, pinged=True, message=100, pinged_at=changed + timedelta(hours=1, seconds=3)
    )
    assert policy.next_due() == changed + timedelta(hours=12)
    # Both went: nothing more in this wait.
    both = PingPolicy(HOUR, (12 * HOUR,))
    both.restore([0], changed, pinged=True, message=101, pinged_at=changed + timedelta(hours=13))
    assert both.next_due() is None
    # Down through both moments without a ping: one ping now does for both.
    late = PingPolicy(HOUR, (12 * HOUR,))
    late.restore([0], changed, pinged=False, message=None)
    clock.advance(13 * HOUR)
    plan = late.plan(clock())
    assert plan.ping == (0,)
    late.pinged(plan, [0], 102)
    assert late.next_due() is None
