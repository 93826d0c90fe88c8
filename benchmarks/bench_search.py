"""The ismcts bot: how often one ismcts wins against the game's heuristic bots,
how long it thinks, and what the learning adapters cost.

Prints, as JSON lines:

* ``match``: one ``--bot`` (default ``ismcts:ms=200``) against ``--opponent`` in every
  other seat, the seat rotated game by game (game ``i`` is seed ``--seed + i``, the search
  in seat ``i % players``), ``--games`` games (fewer if ``--minutes`` run out first) on
  ``--workers`` processes (``kill -INT`` or ``-TERM`` stops it with the games played so
  far): its win share with the Wilson 95% interval (shared wins count
  as fractions), how many decisions it searched and how many of those it answered
  otherwise than its policy bot would have (``overruled``), the median, mean and 95th
  percentile time per decision it took, its games' mean score, and the machine's load
  average (1, 5, 15 minutes) before and after, since other work on the cores slows it;
* with ``--baseline BOT``: every seed is played twice, ``--bot`` and then ``BOT`` at the
  same seat against the same opponents (same deal, same opponents' seeds), and the line
  adds the baseline's win share and the paired difference with its 95% interval: how
  ``hard`` is measured against ``normal`` for the lobby's labels;
* ``--bot``, ``--opponent`` and ``--baseline`` take a bot as ``--bots`` writes it or a
  level, ``easy``, ``normal`` or ``hard``: the bot the game's lobby labels so;
* ``--out FILE``: each game is added to ``FILE`` (JSON lines) as it ends, and a run given
  the same file plays only the seeds it lacks, then reports on all of them: a stopped
  match resumes; ``--also FILE`` (repeatable) counts the games another process played into
  its own ``--out`` file, so two halves of a match report as one (with ``--games 0``: the
  report alone);
* ``bot_view`` (``--bot-views N``): for each game declaring ``Game.bot_view``, the CPU
  time of ``N`` decisions of one game (``--options``' players, default 4) searched in
  every seat by ``--bot``, its bots
  reading the bot view, then the view itself, and whether the answers were the same;
* ``model`` (``--models``): each shipped value model's size, load time and the time to
  score one position (the game's features of a view and the prediction);
* ``adapters`` (``--adapters``): random answers per second through the engine's own loop,
  the PettingZoo AEC and parallel environments, OpenSpiel's Python game and Gymnasium's
  single-seat environment (its bots' answers counted too), for each game, one process.

The issue's figures (aim ≥ 40% each, Brittania ≥ 3× its fair share; 200 games each; ≤ 250
ms a decision median), one process each, one after another (``--minutes`` caps a match on
a busy machine; the JSON line says how many games were played):

    .venv/bin/python benchmarks/bench_search.py --game hy-breasil --opponent auto --bot ismcts:iters=16 --games 200
    .venv/bin/python benchmarks/bench_search.py --game brian-boru --opponent greedy --bot ismcts:iters=30 --games 200
    .venv/bin/python benchmarks/bench_search.py --game version2 --opponent general --bot ismcts:iters=8 --games 200
    .venv/bin/python benchmarks/bench_search.py --game brittania --options '{"players": 12}' \
        --opponent steward --bot ismcts:iters=16 --games 200
    .venv/bin/python benchmarks/bench_search.py --adapters

The levels (``hard`` against ``normal`` at the same seat on the same seeds, as the lobby
labels them; the search with the learned value shipped in each game's package where the
lobby calls none hard; ``--out`` keeps the games, so a stopped match resumes):

    .venv/bin/python benchmarks/bench_search.py --game brian-boru --opponent normal \
        --bot hard --baseline normal --games 400 --out bb-levels.jsonl
    .venv/bin/python benchmarks/bench_search.py --game version2 --opponent normal \
        --bot hard --baseline normal --games 400 --out v2-levels.jsonl
    .venv/bin/python benchmarks/bench_search.py --game hy-breasil --opponent auto \
        --bot ismcts:iters=16:value=learned --baseline auto --games 400
    .venv/bin/python benchmarks/bench_search.py --game brittania --options '{"players": 12}' \
        --opponent normal --bot hard --baseline normal --games 400 --out br-levels.jsonl
    .venv/bin/python benchmarks/bench_search.py --models

version²'s search scored where the seat's turn ends (``horizon=turn``), or where its next
turn begins (``turns=4``: the lobby's hard), with a value fitted on positions taken at turn
ends (``--install`` ships it, as version²'s is):

    .venv/bin/realms selfplay version2 --games 400 --bots general --at turn-ends --every 2 --out v2ends
    .venv/bin/realms train version2 --data v2ends --seed 1 --steps 600
    .venv/bin/python benchmarks/bench_search.py --game version2 --opponent general \
        --bot ismcts:iters=32:z=2:horizon=turn:value=v2ends/value.json --baseline general \
        --games 60 --out v2-turn.jsonl
    .venv/bin/python benchmarks/bench_search.py --game version2 --opponent general --baseline general \
        --bot ismcts:iters=32:z=2:horizon=turn:turns=4:value=v2ends/value.json \
        --games 60 --out v2-round.jsonl
    .venv/bin/python benchmarks/bench_search.py --bot-views 300 --options '{"players": 12}' \
        --bot ismcts:iters=16:value=learned
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import statistics
import sys
import time
from contextlib import nullcontext
from multiprocessing import Pool

import numpy as np

from realms.core.agents import RandomBot, SeatView
from realms.core.game import get_game
from realms.core.match import play
from realms.sim.runner import make_bots
from realms.sim.stats import wilson


class Timed:
    """An agent whose every decision is clocked; for a search, the decisions it searched
    and those where it played another answer than its policy's."""

    def __init__(self, agent) -> None:
        self.agent = agent
        self.name = agent.name
        self.times: list[float] = []
        self.searched = self.overruled = 0

    def choose(self, decision, view) -> int:
        start = time.perf_counter()
        out = self.agent.choose(decision, view)
        self.times.append(time.perf_counter() - start)
        last = getattr(self.agent, "last", None)
        if last and last.get("iterations"):
            self.searched += 1
            self.overruled += last["prior"] is not None and decision.keys[out] != last["prior"]
        return out


