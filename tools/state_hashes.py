"""Golden games: fixed seeded games of every game and bot, and their final state hashes.

Any change of a game's behaviour changes some hash. The committed hashes are in
``tests/golden/state_hashes.json``, which ``tests/core/test_golden.py`` replays in the
default test run; a change meant to alter games is re-blessed on purpose, and the diff of
that file shows which games moved:

    python tools/state_hashes.py --bless            # write tests/golden/state_hashes.json anew
    python tools/state_hashes.py --check            # compare with it (exit 1 if any changed)
    python tools/state_hashes.py --seeds 20 > before.json   # a wider set, for a refactor:
    python tools/state_hashes.py --seeds 20 --check before.json

The set covers every registered game with each bot it ships (``Game.bots``) and
``random``, on the game's default options, plus Hy Breasil's advanced rules.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from realms.core.game import games
from realms.sim.runner import run_game

GOLDEN = Path(__file__).resolve().parent.parent / "tests" / "golden" / "state_hashes.json"
#: Seeds per configuration in the golden file: a few whole games each.
GOLDEN_SEEDS = 2
#: Option sets beyond a game's defaults worth a golden game of their own.
EXTRA_OPTIONS = {"hy-breasil": [{"rules": ["races", "submission", "abilities"]}]}


def configs() -> list[tuple[str, dict, str]]:
    """(game id, options, bot) for every registered game: ``random`` and each shipped bot on
    the defaults, and each bot on the extra option sets."""
    out = []
    for game_id, game in sorted(games().items()):
        bots = ["random", *sorted(b for b in (game.bots or {}) if b != "random")]
        for options in [{}, *EXTRA_OPTIONS.get(game_id, [])]:
            out += [(game_id, options, bot) for bot in bots]
    return out


def collect(seeds: int) -> list[dict]:
    """One entry per game played: what it was and its final state hash."""
    registry = games()
    out = []
    for game_id, options, bot in configs():
        for seed in range(1, seeds + 1):
            state = run_game(registry[game_id], options, seed, [bot])
            out.append({"game": game_id, "options": options, "bots": [bot], "seed": seed,
                        "hash": state.state_hash()})
    return out


def label(entry: dict) -> str:
    return f"{entry['game']} {json.dumps(entry['options'], sort_keys=True)} {','.join(entry['bots'])} seed={entry['seed']}"


def compare(before: list[dict], now: list[dict]) -> list[str]:
    """Labels of the games whose hash differs, or that one side lacks."""
    old = {label(e): e["hash"] for e in before}
    new = {label(e): e["hash"] for e in now}
    return sorted(k for k in old.keys() | new.keys() if old.get(k) != new.get(k))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", type=int, default=GOLDEN_SEEDS)
    ap.add_argument("--bless", action="store_true", help=f"write {GOLDEN.relative_to(GOLDEN.parents[2])} anew")
    ap.add_argument("--check", nargs="?", const=str(GOLDEN), help="compare with a file (default: the golden one)")
    args = ap.parse_args()
    now = collect(args.seeds)
    if args.bless:
        GOLDEN.write_text(json.dumps(now, indent=1, sort_keys=True) + "\n")
        print(f"wrote {len(now)} golden games to {GOLDEN}")
        return 0
    if not args.check:
        json.dump(now, sys.stdout, indent=1, sort_keys=True)
        print()
        return 0
    bad = compare(json.loads(Path(args.check).read_text()), now)
    for k in bad:
        print("changed:", k)
    print(f"{len(now) - len(bad)} same, {len(bad)} changed or missing")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
