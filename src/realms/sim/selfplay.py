"""Positions for a learned evaluation: ``realms selfplay GAME --games N --bots … --out DIR``.

Bots play whole games (the simulation runner's seeds, workers and resumable file); at
about one decision in ``every`` the position is recorded as the seat that decides sees it:
the game's ``features`` of ``state.view(seat)`` (``Game.features``), never the hidden
state; or (``at="turn-ends"``) about one turn's end in ``every``, where a search with
``horizon=turn`` scores, as the seat whose turn it was sees it (``Game.turn_of``).
When the game ends each of its positions gets the outcome: every seat's returns
(1 a win, shared wins split) and share of the final scores.  Beside the features a
position keeps the game's hand-written evaluation (``Game.evaluation``) of the same
moment, only so that ``realms train`` can compare the learned model with it.

``DIR/positions.jsonl`` holds one line per game, written as games finish, rewritten in
seed order at the end; ``resume`` plays only the seeds missing.  Which decisions are
recorded is drawn from the game's seed, so a game's line is the same on any worker.
"""

from __future__ import annotations

import random
from contextlib import closing
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Callable, Sequence

from realms.core.features import shares
from realms.core.game import Game, get_game
from realms.core.lineup import make_bots

from .batch import GamesFile, Interrupted, Job, Simulation, SimulationError, executor, progress_bar, resumed

FILE = "positions.jsonl"
#: digits a feature keeps in the file (the models need no more)
DIGITS = 5
#: where positions are recorded: at decisions, or where a turn ends (``Game.turn_of``)
AT = ("decisions", "turn-ends")


def game_features(game: Game, view: dict) -> tuple[list[str], list[list[float]]]:
    """The game's features of ``view``: the names, and the values by name then seat.
    A game without the hook raises :class:`SimulationError` naming it."""
    if game.features is None:
        raise SimulationError(f"{game.id} declares no features (Game.features): nothing to learn from")
    named = game.features(view)
    return list(named), [[round(float(v), DIGITS) for v in vals] for vals in named.values()]


def record_game(game_id: str, options: dict, seed: int, bots: Sequence[str], every: int,
                at: str = "decisions") -> dict:
    """One game played by ``bots`` from ``seed``, with about one position in ``every``
    recorded from the deciding seat's view (``at="turn-ends"``: one turn's end in
    ``every``, from the view of the seat that gave the turn's last answer), and the
    outcome."""
    game = get_game(game_id)
    state = game.new_game(options, seed)
    players = len(state.result()["players"])
    spec = list(bots)
    agents = make_bots(game, spec, players, seed)
    sampler = random.Random(f"selfplay:{seed}")
    names: list[str] = []
    positions = []
    turn_of = game.turn_of if at == "turn-ends" else None
    turn = turn_of(state) if turn_of is not None else None

    def keep(seat: int) -> None:
        nonlocal names
        names, x = game_features(game, state.view(seat))
        positions.append({"answers": len(state.answers), "seat": seat, "x": x,
                          "eval": [round(v, DIGITS) for v in game.evaluation(state)]})

    while True:
        pending = state.pending()
        if not pending:
            break
        d = pending[0]
        seat = d.player
        if turn_of is None and len(d.keys) > 1 and sampler.random() * every < 1:
            keep(seat)
        state.apply_index(seat, agents[seat].choose(d, lambda: state.view(seat)))
        if turn_of is not None and not state.is_over() and (now := turn_of(state)) != turn:
            turn = now
            if sampler.random() * every < 1:
                keep(seat)
    res = state.result()
    scores = [res["scores"][name] for name in res["players"]]
    return {"game": game_id, "seed": seed, "options": state.options,
            "bots": spec * players if len(spec) == 1 else spec, "every": every, **({"at": at} if turn_of else {}),
            "features": names, "returns": state.returns(), "score_share": shares(scores),
            "decisions": len(state.answers), "positions": positions}


def play_batch(game_id: str, options: dict, jobs: Sequence[Job], chronicle: bool = False,
               every: int = 8, at: str = "decisions") -> list[dict]:
    """Several recorded games (one task of a worker): the runner's batch, recording."""
    out = []
    for seed, bots in jobs:
        try:
            out.append(record_game(game_id, options, seed, bots, every, at))
        except SimulationError:
            raise
        except Exception as exc:  # a bug in a game: name the seed that shows it
            raise SimulationError(f"game with seed {seed} failed: {type(exc).__name__}: {exc}") from None
    return out


