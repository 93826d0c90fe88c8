"""The ismcts bot over every registered game: legal whole games, determinism for a seed
and an iteration budget, simultaneous decisions, parameters from ``--bots``."""

from __future__ import annotations

from functools import partial

import pytest

from realms.core.agents import GENERIC_BOTS, RandomBot, SeatView, parse_bot, state_behind
from realms.core.game import OptionError, games, get_game
from realms.core.match import play
from realms.search.ismcts import ISMCTSBot
from realms.sim.runner import make_bots

#: short games, so that a search in every seat stays quick
SMALL = {"hy-breasil": {"players": 3, "turns": 2}, "brian-boru": {"players": 3},
         "version2": {"players": 3, "turn_limit": 4}}
GAME_IDS = list(games())


def small_game(game_id: str, seed: int):
    return get_game(game_id).new_game(SMALL.get(game_id, {}), seed)


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_plays_whole_games_legally(game_id):
    state = small_game(game_id, 3)
    players = len(state.result()["players"])
    bots = [ISMCTSBot(seat, iters=3, horizon=4) for seat in range(players)]
    play(state, bots, max_decisions=5000)
    assert state.is_over()
    assert sum(state.returns()) in (0.0, pytest.approx(1.0))
    replayed = get_game(game_id).replay(state.record())
    assert replayed.state_hash() == state.state_hash()


def _answers(game_id: str, seed: int, n: int) -> list:
    state = small_game(game_id, seed)
    players = len(state.result()["players"])
    bots = [ISMCTSBot(100 + seat, iters=6, horizon=6) for seat in range(players)]
    for _ in range(n):
        d = state.first_pending()
        if d is None:
            break
        state.answer_index(d, bots[d.player].choose(d, SeatView(state, d.player)))
    return list(state.answers)


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_same_seed_and_iterations_give_the_same_answers(game_id):
    assert _answers(game_id, 5, 40) == _answers(game_id, 5, 40)


def test_another_seed_searches_differently():
    bot_a, bot_b = ISMCTSBot(1, iters=30), ISMCTSBot(2, iters=30)
    state = small_game("hy-breasil", 2)
    d = state.first_pending()
    bot_a.choose(d, SeatView(state, d.player))
    bot_b.choose(d, SeatView(state, d.player))
    assert bot_a.last["visits"] != bot_b.last["visits"]


def test_simultaneous_decisions_each_seat_searches_its_own():
    """Brian Boru's draft asks every seat at once; a search for the last of them answers
    its own decision (the tree takes the others after it)."""
    state = small_game("brian-boru", 1)
    while len(state.pending()) < 2:
        d = state.first_pending()
        state.answer_index(d, RandomBot(0).choose(d, lambda: {}))
    last = state.pending()[-1]
    bot = ISMCTSBot(4, iters=20, horizon=5)
    i = bot.choose(last, SeatView(state, last.player))
    assert 0 <= i < len(last.keys)
    assert set(bot.last["visits"]) <= set(last.keys)
    assert bot.last["iterations"] == 20
    state.answer_index(last, i)


def test_a_time_budget_stops_the_search():
    state = small_game("hy-breasil", 4)
    d = state.first_pending()
    bot = ISMCTSBot(0, ms=30)
    bot.choose(d, SeatView(state, d.player))
    assert bot.last["iterations"] >= 1
    assert bot.last["seconds"] < 2


def test_many_options_are_widened_progressively():
    """A node visited n times considers at most widen·√n of its answers."""
    state = get_game("hy-breasil").new_game({}, 6)
    d, rnd = state.first_pending(), RandomBot(1)
    while len(d.keys) < 30:
        state.answer_index(d, rnd.choose(d, lambda: {}))
        d = state.first_pending()
    bot = ISMCTSBot(0, iters=100, horizon=2, widen=2)
    bot.choose(d, SeatView(state, d.player))
    assert len(bot.last["visits"]) <= 2 * 100 ** 0.5
    assert sum(bot.last["visits"].values()) == 100


def test_registered_as_a_generic_bot_with_parameters():
    game = get_game("brian-boru")
    assert "ismcts" in GENERIC_BOTS
    bots = make_bots(game, ["ismcts:iters=7:horizon=3:policy=greedy", "random", "ismcts"], 3, 0)
    assert (bots[0].iters, bots[0].horizon, bots[0].policy) == (7, 3, "greedy")
    assert bots[2].iters > 0 and bots[2].ms is None
    assert parse_bot("ismcts:ms=200") == ("ismcts", {"ms": "200"})


@pytest.mark.parametrize("spec, message", [
    ("ismcts:iters=abc", "iters must be an integer"),
    ("ismcts:iters=5:ms=20", "iters or ms, not both"),
    ("ismcts:iters=0", "iters must be between"),
    ("ismcts:policy=nobody", "unknown rollout policy 'nobody'"),
    ("ismcts:policy=ismcts", "cannot be ismcts"),
    ("ismcts:depth=3", "depth"),
    ("ismcts:iters", "'iters' is not KEY=VALUE"),
])
def test_bad_parameters_are_named(spec, message):
    game = get_game("brian-boru")
    with pytest.raises(OptionError, match=message):
        bots = make_bots(game, [spec], 3, 0)
        state = game.new_game({"players": 3}, 0)
        d = state.first_pending()
        bots[d.player].choose(d, SeatView(state, d.player))


def test_the_state_is_found_behind_the_play_loops_view_functions():
    state = small_game("brian-boru", 0)
    assert state_behind(SeatView(state, 1)) is state
    assert state_behind(partial(state.view, 1)) is state
    assert state_behind(lambda: state.view(1)) is state
    with pytest.raises(TypeError, match="SeatView"):
        state_behind(lambda: {})
