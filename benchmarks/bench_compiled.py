"""Compiled against plain Python, game by game, side by side in one run.

For each game (``--game``, default all but Hy Breasil, whose figures are
``bench_engine.py``'s), the same measures are taken in two child processes started one
after the other, one with ``REALMS_PURE=1`` (the ``.py`` files) and one with the build
``setup.py`` made (``[tool.realms] compiled`` in pyproject.toml), ``--rounds`` times
alternately, so that load that comes and goes on a shared machine falls on both:

* random decisions per second (random bots in every seat);
* the game's rule bot in every seat (``--bot``, default its lobby's first bot): games per
  second;
* what search pays for, on a mid-game state (seed 1, random bots, half-way through the
  game's answers, then on to a question of three options or more): ``clone()`` and
  ``determinize()`` per second for the seat to answer;
* one search decision: ``ismcts`` (``--search``, default ``iters=16``) answering the same
  mid-game question, milliseconds a decision.

Every rate is CPU time of the child (``time.process_time``), the best of its runs; the
machine's load average is printed before and after.  A child reports whether it ran the
compiled modules (``realms.compiled()``): a stale or missing build says so rather than
passing plain Python off as compiled.

    .venv/bin/python benchmarks/bench_compiled.py [--game brian-boru] [--rounds 2]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time

GAMES = {
    # game: (options, rule bot, random games a run, rule-bot games a run)
    "brian-boru": ({"players": 4}, "greedy", 30, 10),
    "version2": ({"players": 4}, "general", 5, 2),
    "brittania": ({"players": 12}, "steward", 5, 3),
    "hy-breasil": ({"players": 4, "turns": 15}, "auto", 20, 2),
}

CHILD = "--child"


def best_rate(count_fn, runs: int = 2) -> float:
    """The best of ``runs`` rates, each ``count_fn()`` returning (things done, CPU seconds)."""
    out = 0.0
    for _ in range(runs):
        n, dt = count_fn()
        out = max(out, n / dt)
    return out


def child(game_id: str, search: str, bot: str) -> dict:
    import random

    import realms
    from realms.core.agents import RandomBot, SeatView, bot_seed
    from realms.core.game import games
    from realms.core.lineup import make_bots
    from realms.core.match import play

    game = games()[game_id]
    options, rule_bot, random_games, bot_games = GAMES[game_id]
    bot = bot or rule_bot
    players = len(game.new_game(options, 1).result()["players"])

    def random_decisions() -> tuple[int, float]:
        n, t = 0, time.process_time()
        for seed in range(1, random_games + 1):
            state = game.new_game(options, seed)
            play(state, [RandomBot(bot_seed(seed, i)) for i in range(players)])
            n += len(state.answers)
        return n, time.process_time() - t

    def bot_games_run() -> tuple[int, float]:
        t = time.process_time()
        for seed in range(1, bot_games + 1):
            play(game.new_game(options, seed), make_bots(game, [bot], players, seed))
        return bot_games, time.process_time() - t

    full = play(game.new_game(options, 1), [RandomBot(bot_seed(1, i)) for i in range(players)])
    state = game.new_game(options, 1)
    for seat, key in full.answers[: len(full.answers) // 2]:
        d = next(d for d in state.pending() if d.player == seat)
        state.answer_index(d, list(d.keys).index(key))
    walk = RandomBot(1)
    while len(state.pending()[0].keys) < 3:  # a question with a choice worth searching
        d = state.pending()[0]
        state.answer_index(d, walk.choose(d, lambda: {}))
    decision = state.pending()[0]

    def clones() -> tuple[int, float]:
        t = time.process_time()
        for _ in range(2000):
            state.clone()
        return 2000, time.process_time() - t

    def determinizations() -> tuple[int, float]:
        rng = random.Random(1)
        t = time.process_time()
        for _ in range(2000):
            state.determinize(decision.player, rng)
        return 2000, time.process_time() - t

    def searches() -> tuple[int, float]:
        (searcher,) = make_bots(game, [f"ismcts:{search}"], 1, 1)
        t = time.process_time()
        for _ in range(3):
            searcher.choose(decision, SeatView(state, decision.player))
        return 3, time.process_time() - t

    return {
        "compiled": realms.compiled(),
        "random decisions/s": best_rate(random_decisions),
        f"{bot} games/s": best_rate(bot_games_run),
        "clones/s": best_rate(clones),
        "determinizations/s": best_rate(determinizations),
        f"ms a search decision (ismcts:{search})": 1000 / best_rate(searches),
    }


def run_child(game_id: str, search: str, bot: str, pure: bool) -> dict:
    env = {k: v for k, v in os.environ.items() if k != "REALMS_PURE"}
    if pure:
        env["REALMS_PURE"] = "1"
    out = subprocess.run([sys.executable, __file__, CHILD, game_id, search, bot], env=env,
                         capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] == CHILD:
        print(json.dumps(child(*sys.argv[2:5])))
        return
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--game", action="append", choices=sorted(GAMES),
                    help="a game to measure (repeatable); default: all but hy-breasil")
    ap.add_argument("--rounds", type=int, default=2, help="plain/compiled pairs of runs")
    ap.add_argument("--search", default="iters=16", help="the ismcts parameters")
    ap.add_argument("--bot", default="", help="the rule bot (default: the game's own)")
    args = ap.parse_args()
    for game_id in args.game or [g for g in GAMES if g != "hy-breasil"]:
        load = os.getloadavg()
        rows: dict[str, list[dict]] = {"plain": [], "compiled": []}
        for _ in range(args.rounds):
            rows["plain"].append(run_child(game_id, args.search, args.bot, pure=True))
            rows["compiled"].append(run_child(game_id, args.search, args.bot, pure=False))
        best = {}
        for side, runs in rows.items():
            best[side] = {k: (min if k.startswith("ms") else max)(r[k] for r in runs)
                          for k in runs[0] if k != "compiled"}
        print(f"{game_id}: options {json.dumps(GAMES[game_id][0])}; best of {args.rounds} "
              f"rounds; compiled build in use: {rows['compiled'][0]['compiled']}; load "
              f"{load[0]:.1f} -> {os.getloadavg()[0]:.1f}")
        for key in best["plain"]:
            p, c = best["plain"][key], best["compiled"][key]
            ratio = p / c if key.startswith("ms") else c / p
            print(f"  {key:42} plain {p:10.1f}   compiled {c:10.1f}   x{ratio:.2f}")


if __name__ == "__main__":
    main()
