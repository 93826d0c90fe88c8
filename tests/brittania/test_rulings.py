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
        assert d.kind == "br.name" and "Hywel" in d.keys and "Alfred" not in d.keys
        answer(s, "Hywel")
        cvs.add(s.king_cv[0])
    assert cvs == {1, 2, 3}


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


def test_br_q30_newcomer_takes_the_colour_next_turn():
    """BR-Q30: "If any Player gets eliminated, another can take their color, pick an
    independent State": at the start of the next turn, with a new king and 10 grain."""
    s = GAME.new_game({"players": 2, "turns": 5}, 1)
    set_up(s)
    # Bob's only state is his capital Mide; 30 grain + d10 always beats d10 + 5.
    s.owner[s.board.index["mide"]] = 1
    s.owner[s.board.index["desmumu"]] = INDEPENDENT
    s.capital[1] = s.board.index["mide"]
    s.grain[0] = 30
    s.apply(0, "conquer:mide")
    s.apply(1, "done")
    s.apply(0, "30")
    s.apply(0, "done")
    assert not s.alive[1] and s.turn == 2
    d = s.pending()[0]
    assert d.kind == "br.newcomer" and d.player == 1 and "mide" not in d.keys
    s.apply(1, "umall")
    assert s.alive[1] and s.grain[1] == 10 and s.capital[1] == s.board.index["umall"]
    assert s.pending()[0].kind == "br.trait"


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
