"""Rulings of games/brittania/RULINGS.md that the adjudication cases cannot show (set-up,
kings, the order form, hidden orders, newcomers), each citing the rules post; and the
check that every ruling is pinned by a test or a case."""

import re
from pathlib import Path

import pytest

from realms.core.decision import IllegalAnswer
from realms.games.brittania import GAME
from realms.games.brittania.orders import Order, check_post, order_items
from realms.games.brittania.state import INDEPENDENT

from .adjudicate import read_case

HERE = Path(__file__).parent


def rulings_text() -> str:
    import realms.games.brittania as pkg

    return (Path(pkg.__file__).parent / "RULINGS.md").read_text(encoding="utf-8")


def answer(s, key, player=None):
    d = s.pending()[0] if player is None else s.decision_for(player)
    s.apply(d.player, key)


def set_up(s, starts=("brega", "desmumu", "norfolk")):
    """Answer the set-up: starting states in seat order, Shrewd kings, first names."""
    for p in range(s.n):
        answer(s, starts[p])
        answer(s, "Shrewd")
        answer(s, s.pending()[0].keys[0])


def test_br_q4_every_state_starts_at_10():
    """BR-Q4: "Each State at start lets you use 10 Grain per Turn" — every state, the
    independent ones too, starts with output 10."""
    s = GAME.new_game({"players": 2}, 1)
    assert set(s.output) == {10}


def test_br_q5_first_come_first_served():
    """BR-Q5: "A Player ... picks a State": in seat order, any independent state; a state
    taken is not offered again, a neighbouring one is."""
    s = GAME.new_game({"players": 2}, 1)
    d = s.pending()[0]
    assert d.kind == "br.start" and d.player == 0 and len(d.keys) == 81
    answer(s, "brega")
    answer(s, "Sailor")
    answer(s, "Brian")
    d = s.pending()[0]
    assert d.player == 1 and "brega" not in d.keys and "mide" in d.keys


def test_br_q6_created_king():
    """BR-Q6: "he needs a Name and a Positive Trait. He also has Command Value (CV)
    randomly set between 1 and 3": the trait is chosen among the positive ones, the name
    from the starting region's list, the CV a d3."""
    cvs = set()
    for seed in range(30):
        s = GAME.new_game({"players": 2}, seed)
        answer(s, "gwent")
        d = s.pending()[0]
        assert d.kind == "br.trait" and "Weak" not in d.keys and set(d.keys) == set(s.tables.positive)
        answer(s, "Warrior")
        d = s.pending()[0]
        assert d.kind == "br.name" and "Hywel" in list(d.keys) and "Alfred" not in list(d.keys)
        answer(s, "Hywel")
        cvs.add(s.king_cv[0])
    assert cvs == {1, 2, 3}


def test_br_q6_a_king_takes_any_name_his_player_gives():
    """BR-Q6, PLAYER KINGS: "When creating your State, you need to make a King; he needs a
    Name": the name is the player's, any name — Offa in Kent though the English list has no
    Offa —; the region's list is what the form offers (bots answer from it by index).  A
    name is printable text of 1 to 30 characters without markup; the record keeps the name
    and replays to the same state."""
    s = GAME.new_game({"players": 2}, 5)
    answer(s, "kent")
    answer(s, "Shrewd")
    d = s.pending()[0]
    assert d.kind == "br.name" and list(d.keys) == list(dict.fromkeys(s.tables.names["england"]))
    assert d.to_json()["options"][0] == {"key": "Alfred", "label": "Alfred"} and d.info["any_name"]
    for bad in ("", " Offa", "Offa  Rex", "x" * 31, "Offa\n", "[b]Offa[/b]", "<i>Offa"):
        with pytest.raises(IllegalAnswer):
            s.apply(0, bad)
    assert s.king_name[0] == "" and s.pending()[0] is d
    answer(s, "Offa")
    answer(s, "mide")
    answer(s, "Rich")
    answer(s, "Brian Boru the Great of Munste")                       # 30 characters
    assert s.king_name == ["Offa", "Brian Boru the Great of Munste"]
    assert any(e.kind == "king" and e.data["name"] == "Offa" for e in s.events)
    again = GAME.replay(s.record())
    assert again.king_name == s.king_name and again.state_hash() == s.state_hash()


