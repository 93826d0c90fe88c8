"""The bots' thinking, in a process of its own: the server's event loop only applies,
stores and pushes the answers they give.

A bot's choice costs ten times what applying it does (Hy Breasil's auto bot: ~1 ms
against ~0.08 ms), and in the server's process it held the interpreter that every request
needs: with a hundred games, each request waited behind slices of bots.  Here one worker
process keeps a mirror of each game it plays for (its state and its bots, whose memory
and dice are those of the game's own bots) and answers jobs, one at a time, in the order
they come: "these answers were given since the last job (or: here is the whole record);
let the bots play on, at most ``cap`` answers or ``seconds``; which answers did they give?".

The server holds the game while a job is out, so no other answer comes between the
mirror's and the game's: the mirror is at the game's version after each job, which the
next job checks (its ``start`` and the answer before it); a job that finds its mirror
elsewhere (the worker restarted, the game was rebuilt from the store, or a batch was not
stored) is told to come back with the whole record, from which the mirror is rebuilt as
the server rebuilds a game: its answers replayed, each bot walked through its own (from
the mirror it held, when that mirror's answers begin the record: a game taken over by a
process that played its bots before costs the answers since).

The bots play the same answers as in the server's process: the same bots, made the same
way, asked the same decisions in the same order.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import select
import signal
import struct
import sys
import threading
import time
from collections import OrderedDict, deque
from concurrent.futures import Future
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from multiprocessing.reduction import ForkingPickler
from typing import Any, Callable

from realms.core.agents import Agent, bot_seed, generic_bots, parse_bot
from realms.core.engine import GameState
from realms.core.game import get_game, games
from realms.core.match import bot_answers

#: mirrors a worker keeps (the least recently played for is dropped first: a job that
#: finds none brings the whole record)
MIRRORS = 2000
#: the worker's niceness: where the cores are short, the server's requests (and pushes)
#: come first and the bots' thinking after, as when they thought on the event loop in
#: slices.  On a machine at load 5 (two cores), at 200 answers/s: niceness 0, a person's
#: answer p50 38-87 ms (it waits for the bots' thinking); 10, the bots' turns 0.5-0.9 s
#: (starved by everything else); 5, 12-15 ms and 0.13 s
NICENESS = 5
#: seconds between the worker's looks at whether the server is still there
PARENT_CHECK = 0.5
#: prctl's option: the signal a process gets when its parent ends
PR_SET_PDEATHSIG = 1


@dataclass(frozen=True)
class Job:
    """What the bots of one game are to play: ``answers`` given since the mirror's
    ``start`` (the answer before them ``prev``, for a check), or the whole record when
    ``start`` is 0; then at most ``cap`` bot answers or ``seconds`` of thinking."""

    game_id: str
    game: str
    options: dict
    seed: int
    kinds: tuple[str, ...]
    start: int
    prev: tuple | None
    answers: tuple
    cap: int
    seconds: float
    max_decisions: int


def bot_factories(game) -> dict:
    """The bots a game may be played by, by name: every game's and its own."""
    return {**generic_bots(), **game.bots}


def make_agents(game, kinds, seed: int) -> dict[int, Agent]:
    """The bots of a game's seats by seat (``kinds``: "human" or a bot's name or variant),
    each made from its kind with its own seed."""
    factories = bot_factories(game)
    agents = {}
    for i, kind in enumerate(kinds):
        if kind != "human":
            name, params = parse_bot(kind)
            agents[i] = factories[name](bot_seed(seed, i), **params)
    return agents


@dataclass
class Mirror:
    state: GameState
    agents: dict[int, Agent]
    kinds: tuple[str, ...]  # the seats' kinds its bots were made for


_mirrors: "OrderedDict[str, Mirror]" = OrderedDict()
#: answers this worker walked its mirrors through (:func:`_walked`): from a new game, or on
#: from a mirror it held (the cost of the jobs that bring the whole record)
walked = 0


