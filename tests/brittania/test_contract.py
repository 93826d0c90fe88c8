"""Brittania through the game contract: orders hidden in the chronicle until the turn
resolves (TURN ORDER: "The turns of all Players are SIMULTANEOUS"; BR-Q29), the player's
own orders and grain as panels, the position as text, the declared traits."""

from realms.games.brittania import GAME


def _started(players=3):
    """A game at turn 1's orders: P1 in Kent, P2 in Essex, P3 in Galloway."""
    s = GAME.new_game({"players": players, "turns": 3}, 4)
    for p, start in enumerate(("kent", "essex", "galloway")[:players]):
        s.apply(p, start)
        s.apply(p, "Shrewd")
        s.apply(p, s.first_pending().keys[0])
    assert s.first_pending().kind == "br.order" and s.turn == 1
    return s


def test_sent_orders_are_read_only_by_their_writer_until_the_turn_resolves():
    s = _started()
    s.apply(0, "invest:kent")
    s.apply(0, "8")
    s.apply(0, "done")
    mine = "P1's orders for turn 1: 8 grain to invest in Kent."
    assert mine in s.chronicle_for(0)
    assert mine not in s.chronicle_for(1) and mine not in s.chronicle_for(None)
    assert "P1 has sent the orders for turn 1." in s.chronicle_for(1)
    assert not any("kent" in line.casefold() and "begins" not in line for line in s.chronicle_for(1))
    s.apply(1, "done")
    s.apply(2, "done")
    assert "P1 orders: 8 grain to invest in Kent." in s.chronicle_for(1)


def test_panels_show_the_viewers_own_orders_and_grain_only():
    s = _started()
    s.apply(0, "conquer:essex")
    s.apply(0, "6")
    s.apply(0, "lead:conquer:essex")
    assert GAME.panels(s.view(0)) == [
        {"title": "Grain", "items": ["10 in store", "6 in this turn's orders", "4 left"]},
        {"title": "Your orders for turn 1",
         "items": ["6 grain to conquer Essex", "the king leads the attack on Essex"]},
    ]
    assert GAME.panels(s.view(1))[1]["items"] == ["none yet"]
    assert GAME.panels(s.view(None)) == []


def test_describe_gives_the_turn_the_players_and_the_viewers_states():
    s = _started()
    lines = GAME.describe(s.view(0))
    assert lines[0] == "Turn 1 of 3 (orders)"
    assert lines[1].startswith("* P1 (Red): 10 grain, 1 states, capital Kent, King ")
    assert "Your states: Kent 10" in lines
    assert not any(line.startswith("Your") for line in GAME.describe(s.view(None)))


def test_traits():
    assert (GAME.chance, GAME.hidden_information, GAME.simultaneous) == (True, True, True)
    assert GAME.max_players == 12


def test_determinize_forgets_the_other_players_orders():
    """A search's copy for P2 holds none of P1's orders (sent, or being written), looks the
    same to P2, and plays on (TURN ORDER; BR-Q29)."""
    import random

    s = _started()
    s.apply(0, "invest:kent")
    s.apply(0, "8")
    s.apply(0, "done")
    s.apply(2, "defend:galloway")
    twin = s.determinize(1, random.Random(3))
    assert twin.orders[0] == [] and twin.picking[2] is None and s.orders[0] == [("invest", 0, 8)]
    assert twin.view(1) == s.view(1) and twin.pending_for(1)[0].keys == s.pending_for(1)[0].keys
    assert [d.kind for d in twin.pending_for(2)] == ["br.order"]
    twin.apply(1, "done")
    twin.apply(2, "done")
    assert twin.turn == 2 and twin.output[twin.board.index["kent"]] == 10


def test_a_finished_game_tells_no_orders_being_written():
    """Once the game is over no orders are written: the terminal board says no "orders
    writing" of anyone and no "Your orders for turn N: none yet"."""
    import random

    s = GAME.new_game({"players": 3, "turns": 1}, 4)
    rng = random.Random(4)
    while not s.is_over():
        d = s.pending()[0]
        s.apply(d.player, d.keys[rng.randrange(len(d.keys))])
    lines = GAME.describe(s.view(0)) + [p["title"] for p in GAME.panels(s.view(0))]
    assert not any("orders writing" in line or "orders sent" in line or line.startswith("Your orders")
                   for line in lines), lines
    assert [p["title"] for p in GAME.panels(s.view(0))] == ["Grain"]


def test_an_investment_reads_as_the_chronicle_writes_it():
    """GRAIN AND INVESTMENTS: the panel writes "7 grain to invest in Kent", as the orders'
    chronicle line does."""
    from realms.games.brittania.orders import order_line

    assert order_line({"kind": "invest", "target": "Kent", "grain": 7}) == "7 grain to invest in Kent"


def test_the_result_says_how_the_game_was_won_in_words():
    """The rules post's two victories, told in words for the results panel: the Empire of
    Britannia (12 of the 18 KINGDOM states, a continuous dominion) or, "by end of Turn 20",
    the economic victory (here after the one turn the game was set to)."""
    import random

    from realms.games.brittania import titles

    s = GAME.new_game({"players": 3, "turns": 1}, 4)
    assert s.result()["how"] == ""
    rng = random.Random(4)
    while not s.is_over():
        d = s.pending()[0]
        s.apply(d.player, d.keys[rng.randrange(len(d.keys))])
    assert s.result()["victory"] == "economic"
    assert s.result()["how"].startswith("the economic victory after the last turn")
    empire = _started()
    empire.owner[:] = [0] * len(empire.owner)  # every state P1's: the kingdoms, and a dominion in one piece
    assert titles.empire(empire)
    assert empire.result()["how"] == "the Empire of Britannia: 12 KINGDOM states in one continuous dominion"


def test_the_turn_a_search_plays_out_ends_when_the_orders_resolve():
    """``Game.turn_of`` (``ismcts:horizon=turn``): the turn stays while players write, one
    after another, and moves on only when the last of them sends his orders and they
    resolve (TURN ORDER: "The turns of all Players are SIMULTANEOUS")."""
    s = _started()
    assert GAME.turn_of(s) == 1
    s.apply(0, "invest:kent")
    s.apply(0, "8")
    s.apply(0, "done")
    s.apply(1, "done")
    assert GAME.turn_of(s) == 1
    s.apply(2, "done")
    assert GAME.turn_of(s) == 2 and s.first_pending().kind == "br.order"