def one_game(job: tuple) -> dict:
    game_id, options, seed, bot, opponent = job
    game = get_game(game_id)
    state = game.new_game(options, seed)
    players = len(state.result()["players"])
    seat = seed % players
    spec = [opponent] * players
    spec[seat] = bot
    agents = make_bots(game, spec, players, seed)
    agents[seat] = timed = Timed(agents[seat])
    play(state, agents)
    return {"seed": seed, "seat": seat, "won": state.returns()[seat], "times": timed.times,
            "searched": timed.searched, "overruled": timed.overruled,
            "score": game.current_scores(state)[seat], "others": game.current_scores(state)}


def paired_job(job: tuple) -> dict:
    """One seed played twice: ``bot`` at the seat, then ``baseline`` at the same seat
    against the same opponents (the same deal and the same opponents' seeds)."""
    game_id, options, seed, bot, opponent, baseline = job
    row = one_game((game_id, options, seed, bot, opponent))
    base = one_game((game_id, options, seed, baseline, opponent))
    row["base_won"], row["base_times"], row["base_score"] = base["won"], base["times"], base["score"]
    row["base_others"] = base["others"]
    return row


def mean_ci(diffs: list[float], places: int = 3) -> tuple[float, list[float]]:
    """The mean of paired differences and its 95% interval (normal, from their spread)."""
    mean = statistics.fmean(diffs)
    se = statistics.stdev(diffs) / len(diffs) ** 0.5 if len(diffs) > 1 else float("nan")
    return round(mean, places), [round(mean - 1.96 * se, places), round(mean + 1.96 * se, places)]


def paired_difference(rows: list[dict]) -> dict:
    """The bot's win share less the baseline's on the same seeds and seats: the mean
    difference and its 95% interval; the same of the seat's final score and of its share
    of all the seats' final scores (finer signals than the winner alone, for tuning; the
    share also for games of many seats, where one seat's wins are rare)."""
    diffs = [r["won"] - r["base_won"] for r in rows]
    mean, ci = mean_ci(diffs)
    base = sum(r["base_won"] for r in rows)
    low, high = wilson(base, len(rows))
    out = {"baseline_win_share": round(base / len(rows), 3), "baseline_ci95": [round(low, 3), round(high, 3)],
           "difference": mean, "difference_ci95": ci, "seeds_differing": sum(1 for d in diffs if d),
           "pairs": [[r["seed"], r["won"], r["base_won"]] for r in rows]}
    if all("base_score" in r for r in rows):
        out["score_difference"], out["score_difference_ci95"] = mean_ci([r["score"] - r["base_score"] for r in rows], 2)
    if all("base_others" in r for r in rows):
        out["score_share_difference"], out["score_share_difference_ci95"] = mean_ci(
            [score_share(r["score"], r["others"]) - score_share(r["base_score"], r["base_others"]) for r in rows])
    return out


