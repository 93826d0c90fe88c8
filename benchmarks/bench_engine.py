"""Engine speed: decisions applied per second, beside OpenSpiel's anchor.

Hy Breasil, 4 players, 15 turns, random bots through the public play loop
(``core.match.play``).  Prints, in one run:

* decisions/s on one core and, when OpenSpiel is importable, its C++ backgammon stepped
  from Python by random agents (steps/s: every ``apply_action``, the dice's included) and
  the ratio of the two (aim ≥ 1.0).  OpenSpiel is not a dependency of realms; for the
  benchmark only: ``.venv/bin/pip install open-spiel`` (it also comes with the ``rl``
  extra);
* what search pays for: ``clone()`` and ``determinize()`` per second of a mid-game Hy
  Breasil state (seed 1, turn 8);
* four-auto games per second (4 players, 15 turns) and Brian Boru decisions/s (random
  bots, 4 players);
* full games per second with one and two worker processes (``--pool``), and where the
  time goes (``--profile``: the compiled modules' functions do not show; run it with
  ``REALMS_PURE=1`` to see them).

The first line says whether the compiled modules ran (``setup.py``); ``REALMS_PURE=1``
measures the plain-Python ones.

Every rate is timed in CPU time of this process (``time.process_time``), the pool's
excepted, and is the best of ``--repeat`` runs: other work on a shared machine only ever
slows a run down, so the best is the nearest to the engine's own speed.
"""

from __future__ import annotations

import argparse
import cProfile
import multiprocessing as mp
import pstats
import random
import time
from typing import Callable

import realms
from realms.core.agents import RandomBot, bot_seed
from realms.core.match import play
from realms.games.hy_breasil import GAME

OPTIONS = {"players": 4, "turns": 15}


def one_game(seed: int) -> int:
    state = GAME.new_game(OPTIONS, seed)
    play(state, [RandomBot(bot_seed(seed, i)) for i in range(4)])
    return len(state.answers)


def serial(seeds: range) -> tuple[float, int]:
    t = time.process_time()
    decisions = sum(one_game(s) for s in seeds)
    return time.process_time() - t, decisions


def parallel(seeds: range, workers: int) -> float:
    with mp.get_context("fork").Pool(workers) as pool:
        pool.map(one_game, range(5))  # warm up (imports, map loading)
        t = time.perf_counter()
        pool.map(one_game, seeds, chunksize=max(1, len(seeds) // (workers * 8)))
        return time.perf_counter() - t


def best(repeat: int, run: Callable[[], float]) -> float:
    """The highest of ``repeat`` rates (see the module's docstring)."""
    return max(run() for _ in range(repeat))


def decisions_rate(games: int) -> float:
    dt, decisions = serial(range(1, games + 1))
    return decisions / dt


def anchor_rate(seconds: float = 2.0) -> float | None:
    """OpenSpiel backgammon's steps/s, random agents, stepped from Python; None without
    OpenSpiel."""
    try:
        import pyspiel
    except ImportError:
        return None
    game = pyspiel.load_game("backgammon")
    rng = random.Random(1)
    steps = 0
    t = time.process_time()
    while time.process_time() - t < seconds:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                x, acc = rng.random(), 0.0
                for action, p in outcomes:
                    acc += p
                    if x < acc:
                        break
            else:
                action = rng.choice(state.legal_actions())
            state.apply_action(action)
            steps += 1
    return steps / (time.process_time() - t)


def mid_game(turn: int = 8):
    """A Hy Breasil state of seed 1, random bots, at the first question of ``turn``."""
    state = GAME.new_game(OPTIONS, 1)
    bots = [RandomBot(bot_seed(1, i)) for i in range(4)]
    while state.turn < turn:
        d = state.pending()[0]
        state.answer_index(d, bots[d.player].choose(d, lambda: None))
    return state


def clone_rate(state, seconds: float = 1.0) -> float:
    n, t = 0, time.process_time()
    while time.process_time() - t < seconds:
        for _ in range(200):
            state.clone()
        n += 200
    return n / (time.process_time() - t)


def determinize_rate(state, seconds: float = 1.0) -> float:
    rng = random.Random(1)
    seat = state.pending()[0].player
    n, t = 0, time.process_time()
    while time.process_time() - t < seconds:
        for _ in range(200):
            state.determinize(seat, rng)
        n += 200
    return n / (time.process_time() - t)


def auto_games_rate(games: int) -> float:
    from realms.games.hy_breasil.bots import AutoBot

    t = time.process_time()
    for seed in range(games):
        state = GAME.new_game(OPTIONS, seed)
        play(state, [AutoBot(bot_seed(seed, k)) for k in range(4)])
    return games / (time.process_time() - t)


def brian_boru_rate(games: int) -> float:
    from realms.games.brian_boru import GAME as BB

    decisions = 0
    t = time.process_time()
    for seed in range(1, games + 1):
        state = BB.new_game({"players": 4}, seed)
        play(state, [RandomBot(bot_seed(seed, i)) for i in range(4)])
        decisions += len(state.answers)
    return decisions / (time.process_time() - t)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=200, help="random games per decisions/s run")
    ap.add_argument("--repeat", type=int, default=3, help="runs of each rate; the best is shown")
    ap.add_argument("--auto-games", type=int, default=20)
    ap.add_argument("--bb-games", type=int, default=300)
    ap.add_argument("--pool", action="store_true", help="also games/s with 1 and 2 worker processes")
    ap.add_argument("--profile", action="store_true")
    args = ap.parse_args()
    one_game(0)
    dt, decisions = serial(range(1, 21))
    print(f"Hy Breasil: 4 players, 15 turns, random bots, {decisions / 20:.0f} decisions a game; "
          f"best of {args.repeat} runs; "
          + ("compiled modules (setup.py)" if realms.compiled() else "plain-Python modules"))
    rate = best(args.repeat, lambda: decisions_rate(args.games))
    print(f"decisions/s (1 core):             {rate:10.0f}")
    anchor = best(args.repeat, anchor_rate) if anchor_rate(0.1) is not None else None
    if anchor is None:
        print("OpenSpiel backgammon steps/s:     (not installed: .venv/bin/pip install open-spiel)")
    else:
        print(f"OpenSpiel backgammon steps/s:     {anchor:10.0f}")
        print(f"ratio (aim >= 1.0):               {rate / anchor:10.2f}")
    state = mid_game()
    print(f"clones/s (mid-game, turn 8):      {best(args.repeat, lambda: clone_rate(state)):10.0f}")
    print(f"determinizations/s (same state):  {best(args.repeat, lambda: determinize_rate(state)):10.0f}")
    print(f"four-auto games/s:                {best(args.repeat, lambda: auto_games_rate(args.auto_games)):10.2f}")
    print(f"Brian Boru decisions/s (4 random):{best(args.repeat, lambda: brian_boru_rate(args.bb_games)):10.0f}")
    if args.pool:
        seeds = range(1, args.games + 1)
        for workers in (1, 2):
            print(f"games/s ({workers} worker{'s' if workers > 1 else ' '}, pool):       "
                  f"{args.games / parallel(seeds, workers):10.1f}")
    if args.profile:
        prof = cProfile.Profile()
        prof.runcall(serial, range(1, 21))
        pstats.Stats(prof).sort_stats("tottime").print_stats(25)


if __name__ == "__main__":
    main()
