"""Brian Boru speed: decisions applied per second and full games per second.

Random bots (and, with --greedy, the greedy bot in every seat) for 3, 4 and 5 players.
Prints decisions/s on one core, games/s with one process and with a pool of 1 and 2
workers, and (with --profile) where the time goes.
"""

from __future__ import annotations

import argparse
import cProfile
import multiprocessing as mp
import pstats
import time

from realms.core.agents import RandomBot, bot_seed
from realms.core.match import play
from realms.games.brian_boru import GAME
from realms.games.brian_boru.bots import GreedyBot

PLAYERS = 4
BOT = RandomBot


def one_game(seed: int) -> int:
    state = GAME.new_game({"players": PLAYERS}, seed)
    play(state, [BOT(bot_seed(seed, i)) for i in range(PLAYERS)])
    return len(state.answers)


def serial(seeds: range) -> tuple[float, int]:
    t = time.perf_counter()
    decisions = sum(one_game(s) for s in seeds)
    return time.perf_counter() - t, decisions


def parallel(seeds: range, workers: int) -> float:
    with mp.get_context("fork").Pool(workers) as pool:
        pool.map(one_game, range(5))
        t = time.perf_counter()
        pool.map(one_game, seeds, chunksize=max(1, len(seeds) // (workers * 8)))
        return time.perf_counter() - t


def main() -> None:
    global PLAYERS, BOT
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--games", type=int, default=500)
    ap.add_argument("--greedy", action="store_true", help="greedy bots instead of random ones")
    ap.add_argument("--profile", action="store_true")
    args = ap.parse_args()
    BOT = GreedyBot if args.greedy else RandomBot
    print(f"Brian Boru, {args.games} games per row, {BOT.name} bots")
    print(f"{'players':>7} {'decisions/game':>15} {'decisions/s':>12} {'games/s':>9} {'pool 1':>8} {'pool 2':>8}")
    for players in (3, 4, 5):
        PLAYERS = players
        one_game(0)
        seeds = range(1, args.games + 1)
        dt, decisions = serial(seeds)
        p1 = args.games / parallel(seeds, 1)
        p2 = args.games / parallel(seeds, 2)
        print(f"{players:>7} {decisions / args.games:>15.0f} {decisions / dt:>12.0f} {args.games / dt:>9.1f} "
              f"{p1:>8.1f} {p2:>8.1f}")
    if args.profile:
        PLAYERS = 4
        prof = cProfile.Profile()
        prof.runcall(serial, range(1, 101))
        pstats.Stats(prof).sort_stats("tottime").print_stats(15)


if __name__ == "__main__":
    main()
