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



def test_dice_clones_share_the_generator_until_each_rolls():
    """A clone shares its generator until it rolls: however the rolls of the
    copies interleave, and through a roll function taken after the clone (as a step takes
    ``dice._random``), each copy rolls what the original would have."""
    a = Dice(9)
    b = a.clone()
    c = b.clone()
    taken = a._random
    expected = Dice(9).roll(6)
    assert [int(taken() * 6) + 1 for _ in range(3)] == expected[:3]
    assert c.roll(6) == expected
    assert b.fingerprint() == Dice(9).fingerprint()  # untouched by the others' rolls
    assert b.roll(6) == expected
    assert a.roll(3) == expected[3:]

def test_dice_copied_by_the_copy_module_roll_as_the_original_and_apart_from_it():
    """``copy.deepcopy`` of something holding dice (a bot, say) works compiled or plain:
    the copy rolls what the original would, and rolling one leaves the other alone."""
    import copy

    for copied in (copy.copy, copy.deepcopy):
        a = Dice(9)
        a.roll(3)
        holder = {"dice": a}
        b = copied(holder)["dice"] if copied is copy.deepcopy else copied(a)
        assert b is not a
        expected = b.roll(10)
        assert a.roll(10) == expected


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
    """Brian Boru: a running game's record given to a player is his view —
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


# -- the engine API for search and learning ------------------------------------
from realms.core.engine import Field, GameState, Steps, copy_lists  # noqa: E402

TOY = Steps("toy")


class Toy(GameState):
    """Two seats: a question with one option, a simultaneous pair (one of them with one
    option), then a real question; ``options["winners"]`` says who wins."""

    GAME_ID = "toy"
    STEPS = TOY
    FIELDS = (Field("names", snap=False), Field("log", list), Field("rolls", list))

    def __init__(self, options: dict, seed: int) -> None:
        super().__init__(options, seed)
        self.names = ["ann", "bob"]
        self.log = []
        self.rolls = []
        self.start(("one",), ("both",), ("two",))

    def view(self, player):
        return {"log": [list(e) for e in self.log]}

    def result(self):
        over = self.is_over()
        return {"players": self.names, "winners": list(self.options["winners"]) if over else []}


@TOY.step("one")
def _one(s):
    return Decision(0, "toy.one", ["only"], "One way")


@TOY.step("both")
def _both(s):
    return [Decision(0, "toy.both", ["x"], "Ann"), Decision(1, "toy.both", ["y", "z"], "Bob")]


@TOY.step("two")
def _two(s):
    s.rolls.append(s.dice.d6())
    return Decision(1, "toy.two", ["p", "q"], "Bob again")


@TOY.on_answer("one")
@TOY.on_answer("both")
@TOY.on_answer("two")
def _answer(s, player, key):
    s.log.append((player, key))


def test_a_single_option_is_applied_by_the_engine_and_not_recorded():
    s = Toy({"winners": ["ann"]}, 1)
    assert [(d.player, d.kind) for d in s.pending()] == [(1, "toy.both")]  # Ann's "x" too
    assert s.log == [(0, "only"), (0, "x")] and s.answers == []
    s.apply(1, "z")
    assert s.first_pending().kind == "toy.two" and s.waiting_frame() == ("two",)
    s.apply(1, "p")
    assert s.answers == [(1, "z"), (1, "p")] and s.is_over()


ROUNDS = Steps("rounds")


class Rounds(GameState):
    """Two seats each write three words at once; a seat that answers is asked its next word
    at once (``ask_also``) while the other still writes; the third word has one option."""

    GAME_ID = "rounds"
    STEPS = ROUNDS
    FIELDS = (Field("words", copy_lists),)

    def __init__(self, options: dict, seed: int) -> None:
        super().__init__(options, seed)
        self.words = [[], []]
        self.start(("write",), ("end",))

    def view(self, player):
        return {"words": self.words}

    def result(self):
        return {"players": ["ann", "bob"], "winners": []}


def _word(s, p):
    keys = ["last"] if len(s.words[p]) == 2 else ["a", "b"]
    return Decision(p, "rounds.word", keys, "A word")


@ROUNDS.step("write")
def _write(s):
    asks = [_word(s, p) for p in (0, 1) if len(s.words[p]) < 3]
    if asks:
        s.then(("write",))
        return asks
    return None


@ROUNDS.on_answer("write")
def _wrote(s, player, key):
    s.words[player].append(key)
    if len(s.words[player]) < 3 and s.first_pending() is not None:
        s.ask_also(_word(s, player))


@ROUNDS.step("end")
def _end(s):
    s.words.append(["end"])


def test_ask_also_asks_a_player_again_while_another_decides():
    s = Rounds({}, 1)
    s.apply(0, "a")
    assert [d.player for d in s.pending()] == [1, 0]  # Ann asked again; Bob still writing
    s.apply(0, "b")  # Ann's third word has one option: applied, not asked
    assert s.words[0] == ["a", "b", "last"] and [d.player for d in s.pending()] == [1]
    s.apply(1, "b")  # the last one pending: the step runs again and asks Bob
    assert s.waiting_frame() == ("write",) and [d.player for d in s.pending()] == [1]
    s.apply(1, "a")
    assert s.is_over() and s.words == [["a", "b", "last"], ["b", "a", "last"], ["end"]]
    assert s.answers == [(0, "a"), (0, "b"), (1, "b"), (1, "a")]
    with pytest.raises(RuntimeError, match="no decision of a simultaneous question"):
        s.ask_also(_word(s, 0))


def test_fields_are_declared_once():
    """Construction must set every declared field, and the kit finds any other; a clone
    copies each as declared (lists anew, the rest shared); the snapshot holds those it
    names."""
    class Forgetful(Toy):
        FIELDS = Toy.FIELDS + (Field("forgotten", list),)

    class Sloppy(Toy):
        def __init__(self, options, seed):
            self.extra = 1
            super().__init__(options, seed)

    with pytest.raises(TypeError, match=r"declared in FIELDS but not set: \['forgotten'\]"):
        Forgetful({"winners": []}, 1)
    assert Sloppy({"winners": []}, 1).undeclared_fields() == ["extra"]
    s = Toy({"winners": []}, 1)
    assert s.undeclared_fields() == []
    c = s.clone()
    assert c.log == s.log and c.log is not s.log and c.names is s.names
    c.log.append((9, "z"))
    assert s.log == [(0, "only"), (0, "x")]
    assert s.snapshot() == {"log": s.log, "rolls": s.rolls}


def test_restart_and_the_frames_to_come():
    s = Toy({"winners": []}, 1)
    s.restart(("two",), ("one",))
    assert s.waiting_frame() == ("two",) and s.next_frames() == (("one",),)
    s.apply(1, "q")
    assert s.is_over() and s.log[-2:] == [(1, "q"), (0, "only")]


def test_returns_share_a_win_and_refuse_an_unfinished_game():
    s = Toy({"winners": ["ann", "bob"]}, 1)
    with pytest.raises(ValueError, match="not over"):
        s.returns()
    s.apply(1, "y")
    s.apply(1, "q")
    assert s.returns() == [0.5, 0.5]
    s = Toy({"winners": ["bob"]}, 1)
    s.apply(1, "y")
    s.apply(1, "q")
    assert s.returns() == [0.0, 1.0]
    g, played = _played(turns=1)
    assert len(played.returns()) == 3 and sum(played.returns()) == 1


def test_reseed_changes_the_future_and_nothing_else():
    g = get_game("hy-breasil")
    s = g.new_game({"players": 3}, seed=4)
    c = s.clone()
    c.reseed(99)
    assert c.snapshot() == s.snapshot() and c.view(0) == s.view(0)
    assert c.state_hash() != s.state_hash()
    assert [c.dice.d6() for _ in range(20)] != [s.dice.d6() for _ in range(20)]


def test_determinize_hy_breasil_hides_nothing_but_the_dice():
    import random

    g = get_game("hy-breasil")
    s = g.new_game({"players": 3}, seed=4)
    a, b = s.determinize(1, random.Random(5)), s.determinize(1, random.Random(5))
    assert a.state_hash() == b.state_hash()  # the same rng, the same copy
    assert a.snapshot() == s.snapshot() and a.view(1) == s.view(1)
    assert a.state_hash() != s.state_hash()


def _draft_stage(seed: int, stage: int):
    """A three-player Brian Boru game at the start of the draft's ``stage`` (0-based)."""
    g = get_game("brian-boru")
    s = g.new_game({"players": 3}, seed=seed)
    while s.answer_kinds.count("bb.draft") < stage * 6 or len(s.pending()) < 3:
        d = s.pending()[0]
        s.apply(d.player, d.keys[-1])
    return g, s


