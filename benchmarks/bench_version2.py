"""version² speed: decisions per second with random bots, full 4-player Capitol games per
second with ``general`` bots, and the battle calculator (``realms odds version2``, through
``Game.calculator``) for 10 against 10 mixed armies: exact (the Markov chain, its caches
cleared first so each run is cold) and Monte Carlo at two trial counts.

CPU time of this process (``time.process_time``), so other load on a shared machine
inflates the figures less; one core.
"""

from __future__ import annotations

import argparse
import time

from realms.core.agents import RandomBot, bot_seed
from realms.core.match import play
from realms.games.version2 import GAME
from realms.games.version2.bots import GeneralBot


def decisions_per_second(games: int, players: int, kind: str) -> tuple[float, int]:
    n = 0
    t = time.process_time()
    for g in range(games):
        s = play(GAME.new_game({"players": players, "type": kind}, g), [RandomBot(bot_seed(g, i)) for i in range(players)])
        n += len(s.answers)
    return n / (time.process_time() - t), n


def general_games_per_second(games: int) -> float:
    t = time.process_time()
    for g in range(games):
        play(GAME.new_game({"players": 4}, g), [GeneralBot(bot_seed(g, i)) for i in range(4)])
    return games / (time.process_time() - t)


def odds_time(method: str, trials: int = 2000) -> tuple[float, dict]:
    from realms.games.version2 import exact

    for cached in (exact.union_matrix, exact.union_stack, exact.duel_chance, exact.shot_at_foot_chance):
        cached.cache_clear()
    compute = GAME.calculator().compute
    t = time.process_time()
    r, _ = compute({"attacker": "6i,2c,2a", "defender": "7i,1c,2a", "terrain": "woodland", "trials": trials,
                    "method": method})
    return time.process_time() - t, r


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--games", type=int, default=10)
    args = ap.parse_args()
    for kind in ("capitol", "resistance", "abundance"):
        rate, n = decisions_per_second(args.games, 4, kind)
        print(f"random bots, 4 players, {kind}: {rate:,.0f} decisions/s ({n} decisions)")
    print(f"general bots, 4 players, capitol: {general_games_per_second(args.games):.2f} games/s")
    odds_time("monte-carlo", 50)  # imports and the scratch board, paid once
    runs = sorted(odds_time("exact")[0] for _ in range(5))
    r = odds_time("exact")[1]
    print(f"calculator 10 v 10 mixed, exact ({r['method']}): {1000 * runs[2]:.0f} ms median of 5 "
          f"(fastest {1000 * runs[0]:.0f}), conquest {100 * r['chances']['conquest']:.2f}%, "
          f"unresolved {r['unresolved']:.0e}")
    for trials in (300, 10_000):
        sec, r = odds_time("monte-carlo", trials)
        p, (lo, hi) = r["chances"]["conquest"], r["interval_95"]["conquest"]
        print(f"calculator 10 v 10 mixed, {trials} battles ({r['method']}): {1000 * sec:.0f} ms, "
              f"conquest {100 * p:.1f}% (95%: {100 * lo:.1f}-{100 * hi:.1f}, ±{100 * (hi - lo) / 2:.1f} points)")


if __name__ == "__main__":
    main()
