"""Brittania speed (issue 16's figures): a 12-player, 20-turn game with steward bots in
every seat, the same with random bots, and one turn of 12 posts entered and resolved.

Prints seconds per game and per turn on one core; --profile shows where the time goes.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import time

from realms.core.agents import RandomBot, bot_seed
from realms.core.match import play
from realms.games.brittania import GAME
from realms.games.brittania.bots import Steward
from realms.games.brittania.orders import Order, submit


def one_game(seed: int, bot) -> int:
    state = GAME.new_game({"players": 12}, seed)
    play(state, [bot(bot_seed(seed, i)) for i in range(12)])
    return len(state.answers)


def twelve_posts(seed: int) -> float:
    """Set up 12 players, then time entering a post for each (an attack, a defence, an
    investment) and resolving the turn."""
    state = GAME.new_game({"players": 12}, seed)
    bots = [Steward(bot_seed(seed, i)) for i in range(12)]
    while state.pending()[0].kind != "br.order":
        d = state.pending()[0]
        state.answer_index(d, bots[d.player].choose(d, lambda: state.view(d.player)))
    posts = {}
    for p in range(12):
        home = state.board.states[state.capital[p]].id
        posts[p] = [Order("defend", home, 3), Order("invest", home, 4)]
    t = time.perf_counter()
    submit(state, posts)
    return time.perf_counter() - t


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--profile", action="store_true")
    args = ap.parse_args()
    seeds = range(1, args.games + 1)
    for name, bot in (("steward", Steward), ("random", RandomBot)):
        t = time.perf_counter()
        decisions = sum(one_game(s, bot) for s in seeds)
        dt = time.perf_counter() - t
        print(f"12 players, 20 turns, {name:7}: {dt / args.games * 1000:7.1f} ms/game, "
              f"{decisions / dt:8.0f} decisions/s")
    turn = sum(twelve_posts(s) for s in seeds) / args.games
    print(f"12 posts entered and the turn resolved: {turn * 1000:.1f} ms")
    if args.profile:
        cProfile.run("one_game(1, Steward)", "/tmp/brittania.prof")
        pstats.Stats("/tmp/brittania.prof").sort_stats("cumtime").print_stats(20)


if __name__ == "__main__":
    main()