def _walked(mirror: Mirror, answers) -> Mirror:
    """``mirror`` with ``answers`` applied, each bot walked through its own (asked the
    decision it answered, its answer the stored one), so that its memory and dice are
    where they are in the game."""
    global walked
    state, agents = mirror.state, mirror.agents
    for p, key in answers:
        agent = agents.get(p)
        if agent is not None:
            try:
                agent.choose(state.decision_for(p), lambda: state.view(p))
            except Exception:  # a bot that changed since; the stored answer still rules
                pass
        state.apply(p, key)
    walked += len(answers)
    return mirror


def _rebuilt(job: Job, mirror: Mirror | None = None) -> Mirror:
    """A game's mirror from its whole record: walked on from ``mirror`` (the one this
    worker held, from when this process last played the game's bots) if its answers
    begin the record and its bots are the job's, else from a new game (:func:`_walked`).
    A game taken over by a process that played it before costs the answers since, not
    the whole record."""
    if mirror is not None and mirror.kinds == job.kinds:
        held = mirror.state.answers
        if len(held) <= len(job.answers) and all(tuple(a) == tuple(b) for a, b in zip(held, job.answers)):
            return _walked(mirror, job.answers[len(held):])
    if mirror is not None:
        mirror.state.release()
    game = get_game(job.game)
    return _walked(Mirror(game.new_game(job.options, job.seed), make_agents(game, job.kinds, job.seed), job.kinds),
                   job.answers)


def play(job: Job) -> tuple | None:
    """Run ``job`` in the worker: the bots' answers, or None when the mirror is not where
    the job starts (the caller sends the whole record)."""
    mirror = _mirrors.pop(job.game_id, None)
    if job.start == 0:
        mirror = _rebuilt(job, mirror)
    else:
        if mirror is None:
            return None
        answers = mirror.state.answers
        if len(answers) != job.start or tuple(answers[-1]) != tuple(job.prev or ()) or mirror.kinds != job.kinds:
            _mirrors[job.game_id] = mirror  # the whole record, asked for next, may begin with it
            return None  # elsewhere, or made for other bots (a seat taken or given back since)
        _walked(mirror, job.answers)  # answers of its bots' seats, too, if they played elsewhere since
    state, agents = mirror.state, mirror.agents
    start = len(state.answers)
    due = time.perf_counter() + job.seconds
    for n, _ in enumerate(bot_answers(state, agents, job.max_decisions), 1):
        if n >= job.cap or time.perf_counter() > due:
            break
    given = tuple(state.answers[start:])
    if not state.is_over():
        _mirrors[job.game_id] = mirror
        while len(_mirrors) > MIRRORS:
            _mirrors.popitem(last=False)
    return given


#: whether this worker warmed every game at its start (:func:`begin`)
warmed = False


def begin(warm: bool, tied: bool = False) -> None:
    """The worker's start: a lower priority than the server's (``NICENESS``), a watch
    that ends it when the server is gone (killed, the worker would wait for jobs for
    ever), and every game's tables loaded when ``warm`` (``realms serve``).  ``tied``:
    the kernel also kills it when the server's thread that started it ends
    (``PR_SET_PDEATHSIG``: Linux), which holds even while the worker's thread runs
    compiled code that never gives the watch its turn."""
    os.nice(NICENESS)
    parent = os.getppid()
    if tied:
        _die_with_parent()
    if os.getppid() != parent:  # the server went while this process started
        os._exit(0)

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(PARENT_CHECK)
        os._exit(0)

    threading.Thread(target=watch, name="realms-worker-watch", daemon=True).start()
    if warm:
        for game in games().values():
            if game.warm is not None:
                game.warm()
        global warmed
        warmed = True


def was_warmed() -> bool:
    """In a worker: whether it warmed every game at its start."""
    return warmed


def _die_with_parent() -> None:
    """Ask Linux to SIGKILL this process when its parent ends (elsewhere: the watch alone)."""
    if not sys.platform.startswith("linux"):
        return
    import ctypes

    try:
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    except (OSError, AttributeError):
        pass


def spawn():
    """The workers' start method: a fresh interpreter (the server has threads: a fork
    could copy a held lock)."""
    return multiprocessing.get_context("spawn")


