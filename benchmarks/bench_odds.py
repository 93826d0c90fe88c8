"""Battle odds speed: exact tables and big battles, and exact against Monte Carlo.

Prints the time of the 15×15 heat-map table (greedy and best), of a 30 v 30 battle
(cold, warm, with modifiers), and the time the game's own combat code needs to reach
±0.1 percentage points at 95% by Monte Carlo, extrapolated from a timed sample.

    .venv/bin/python benchmarks/bench_odds.py [--mc-runs 400]
"""

from __future__ import annotations

import argparse
import math
import time

from realms.games.hy_breasil import odds
from realms.games.hy_breasil.odds import monte_carlo, odds_table, solve


def timed(fn, *args, **kw):
    t = time.perf_counter()
    out = fn(*args, **kw)
    return out, time.perf_counter() - t


def cold() -> None:
    """Forget every cached answer and table."""
    odds._solve_cached.cache_clear()
    odds._general.cache_clear()
    odds._TABLES.clear()
    odds._binom.cache_clear()
    odds._defender_hits.cache_clear()


def warm(n: int, mods: dict) -> float:
    """Mean time of fresh queries (not answered before) up to n v n, table already built."""
    sizes = [(a, d) for a in range(n - 4, n + 1) for d in range(n - 4, n + 1) if (a, d) != (n, n)]
    odds._solve_cached.cache_clear()
    t = time.perf_counter()
    for a, d in sizes:
        solve(a, d, **mods)
    return (time.perf_counter() - t) / len(sizes)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--mc-runs", type=int, default=400, help="Monte Carlo battles to time (30 v 30)")
    args = ap.parse_args()

    cold()
    _, t = timed(odds_table, 15)
    print(f"15x15 table, greedy, cold:             {t * 1000:8.1f} ms")
    cold()
    _, t = timed(odds_table, 15, policy="best")
    print(f"15x15 table, best, cold:               {t * 1000:8.1f} ms")

    cold()
    r, t_cold = timed(solve, 30, 30)
    print(f"30 v 30 greedy, cold:                  {t_cold * 1000:8.1f} ms   (attacker wins {r.attacker_wins:.6f})")
    _, t = timed(solve, 30, 30)
    print(f"30 v 30 greedy, same query again:      {t * 1e6:8.1f} µs")
    t_warm = warm(30, {})
    print(f"30 v 30 greedy, warm (other battles):  {t_warm * 1000:8.3f} ms per query")
    mods = dict(terrain="forest", fervour=True, city=True, attacker_race="hogman",
                attacker_retreat_below=5, defender_retreat_below=4)
    cold()
    _, t = timed(solve, 30, 30, **mods)
    print(f"30 v 30 all modifiers, cold:           {t * 1000:8.1f} ms")
    print(f"30 v 30 all modifiers, warm:           {warm(30, mods) * 1000:8.3f} ms per query")
    cold()
    _, t = timed(solve, 30, 30, engine="grid")
    print(f"30 v 30 greedy, grid solver, cold:     {t * 1000:8.1f} ms")
    cold()
    _, t = timed(solve, 200, 200)
    print(f"200 v 200 greedy (grid), cold:         {t * 1000:8.1f} ms")

    # Exact against Monte Carlo with the game's combat code, side by side.
    p = r.attacker_wins
    need = math.ceil((1.96 / 0.001) ** 2 * p * (1 - p))
    m, t_mc = timed(monte_carlo, 30, 30, runs=args.mc_runs, seed=1)
    per = t_mc / args.mc_runs
    print(f"Monte Carlo 30 v 30, game code:        {per * 1000:8.2f} ms per battle "
          f"({args.mc_runs} battles: attacker wins {m.attacker_wins:.3f})")
    print(f"  battles for ±0.1 pp at 95%:          {need:8d}  → about {need * per:,.0f} s")
    print(f"  exact (warm) is {need * per / t_warm:,.0f}× faster; "
          f"cold {need * per / t_cold:,.0f}×")


if __name__ == "__main__":
    main()
