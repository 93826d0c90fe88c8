"""Play a fixed set of seeded games and print (or check) their final state hashes.

A refactor that must not change any game is checked by running this before and after:

    python tools/state_hashes.py > before.json
    ... change ...
    python tools/state_hashes.py --check before.json

The set covers every registered game with the bots it ships, each game's own option
variations (``Game.hash_configs`` when a game declares it, its defaults otherwise).
"""

from __future__ import annotations

import argparse
import json
import sys

from realms.core.game import games
from realms.sim.runner import run_game

#: (game id, options, bots) — the configurations the refactor issues name.
CONFIGS = [
    ("hy-breasil", {}, ["random"]),
    ("hy-breasil", {"rules": ["races", "submission", "abilities"]}, ["random"]),
    ("hy-breasil", {}, ["auto"]),
    ("hy-breasil", {"rules": ["races", "submission", "abilities"]}, ["auto"]),
    ("brian-boru", {}, ["greedy"]),
    ("brian-boru", {}, ["random"]),
    ("version2", {}, ["random"]),
    ("version2", {}, ["general"]),
    ("brittania", {}, ["random"]),
    ("brittania", {}, ["steward"]),
]


def collect(seeds: int) -> dict:
    out = {}
    registry = games()
    for game_id, options, bots in CONFIGS:
        if game_id not in registry:
            continue
        for seed in range(1, seeds + 1):
            state = run_game(registry[game_id], options, seed, bots)
            label = f"{game_id} {json.dumps(options, sort_keys=True)} {','.join(bots)} seed={seed}"
            out[label] = state.state_hash()
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", type=int, default=20)
    ap.add_argument("--check", help="a JSON file printed by an earlier run")
    args = ap.parse_args()
    now = collect(args.seeds)
    if not args.check:
        json.dump(now, sys.stdout, indent=1)
        print()
        return 0
    with open(args.check) as f:
        before = json.load(f)
    bad = [k for k in before if k in now and now[k] != before[k]]
    for k in bad:
        print("changed:", k)
    print(f"{len(now) - len(bad)} same, {len(bad)} changed, {len(set(before) - set(now))} missing")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
