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
import signal
import sys
import threading
import time
from collections import OrderedDict
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass

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


def new_pool(warm: bool, tied: bool) -> tuple[ProcessPoolExecutor, Future]:
    """A pool of one worker process begun by :func:`begin`, started now; and the future
    of its first job, done once the worker has started (and warmed)."""
    pool = ProcessPoolExecutor(1, mp_context=spawn(), initializer=begin, initargs=(warm, tied))
    return pool, pool.submit(int)  # the process starts (and warms) now, not at the first job


def kill(pool: ProcessPoolExecutor) -> None:
    """End ``pool``'s worker processes now (a job in progress is lost) and the pool."""
    for proc in list((getattr(pool, "_processes", None) or {}).values()):
        try:
            proc.kill()
        except Exception:  # ended already
            pass
    pool.shutdown(wait=False, cancel_futures=True)


class Bots:
    """The server's side: one worker process, started at the first job (or by
    :meth:`start`), started again if it dies (its mirrors then rebuilt, job by job).
    ``generation`` counts its starts: a game's mirror is known only within one.  Once
    closed (:meth:`close`) it starts no worker again (a server shutting down, whose worker a
    SIGTERM to the process group ended, must not start another)."""

    def __init__(self, tied: bool = False) -> None:
        self._pool: ProcessPoolExecutor | None = None
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
            self._pool.shutdown(wait=False, cancel_futures=True)
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
