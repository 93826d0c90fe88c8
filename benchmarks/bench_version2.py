"""version² speed: decisions per second with random bots, full 4-player Capitol games per
second with ``general`` bots, and the battle calculator (``realms odds version2``, through
``Game.calculator``) for 10 against 10 mixed armies: exact (the Markov chain, its caches
cleared first so each run is cold) and Monte Carlo at two trial counts.

CPU time of this process (``time.process_time``), so other load on a shared machine
inflates the figures less; one core.

``--versus N``: strength instead — one ``general`` against three ``random`` bots in
4-player games of a type, N seeds each played four times with the general in every seat
(paired seats), its wins with Wilson's 95% interval and the game length.
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


def versus(seeds: int, kind: str, start: int = 0) -> dict:
    """One general against three random bots, each seed in all four seats (see the module)."""
    from realms.games.version2.odds import wilson

    wins = games = turns = 0
    t = time.process_time()
    for g in range(start, start + seeds):
        for seat in range(4):
            bots = [GeneralBot(bot_seed(g, i)) if i == seat else RandomBot(bot_seed(g, i)) for i in range(4)]
            s = play(GAME.new_game({"players": 4, "type": kind}, g), bots)
            wins += s.winners == [seat]
            games += 1
            turns += s.turn
    lo, hi = wilson(wins / games, games)
    return {"kind": kind, "games": games, "wins": wins, "rate": wins / games, "interval": (lo, hi),
            "turns": turns / games, "seconds": time.process_time() - t}


def odds_time(method: str, trials: int = 2000) -> tuple[float, dict]:
    from realms.games.version2 import exact

    for cached in (exact.union_matrix, exact.union_stack, exact.duel_chance, exact.shot_at_foot):
        cached.cache_clear()
    compute = GAME.calculator().compute
    t = time.process_time()
    r, _ = compute({"attacker": "6i,2c,2a", "defender": "7i,1c,2a", "terrain": "woodland", "trials": trials,
                    "method": method})
    return time.process_time() - t, r


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--games", type=int, default=10)
    ap.add_argument("--versus", type=int, default=0, help="seeds of general v three random bots, per game type")
    ap.add_argument("--types", default="capitol,resistance,abundance")
    args = ap.parse_args()
    if args.versus:
        for kind in args.types.split(","):
            r = versus(args.versus, kind)
            lo, hi = r["interval"]
            print(f"general v 3 random, 4 players, {kind}: {r['wins']}/{r['games']} = {100 * r['rate']:.1f}% "
                  f"(95%: {100 * lo:.1f}-{100 * hi:.1f}), {r['turns']:.1f} game turns, {r['seconds']:.0f} s CPU",
                  flush=True)
        return
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
