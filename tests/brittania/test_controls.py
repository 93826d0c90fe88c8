"""The web page's order form (``Game.controls``, kind ``orders``): what it offers from the
player's own view is what the order form of the engine accepts (rules post, TURN ORDER;
RULINGS BR-Q11 grain never overspent, BR-Q12 at most 30 on an attack or defence, plus 5
of sea preparation, BR-Q13 whole points of investment, BR-Q14 the capital moved for 20,
BR-Q8 one led order)."""

from __future__ import annotations

import random

from realms.core.agents import RandomBot, bot_seed
from realms.games.brittania import GAME
from realms.games.brittania.economy import invest_cost


def _amounts(state, p, key) -> list[str]:
    """The grain the engine offers after ``key`` (one it applied itself: that one, read
    from the turn's revealed orders if that also sent the orders and resolved the turn)."""
    c = state.clone()
    c.apply(p, key)
    d = c.first_pending((p,))
    if d is not None and d.kind == "br.grain":
        return list(d.keys)
    if c.turn == state.turn:
        return [str(c.orders[p][-1][2])]
    shown = next(e for e in c.events if e.kind == "orders" and e.turn == state.turn and e.data["player"] == p)
    return [str(shown.data["orders"][-1]["grain"])]


def _forms(seed: int, players: int = 6):
    """(state, decision, form) at random order decisions of a game of random bots."""
    s = GAME.new_game({"players": players}, seed)
    bots = [RandomBot(bot_seed(seed, i)) for i in range(players)]
    rng = random.Random(seed)
    while not s.is_over():
        d = s.pending()[0]
        if d.kind == "br.order" and rng.random() < 0.2:
            yield s, d, GAME.controls(s.view(d.player), d)["orders"]
        s.answer_index(d, bots[d.player].choose(d, lambda: s.view(d.player)))


def test_the_form_offers_what_the_engine_accepts():
    seen = set()
    for seed in range(3):
        for s, d, form in _forms(seed):
            p = d.player
            assert form["budget"] == s.grain_left(p) and form["send"] == "done" and form["form"] == f"turn {s.turn}"
            assert set(d.keys) - {"done"} <= set(form["items"])
            for key, item in form["items"].items():
                if "requires" in item:
                    assert item["requires"] in d.keys and key == f"lead:{item['requires']}"
                    continue
                seen.add(key.partition(":")[0])
                if "amount" in item:
                    a = item["amount"]
                    want = [str(g) for g in range(a["min"], min(a["max"], form["budget"]) + 1, a["step"])]
                    assert _amounts(s, p, key) == want, (key, item)
    assert {"conquer", "defend", "invest", "capital", "trade"} <= seen


def test_a_sea_attack_spends_five_more_and_a_capital_move_twenty():
    """BR-Q24: 5 of preparation across a sea, counted in the cap (30 at most, BR-Q12);
    BR-Q14: 20."""
    for s, d, form in _forms(4, players=8):
        items = form["items"]
        sea = [i for k, i in items.items() if k.startswith("conquer:") and i["amount"]["min"] == 6]
        moves = [i for k, i in items.items() if k.startswith("capital:")]
        if sea and moves:
            assert sea[0]["amount"]["max"] == 30
            assert all(i["cost"] == 20 and i["once"] == "capital" for i in moves)
            return
    raise AssertionError("no sea attack and capital move offered together")


def test_only_the_player_and_only_orders():
    s = GAME.new_game({"players": 2}, 1)
    assert GAME.controls(s.view(0), s.pending()[0]) == {}          # the setup: plain buttons
    while s.pending()[0].kind != "br.order":
        d = s.pending()[0]
        s.apply(d.player, d.keys[0])
    d = s.pending()[0]
    assert GAME.controls(s.view(None), d) == {}                    # a spectator has no form
    form = GAME.controls(s.view(d.player), d)["orders"]
    home = s.board.states[s.capital[d.player]].id
    assert form["items"][f"lead:defend:{home}"]["requires"] == f"defend:{home}"
    cost = invest_cost(s, d.player, s.capital[d.player])
    assert form["items"][f"invest:{home}"]["amount"]["min"] == cost == 4 + s.effect(d.player, "invest_cost")
    assert form["items"][f"invest:{home}"]["amount"]["step"] == 1          # BR-Q13: the rest buys nothing
