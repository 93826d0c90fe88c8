"""Many games at once: local processes (or a Dask cluster), a progress bar, and a
resumable ``games.jsonl``.

Every game is played from its own seed (game ``i`` of a run that starts at seed ``s``
has seed ``s + i``; its bots' seeds derive from it), so a game's line is the same on any
worker, in any order, on any machine.  Lines are written as games finish; at the end
the file is rewritten in seed order, so equal seeds give equal files whatever the worker
count.  Ctrl-C stops the run and keeps every finished game; ``resume=True`` plays only
the seeds still missing.

>>> from realms.sim.batch import Simulation, run
>>> lines = run(Simulation("hy-breasil", {"players": 3, "turns": 2}, ("random",), seed=1, games=2))
>>> [ln["seed"] for ln in lines]
[1, 2]
"""

from __future__ import annotations

import json
import multiprocessing
import os
import queue
import signal
import time
from contextlib import closing, contextmanager
from itertools import islice
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Generator, Sequence

from realms.core.files import parse_json, read_lines
from realms.core.game import get_game

from .runner import ScoreTrack, make_bots, summary
from realms.core.stats import Several, watch

from .stats import watcher_for
from .track import DesignTrack

#: one game to play: its seed and the bot of every seat (or one bot for all)
Job = tuple[int, tuple[str, ...]]


class SimulationError(RuntimeError):
    """A run that cannot go on; the message names the file, the seed or the problem."""


class Interrupted(Exception):
    """Ctrl-C: ``done`` of ``total`` games are finished and kept."""

    def __init__(self, done: int, total: int) -> None:
        super().__init__(f"interrupted after {done} of {total} games")
        self.done = done
        self.total = total


@dataclass(frozen=True)
class Simulation:
    """``games`` games of ``game`` with ``options``, seeds ``seed``, ``seed + 1``, …"""

    game: str
    options: dict = field(default_factory=dict)
    bots: tuple[str, ...] = ("random",)
    seed: int = 1
    games: int = 1
    #: a tournament: the bots fill the seats and move one seat a game
    #: (:func:`realms.sim.tournament.line_up`); otherwise every game has ``bots`` as given
    rotate: bool = False

    @property
    def seeds(self) -> range:
        return range(self.seed, self.seed + self.games)

    def line_up(self, seed: int, players: int) -> tuple[str, ...]:
        """The bots of the game of ``seed``, one a seat (or one for all)."""
        if not self.rotate:
            return tuple(self.bots)
        from .tournament import line_up

        return line_up(list(self.bots), players, seed - self.seed)

    def jobs(self, players: int) -> list[Job]:
        return [(s, self.line_up(s, players)) for s in self.seeds]

    def check(self) -> tuple[dict, int]:
        """Validate the options and bots now (one clear error before any worker starts);
        return the normalised options as the lines record them, and the player count."""
        game = get_game(self.game)
        state = game.new_game(self.options, self.seed)
        players = len(state.result()["players"])
        make_bots(game, list(self.line_up(self.seed, players)), players, self.seed)
        return json.loads(json.dumps(state.options)), players


# =========================================================================== one game


def play_game(game_id: str, options: dict, seed: int, bots: Sequence[str], chronicle: bool = False) -> dict:
    """Play one game with bots and return its line: the JSON summary of ``realms simulate
    --json``, the seats' ``bots``, the game watcher's ``stats``, the scores at every turn
    end (``turn_scores``, :class:`~realms.sim.runner.ScoreTrack`), what a designer asks of
    it (``design``, :class:`~realms.sim.track.DesignTrack`) and the ``chronicle`` if asked.  The same answers as :func:`realms.sim.runner.run_game`: same state hash."""
    game = get_game(game_id)
    state = game.new_game(options, seed)
    players = len(state.result()["players"])
    spec = list(bots)
    agents = make_bots(game, spec, players, seed)
    watcher = watcher_for(game)
    track = ScoreTrack(game)
    design = DesignTrack(game)
    tap = watch(state, Several(watcher, track, design))
    while True:
        pending = state.pending()
        if not pending:
            break
        d = pending[0]
        seat = d.player
        index = agents[seat].choose(d, lambda: state.view(seat))
        watcher.on_decision(state, d, index)
        design.on_decision(state, d, index)
        state.apply_index(seat, index)
    tap.close()
    line = summary(state)
    line["bots"] = spec * players if len(spec) == 1 else spec
    line["stats"] = watcher.data()
    line["turn_scores"] = track.rows
    line["design"] = design.data()
    if chronicle:
        line["chronicle"] = state.chronicle()
    return json.loads(json.dumps(line, ensure_ascii=False))