def test_br_q6_a_random_king_is_named_from_the_list():
    """BR-Q6: after a death "a new one is immediately created for the Player; these
    randomly generated Kings": nobody names him, so his name is drawn from the list of his
    capital's region even when the player named the first king himself."""
    s = GAME.new_game({"players": 2, "turns": 30}, 2)
    for start, king in (("kent", "Offa"), ("mide", "Cerball")):
        answer(s, start)
        answer(s, "Rich")
        answer(s, king)
    while not s.over and not any(e.kind == "king-death" for e in s.events):
        for p in range(2):
            if s.first_pending((p,)) is not None:
                s.apply(p, "done")
    deaths = [e for e in s.events if e.kind == "king-death"]
    assert deaths and deaths[0].data["name"] in ("Offa", "Cerball")
    p = deaths[0].data["player"]
    assert s.king_name[p] in s.tables.names[s.board.states[s.capital[p]].region]


def test_br_q7_one_death_toss_a_turn():
    """BR-Q7: "every Turn, a Coin Toss is made": one toss for the whole game each turn."""
    s = GAME.new_game({"players": 3, "turns": 5}, 3)
    set_up(s)
    while not s.over:
        for d in s.pending():
            if d.kind in ("br.order",):
                s.apply(d.player, "done")
                break
        else:
            d = s.pending()[0]
            s.apply(d.player, d.keys[0])
    tosses = [e for e in s.events if e.kind == "death-toss" or (e.kind == "king-death" and e.data["why"] == "of natural causes")]
    assert len(tosses) == 5


def test_br_q9_no_income_before_turn_2():
    """BR-Q9: "Each Player starts with 10 Grain": turn 1 is played with those 10; income
    comes at the start of every later turn."""
    s = GAME.new_game({"players": 2}, 1)
    set_up(s)
    assert s.turn == 1 and s.grain == [10, 10]
    assert not [e for e in s.events if e.kind == "income"]
    s.apply(0, "done")
    s.apply(1, "done")
    assert s.turn == 2
    gathered = [e.data for e in s.events if e.kind == "income"]
    assert [g["player"] for g in gathered] == [0, 1]
    for g in gathered:
        assert g["parts"]["states"] == 10 and s.grain[g["player"]] == 10 + g["grain"]


def test_br_q27_orders_as_data():
    """BR-Q27: a post's orders are plain data (:class:`Order`), entered as the order
    form's decisions: "10 Grain to Conquer Kent." is Order("conquer", "kent", 10)."""
    assert order_items([Order("conquer", "kent", 10), Order("defend", "essex", 5), Order("trade", "2")]) == [
        ("br.order", "conquer:kent"), ("br.grain", "10"), ("br.order", "defend:essex"), ("br.grain", "5"),
        ("br.order", "trade:2"), ("br.order", "done")]


def test_br_q28_orders_for_states_not_owned_are_refused():
    """BR-Q28: "5 Grain to Defend Essex." from a player who does not hold Essex is
    refused, naming the player and the order; nothing changes."""
    s = GAME.new_game({"players": 2, "names": ["Ann", "Bob"]}, 1)
    set_up(s)
    before = s.state_hash()
    with pytest.raises(IllegalAnswer, match="Ann: 'defend:desmumu' is not an option of br.order"):
        check_post(s, 0, [Order("defend", "desmumu", 5)])
    assert s.state_hash() == before


