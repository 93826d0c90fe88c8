"""Brittania speed: a 12-player, 20-turn game with steward bots in
every seat, the same with random bots, and one turn of 12 posts entered and resolved.

Prints seconds per game and per turn on one core; --profile shows where the time goes.
--versus N plays N games of one steward against eleven random bots, the steward's seat
rotated (game i: seat i mod 12, seed i + 1), and prints its win share (shared wins
split) with a 95% Wilson interval against the fair share of 1/12 (≥ 4×).
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import tempfile
import time
from pathlib import Path

from realms.core.agents import RandomBot, bot_seed
from realms.core.match import play
from realms.games.brittania import GAME
from realms.games.brittania.bots import Steward
from realms.games.brittania.economy import invest_cost
from realms.games.brittania.orders import Order, submit
from realms.sim.stats import wilson


def one_game(seed: int, bot) -> int:
    state = GAME.new_game({"players": 12}, seed)
    play(state, [bot(bot_seed(seed, i)) for i in range(12)])
    return len(state.answers)


def twelve_posts(seed: int) -> float:
    """Set up 12 players, then time entering a post for each (an attack, a defence, an
    investment) and resolving the turn."""
    state = GAME.new_game({"players": 12}, seed)
    bots = [Steward(bot_seed(seed, i)) for i in range(12)]
    while state.pending()[0].kind != "br.order":
        d = state.pending()[0]
        state.answer_index(d, bots[d.player].choose(d, lambda: state.view(d.player)))
    posts = {}
    for p in range(12):
        home = state.board.states[state.capital[p]].id
        posts[p] = [Order("defend", home, 3), Order("invest", home, 4)]
    t = time.perf_counter()
    submit(state, posts)
    return time.perf_counter() - t


def forum_turn(seed: int) -> tuple[float, float, float]:
    """A game master's turn at 12 players (``realms gm``): the seconds to read 12 posts
    from a text file of posts (parse, match the states, review each post), to resolve the
    turn and write its report and map, and to draw the map's PNG again alone."""
    from realms.games.brittania import gm
    from realms.games.brittania.draw import draw_png

    state = GAME.new_game({"players": 12, "names": [f"Player{i}" for i in range(12)]}, seed)
    bots = [Steward(bot_seed(seed, i)) for i in range(12)]
    while state.pending()[0].kind != "br.order":
        d = state.pending()[0]
        state.answer_index(d, bots[d.player].choose(d, lambda: state.view(d.player)))
    folder = Path(tempfile.mkdtemp(prefix="bench-brittania-"))
    gm.save(folder, state)
    posts = []
    for p, name in enumerate(state.names):
        home = state.board.states[state.capital[p]].name
        cost = invest_cost(state, p, state.capital[p])
        posts.append(f'[post author="{name}"]\nMy orders. [b]3 Grain to Defend {home}.\n'
                     f'{cost} Grain for Investing of {home}.[/b]\n[/post]')
    (folder / "posts.txt").write_text("\n".join(posts) + "\n")
    t0 = time.perf_counter()
    gm.orders(folder, folder / "posts.txt")
    t1 = time.perf_counter()
    gm.resolve(folder)
    t2 = time.perf_counter()
    draw_png(gm.load(folder), folder / "again.png")
    return t1 - t0, t2 - t1, time.perf_counter() - t2


def versus(games: int) -> None:
    """One steward against eleven random bots, ``games`` games, seats rotated."""
    wins = 0.0
    t = time.perf_counter()
    for i in range(games):
        seed, seat = i + 1, i % 12
        state = GAME.new_game({"players": 12}, seed)
        play(state, [Steward(bot_seed(seed, p)) if p == seat else RandomBot(bot_seed(seed, p)) for p in range(12)])
        winners = state.result()["winners"]
        if state.names[seat] in winners:
            wins += 1 / len(winners)
    low, high = wilson(wins, games)
    share = wins / games
    print(f"steward v 11 random, {games} games, seats rotated: {share:.1%} (95%: {low:.1%}–{high:.1%}), "
          f"{share * 12:.1f}× the fair share (interval {low * 12:.1f}–{high * 12:.1f}×); "
          f"{(time.perf_counter() - t) / games:.2f} s a game")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--profile", action="store_true")
    ap.add_argument("--versus", type=int, default=0, metavar="N",
                    help="only play N games of one steward against eleven random bots")
    args = ap.parse_args()
    if args.versus:
        versus(args.versus)
        return
    seeds = range(1, args.games + 1)
    for name, bot in (("steward", Steward), ("random", RandomBot)):
        t = time.perf_counter()
        decisions = sum(one_game(s, bot) for s in seeds)
        dt = time.perf_counter() - t
        print(f"12 players, 20 turns, {name:7}: {dt / args.games * 1000:7.1f} ms/game, "
              f"{decisions / dt:8.0f} decisions/s")
    turn = sum(twelve_posts(s) for s in seeds) / args.games
    print(f"12 posts entered and the turn resolved: {turn * 1000:.1f} ms")
    runs = [forum_turn(s) for s in seeds[:5]]
    read, resolve, png = (sorted(x)[len(x) // 2] for x in zip(*runs))
    print(f"realms gm, 12 players (median of {len(runs)}): gm orders (12 posts read) {read * 1000:.0f} ms; "
          f"gm resolve (the turn, its report and map) {resolve * 1000:.0f} ms; the map's PNG alone, drawn "
          f"again: {png * 1000:.0f} ms")
    if args.profile:
        cProfile.run("one_game(1, Steward)", "/tmp/brittania.prof")
        pstats.Stats("/tmp/brittania.prof").sort_stats("cumtime").print_stats(20)


if __name__ == "__main__":
    main()