def play_batch(game_id: str, options: dict, jobs: Sequence[Job], chronicle: bool = False) -> list[dict]:
    """Play several games (one task of a worker or of the cluster)."""
    out = []
    for seed, bots in jobs:
        try:
            out.append(play_game(game_id, options, seed, bots, chronicle))
        except Exception as exc:  # a bug in a game: name the seed that shows it
            raise SimulationError(f"game with seed {seed} failed: {type(exc).__name__}: {exc}") from None
    return out


# =========================================================================== games.jsonl


class GamesFile:
    """``games.jsonl``: one line per finished game, appended as games finish."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def load(self) -> list[dict]:
        """The complete lines (a line cut short by an interruption is dropped)."""
        if not self.path.exists():
            return []
        out = []
        for i, text in read_lines(self.path, error=SimulationError):
            text = text.strip()
            if not text:
                continue
            try:
                line = parse_json(text, f"{self.path}:{i}", SimulationError)
            except SimulationError:
                continue  # the last line of an interrupted write
            if not isinstance(line, dict) or "seed" not in line:
                raise SimulationError(f"{self.path}:{i}: not a game line")
            out.append(line)
        return out

    def append(self, lines: list[dict]) -> None:
        with self.path.open("a", encoding="utf-8") as f:
            for line in lines:
                f.write(json.dumps(line, ensure_ascii=False) + "\n")
            f.flush()

    def rewrite(self, lines: list[dict]) -> None:
        """Replace the file by ``lines`` in seed order (atomically)."""
        tmp = self.path.with_suffix(".jsonl.tmp")
        with tmp.open("w", encoding="utf-8") as f:
            for line in sorted(lines, key=lambda ln: ln["seed"]):
                f.write(json.dumps(line, ensure_ascii=False) + "\n")
        os.replace(tmp, self.path)


def _matches(line: dict, sim: Simulation, options: dict, players: int) -> str | None:
    spec = list(sim.line_up(line["seed"], players))
    bots = spec * players if len(spec) == 1 else spec
    if line.get("game") != sim.game:
        return f"game {line.get('game')!r}, not {sim.game!r}"
    if line.get("options") != options:
        return f"options {line.get('options')}, not {options}"
    if line.get("bots") != bots:
        return f"bots {','.join(line.get('bots') or [])}, not {','.join(bots)}"
    return None


# =========================================================================== executors


def _ignore_sigint() -> None:
    """Workers leave Ctrl-C to the main process, which stops the run cleanly."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


