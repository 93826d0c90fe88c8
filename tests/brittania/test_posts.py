"""Reviewing a post (RULINGS BR-Q28, "You cannot edit your orders once you've send the
post!"): every order the game refuses comes back with its reason; the rest are taken,
and entering them resolves the turn."""

import pytest

from realms.games.brittania.orders import Order, submit
from realms.games.brittania.posts import review_post

from .adjudicate import Case, Runner


def position(lines: str):
    """A game built from adjudication-case lines, orders being written."""
    from pathlib import Path

    case = Case(Path("post.txt"), "post", "rule")
    for no, line in enumerate(lines.strip().splitlines(), 1):
        head, _, value = line.partition(":")
        words = head.split()
        case.lines.append((no, words[0], " ".join(words[1:]), value.strip()))
    r = Runner(case)
    s = r.build()
    s.restart(("turn",))
    return s


BASE = """
players: Ann, Bob, Carl
states Ann: Brega, Dublin, Laighin 28
states Bob: Connachta, Mide
states Carl: Desmumu
grain Ann: 40
trade: Ann, Carl
"""


@pytest.mark.parametrize("order, reason", [
    (Order("conquer", "umall", 5), "Umall is not next to your states, nor across one sea"),
    (Order("conquer", "dublin", 5), "you already hold Dublin"),
    (Order("conquer", "mide", 31), "31 grain is over 30"),
    (Order("conquer", "mide", 41), "41 grain is over 30"),
    (Order("conquer", "gwynedd", 5), "5 grain is too little: 5 go to preparations"),
    (Order("conquer", "gwynedd", 31), "31 grain is over 30 (the 5 of preparation count in it)"),
    (Order("defend", "mide", 5), "you do not hold Mide"),
    (Order("invest", "brega", 3), "3 grain buys no point: investing in Brega goes by 4 grain a point"),
    (Order("invest", "laighin", 15), "Laighin can gain 2 points at most"),
    (Order("capital", "brega", 20), "Brega is already your capital"),
    (Order("capital", "mide", 20), "you do not hold Mide"),
    (Order("trade", "2"), "a trade route with Carl stands already"),
    (Order("trade", "7"), "'7' is not another player of the game"),
    (Order("cancel", "1"), "there is no trade route with Bob to cancel"),
    (Order("lead", "conquer:mide"), "no attack on Mide in the post for the king to lead"),
    (Order("conquer", "atlantis", 5), "'atlantis' is not a state"),
])
def test_br_q28_each_refused_order_has_its_reason(order, reason):
    s = position(BASE)
    accepted, problems = review_post(s, 0, [order])
    assert accepted == [] and len(problems) == 1
    assert reason in problems[0].reason


def test_one_bad_order_costs_only_itself():
    """BR-Q11: the order that overspends is refused; the orders around it stand."""
    s = position(BASE)
    before = s.state_hash()
    post = [Order("conquer", "mide", 30), Order("defend", "brega", 20), Order("invest", "dublin", 10)]
    accepted, problems = review_post(s, 0, post)
    assert s.state_hash() == before
    assert accepted == [post[0], post[2]]
    assert [(p.index, p.reason) for p in problems] == [(1, "20 grain is more than the 10 you have left")]
    submit(s, {0: accepted})
    assert s.turn == 1 and s.grain[0] == 0 and s.owner[s.board.index["dublin"]] == 0


def test_a_captured_capital_is_declared_first():
    """BR-Q14: a post that declares a new capital anywhere in it has it taken first."""
    s = position(BASE.replace("states Ann: Brega, Dublin, Laighin 28", "states Ann: Brega, Dublin, Laighin 28\ncapital Ann: none"))
    accepted, problems = review_post(s, 0, [Order("defend", "brega", 5), Order("capital", "dublin", 0)])
    assert problems == [] and len(accepted) == 2
    _, problems = review_post(s, 0, [Order("defend", "brega", 5)])
    assert problems[0].reason == "your capital was captured: the post must first declare a new one"
