"""Hy Breasil's island generator over its advertised sizes, and a seeded board reloaded.

``grid``: for each land-area count × sea count × seed, whether ``generate_text`` makes an
island (and how many seeds after the asked one it took), a clean ``MapGenerationError``,
or another exception escaping (a defect); each generation bounded by ``--limit`` seconds.
``reload``: a server-like loop over more seeded islands than ``load_board`` keeps, each
board asked for again; ms per call.  Run at ``nice -n 10``; give ``uptime`` with the figures.

    python benchmarks/bench_mapgen.py grid --areas 16,20,48 --seas 4,12 --seeds 1-10
    python benchmarks/bench_mapgen.py reload --islands 10 --rounds 3

Without a command (``./run bench``): the grid's edges only, two seeds each.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import time


class Timeout(Exception):
    pass


def _alarm(signum, frame):
    raise Timeout


def one(areas: int, seas: int, seed: int, limit: int) -> dict:
    """One generation: ok (with the seed used), error (MapGenerationError), crash, or timeout."""
    from realms.games.hy_breasil import mapgen

    signal.signal(signal.SIGALRM, _alarm)
    signal.alarm(limit)
    t = time.perf_counter()
    try:
        text, _ = mapgen.generate_text(areas, seas, seed)
        used = int(text.split("(island of seed ")[1].split(")")[0])
        out = {"result": "ok", "extra": used - seed}
    except mapgen.MapGenerationError as exc:
        out = {"result": "error", "why": str(exc)[-120:]}
    except Timeout:
        out = {"result": "timeout"}
    except Exception as exc:  # noqa: BLE001 - the defect being measured
        out = {"result": "crash", "why": f"{type(exc).__name__}: {exc}"[:120]}
    finally:
        signal.alarm(0)
    return {"areas": areas, "seas": seas, "seed": seed, "s": round(time.perf_counter() - t, 2), **out}


def grid(args) -> None:
    lo, hi = (int(x) for x in args.seeds.split("-"))
    rows = []
    for a in (int(x) for x in args.areas.split(",")):
        for s in (int(x) for x in args.seas.split(",")):
            for seed in range(lo, hi + 1):
                row = one(a, s, seed, args.limit)
                rows.append(row)
                print(json.dumps(row, ensure_ascii=False), flush=True)
    print("# areas seas: ok/seeds (crash, error, timeout)  load", os.getloadavg())
    for key in sorted({(r["areas"], r["seas"]) for r in rows}):
        rs = [r for r in rows if (r["areas"], r["seas"]) == key]
        n = {k: sum(r["result"] == k for r in rs) for k in ("ok", "crash", "error", "timeout")}
        print(f"# {key[0]:4d} {key[1]:3d}: {n['ok']}/{len(rs)} ({n['crash']}, {n['error']}, {n['timeout']})")


def reload(args) -> None:
    """Each round asks for every island's board once, as a server's readers do per payload."""
    from realms.games.hy_breasil.board import load_board

    times = []
    for _ in range(args.rounds):
        for seed in range(1, args.islands + 1):
            t = time.perf_counter()
            load_board(f"seed:{seed}")
            times.append((time.perf_counter() - t) * 1000)
    later = times[args.islands:]
    print(f"{args.islands} islands x {args.rounds} rounds: first round {sum(times[:args.islands]) / args.islands:.0f} "
          f"ms/call, later rounds {sum(later) / max(1, len(later)):.1f} ms/call; load {os.getloadavg()}")


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = p.add_subparsers(dest="cmd")
    g = sub.add_parser("grid")
    g.add_argument("--areas", default="16,17,20,24,32,48,64,96,120")
    g.add_argument("--seas", default="4,6,12")
    g.add_argument("--seeds", default="1-10")
    g.add_argument("--limit", type=int, default=60, help="seconds a generation may take")
    r = sub.add_parser("reload")
    r.add_argument("--islands", type=int, default=10)
    r.add_argument("--rounds", type=int, default=3)
    args = p.parse_args()
    if args.cmd is None:
        args = p.parse_args(["grid", "--areas", "16,120", "--seas", "4,8", "--seeds", "1-2"])
    {"grid": grid, "reload": reload}[args.cmd](args)


if __name__ == "__main__":
    main()