def test_determinize_brian_boru_keeps_what_the_player_saw_passed():
    """Draft phase: packets pass to the left, so at the second pass seat 1 holds exactly
    the packet seat 0 passed it — seat 0 knows it; seat 2's packet it never saw."""
    import random

    g, s = _draft_stage(seed=3, stage=1)
    rng = random.Random(1)
    others = set()
    for _ in range(20):
        d = s.determinize(0, rng)
        assert d.view(0) == s.view(0) and d.packets[0] == s.packets[0] and d.picks[0] == s.picks[0]
        assert d.packets[1] == s.packets[1]
        assert len(d.packets[2]) == len(s.packets[2]) and len(d.picks[2]) == len(s.picks[2])
        assert [list(x.keys) for x in d.pending() if x.player == 2] == [[s.tables.card_label(c) for c in d.packets[2]]]
        others.add(tuple(d.packets[2]))
        cards = sorted(c for place in (*d.picks, *d.packets, d.leftover) for c in place)
        assert cards == list(range(1, 26))
    assert len(others) > 1  # what seat 0 never saw is dealt anew


def test_determinize_brian_boru_keeps_the_cards_each_seat_played():
    """Tricks: a card played face up stays with the seat that played it; hands keep their
    sizes; the other seats' hands are dealt anew."""
    import random

    from realms.core.agents import RandomBot
    from realms.core.match import bot_answers

    g = get_game("brian-boru")
    s = g.new_game({"players": 4}, seed=8)
    for _ in bot_answers(s, [RandomBot(i) for i in range(4)]):
        if s.table and len(s.table) == 2 and s.first_pending().kind == "bb.play":
            break
    rng = random.Random(2)
    seen = set()
    for _ in range(20):
        d = s.determinize(3, rng)
        assert d.view(3) == s.view(3) and d.table == s.table and d.hands[3] == s.hands[3]
        assert [len(h) for h in d.hands] == [len(h) for h in s.hands]
        seen.add(tuple(map(tuple, d.hands)))
        mem: dict = {}
        assert all(inv(d, mem) is None for inv in g.invariants)
    assert len(seen) > 1


