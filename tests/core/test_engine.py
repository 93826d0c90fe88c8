"""The core contract: dice, decisions, records and the step machine."""

import json

import pytest

from realms.core.decision import Decision, IllegalAnswer
from realms.core.dice import Dice
from realms.core.game import OptionError, get_game, replay
from realms.core.record import Record, RecordError


def test_dice_reproducible_and_in_range():
    a, b = Dice(42), Dice(42)
    rolls = [a.d6() for _ in range(600)]
    assert rolls == [b.d6() for _ in range(600)]
    assert set(rolls) == {1, 2, 3, 4, 5, 6}
    assert Dice(43).roll(20) != Dice(42).roll(20)


def test_dice_known_sequence_is_stable():
    """Records replay on any machine: the first rolls of seed 1 never change."""
    assert Dice(1).roll(12) == [1, 6, 5, 2, 3, 3, 4, 5, 1, 1, 6, 3]


def test_dice_clone_is_independent():
    a = Dice(5)
    a.d6()
    b = a.clone()
    assert [a.d6() for _ in range(10)] == [b.d6() for _ in range(10)]
    b.d6()
    assert a.fingerprint() != b.fingerprint()


def test_dice_rejects_non_integer_seed():
    with pytest.raises(TypeError):
        Dice("7")


def test_shuffled_is_a_permutation():
    d = Dice(3)
    assert sorted(d.shuffled(range(10))) == list(range(10))


def test_decision_options_and_json():
    d = Decision(0, "x.pick", ("a", "b"), "Pick", "§1", lambda k: k.upper())
    assert [o.label for o in d.options] == ["A", "B"]
    assert json.loads(json.dumps(d.to_json()))["options"][1] == {"key": "b", "label": "B"}


def test_unknown_game():
    with pytest.raises(KeyError, match="unknown game 'chess'"):
        get_game("chess")


def test_bad_options_name_the_option():
    g = get_game("hy-breasil")
    with pytest.raises(OptionError, match="players"):
        g.new_game({"players": 7})
    with pytest.raises(OptionError, match="unknown option"):
        g.new_game({"colour": "red"})
    with pytest.raises(OptionError, match="turns"):
        g.new_game({"turns": 0})


def test_illegal_answer_leaves_state_untouched():
    g = get_game("hy-breasil")
    s = g.new_game({"players": 3}, seed=4)
    before = s.state_hash()
    d = s.pending()[0]
    with pytest.raises(IllegalAnswer, match="not an option"):
        s.apply(d.player, "atlantis")
    with pytest.raises(IllegalAnswer, match="no decision pending"):
        s.apply((d.player + 1) % 3, d.keys[0])
    assert s.state_hash() == before
    assert s.answers == []


def test_answer_by_index_refuses_stale_decisions_and_bad_indexes():
    """The simulation loop's fast path keeps the contract: a decision that is no longer
    pending (answered already) or an index out of range is refused, nothing changed."""
    g = get_game("hy-breasil")
    s = g.new_game({"players": 3}, seed=4)
    d = s.pending()[0]
    before = s.state_hash()
    with pytest.raises(IllegalAnswer, match="out of range"):
        s.answer_index(d, len(d.keys))
    assert s.state_hash() == before and s.answers == []
    key = s.answer_index(d, 0)
    assert s.answers == [(d.player, key)]
    after = s.state_hash()
    with pytest.raises(IllegalAnswer, match="no longer pending"):
        s.answer_index(d, 0)
    assert s.state_hash() == after and len(s.answers) == 1


def _played(seed=11, turns=3):
    from realms.core.agents import RandomBot
    from realms.core.match import play

    g = get_game("hy-breasil")
    s = g.new_game({"players": 3, "turns": turns}, seed)
    return g, play(s, [RandomBot(seed * 10 + i) for i in range(3)])


def test_record_round_trip_and_replay():
    g, s = _played()
    rec = Record.loads(s.record().dumps())
    assert rec.answers == s.answers
    again = replay(rec)
    assert again.state_hash() == s.state_hash()
    assert again.chronicle() == s.chronicle()


