"""How well ``realms gm orders`` reads forum threads written the way players post
(tests/brittania/threads/: eleven 12-player threads of four games, saved SMF 2.0 and 2.1
pages, personal messages, and key.json, the answer key a game master would write by
hand; threads 8–11 hold tables, spoilers, code boxes, smileys, "x6", "½ my grain", "the
rest", "same as last turn", corrections in a later post, quotes and signatures).

For each thread: the clear orders read right, missed and invented; the problems
reported right (an expected problem on its line, with its reason) and wrong (reported
where the key has none).  Run: ``python benchmarks/gm_reading.py``."""

from __future__ import annotations

import json
import sys
import tempfile
from pathlib import Path

THREADS = Path(__file__).resolve().parent.parent / "tests" / "brittania" / "threads"


def _orders(entry: dict, players: list[str]) -> set[str]:
    out = set()
    for o in entry["orders"]:
        if o["kind"] in ("trade", "cancel"):
            out.add(f"{o['kind']} {players[int(o['target'])]}")
        elif o["kind"] == "lead":
            out.add(f"lead {o['target'].replace(':', ' ')}")
        else:
            out.add(f"{o['kind']} {o['target']} {o['grain']}")
    return out


def measure(name: str, key: dict, keys: dict) -> dict:
    """One thread's figures; the turns of the threads it follows (``before``) are read and
    resolved first."""
    from realms.games.brittania.gm import new, orders, resolve

    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "game"
        folder.mkdir()
        new(folder, key["players"], key["seed"])
        for earlier in key.get("before", []):
            orders(folder, [THREADS / p for p in keys[earlier]["pages"]])
            resolve(folder)
        read, _ = orders(folder, [THREADS / p for p in key["pages"]])
        resolve(folder)                     # what was read, the game takes
    players = [p.split(":")[0] for p in key["players"]]
    got = {"right": 0, "missed": [], "invented": [], "problems_right": 0, "problems_wrong": [],
           "problems_missed": [], "strangers": [x["author"] for x in read["strangers"]]}
    expected_orders = sum(len(v) for v in key["orders"].values())
    for player in players:
        entry = read["players"][player]
        want = set(key["orders"].get(player, []))
        have = _orders(entry, players)
        got["right"] += len(want & have)
        got["missed"] += [f"{player}: {x}" for x in sorted(want - have)]
        got["invented"] += [f"{player}: {x}" for x in sorted(have - want)]
        expect = [list(x) for x in key["problems"].get(player, [])]
        for x in entry["problems"]:
            hit = next((e for e in expect if e[0] in x["text"] and e[1] in x["reason"]), None)
            if hit:
                got["problems_right"] += 1
                expect.remove(hit)
            else:
                got["problems_wrong"].append(f"{player}: {x['where']} {x['text']!r}: {x['reason']}")
        got["problems_missed"] += [f"{player}: {e}" for e in expect]
    got["orders"] = expected_orders
    got["problems"] = sum(len(v) for v in key["problems"].values())
    return got


def main() -> int:
    key = json.loads((THREADS / "key.json").read_text(encoding="utf-8"))
    total = right = invented = 0
    for name, thread in key.items():
        got = measure(name, thread, key)
        total += got["orders"]
        right += got["right"]
        invented += len(got["invented"])
        print(f"{name} ({thread['what']}):")
        print(f"  clear orders read right {got['right']}/{got['orders']}, missed {len(got['missed'])}, "
              f"invented {len(got['invented'])}")
        print(f"  problems right {got['problems_right']}/{got['problems']}, wrong {len(got['problems_wrong'])}")
        for what in ("missed", "invented", "problems_wrong", "problems_missed"):
            for x in got[what]:
                print(f"    {what}: {x}")
    print(f"all: {right}/{total} clear orders read right ({100 * right / total:.1f}%), {invented} invented")
    return 0 if right == total and not invented else 1


if __name__ == "__main__":
    sys.exit(main())
