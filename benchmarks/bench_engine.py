"""Engine speed: decisions applied per second and full games per second.

4 players, 15 turns, random bots.  Prints decisions/s on one core, games/s with one and
two worker processes, and (with --profile) where the time goes.
"""

from __future__ import annotations

import argparse
import cProfile
import multiprocessing as mp
import pstats
import time

from realms.core.agents import RandomBot, bot_seed
from realms.core.match import play
from realms.games.hy_breasil import GAME

OPTIONS = {"players": 4, "turns": 15}


def one_game(seed: int) -> int:
    state = GAME.new_game(OPTIONS, seed)
    play(state, [RandomBot(bot_seed(seed, i)) for i in range(4)])
    return len(state.answers)


def serial(seeds: range) -> tuple[float, int]:
    t = time.perf_counter()
    decisions = sum(one_game(s) for s in seeds)
    return time.perf_counter() - t, decisions


def parallel(seeds: range, workers: int) -> float:
    with mp.get_context("fork").Pool(workers) as pool:
        pool.map(one_game, range(5))  # warm up (imports, map loading)
        t = time.perf_counter()
        pool.map(one_game, seeds, chunksize=max(1, len(seeds) // (workers * 8)))
        return time.perf_counter() - t


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--profile", action="store_true")
    args = ap.parse_args()
    one_game(0)
    seeds = range(1, args.games + 1)
    dt, decisions = serial(seeds)
    print(f"games: {args.games} (4 players, 15 turns, random bots)")
    print(f"decisions per game:          {decisions / args.games:10.0f}")
    print(f"decisions/s (1 core):        {decisions / dt:10.0f}")
    print(f"games/s (1 process):         {args.games / dt:10.1f}")
    for workers in (1, 2):
        print(f"games/s ({workers} worker{'s' if workers > 1 else ' '}, pool):    {args.games / parallel(seeds, workers):10.1f}")
    if args.profile:
        prof = cProfile.Profile()
        prof.runcall(serial, range(1, 21))
        pstats.Stats(prof).sort_stats("tottime").print_stats(15)


if __name__ == "__main__":
    main()