def score_share(score: float, scores: list[float]) -> float:
    """A seat's final score as a share of all the seats' (0 where every score is 0)."""
    total = sum(scores)
    return score / total if total else 0.0


def played(path: str | None, header: dict) -> list[dict]:
    """The games already in ``path`` (one JSON line each, after a header line naming the
    match), so that a stopped run goes on where it stopped; a file of another match is an
    error, not mixed in."""
    if not path or not os.path.exists(path):
        return []
    with open(path) as f:
        lines = [json.loads(line) for line in f if line.strip()]
    if not lines or lines[0] != header:
        raise SystemExit(f"{path}: holds another match ({lines[0] if lines else 'empty'}), not {header}")
    return [row for row in lines[1:] if "seed" in row]


LEVELS = ("easy", "normal", "hard")


def lobby_bot(game_id: str, name: str) -> str:
    """A bot as ``--bots`` writes it, or a level (``easy``, ``normal``, ``hard``): the bot
    the game's lobby labels so (``Game.bot_variants``' "greedy (normal)"), so that what is
    measured is what the lobby offers."""
    if name not in LEVELS:
        return name
    found = [spec for spec, label in get_game(game_id).bot_variants.items() if label.endswith(f"({name})")]
    if len(found) != 1:
        raise SystemExit(f"{game_id}: the lobby labels {len(found)} bots {name!r}, not one")
    return found[0]


def match(args) -> dict:
    options = json.loads(args.options)
    args.bot, args.opponent = lobby_bot(args.game, args.bot), lobby_bot(args.game, args.opponent)
    args.baseline = args.baseline and lobby_bot(args.game, args.baseline)
    header = {"game": args.game, "options": options, "bot": args.bot, "opponent": args.opponent,
              "baseline": args.baseline}
    rows = played(args.out, header)
    for path in args.also:
        if not os.path.exists(path):
            raise SystemExit(f"--also {path}: no such file")
        seen = {r["seed"] for r in rows}
        rows += [r for r in played(path, header) if r["seed"] not in seen]
    done = {r["seed"] for r in rows}
    seeds = [args.seed + i for i in range(args.games) if args.seed + i not in done]
    if args.baseline:
        jobs = [(args.game, options, seed, args.bot, args.opponent, args.baseline) for seed in seeds]
        play_one = paired_job
    else:
        jobs = [(args.game, options, seed, args.bot, args.opponent) for seed in seeds]
        play_one = one_game
    start, load_before = time.perf_counter(), os.getloadavg()
    if args.out and not os.path.exists(args.out):
        with open(args.out, "w") as f:
            f.write(json.dumps(header) + "\n")
    with Pool(args.workers, initializer=_quiet_worker) if args.workers > 1 else nullcontext() as pool:
        try:
            for row in (pool.imap(play_one, jobs) if pool else map(play_one, jobs)):
                rows.append(row)
                if args.out:
                    with open(args.out, "a") as f:
                        f.write(json.dumps(row) + "\n")
                base = f", baseline won {sum(r['base_won'] for r in rows):.1f}" if args.baseline else ""
                print(f"{len(rows)} games, won {sum(r['won'] for r in rows):.1f}{base}", file=sys.stderr, flush=True)
                if args.minutes and time.perf_counter() - start > 60 * args.minutes:
                    break
        except KeyboardInterrupt:  # stopped by hand (kill -INT): the games played so far
            print(f"interrupted after {len(rows)} games", file=sys.stderr, flush=True)
    rows.sort(key=lambda r: r["seed"])
    won = sum(r["won"] for r in rows)
    times = sorted(t for r in rows for t in r["times"])
    low, high = wilson(won, len(rows))
    out = {
        "match": f"{args.game}: 1 {args.bot} v {args.opponent}", "options": options, "games": len(rows),
        "seed": args.seed, "win_share": round(won / len(rows), 3), "ci95": [round(low, 3), round(high, 3)],
        "fair_share": round(1 / (len(rows[0]["others"])), 3),
        "ms_per_decision": {"median": round(1000 * statistics.median(times), 1),
                            "mean": round(1000 * statistics.fmean(times), 1),
                            "p95": round(1000 * times[int(0.95 * (len(times) - 1))], 1)},
        "decisions": len(times), "searched": sum(r.get("searched", 0) for r in rows),
        "overruled": sum(r.get("overruled", 0) for r in rows), "mean_score": round(statistics.fmean(r["score"] for r in rows), 1),
        "wall_s": round(time.perf_counter() - start, 1),
        "load_1_5_15": {"before": [round(x, 2) for x in load_before],
                        "after": [round(x, 2) for x in os.getloadavg()]},
    }
    out["per_seed"] = [[r["seed"], r["won"]] for r in rows]
    if args.baseline:
        out["baseline"] = args.baseline
        out.update(paired_difference(rows))
    return out


