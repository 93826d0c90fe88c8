"""core.clock: turns, banks, pauses and misses as arithmetic on instants given."""

from __future__ import annotations

import pytest

from realms.core.clock import ClockError, ClockSpec, TableClock


def test_a_turn_runs_from_when_the_seat_is_first_awaited_and_a_pause_stops_it():
    c = TableClock.new(ClockSpec("turn", 10), 2)
    assert c.observe({0}, [], 100.0) == ([0], [])
    assert c.left(0, 400.0) == 300.0 and c.left(1, 400.0) is None
    c.pause(400.0)
    assert c.left(0, 10_000.0) == 300.0 and c.expired(10_000.0) == [] and c.wall_due(0) is None
    c.resume(10_000.0)
    assert c.wall_due(0) == 10_000.0 + 300.0
    assert c.expired(10_299.0) == [] and c.expired(10_300.0) == [0]
    assert c.extend(60) == [0] and c.expired(10_300.0) == []


def test_a_bank_pays_the_turn_and_gains_the_increment_per_decision_of_the_seat():
    c = TableClock.new(ClockSpec("bank", 10, 30), 2)
    c.observe({0}, [], 0.0)
    answers = [(0, "a"), (1, "x"), (0, "b")]
    assert c.observe(set(), answers, 100.0) == ([], [0])
    assert c.seats[0].bank == 600 - 100 + 2 * 30


def test_misses_count_in_a_row_and_a_turn_in_time_clears_them():
    c = TableClock.new(ClockSpec("bank", 1, 0, misses=2), 1)
    c.observe({0}, [], 0.0)
    assert c.expired(60.0) == [0] and c.run_out(0) == 1
    c.observe(set(), [], 61.0)
    assert c.seats[0].bank == 60.0                           # a turn run out: the bank of the start
    c.observe({0}, [], 70.0)
    c.observe(set(), [(0, "k")], 80.0)
    assert c.seats[0].misses == 0
    c.hold(0)
    assert c.observe({0}, [], 90.0) == ([], [])               # a bot's seat has no clock
    restored = TableClock.from_json(c.to_json())
    assert restored == c


@pytest.mark.parametrize("body, field", [
    ({"kind": "turn"}, "minutes"), ({"kind": "bank", "minutes": 5, "increment": 10**6}, "increment"),
    ({"kind": "turn", "minutes": True}, "minutes"), ({"kind": "turn", "minutes": 5, "misses": 2.5}, "misses"),
    ({"kind": "turn", "minutes": 5, "speed": 1}, "unknown"), ("fast", "object"),
])
def test_settings_out_of_bounds_are_refused_by_name(body, field):
    with pytest.raises(ClockError, match=field):
        ClockSpec.from_json(body)


def test_a_decision_taken_back_gives_back_the_turn_it_ended_not_a_fresh_one():
    """Undo: the turn goes on from its start, so an answer and its undo renew no deadline
    and earn no increment."""
    for spec in (ClockSpec("turn", 10), ClockSpec("bank", 10, 30)):
        c = TableClock.new(spec, 2)
        c.observe({0}, [], 0.0)
        before = c.snapshot(0)
        c.observe({1}, [(0, "a")], 500.0)                    # the answer ends seat 0's turn
        c.take_back(0, before)
        assert c.observe({0}, [], 510.0) == ([], [1])        # no new turn for seat 0
        assert c.left(0, 510.0) == 600.0 - 510.0, spec.kind
        assert c.observe(set(), [], 520.0) == ([], [0])
        assert c.seats[0].bank == (600.0 if spec.kind == "turn" else 600.0 - 520.0)