def test_traits_are_declared():
    hb, bb = get_game("hy-breasil"), get_game("brian-boru")
    assert (hb.chance, hb.hidden_information, hb.simultaneous) == (True, False, False)
    assert (bb.chance, bb.hidden_information, bb.simultaneous) == (True, True, True)


def test_bot_answers_stop_when_someone_else_is_awaited_and_at_the_limit():
    from realms.core.agents import RandomBot
    from realms.core.match import bot_answers

    s = Toy({"winners": []}, 1)
    assert list(bot_answers(s, {0: RandomBot(1)})) == []  # Bob is awaited: no bot for him
    answered = list(bot_answers(s, {1: RandomBot(1)}))
    assert [d.kind for d in answered] == ["toy.both", "toy.two"] and s.is_over()
    s = Toy({"winners": []}, 1)
    with pytest.raises(RuntimeError, match="within 1 decisions"):
        list(bot_answers(s, [RandomBot(0), RandomBot(1)], limit=1))


def test_the_kit_catches_a_determinize_that_shows_its_player_something_else():
    from types import SimpleNamespace

    from realms.core.conformance import ConformanceError, check_determinize, check_reseed, check_returns

    class Peeking(Toy):
        def redeal_hidden(self, player, dice):
            self.log.append((player, "peek"))  # changes what every seat sees

    toy = SimpleNamespace(id="toy", invariants=())
    check_determinize(toy, Toy({"winners": []}, 1), {}, seed=1, step=0)
    check_reseed(toy, Toy({"winners": []}, 1), seed=1, step=0)
    with pytest.raises(ConformanceError, match=r"determinize\(None\) changed what None sees"):
        check_determinize(toy, Peeking({"winners": []}, 1), {}, seed=1, step=0)
    s = Toy({"winners": ["bob"]}, 1)
    check_returns(toy, s, seed=1, step=0)  # running: returns() must raise, and does
    s.apply(1, "y")
    s.apply(1, "q")
    check_returns(toy, s, seed=1, step=2)
