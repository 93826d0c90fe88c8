"""Missions and the end of the game (2.4, 2.4.1)."""

from __future__ import annotations

import json

import pytest

from realms.games.version2 import GAME
from realms.games.version2.missions import KINDS, fulfilled, hidden, mission_code


@pytest.mark.parametrize("players", [2, 3, 6])
def test_2_4_1_missions_dealt_distinct_and_adapted(players):
    """2.4.1: one mission each, adapted to the number of players (V2-Q30): no kind twice,
    no "two capitols" with only one enemy capitol, never "free the world" from oneself."""
    for seed in range(25):
        s = GAME.new_game({"players": players}, seed)
        kinds = [m[0] for m in s.missions]
        assert len(set(kinds)) == players and set(kinds) <= set(KINDS)
        if players == 2:
            assert "capitols" not in kinds
        for p, m in enumerate(s.missions):
            if m[0] == "free":
                assert m[1] != p and 0 <= m[1] < players


def test_2_4_missions_secret_until_the_end():
    """2.1: every player knows his own mission; no other seat's view shows it."""
    s = GAME.new_game({"players": 3}, 4)
    for viewer in (None, 0, 1, 2):
        text = json.dumps(s.view(viewer))
        for p in range(3):
            assert (mission_code(s, p) in text) == (p == viewer)
    assert hidden(s, 0) == [mission_code(s, 1), mission_code(s, 2)]


def _land(v2, s, p, n, start=0):
    fields = [f for f in s.board.land][start:start + n]
    v2.own(s, p, *fields)
    return fields


def test_2_4_checked_from_the_fourth_turn(v2):
    """2.4: "the missions can be fulfilled from the beginning of the fourth game turn"."""
    s = v2.game(turn=3)
    _land(v2, s, 0, 3)
    _land(v2, s, 1, 1, start=10)
    s.missions[0] = ("land", 3)
    assert v2.run(s, ("act", 0)) is not None and not s.over
    s.turn = 4
    assert v2.run(s, ("act", 0)) is None
    assert s.over and s.winners == [0] and s.end_reason == "mission"


def test_2_4_active_player_wins_after_his_action(v2):
    """2.4: the active player wins as soon as an action fulfils his mission."""
    s = v2.game(turn=5)
    a, b = v2.pair("meadows", "meadows")
    v2.own(s, 0, a, units=[v2.inf()])
    _land(v2, s, 1, 1, start=20)
    s.missions[0] = ("land", 2)
    v2.run(s, ("act", 0))
    v2.answer(s, f"attack:{b}")
    v2.answer(s, next(k for k in s.pending()[0].keys if k.startswith("add:")))
    assert v2.answer(s, "go") is None and s.winners == [0]


def test_2_4_helping_another_player(v2):
    """2.4: an active player who fulfils another's mission may still fulfil his own in his
    turn; if he does not, the other wins at the end of his turn; with several, the one
    next in turn wins (V2-Q33)."""
    s = v2.game(players=4, turn=5)
    for p in range(4):
        _land(v2, s, p, 1, start=p)
    s.missions = [("none",), ("none",), ("army",), ("army",)]
    s.set_units(s.board.land[2], [v2.inf()] * 3)          # player 2 and 3 …
    s.set_units(s.board.land[3], [v2.inf()] * 3)          # … each as big as the others together
    s.treasure[1] = 50                                     # player 1 has more to do than end his turn
    v2.run(s, ("act", 1))
    assert not s.over
    v2.answer(s, "end")
    assert s.over and s.winners == [2] and "helped by P2" in s.events[-1].text
    s2 = v2.game(players=4, turn=5)
    for p in range(4):
        _land(v2, s2, p, 1, start=p)
    s2.missions = [("none",), ("none",), ("army",), ("army",)]
    s2.set_units(s2.board.land[2], [v2.inf()] * 3)
    s2.set_units(s2.board.land[3], [v2.inf()] * 3)
    v2.run(s2, ("act", 2))
    assert s2.over and s2.winners == [2]                  # his own turn: he wins at once
    s3 = v2.game(players=4, turn=5)
    for p in range(4):
        _land(v2, s3, p, 1, start=p)
    s3.missions = [("none",), ("none",), ("army",), ("army",)]
    s3.set_units(s3.board.land[2], [v2.inf()] * 3)
    s3.set_units(s3.board.land[3], [v2.inf()] * 3)
    v2.run(s3, ("act", 2))
    s3.over, s3.winners = False, []
    s3.missions[2] = ("none",)
    v2.run(s3, ("end_turn", 2))
    assert s3.winners == [3]


