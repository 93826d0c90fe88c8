"""The ismcts bot on the tiny plug-in game: it uses only what its seat may know, and it
beats random play in a small bounded match."""

from __future__ import annotations

from realms.core.agents import RandomBot, SeatView
from realms.core.match import play
from realms.search.ismcts import ISMCTSBot


def test_the_search_never_reads_what_its_seat_cannot_see(tiny):
    """Two states that differ only in the opponent's secret bonus look the same to seat
    0, so the same search (seed, budget) visits the same answers the same number of times."""
    state = tiny.new_game({"players": 2, "pile": 9}, 4)
    other = state.clone()
    other.bonus[1] = 1 + other.bonus[1] % 3
    assert other.view(0) == state.view(0) and other.bonus != state.bonus
    d = state.first_pending()
    a, b = ISMCTSBot(8, iters=80), ISMCTSBot(8, iters=80)
    assert a.choose(d, SeatView(state, 0)) == b.choose(other.first_pending(), SeatView(other, 0))
    assert a.last["visits"] == b.last["visits"]


def test_it_beats_random_play(tiny):
    """Taking two pebbles whenever one may is the whole strategy; a search finds it, so
    over 20 games (seats alternating) it wins far more than its fair half."""
    won = 0.0
    for game in range(20):
        seat = game % 2
        bots = [RandomBot(50 + game), RandomBot(90 + game)]
        bots[seat] = ISMCTSBot(game, iters=60, horizon=30)
        state = play(tiny.new_game({"players": 2, "pile": 15}, game), bots)
        won += state.returns()[seat]
    assert won >= 15