# -- adapters -----------------------------------------------------------------------------

def engine_rate(game_id: str, options: dict, games: int) -> float:
    game, steps, start = get_game(game_id), 0, time.perf_counter()
    for seed in range(games):
        state = game.new_game(options, seed)
        play(state, [RandomBot(seat) for seat in range(len(options.get("names", [])) or 8)])
        steps += len(state.answers)
    return steps / (time.perf_counter() - start)


def pettingzoo_rate(game_id: str, options: dict, games: int) -> float:
    from realms.adapters.pettingzoo import env

    e, rng, steps, start = env(game_id, **options), np.random.default_rng(0), 0, time.perf_counter()
    for seed in range(games):
        e.reset(seed=seed)
        for agent in e.agent_iter():
            obs, _, term, trunc, _ = e.last()
            if term or trunc:
                e.step(None)
                continue
            e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
            steps += 1
    return steps / (time.perf_counter() - start)


def parallel_rate(game_id: str, options: dict, games: int) -> float:
    from realms.adapters.pettingzoo import parallel_env

    e, rng, steps, start = parallel_env(game_id, **options), np.random.default_rng(0), 0, time.perf_counter()
    for seed in range(games):
        obs, _ = e.reset(seed=seed)
        while e.agents:
            actions = {}
            for a in e.agents:
                offered = np.flatnonzero(obs[a]["action_mask"])
                actions[a] = int(rng.choice(offered)) if len(offered) else 0
            steps += sum(1 for a in e.agents if obs[a]["action_mask"].any())
            obs, *_ = e.step(actions)
    return steps / (time.perf_counter() - start)


def openspiel_rate(game_id: str, options: dict, games: int) -> float:
    from realms.adapters.openspiel import load

    game, rng, steps, start = load(game_id, **options), np.random.default_rng(0), 0, time.perf_counter()
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            state.apply_action(int(rng.choice(state.legal_actions())))
            steps += 1
    return steps / (time.perf_counter() - start)


def gymnasium_rate(game_id: str, options: dict, games: int) -> float:
    from realms.adapters.gymnasium import env

    e, rng, steps, start = env(game_id, **options), np.random.default_rng(0), 0, time.perf_counter()
    for seed in range(games):
        obs, _ = e.reset(seed=seed)
        done = False
        while not done:
            obs, _, done, _, _ = e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        steps += len(e.game_state.answers)
    return steps / (time.perf_counter() - start)


def adapters(games: int) -> list[dict]:
    out = []
    for game_id in ("hy-breasil", "brian-boru"):
        options = get_game(game_id).normalize_options({"players": 4})
        engine = engine_rate(game_id, options, games)
        row = {"adapters": game_id, "players": 4, "games": games, "engine_steps_per_s": round(engine)}
        for name, fn in (("pettingzoo_aec", pettingzoo_rate), ("pettingzoo_parallel", parallel_rate),
                         ("openspiel", openspiel_rate), ("gymnasium", gymnasium_rate)):
            rate = fn(game_id, options, games)
            row[f"{name}_steps_per_s"] = round(rate)
            row[f"{name}_share_of_engine"] = round(rate / engine, 3)
        out.append(row)
    return out


def models() -> list[dict]:
    """Each shipped value model: its file's size, the time to load it (median of 5) and to
    score one position (features of a view and the prediction, median of 200)."""
    from realms.core.game import games
    from realms.search.value import ValueModel, shipped_path

    out = []
    for game in games().values():
        if game.features is None or not shipped_path(game).exists():
            continue
        path = shipped_path(game)
        loads = []
        for _ in range(5):
            start = time.perf_counter()
            model = ValueModel.load(path)
            loads.append(time.perf_counter() - start)
        view = game.new_game({}, 1).view(0)
        scores = []
        for _ in range(200):
            start = time.perf_counter()
            model.predict(game.features(view))
            scores.append(time.perf_counter() - start)
        out.append({"model": game.id, "bytes": path.stat().st_size, "load_ms": round(1000 * statistics.median(loads), 2),
                    "features_and_predict_us": round(1e6 * statistics.median(scores), 1),
                    "trained": model.data.get("trained"), "load_1_5_15": [round(x, 2) for x in os.getloadavg()]})
    return out


