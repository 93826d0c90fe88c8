"""The bots: ``greedy`` beats ``random`` and decides from ``view(player)`` alone."""

from __future__ import annotations

from realms.core.agents import RandomBot, bot_seed
from realms.core.match import play
from realms.games.brian_boru import GAME
from realms.games.brian_boru.bots import GreedyBot


def test_greedy_beats_random_one_of_four_seats():
    """Greedy wins at least half of the games against three random bots (seats
    rotate; shared victories count as a share)."""
    n = 80
    share = 0.0
    for seed in range(n):
        seat = seed % 4
        agents = [GreedyBot(bot_seed(seed, i)) if i == seat else RandomBot(bot_seed(seed, i)) for i in range(4)]
        s = play(GAME.new_game({"players": 4}, 1000 + seed), agents)
        winners = s.result()["winners"]
        if s.names[seat] in winners:
            share += 1 / len(winners)
    assert share / n >= 0.5, share / n


def test_greedy_sees_only_the_view():
    """Two states that differ only in what player 0 cannot see get the same answer."""
    s = GAME.new_game({"players": 3}, 4)
    bots = [RandomBot(i) for i in range(3)]
    while not (s.phase == "action" and s.pending()[0].kind == "bb.play" and s.pending()[0].player == 0):
        d = s.pending()[0]
        s.apply_index(d.player, bots[d.player].choose(d, lambda: None))
    other = s.clone()
    h1, h2 = other.hands[1], other.hands[2]
    h1[0], h2[0] = h2[0], h1[0]                  # swap a card between hands player 0 cannot see
    assert other.view(0) == s.view(0) and other.hands != s.hands
    d = s.pending()[0]
    assert GreedyBot(7).choose(d, lambda: s.view(0)) == GreedyBot(7).choose(other.pending()[0], lambda: other.view(0))


def test_greedy_registered_for_the_game():
    assert "greedy" in GAME.bots
    s = play(GAME.new_game({"players": 5}, 9), [GAME.bots["greedy"](i) for i in range(5)])
    assert s.over


def test_greedy_games_keep_every_invariant():
    """Greedy play reaches other corners than random play: the invariants hold there too."""
    from realms.games.brian_boru.invariants import INVARIANTS

    for seed in range(12):
        players = 3 + seed % 3
        memory: dict = {}

        def check(state):
            for inv in INVARIANTS:
                assert inv(state, memory) is None, (seed, inv.__name__, inv(state, memory))

        s = play(GAME.new_game({"players": players}, 500 + seed),
                 [GreedyBot(bot_seed(seed, i)) for i in range(players)], after_each=check)
        assert s.over and len(s.answers) > 150