#: what a job waiting in a worker that died is failed with (``BrokenProcessPool``, as a
#: ``ProcessPoolExecutor``'s would be: the callers start a new worker on it)
DIED = "the worker process ended before its job was done"


class Worker:
    """One worker process begun by :func:`begin`, and its jobs, done one after another in
    the order sent: the part of a ``ProcessPoolExecutor`` of one process the server needs
    (:meth:`submit` a picklable function and its arguments, get a ``Future``; a worker
    that dies fails its jobs with ``BrokenProcessPool``; :meth:`shutdown`; :meth:`kill`).

    Why not the executor: its manager thread and queue-feeder thread woke at every job
    (a pipe written to wake the manager, a condition to wake the feeder, a selector built
    for each wait), each wake-up a handover of the interpreter's lock with the event
    loop. Here the thread that submits (the event loop) writes the job to the worker's
    pipe itself, without blocking (the server sends one job at a time, to a worker then
    reading; what the pipe cannot take at once, a job longer than it holds, is written by
    a thread started for it), and one thread reads the results. The server flat out
    (``bench_processes.py``, one process, Hy Breasil): the threads feeding the bots' and
    the odds' workers cost 0.32 ms of CPU an answer with the executor, 0.08 ms here.
    """

    def __init__(self, warm: bool, tied: bool) -> None:
        context = spawn()
        jobs, self._jobs = context.Pipe(duplex=False)
        self._results, results = context.Pipe(duplex=False)
        self._process = context.Process(target=_serve, args=(jobs, results, warm, tied), daemon=True)
        self._process.start()
        jobs.close()  # the worker's ends: its death is then the end of the results' pipe
        results.close()
        os.set_blocking(self._jobs.fileno(), False)
        self._lock = threading.Lock()
        self._waiting: deque[Future] = deque()
        self._out = bytearray()
        self._sending = False  # a thread writes what the pipe could not take at once
        self._broken = False
        self._shut = False
        threading.Thread(target=self._read, name="realms-worker-results", daemon=True).start()

    @property
    def pid(self) -> int | None:
        return self._process.pid

    def submit(self, fn: Callable, *args: Any) -> Future:
        """``fn(*args)`` done in the worker after the jobs sent before it: its future."""
        future: Future = Future()
        future.set_running_or_notify_cancel()  # sent now: it runs, as far as a caller knows
        try:
            data = ForkingPickler.dumps((fn, args))
        except Exception as exc:
            future.set_exception(exc)
            return future
        head = struct.pack("!i", len(data)) if len(data) <= 0x7fffffff else struct.pack("!iQ", -1, len(data))
        with self._lock:
            if self._broken:
                raise BrokenProcessPool(DIED)
            if self._shut:
                raise RuntimeError("cannot send a job to a worker shut down")
            self._waiting.append(future)
            self._out += head
            self._out += data
            if not self._sending:
                self._write()
                if self._out:
                    self._sending = True
                    threading.Thread(target=self._send, name="realms-worker-jobs", daemon=True).start()
        return future

    def _write(self) -> None:
        """Write what the pipe takes now of the jobs not yet sent (under the lock)."""
        while self._out:
            try:
                n = os.write(self._jobs.fileno(), self._out)
            except BlockingIOError:
                return
            except OSError:  # the worker is gone: the results' end says so to those waiting
                self._out.clear()
                return
            del self._out[:n]

    def _send(self) -> None:
        """The jobs the pipe could not take at once, written as it empties."""
        while True:
            with self._lock:
                if self._shut or self._broken:
                    self._out.clear()
                self._write()
                if not self._out:
                    self._sending = False
                    return
                fd = self._jobs.fileno()
            try:
                select.select([], [fd], [], 1.0)
            except (OSError, ValueError):  # closed meanwhile: the next pass sees it
                pass

    def _read(self) -> None:
        """Each result to its job's future, in order; at the end of the pipe (the worker
        ended), every job still waiting fails with ``BrokenProcessPool``."""
        while True:
            try:
                ok, value = self._results.recv()
            except (EOFError, OSError):
                break
            except Exception as exc:  # a result that does not unpickle here
                ok, value = False, exc
            with self._lock:
                future = self._waiting.popleft() if self._waiting else None
            if future is not None:
                if ok:
                    future.set_result(value)
                else:
                    future.set_exception(value)
        with self._lock:
            self._broken = True
            waiting = list(self._waiting)
            self._waiting.clear()
            self._out.clear()
        for future in waiting:
            future.set_exception(BrokenProcessPool(DIED))
        self._results.close()

    def shutdown(self) -> None:
        """Send no more jobs: the worker ends once it has done those it was sent."""
        with self._lock:
            if not self._shut:
                self._shut = True
                self._out.clear()
                self._jobs.close()

    def kill(self) -> None:
        """End the worker now (a job in progress is lost: its caller gets
        ``BrokenProcessPool``)."""
        try:
            self._process.kill()
        except Exception:  # ended already
            pass
        self.shutdown()


