"""Civil war (§6.1, RULINGS HB-Q110): the cost of one answer, before and after the bounded search.

Before: every split of the nation's areas was tried (C(n, n/2) of them); timed here on
nations of up to 20 areas and extrapolated at the measured rate beyond, where one run
would take minutes to days.  After: the bounded search, timed on the costliest answer of
a civil war (the first pick: the fewest groups, then the owner's choices) for nations of
14 to 39 areas of the bundled map (39 areas: the most a 40-token set, the lobby's largest,
can hold), hemmed in by other nations or beside empty land, and on sparse random nations
of 40 areas whose searches hit the bound (the worst case per answer).

    .venv/bin/python benchmarks/bench_civil_war.py [--positions 12]
"""

from __future__ import annotations

import argparse
import os
import random
import time
from itertools import combinations
from math import comb

from realms.core.game import games
from realms.games.hy_breasil.civil_war import WORK_BOUND, SplitSearch, nation_links
from realms.games.hy_breasil.connect import components


def every_split(land: int, links: dict[int, int], k: int) -> int:
    """The fewest groups by trying every split: the algorithm before the bounded search."""
    areas = [a for a in range(land.bit_length()) if land >> a & 1]
    best = -1
    for combo in combinations(areas, k):
        m = 0
        for a in combo:
            m |= 1 << a
        groups = len(components(m, links)) + len(components(land & ~m, links))
        if best < 0 or groups < best:
            best = groups
    return best


def map_nation(rng: random.Random, areas: int, hemmed: bool):
    """A position of the bundled map: a nation of ``areas`` connected land areas, the
    others held by a second nation (``hemmed``) or empty; (land, links, k)."""
    s = games()["hy-breasil"].new_game({"players": 2, "set_size": 40}, 1)
    for n in list(s.nations.values()):
        s.eliminate(n)
    b = s.board
    land = [a for a in range(len(b.ids)) if not b.is_sea[a]]
    start = rng.choice(land)
    chosen = [start]
    while len(chosen) < areas:
        grow = [v for u in chosen for v in b.land_nbrs[u] if v not in chosen]
        chosen.append(rng.choice(grow) if grow else rng.choice([a for a in land if a not in chosen]))
    n = s.create_nation(0)
    for a in chosen:
        s.add_units(n, a, 1)
    if hemmed:
        other = s.create_nation(1)
        for a in land:
            if a not in chosen:
                s.add_units(other, a, 1)
    return n.land, nation_links(s, n), areas // 2


def answer(land: int, links: dict[int, int], k: int) -> tuple[float, int, bool]:
    """Seconds, positions visited and whether the bound was hit, for the first pick."""
    t = time.perf_counter()
    best = SplitSearch(land, links, k).best()
    offered = SplitSearch(land, links, k).choices(best.groups)
    return time.perf_counter() - t, best.work + offered.work, best.cut or offered.cut


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--positions", type=int, default=12, help="map positions per size")
    args = ap.parse_args()
    rng = random.Random(61)
    print(f"load average {os.getloadavg()[0]:.2f}; work bound {WORK_BOUND} positions a search")
    print("before: every split")
    rate = 0.0
    for areas in (14, 16, 18, 20):
        land, links, k = map_nation(rng, areas, hemmed=True)
        t = time.perf_counter()
        every_split(land, links, k)
        dt = time.perf_counter() - t
        rate = comb(areas, k) / dt
        print(f"  {areas:2} areas: {comb(areas, k):>14,} splits {dt:9.3f} s   ({rate:,.0f} splits/s)")
    for areas in (28, 32, 39):
        n = comb(areas, areas // 2)
        print(f"  {areas:2} areas: {n:>14,} splits {n / rate:9.0f} s   (extrapolated)")
    print("after: bounded search, the first pick (fewest groups, then the owner's choices)")
    for areas in (14, 20, 28, 32, 39):
        for hemmed in (True, False):
            runs = [answer(*map_nation(rng, areas, hemmed)) for _ in range(args.positions)]
            worst = max(runs)
            print(f"  {areas:2} areas of the map, {'hemmed' if hemmed else 'open  '}: worst {worst[0] * 1000:8.1f} ms, "
                  f"{max(r[1] for r in runs):6} positions, bound hit in {sum(r[2] for r in runs)} of {len(runs)}")
    worst_cut = (0.0, 0, False)
    for _ in range(args.positions):
        links = {a: 0 for a in range(40)}
        for a, b in combinations(range(40), 2):
            if rng.random() < 0.04:
                links[a] |= 1 << b
                links[b] |= 1 << a
        worst_cut = max(worst_cut, answer((1 << 40) - 1, links, 20))
    print(f"  40 sparse random areas: worst {worst_cut[0] * 1000:8.1f} ms, {worst_cut[1]} positions, bound hit: {worst_cut[2]}")
    print(f"load average {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