def test_br_q29_orders_hidden_until_resolution():
    """BR-Q29: orders "through Personal Messages to the GM" are secret: while a turn's
    orders are written, no other seat's view, decisions or record shows them, nor how
    many answers another gave; once it resolves, the record counts them, keys hidden."""
    s = GAME.new_game({"players": 2}, 1)
    set_up(s)
    s.apply(0, "invest:brega")
    s.apply(1, "invest:desmumu")
    s.apply(0, "4")
    mine = s.view(0)["orders"]
    assert mine == [{"by": 0, "grain": 4, "kind": "invest", "target": "brega"}]
    assert "orders" not in s.view(1) or s.view(1)["orders"] == []
    assert "brega" not in str(s.view(1).get("orders")) and "orders" not in s.view(None)
    secret = GAME.hidden(s, 1)
    assert secret == [{"by": 0, "grain": 4, "kind": "invest", "target": "brega"}]
    rec = GAME.record_for(s, 1)
    assert rec["answers"][-1] == [1, "invest:desmumu"]              # not even how many Ann gave
    assert all(p == 1 for p, _ in rec["answers"][s.orders_from:])
    s.apply(1, "4")
    s.apply(0, "done")
    s.apply(1, "done")                                               # the turn resolves
    rec = GAME.record_for(s, 1)
    assert [0, None] in rec["answers"] and [0, "invest:brega"] not in rec["answers"]


def bob_eliminated(turns=5):
    """A two-player game where Bob (Yellow) loses his only state, Mide, on turn 1: 30
    grain + d10 always beats d10 + 5."""
    s = GAME.new_game({"players": 2, "turns": turns}, 1)
    set_up(s)
    s.owner[s.board.index["mide"]] = 1
    s.owner[s.board.index["desmumu"]] = INDEPENDENT
    s.capital[1] = s.board.index["mide"]
    s.grain[0] = 30
    s.apply(0, "conquer:mide")
    s.apply(1, "done")
    s.apply(0, "30")
    s.apply(0, "done")
    assert not s.alive[1] and s.turn == 2
    return s


def test_br_q30_newcomer_takes_the_colour_next_turn():
    """BR-Q30: "If any Player gets eliminated, another can take their color, pick an
    independent State": at the start of the next turn, with a new king and 10 grain."""
    s = bob_eliminated()
    d = s.pending()[0]
    assert d.kind == "br.newcomer" and d.player == 1 and "mide" not in d.keys
    s.apply(1, "umall")
    assert s.alive[1] and s.grain[1] == 10 and s.capital[1] == s.board.index["umall"]
    assert s.pending()[0].kind == "br.trait"


def test_br_q30_a_colour_nobody_takes_stays_free_and_is_offered_again():
    """BR-Q30, INTRODUCTION: "another *can* take their color": the colour's seat answers
    for whoever may take it, and ``nobody`` is one answer: the colour then stays free that
    turn — no state, no grain, no king, no orders — the turn goes on, and the next turn
    asks again."""
    s = bob_eliminated()
    d = s.pending()[0]
    assert d.kind == "br.newcomer" and d.keys[-1] == "nobody"
    assert d.prompt.startswith("P2 was eliminated: the colour left is free; a newcomer may take it")
    assert d.label("nobody") == "Nobody takes the colour this turn"
    s.apply(1, "nobody")
    assert not s.alive[1] and s.grain[1] == 0 and s.held(1) == []
    assert s.pending()[0].kind == "br.order" and s.first_pending((1,)) is None
    assert any(e.kind == "newcomer" and e.text == "Nobody takes the colour left by P2 this turn." for e in s.events)
    s.apply(0, "done")
    assert s.turn == 3
    d = s.pending()[0]
    assert d.kind == "br.newcomer" and d.player == 1
    s.apply(1, "umall")
    assert s.alive[1] and s.pending()[0].kind == "br.trait"


def pinned_ids() -> set[str]:
    found = set()
    for path in HERE.glob("test_*.py"):
        text = path.read_text(encoding="utf-8")
        found |= set(re.findall(r"BR-Q\d+", text)) | {f"BR-Q{n}" for n in re.findall(r"br_q(\d+)", text)}
    for path in (HERE / "cases").glob("*.txt"):
        found |= set(read_case(path).rulings)
    return found


def test_every_ruling_is_pinned():
    """Every ruling ID in RULINGS.md is pinned by a test or an adjudication case."""
    ids = set(re.findall(r"^## (BR-Q\d+)", rulings_text(), re.M))
    assert {f"BR-Q{i}" for i in range(1, 31)} <= ids
    assert ids - pinned_ids() == set()