def _serve(jobs, results, warm: bool, tied: bool) -> None:
    """The worker's life: :func:`begin`, then each job as it comes, its result (or its
    error) sent back, until the server closes the jobs' pipe."""
    begin(warm, tied)
    while True:
        try:
            data = jobs.recv_bytes()
        except (EOFError, OSError):
            return
        try:
            fn, args = ForkingPickler.loads(data)
            out = (True, fn(*args))
        except BaseException as exc:  # the server's caller raises it, as from an executor
            out = (False, exc)
        try:
            results.send(out)
        except Exception as exc:  # a result or an error that does not pickle
            results.send((False, RuntimeError(f"the worker's result could not be sent: {exc!r}")))


def new_pool(warm: bool, tied: bool) -> tuple[Worker, Future]:
    """A worker process begun by :func:`begin`, started now; and the future of its first
    job, done once the worker has started (and warmed)."""
    worker = Worker(warm, tied)
    return worker, worker.submit(int)  # the process starts (and warms) now, not at the first job


def kill(worker: Worker) -> None:
    """End ``worker``'s process now (a job in progress is lost)."""
    worker.kill()


class Bots:
    """The server's side: one worker process, started at the first job (or by
    :meth:`start`), started again if it dies (its mirrors then rebuilt, job by job).
    ``generation`` counts its starts: a game's mirror is known only within one.  Once
    closed (:meth:`close`) it starts no worker again (a server shutting down, whose worker a
    SIGTERM to the process group ended, must not start another)."""

    def __init__(self, tied: bool = False) -> None:
        self._pool: Worker | None = None
        self._started: Future | None = None
        self.generation = 0
        self.tied = tied
        self.closed = False

    def start(self, warm: bool = False) -> None:
        if self.closed:
            raise BrokenProcessPool("the server is shutting down: the bots' process is closed")
        if self._pool is None:
            self._pool, self._started = new_pool(warm, self.tied)
            self.generation += 1

    def ready(self) -> bool:
        """Whether a job sent now is thought at once: the worker started and warmed, or
        none started yet (the first job starts it: nothing better to wait for)."""
        return self._started is None or self._started.done()

    async def warmed(self) -> None:
        """Wait until the worker has started (and warmed): at once if none was started
        (the first job starts it); its start's error if it failed."""
        started = self._started
        if started is not None:
            await asyncio.shield(asyncio.wrap_future(started))

    async def play(self, job: Job) -> tuple | None:
        """The answers of ``job``'s bots (None: send the whole record); a worker that died
        is replaced and the error raised (the game is rebuilt at its next request)."""
        self.start()
        pool = self._pool
        assert pool is not None
        try:
            return await asyncio.wrap_future(pool.submit(play, job))
        except BrokenProcessPool:
            if self._pool is pool:
                self._pool = None
            raise

    def stop(self) -> None:
        if self._pool is not None:
            self._pool.shutdown()
            self._pool = None

    def close(self) -> None:
        """End the worker now, for good."""
        self.closed = True
        if self._pool is not None:
            kill(self._pool)
            self._pool = None


#: one worker for the process: the apps a test suite makes share it (each app's games
#: have their own ids; a game rebuilt from the store sends its whole record)
BOTS = Bots()
