"""Simulation at scale: games/s of ``realms.sim.batch`` with 1 and 2 local
worker processes, and a Dask LocalCluster against local processes on the same games.

Default: 1000 four-player 15-turn Hy Breasil games with the ``auto`` bot in every seat
(``random`` if the game has no ``auto`` bot).  Every run plays the same seeds and the
script checks that all of them produced identical lines.  Times include starting the
workers (processes, or the cluster's) and the figures are printed, not asserted::

    .venv/bin/python benchmarks/bench_sim.py            # the full benchmark (minutes)
    .venv/bin/python benchmarks/bench_sim.py --games 100
"""

from __future__ import annotations

import argparse
import os
import time

from realms.core.game import get_game
from realms.sim.batch import RunInfo, Simulation, play_game, run
from realms.sim.runner import run_game


def _burn(n: int = 3_000_000) -> float:
    t = time.perf_counter()
    s = 0
    for i in range(n):
        s += i * i
    return time.perf_counter() - t


def machine_parallelism() -> float:
    """How many times one pure-Python process's throughput two give on this machine now
    (2.0 on two free cores; less when the cores are shared with other work)."""
    from concurrent.futures import ProcessPoolExecutor

    one = min(_burn(8_000_000) for _ in range(2))
    two = float("inf")
    with ProcessPoolExecutor(2) as ex:
        list(ex.map(_burn, [10_000] * 2))
        for _ in range(2):
            t = time.perf_counter()
            list(ex.map(_burn, [8_000_000] * 2))
            two = min(two, time.perf_counter() - t)
    return 2 * one / two


def timed(sim: Simulation, **kw) -> tuple[list[dict], RunInfo, float]:
    info = RunInfo()
    t = time.perf_counter()
    lines = run(sim, info=info, **kw)
    return lines, info, time.perf_counter() - t


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--turns", type=int, default=15)
    ap.add_argument("--bots", help="default: auto if the game has it, else random")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--no-cluster", action="store_true", help="skip the Dask LocalCluster run")
    args = ap.parse_args()

    game = get_game("hy-breasil")
    bots = args.bots or ("auto" if "auto" in game.bots else "random")
    opts = {"players": args.players, "turns": args.turns}
    sim = Simulation(game.id, opts, (bots,), args.seed, args.games)
    print(f"hy-breasil: {args.games} games, {args.players} players, {args.turns} turns, bots {bots} "
          f"({os.cpu_count()} cores; two processes give {machine_parallelism():.2f}× one right now)")

    # what watching a game costs: the plain match loop against the batch runner's, in-process
    n = max(5, min(50, args.games // 20))
    t = time.perf_counter()
    for s in range(args.seed, args.seed + n):
        run_game(game, opts, s, [bots])
    plain = time.perf_counter() - t
    t = time.perf_counter()
    for s in range(args.seed, args.seed + n):
        play_game(game.id, opts, s, [bots])
    watched = time.perf_counter() - t
    print(f"  one game, in-process: {plain / n * 1000:7.1f} ms plain, {watched / n * 1000:7.1f} ms watched "
          f"(+{(watched / plain - 1):.1%} for the statistics)")

    results = {}
    for workers in (1, 2):
        lines, info, wall = timed(sim, workers=workers)
        results[f"{workers} worker(s)"] = lines
        print(f"  local, {workers} worker(s): {wall:7.1f} s   {args.games / wall:6.2f} games/s")
        if workers == 1:
            base = wall
        else:
            print(f"    speed-up with 2 workers: {base / wall:.2f}× (efficiency {base / wall / 2:.0%})")
            local2 = wall

    if not args.no_cluster:
        from distributed import LocalCluster

        t = time.perf_counter()
        with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as lc:
            up = time.perf_counter() - t
            lines, info, wall = timed(sim, cluster=lc.scheduler_address)
        results["LocalCluster"] = lines
        print(f"  Dask LocalCluster, 2 workers × 1 thread: {wall:7.1f} s   {args.games / wall:6.2f} games/s "
              f"(+ {up:.1f} s to start the cluster)")
        # the machine's speed drifts (shared cores): run the local pool again and compare
        # the cluster with the mean of the two local runs around it
        again, _, wall2 = timed(sim, workers=2)
        results["2 worker(s), again"] = again
        ref = (local2 + wall2) / 2
        print(f"  local, 2 worker(s), again: {wall2:7.1f} s   {args.games / wall2:6.2f} games/s")
        print(f"    cluster overhead against 2 local processes (mean {ref:.1f} s): {wall - ref:+.1f} s "
              f"({wall / ref - 1:+.1%}; {(wall - ref) / args.games * 1000:+.1f} ms a game)")

    print(f"  two processes give {machine_parallelism():.2f}× one at the end")
    first = next(iter(results.values()))
    same = all(v == first for v in results.values())
    print(f"  identical lines in every run: {same}")
    if not same:
        raise SystemExit("runs disagree")


if __name__ == "__main__":
    main()