@contextmanager
def _sigint_held():
    """Ctrl-C held back while the pool starts, delivered when it has started.

    A terminal sends Ctrl-C to the whole process group.  Arriving while the pool starts,
    it would stop the main process inside ``Pool()`` (which cleans up only after an
    ``Exception``, leaving a worker it had started running, with the command's output
    pipes open) and kill the fork server or a worker still importing, before either
    ignores it.  Blocked here, it waits in the main process until the pool exists and
    the run can stop it; the fork server and the workers, started meanwhile, inherit the
    blocked signal and never see it (they leave Ctrl-C to the main process anyway)."""
    block = getattr(signal, "pthread_sigmask", None)
    if block is None:
        yield
        return
    from multiprocessing import resource_tracker

    resource_tracker.ensure_running()  # started later, it would unblock SIGINT after itself
    held = block(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        if signal.SIGINT not in held:
            block(signal.SIG_UNBLOCK, {signal.SIGINT})


def _context():
    methods = multiprocessing.get_all_start_methods()
    return multiprocessing.get_context("forkserver" if "forkserver" in methods else "spawn")


def batches(jobs: list[Job], size: int) -> list[list[Job]]:
    return [jobs[i:i + size] for i in range(0, len(jobs), size)]


def local_batch_size(n_jobs: int, workers: int) -> int:
    """Small batches keep the bar moving and the workers evenly loaded; a batch still
    amortises the inter-process round trip (a game takes tens of milliseconds)."""
    return max(1, min(8, n_jobs // (max(workers, 1) * 8)))


def _in_process(game_id: str, options: dict, jobs: list[Job], chronicle: bool,
                play: Callable = play_batch) -> Generator[list[dict], None, None]:
    for job in jobs:
        yield play(game_id, options, [job], chronicle)


def _processes(game_id: str, options: dict, jobs: list[Job], chronicle: bool, workers: int,
               batch_size: int | None, play: Callable = play_batch) -> Generator[list[dict], None, None]:
    """Batches on a pool of processes, at most two a worker handed out at once (one
    playing, one waiting), so that nothing queued needs cancelling.  When the run stops
    early (Ctrl-C, an error, the caller closing the generator) the workers are terminated
    at once: a graceful shutdown waited for the batches in hand and, under load, once
    kept an interrupted command alive past its message."""
    size = batch_size or local_batch_size(len(jobs), workers)
    queued = iter(batches(jobs, size))
    finished: queue.SimpleQueue = queue.SimpleQueue()
    with _sigint_held():
        pool = _context().Pool(processes=workers, initializer=_ignore_sigint)

    def hand_out(n: int) -> int:
        handed = 0
        for b in islice(queued, n):
            pool.apply_async(play, (game_id, options, b, chronicle),
                             callback=finished.put, error_callback=finished.put)
            handed += 1
        return handed

    completed = False
    try:
        running = hand_out(2 * workers)
        while running:
            result = finished.get()
            running += hand_out(1) - 1
            if isinstance(result, BaseException):
                raise result
            yield result
        completed = True
    finally:
        if completed:
            pool.close()
        else:
            pool.terminate()
        pool.join()



def resumed(file: "GamesFile", seeds, mismatch: Callable[[dict], str | None], what: str) -> dict[int, dict]:
    """The lines of ``file`` a resumed run keeps, by seed: those of the seeds it plays.  A
    line ``mismatch`` finds of another run (its text says how) stops the resume, which
    would otherwise mix two runs in one file."""
    wanted = set(seeds)
    kept: dict[int, dict] = {}
    for line in file.load():
        problem = mismatch(line)
        if problem:
            raise SimulationError(f"{file.path}: cannot resume: it holds games of another {what} "
                                  f"(seed {line['seed']}: {problem})")
        if line["seed"] in wanted:
            kept[line["seed"]] = line
    return kept

def executor(game_id: str, options: dict, jobs: list[Job], *, workers: int = 1, cluster=None,
             chronicle: bool = False, batch_size: int | None = None, on_connect=None,
             play: Callable = play_batch) -> Generator[list[dict], None, None]:
    """Batches of finished lines, as they finish (in any order); on a cluster,
    ``on_connect(threads)`` is told its worker threads.  ``play(game_id, options, jobs,
    chronicle)`` plays a batch (a picklable function: :func:`play_batch`, or the self-play
    recorder of :mod:`realms.sim.selfplay`; a cluster plays only the former)."""
    if cluster is not None:
        from .cluster import run_on_cluster

        return run_on_cluster(cluster, game_id, options, jobs, chronicle=chronicle, batch_size=batch_size,
                              on_connect=on_connect)
    if workers <= 1:
        return _in_process(game_id, options, jobs, chronicle, play)
    return _processes(game_id, options, jobs, chronicle, workers, batch_size, play)


# =========================================================================== progress


@contextmanager
def progress_bar(total: int, done: int = 0, label: str = "games", enabled: bool = True):
    """A rich progress bar on standard error: games done, games/s, time left.
    Yields ``advance(n)``."""
    if not enabled:
        yield lambda n: None
        return
    from rich.console import Console
    from rich.progress import (BarColumn, MofNCompleteColumn, Progress, ProgressColumn, TextColumn,
                               TimeElapsedColumn, TimeRemainingColumn)
    from rich.text import Text

    start = time.perf_counter()

    class Rate(ProgressColumn):
        def render(self, task) -> Text:
            elapsed = time.perf_counter() - start
            new = task.completed - done
            rate = new / elapsed if elapsed > 0 and new else 0.0
            return Text(f"{rate:6.1f} games/s", style="progress.data.speed")

    columns = (TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(), Rate(),
               TimeElapsedColumn(), TextColumn("elapsed"), TimeRemainingColumn(), TextColumn("left"))
    with Progress(*columns, console=Console(stderr=True), transient=False) as prog:
        task = prog.add_task(label, total=total, completed=done)
        yield lambda n: prog.advance(task, n)


# =========================================================================== a run


@dataclass
class RunInfo:
    """How a run went (not part of the figures: it varies from run to run)."""

    workers: int = 1
    cluster: str | None = None
    played: int = 0
    resumed: int = 0
    seconds: float = 0.0

    @property
    def games_per_second(self) -> float:
        return self.played / self.seconds if self.seconds > 0 else 0.0

    def to_json(self) -> dict:
        return {"workers": self.workers, "cluster": self.cluster, "played": self.played,
                "resumed": self.resumed, "seconds": round(self.seconds, 3),
                "games_per_second": round(self.games_per_second, 2)}


def run(sim: Simulation, *, workers: int = 1, out: str | Path | None = None, resume: bool = False,
        cluster=None, progress: bool = False, chronicle: bool = False, batch_size: int | None = None,
        info: RunInfo | None = None, on_batch: Callable[[list[dict]], None] | None = None) -> list[dict]:
    """Play ``sim``'s games and return their lines in seed order.

    ``out``: a folder; finished games go to ``out/games.jsonl`` as they finish (fresh,
    or continued with ``resume``: lines of the same game, options and bots are kept, and
    only missing seeds are played).  ``cluster``: a Dask scheduler address or
    ``distributed.Client``.  Ctrl-C raises :class:`Interrupted` after keeping what is
    finished.  ``info`` (a :class:`RunInfo`) is filled with the timing.
    """
    options, players = sim.check()
    info = info if info is not None else RunInfo()
    info.workers = workers
    info.cluster = cluster if isinstance(cluster, str) else (None if cluster is None else "client")
    kept: dict[int, dict] = {}
    file = None
    if out is not None:
        folder = Path(out)
        folder.mkdir(parents=True, exist_ok=True)
        file = GamesFile(folder / "games.jsonl")
        if resume:
            kept = resumed(file, sim.seeds, lambda line: _matches(line, sim, options, players), "simulation")
            file.rewrite(list(kept.values()))
        else:
            file.rewrite([])
    info.resumed = len(kept)
    jobs = [job for job in sim.jobs(players) if job[0] not in kept]
    start = time.perf_counter()
    try:
        with progress_bar(sim.games, len(kept), f"{sim.game}", progress) as advance:
            with closing(executor(sim.game, options, jobs, workers=workers, cluster=cluster,
                                  chronicle=chronicle, batch_size=batch_size,
                                  on_connect=lambda threads: setattr(info, "workers", threads))) as results:
                for lines in results:
                    if file is not None:
                        file.append([{k: v for k, v in ln.items() if k != "chronicle"} for ln in lines])
                    for ln in lines:
                        kept[ln["seed"]] = ln
                    info.played += len(lines)
                    if on_batch is not None:
                        on_batch(lines)
                    advance(len(lines))
    except KeyboardInterrupt:
        info.seconds = time.perf_counter() - start
        raise Interrupted(len(kept), sim.games) from None
    info.seconds = time.perf_counter() - start
    ordered = [kept[s] for s in sorted(kept)]
    if file is not None:
        file.rewrite([{k: v for k, v in ln.items() if k != "chronicle"} for ln in ordered])
    return ordered


# =========================================================================== tournaments


def tournament(game_id: str, options: dict, bots: list[str], games: int, seed: int, *, workers: int = 1,
               cluster=None, progress: bool = False):
    """:func:`realms.sim.tournament.tournament` on several workers: the same line-ups
    (rotated one seat a game), the same seeds, the same standings."""
    lines = run(Simulation(game_id, options, tuple(bots), seed, games, rotate=True), workers=workers,
                cluster=cluster, progress=progress, batch_size=max(1, min(16, games // (max(workers, 1) * 8))))
    return standings(bots, lines)


def standings(bots: list[str], lines: list[dict]) -> list:
    """Each bot's :class:`~realms.sim.tournament.Standing` over tournament game lines."""
    from .tournament import Standing, tally

    out = {b: Standing(b) for b in dict.fromkeys(bots)}
    for line in sorted(lines, key=lambda ln: ln["seed"]):
        tally(out, line["bots"], line)
    return list(out.values())


def default_workers() -> int:
    return max(1, os.cpu_count() or 1)


__all__ = ["Simulation", "Interrupted", "SimulationError", "RunInfo", "run", "play_game", "play_batch",
           "tournament", "GamesFile", "default_workers"]