def bot_views(decisions: int, bot: str, players: int = 4) -> list[dict]:
    """For each game that declares a ``bot_view`` (and is played by ``players``): the CPU time (``time.process_time``, less
    hurt by other work on the cores than the wall clock) of ``decisions`` searched answers
    of a seeded game of ``players`` seats, the search's bots reading the game's bot view and then
    reading the view itself, and whether every answer was the same."""
    from dataclasses import replace

    import realms.search.ismcts as ismcts
    from realms.core.agents import parse_bot
    from realms.core.game import games

    name, params = parse_bot(bot)
    out = []
    for game in games().values():
        if game.bot_view is None or not game.min_players <= players <= game.max_players:
            continue
        runs = {}
        for label, variant in (("bot_view", game), ("view", replace(game, bot_view=None))):
            ismcts.get_game = lambda game_id, variant=variant: variant
            state = game.new_game({"players": players}, 1)
            bots = [ismcts.ISMCTSBot(100 + seat, **params) for seat in range(players)]
            start, answers = time.process_time(), []
            while len(answers) < decisions and (d := state.first_pending()) is not None:
                i = bots[d.player].choose(d, SeatView(state, d.player))
                answers.append(d.keys[i])
                state.answer_index(d, i)
            runs[label] = (time.process_time() - start, answers)
        ismcts.get_game = get_game
        (shared, a), (copied, b) = runs["bot_view"], runs["view"]
        out.append({"bot_view": game.id, "bot": bot, "players": players, "decisions": len(a), "same_answers": a == b,
                    "cpu_s_bot_view": round(shared, 2), "cpu_s_view": round(copied, 2),
                    "saved": round(1 - shared / copied, 3), "load_1_5_15": [round(x, 2) for x in os.getloadavg()]})
    return out


def _quiet_worker() -> None:
    """A pool worker leaves stopping to the match: it ignores SIGINT (the match's own
    stop) and dies quietly at the pool's SIGTERM, not with the match's handler, which
    turned the pool's end into a KeyboardInterrupt traceback per worker."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


def main() -> None:
    # a match in the background ignores SIGINT unless told: kill -INT (or -TERM) stops it
    # with the games played so far
    signal.signal(signal.SIGINT, signal.default_int_handler)
    signal.signal(signal.SIGTERM, signal.default_int_handler)
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--game", default="hy-breasil")
    ap.add_argument("--options", default='{"players": 4}', help="game options as JSON")
    ap.add_argument("--bot", default="ismcts:ms=200")
    ap.add_argument("--opponent", default="auto")
    ap.add_argument("--baseline", help="also play every seed with this bot at the seat: the paired difference")
    ap.add_argument("--games", type=int, default=8)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", help="append each game to this JSON-lines file and skip the seeds it holds: "
                                  "a stopped match resumes")
    ap.add_argument("--also", action="append", default=[], metavar="FILE",
                    help="games of the same match played into another --out file (by another process, "
                         "other seeds): counted in the report and not played again; may be repeated")
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--minutes", type=float, default=0,
                    help="stop after the game that ends past this many minutes (0: play them all)")
    ap.add_argument("--adapters", action="store_true", help="measure the adapters' step rates instead")
    ap.add_argument("--adapter-games", type=int, default=5)
    ap.add_argument("--models", action="store_true", help="the shipped value models' sizes and load times instead")
    ap.add_argument("--bot-views", type=int, metavar="DECISIONS",
                    help="the CPU time of this many searched decisions with each game's bot view and without, instead")
    args = ap.parse_args()
    if args.bot_views:
        for row in bot_views(args.bot_views, args.bot, json.loads(args.options).get("players", 4)):
            print(json.dumps(row), flush=True)
    elif args.models:
        for row in models():
            print(json.dumps(row), flush=True)
    elif args.adapters:
        for row in adapters(args.adapter_games):
            print(json.dumps(row), flush=True)
    else:
        print(json.dumps(match(args)), flush=True)


if __name__ == "__main__":
    main()