@dataclass
class SelfPlay:
    """``games`` games of ``game`` by ``bots`` from seed ``seed`` on, about one position in
    ``every`` recorded (``at``: of the decisions, or of the turns' ends)."""

    game: str
    options: dict
    bots: tuple[str, ...]
    seed: int = 1
    games: int = 100
    every: int = 8
    at: str = "decisions"

    def simulation(self) -> Simulation:
        return Simulation(self.game, self.options, self.bots, self.seed, self.games)


def _mismatch(line: dict, run: SelfPlay, options: dict, players: int) -> str | None:
    spec = list(run.bots)
    bots = spec * players if len(spec) == 1 else spec
    for key, want in (("game", run.game), ("options", options), ("bots", bots), ("every", run.every),
                      ("at", run.at if run.at != "decisions" else None)):
        if line.get(key) != want:
            return f"{key} {line.get(key)!r}, not {want!r}"
    return None


def load(folder: str | Path) -> list[dict]:
    """The games recorded in ``folder`` (``positions.jsonl``), in seed order; a missing
    file raises :class:`SimulationError` naming it."""
    path = Path(folder) / FILE
    if not path.exists():
        raise SimulationError(f"{path}: no positions here (record them with realms selfplay)")
    return sorted(GamesFile(path).load(), key=lambda ln: ln["seed"])


def run(sp: SelfPlay, out: str | Path, *, workers: int = 1, resume: bool = False, progress: bool = False,
        on_batch: Callable[[list[dict]], None] | None = None) -> list[dict]:
    """Play and record ``sp``'s games into ``out/positions.jsonl``; return the lines in seed
    order.  ``resume`` keeps the lines of the same run already there and plays the rest
    (lines of another run stop it with an error naming the first).  Ctrl-C raises
    :class:`~realms.sim.batch.Interrupted` after keeping what is finished."""
    if sp.every < 1:
        raise SimulationError(f"--every must be at least 1, not {sp.every}")
    game = get_game(sp.game)
    if game.features is None:
        raise SimulationError(f"{game.id} declares no features (Game.features): nothing to learn from")
    if sp.at not in AT:
        raise SimulationError(f"--at must be one of {', '.join(AT)}, not {sp.at!r}")
    if sp.at == "turn-ends" and game.turn_of is None:
        raise SimulationError(f"{game.id} names no turns (Game.turn_of): positions cannot be taken at turn ends")
    options, players = sp.simulation().check()
    folder = Path(out)
    folder.mkdir(parents=True, exist_ok=True)
    file = GamesFile(folder / FILE)
    kept: dict[int, dict] = {}
    if resume:
        kept = resumed(file, sp.simulation().seeds, lambda line: _mismatch(line, sp, options, players), "run")
    file.rewrite(list(kept.values()))
    jobs = [job for job in sp.simulation().jobs(players) if job[0] not in kept]
    play = partial(play_batch, every=sp.every, at=sp.at)
    size = max(1, min(4, len(jobs) // (max(workers, 1) * 4)))
    try:
        with progress_bar(sp.games, len(kept), f"{sp.game} self-play", progress) as advance:
            with closing(executor(sp.game, options, jobs, workers=workers, batch_size=size, play=play)) as results:
                for lines in results:
                    file.append(lines)
                    for ln in lines:
                        kept[ln["seed"]] = ln
                    if on_batch is not None:
                        on_batch(lines)
                    advance(len(lines))
    except KeyboardInterrupt:
        raise Interrupted(len(kept), sp.games) from None
    ordered = [kept[s] for s in sorted(kept)]
    file.rewrite(ordered)
    return ordered


def summary(lines: list[dict], seconds: float | None = None) -> dict:
    """What a self-play run holds: games, positions, features."""
    out = {"games": len(lines), "positions": sum(len(ln["positions"]) for ln in lines),
           "features": lines[0]["features"] if lines else []}
    if seconds is not None:
        out["seconds"] = round(seconds, 1)
    return out


__all__ = ["SelfPlay", "run", "load", "record_game", "summary", "FILE"]