def test_2_4_a_fulfilled_mission_undone_still_wins(v2):
    """2.4: a mission fulfilled when the fourth game turn begins counts: the active player
    "has the opportunity to fulfil his own mission in his turn … If he fails the other
    player whose mission has been 'fulfilled', wins the game" — taking back one of the
    other's fields does not undo it (V2-Q33)."""
    s = v2.game(players=3, turn=4)
    a, b = v2.pair("meadows", "meadows")
    v2.own(s, 0, a, units=[v2.inf()])
    v2.own(s, 1, b)
    far = next(f for f in s.board.land if s.owner[f] == v2.NOBODY and f not in s.board.adj[a])
    v2.own(s, 1, far)
    _land(v2, s, 2, 1, start=len(s.board.land) - 1)
    s.missions = [("none",), ("land", 2), ("none",)]
    s.treasure[0] = 50                                     # player 0 has more to do than end his turn
    d = v2.run(s, ("turn", 0))
    assert d.player == 0 and s.helped == [1] and not s.over
    v2.answer(s, f"attack:{b}")
    v2.answer(s, f"add:{a}:i1.0")
    v2.answer(s, "go")                                     # b is player 0's: player 1 holds one field
    assert s.owner[b] == 0 and s.land_count(1) == 1 and not s.over
    v2.answer(s, "end")
    assert s.over and s.winners == [1] and "helped by P1" in s.events[-1].text


def test_2_4_noted_missions_are_noted_anew_when_redealt(v2):
    """2.4, V2-Q101: a search's determinized copy re-deals the hidden missions; the list of
    players noted fulfilled this turn would tell of them, so it is noted anew."""
    from realms.core.dice import Dice
    from realms.games.version2.missions import redeal

    s = v2.game(players=3, turn=5)
    _land(v2, s, 0, 1)
    _land(v2, s, 1, 1, start=1)
    _land(v2, s, 2, 1, start=2)
    s.missions = [("none",), ("fields",), ("none",)]
    s.helped = [1]
    redeal(s, 0, Dice(3))
    assert s.missions[0] == ("none",)
    assert s.helped == [q for q in (1, 2) if fulfilled(s, q)]


def test_2_4_1_free_the_world(v2):
    """2.4.1 "Free the world from player xyz": fulfilled when he loses his last field to
    you; if another player takes it, the mission becomes the land mission (V2-Q32)."""
    s = v2.game(players=3, turn=5)
    a, b = v2.pair("meadows", "meadows")
    v2.own(s, 0, a, units=[v2.inf()])
    v2.own(s, 1, b)
    _land(v2, s, 2, 1, start=40)
    s.missions = [("free", 1), ("none",), ("free", 1)]
    v2.run(s, ("act", 0))
    v2.answer(s, f"attack:{b}")
    v2.answer(s, f"add:{a}:i1.0")
    v2.answer(s, "go")
    assert not s.alive[1] and s.eliminated_by[1] == 0
    assert s.over and s.winners == [0]
    assert s.missions[2][0] == "land"


def test_2_4_last_player_left_wins(v2):
    """V2-Q34: a player without fields is out; the last one left wins."""
    s = v2.game(players=2, turn=2)
    a, b = v2.pair("meadows", "meadows")
    v2.own(s, 0, a, units=[v2.inf()])
    v2.own(s, 1, b)
    v2.run(s, ("act", 0))
    v2.answer(s, f"attack:{b}")
    v2.answer(s, f"add:{a}:i1.0")
    v2.answer(s, "go")
    assert s.over and s.winners == [0] and s.end_reason == "last"
    assert not s.pending() and s.is_over()


def test_turn_limit(v2):
    """V2-Q35: at the turn limit the player holding most fields wins."""
    s = v2.game(players=2, turn=40)
    s.turn_limit = 40
    _land(v2, s, 0, 2)
    _land(v2, s, 1, 3, start=10)
    v2.run(s, ("end_turn", 1))
    assert s.over and s.winners == [1] and s.end_reason == "limit"
    assert s.result()["winner"] == "P2" and s.result()["scores"] == {"P1": 2, "P2": 3}


def test_turn_limit_names_the_production_tie_break(v2):
    """V2-Q35: fields tied, the most production wins, and the end says so in words (not
    "holds the most fields" of a player who only shares them)."""
    s = v2.game(players=2, turn=40)
    s.turn_limit = 40
    _land(v2, s, 0, 2)
    _land(v2, s, 1, 2, start=10)
    assert s.production(0) != s.production(1)
    v2.run(s, ("end_turn", 1))
    w = 0 if s.production(0) > s.production(1) else 1
    assert s.over and s.winners == [w]
    end = s.events[-1].text
    assert "P1 and P2 hold the most fields (2)" in end
    assert f"P{w + 1} wins on production ({s.production(w)})" in end
    how = s.result()["how"]
    assert how.startswith("the turn limit reached") and "production" in how and "limit" != how