def test_record_errors_name_the_problem(tmp_path):
    g, s = _played(turns=1)
    data = s.record().to_json()
    bad = dict(data, answers=data["answers"][:5] + [[0, "nowhere"]])
    with pytest.raises(RecordError, match=r"answer #6"):
        replay(Record.from_json(bad, "bad.json"), "bad.json")
    with pytest.raises(RecordError, match="not valid JSON"):
        Record.loads("{", "x.json")
    with pytest.raises(RecordError, match="format"):
        Record.from_json({"format": "pgn"}, "x.json")
    with pytest.raises(RecordError, match="answer #1"):
        Record.from_json(dict(data, answers=[["0", "x"]]), "x.json")
    with pytest.raises(RecordError, match="unknown game"):
        replay(Record.from_json(dict(data, game="go"), "x.json"))
    with pytest.raises(RecordError, match="bad options"):
        replay(Record.from_json(dict(data, options={"players": 1}), "x.json"))
    with pytest.raises(RecordError, match="version"):
        replay(Record.from_json(dict(data, version=99), "x.json"))


def test_state_hash_differs_after_a_step_and_clone_is_equal():
    g = get_game("hy-breasil")
    s = g.new_game({"players": 2}, seed=9)
    c = s.clone()
    assert c.state_hash() == s.state_hash()
    d = s.pending()[0]
    s.apply(d.player, d.keys[0])
    assert c.state_hash() != s.state_hash()


def test_finished_game_refuses_answers():
    g, s = _played(turns=1)
    assert s.pending() == [] and s.result()["over"]
    with pytest.raises(IllegalAnswer, match="over"):
        s.apply(0, "x")


def test_pending_for_shows_only_a_players_own_decisions():
    """A simultaneous draft (Brian Boru) shows each player only his own packet."""
    g = get_game("brian-boru")
    s = g.new_game({"players": 3}, seed=2)
    while len(s.pending()) < 2:
        d = s.pending()[0]
        s.apply(d.player, d.keys[0])
    players = {d.player for d in s.pending()}
    for p in players:
        assert [d.player for d in s.pending_for(p)] == [p]
    assert s.pending_for(None) == []


def test_record_for_a_player_hides_other_picks_and_the_seed():
    """Brian Boru (issue 6): a running game's record given to a player is his view —
    no seed, other players' draft picks masked; a finished game's record is whole."""
    from realms.core.agents import RandomBot
    from realms.core.match import play

    g = get_game("brian-boru")
    s = g.new_game({"players": 3}, seed=5)
    while "bb.draft" not in s.answer_kinds[-6:] or len(s.pending()) > 1:
        d = s.pending()[0]
        s.apply(d.player, d.keys[0])
    mine = g.record_for(s, 0)
    assert "seed" not in mine and mine["format"] == "realms-view-record"
    drafts = [(a, k) for a, k in zip(mine["answers"], s.answer_kinds) if k == "bb.draft"]
    assert drafts and all((key is None) == (p != 0) for (p, key), _ in drafts)
    assert any(p == 0 and key is not None for (p, key), _ in drafts)
    public = [(a, k) for a, k in zip(mine["answers"], s.answer_kinds) if k != "bb.draft"]
    assert all(key is not None for (p, key), _ in public)
    play(s, [RandomBot(i) for i in range(3)])
    assert g.record_for(s, 0) == s.record().to_json()


def test_turn_starts_of_a_broken_record_names_the_bad_answer():
    """The replay viewer's turn stops come from a replay: a record that does not replay is
    refused as :meth:`Game.replay` refuses it, naming the answer."""
    g, s = _played()
    bad = s.record()
    bad.answers = bad.answers[:5] + [(bad.answers[5][0], "atlantis")]
    with pytest.raises(RecordError, match=r"answer #6 .*atlantis"):
        g.turn_starts(bad)
    assert g.turn_starts(s.record())[0][1] == 0  # the opening's events come before any answer
