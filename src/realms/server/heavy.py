"""Work whose cost a request chooses, in a process of its own, each job within a budget.

A request may ask for work that grows with what it names: a finished game's past
position (``?at=N``, ``board.svg?at=N``: the game replayed up to it), its turns
(``/turns``: the whole game replayed), the odds the game advises before a decision (a
battle among many units: seconds of exact odds).  In the server's event loop such work
held every other request for as long as it ran.  Here it runs in a worker process
(:class:`Heavy`), niced below the server (``botworker.NICENESS``), and:

- each job has a budget of seconds (``REPLAY_SECONDS``, ``ADVICE_SECONDS``): the worker's
  timer (``SIGALRM``) stops a job that runs over and the request gets a clear error
  (:class:`OverBudget`: 503 for a replay, a note in place of the odds); a job that does
  not stop (compiled code that never lets the timer's handler run) has its worker killed
  ``GRACE`` seconds later and a new one started;
- the results are cached by what they are of (game, the undo count, the version, the
  answers replayed): ``CACHE`` of them, the least recently used dropped first, and a job
  asked for again while it runs is awaited, not run twice; a job whose work stays in the
  worker (a game set up there: ``keep``) is known done for as long as that worker lives;
- one job runs at a time, in the worker (``botworker.Worker``); those waiting are bounded, ``PER_ADDRESS`` per
  address and ``WAITING`` in all (:class:`Busy`: 429), so one client cannot queue work
  ahead of everybody else's; a job nobody waits for (``later``: a game's set-up in the
  odds' worker) runs after every job waiting that somebody waits for (a request's odds),
  so that the dozens of set-ups of a take-over do not hold up a person's answer;
- the odds, which a person's answer waits for, and the replays, which only a replay
  viewer waits for, have a worker each (:class:`Lanes`): no replay delays an answer.  A
  game whose odds went over their budget once is advised no more (a note says so), so
  that it costs the odds' worker one budget, not one per answer.

The jobs are plain functions of plain data (a game's id, options, seed and answers; a
view and the decisions as JSON), so the worker needs nothing of the server's state.
"""

from __future__ import annotations

import asyncio
import signal
from collections import Counter, OrderedDict
from concurrent.futures import Future
from concurrent.futures.process import BrokenProcessPool
from typing import Any, Callable

from . import botworker
from .turns import Turns

#: seconds a replay (a past position, its board, the turns of a game) may take
REPLAY_SECONDS = 10.0
#: seconds the odds advised before a decision may take
ADVICE_SECONDS = 3.0
#: seconds a game's setup may take in the odds' worker (once a game: an island made from a
#: seed is seconds of CPU, which the odds' budget must not count)
SETUP_SECONDS = 30.0
#: seconds after its budget that a job's worker is killed if the job has not stopped
GRACE = 5.0
#: jobs one address may have waiting or running, and all addresses together
PER_ADDRESS = 2
WAITING = 32
#: results kept
CACHE = 256
#: the jobs ``keep`` remembers as done in the worker (games set up there), the oldest
#: forgotten past it: a game forgotten is set up again, once, when next asked of
KEPT = 4096


class OverBudget(Exception):
    """A job ran over its budget of seconds."""

    def __init__(self, seconds: float) -> None:
        super().__init__(seconds)
        self.seconds = seconds

    def __str__(self) -> str:
        return f"this takes the server more than {self.seconds:g} s to work out; it gave up"


class Busy(Exception):
    """Too many jobs are waiting (of this address, or in all)."""


# -- in the worker --------------------------------------------------------------------------
def _within(seconds: float, fn: Callable, *args) -> Any:
    """``fn(*args)`` in the worker, stopped by its timer after ``seconds``."""
    on = [True]

    def over(signum, frame) -> None:
        if on[0]:
            raise TimeoutError

    previous = signal.signal(signal.SIGALRM, over)
    try:
        signal.setitimer(signal.ITIMER_REAL, seconds)
        try:
            return fn(*args)
        finally:
            on[0] = False
            signal.setitimer(signal.ITIMER_REAL, 0)
    except TimeoutError:
        raise OverBudget(seconds) from None
    finally:
        signal.signal(signal.SIGALRM, previous)


def replayed(game_id: str, options: dict, seed: int, answers: list):
    """(the game, the state after ``answers``, its record), replayed from the start."""
    from realms.core.game import get_game

    game = get_game(game_id)
    state = game.new_game(options, seed)
    record = state.record()
    record.answers = [tuple(a) for a in answers]
    for player, key in record.answers:
        state.apply(player, key)
    return game, state, record


def set_up(game_id: str, options: dict, seed: int) -> None:
    """A game's new state made once in the worker, so that what it loads (its board) is
    there for the odds' jobs."""
    from realms.core.game import get_game

    get_game(game_id).new_game(options, seed).release()


def past_payload(row: Any, answers: list) -> bytes:
    """A finished game's state after ``answers`` as a spectator sees it (JSON)."""
    from . import app

    game, state, _ = replayed(row.game, row.options, row.seed, answers)
    return app.payload_json(app.Live(row=row, game=game, state=state, agents={}), None)


def board_svg(game_id: str, options: dict, seed: int, answers: list) -> str:
    game, state, _ = replayed(game_id, options, seed, answers)
    return game.draw(state, state.options)


def turn_starts(game_id: str, options: dict, seed: int, answers: list) -> list:
    from realms.core.game import get_game

    game = get_game(game_id)
    record = game.new_game(options, seed).record()
    record.answers = [tuple(a) for a in answers]
    return game.turn_starts(record)


def advice(game_id: str, asks: list) -> dict:
    """The game's advice for each seat of ``asks``: [(seat, view, decisions as JSON)]."""
    from realms.core.decision import Decision
    from realms.core.game import get_game

    game = get_game(game_id)
    advise = game.advice
    assert advise is not None  # asked only of a game that advises
    out = {}
    for seat, view, decisions in asks:
        out[seat] = advise(view, [Decision(d["player"], d["kind"], tuple(d["keys"]), d["prompt"],
                                                d["section"], None, d["info"]) for d in decisions])
    return out


def decision_json(d) -> dict:
    """What :func:`advice` rebuilds a decision from (its labels are not needed)."""
    return {"player": d.player, "kind": d.kind, "keys": list(d.keys), "prompt": d.prompt,
            "section": d.section, "info": d.info}


# -- in the server ----------------------------------------------------------------------------
class Lanes:
    """The heavy work of one server: a worker for the odds, one for the replays."""

    def __init__(self, tied: bool = False) -> None:
        self.odds = Heavy(tied)
        self.replays = Heavy(tied)

    def close(self) -> None:
        self.odds.close()
        self.replays.close()



class Heavy:
    """The server's side of the worker: :meth:`run` a job, within its budget and bounds."""

    def __init__(self, tied: bool = False) -> None:
        self.tied = tied
        self._pool: botworker.Worker | None = None
        #: one job at a time in the worker, those a request waits for first
        self._slots = Turns(1)
        self.cache: OrderedDict[Any, Any] = OrderedDict()
        #: the results of the jobs run with ``keep``, whose work stays in the worker running
        #: now (a game set up there): forgotten with that worker, or past :data:`KEPT`
        self.kept: OrderedDict[Any, Any] = OrderedDict()
        self.running: dict[Any, asyncio.Future] = {}
        self.waiting: Counter[str] = Counter()
        self.closed = False
        #: jobs stopped over budget, and workers killed for it
        self.over = self.killed = 0
        #: jobs sent to the worker, and jobs refused (:class:`Busy`): what a server under
        #: more load than its worker takes sheds (``/api/health``)
        self.sent = self.refused = 0

    def _start(self, warm: bool = False) -> botworker.Worker:
        if self.closed:
            raise BrokenProcessPool("the server is shutting down")
        if self._pool is None:
            self._pool = botworker.Worker(warm, self.tied)
        return self._pool

    def start(self, warm: bool = False) -> Future:
        """Start the worker now (its first job, done once it has started), with ``warm``
        warming every game there first (``Game.warm``: the odds' solver's tables), as
        ``realms serve`` does: the odds are worked out in this worker, which would
        otherwise solve each table inside the first requests that need it."""
        return self._start(warm).submit(int)

    def holds(self, key: Any) -> bool:
        """Whether the job of ``key`` is done: its result cached, or its work kept in the
        worker running now (``keep``)."""
        return key in self.kept or key in self.cache

    async def run(self, key: Any, seconds: float, address: str, fn: Callable, *args, keep: bool = False,
                  later: bool = False) -> Any:
        """``fn(*args)`` in the worker, or its result cached under ``key``; raises
        :class:`OverBudget` past ``seconds`` and :class:`Busy` past the bounds.  With
        ``keep``, the job's work stays in the worker (a game set up there): its result is
        kept for as long as that worker lives (:attr:`kept`), not in the cache.  With
        ``later`` (nobody waits for it) it runs after the jobs waiting without."""
        if key in self.kept:
            self.kept.move_to_end(key)
            return self.kept[key]
        if key in self.cache:
            self.cache.move_to_end(key)
            return self.cache[key]
        if key in self.running:
            return await asyncio.shield(self.running[key])
        if self.waiting[address] >= PER_ADDRESS:
            self.refused += 1
            raise Busy("too much work of this address is waiting; try again in a moment")
        if sum(self.waiting.values()) >= WAITING:
            self.refused += 1
            raise Busy("the server has too much of this work waiting; try again in a moment")
        done = asyncio.get_running_loop().create_future()
        self.running[key] = done
        self.waiting[address] += 1
        self.sent += 1
        try:
            await self._slots.take(key, first=not later)
            try:
                pool = self._start()
                result = await self._one(pool, seconds, fn, args)
            finally:
                self._slots.give()
        except BaseException as exc:
            done.set_exception(exc if isinstance(exc, Exception) else RuntimeError("cancelled"))
            done.exception()  # whoever awaited it has it; nobody else must be told
            raise
        finally:
            del self.running[key]
            self.waiting[address] -= 1
            if self.waiting[address] <= 0:
                del self.waiting[address]
        done.set_result(result)
        if keep:
            if self._pool is pool:  # else the worker that did the work has gone since
                self.kept[key] = result
                while len(self.kept) > KEPT:
                    self.kept.popitem(last=False)
            return result
        self.cache[key] = result
        while len(self.cache) > CACHE:
            self.cache.popitem(last=False)
        return result

    async def _one(self, pool: botworker.Worker, seconds: float, fn: Callable, args: tuple) -> Any:
        try:
            return await asyncio.wait_for(asyncio.wrap_future(pool.submit(_within, seconds, fn, *args)),
                                          seconds + GRACE)
        except OverBudget:
            self.over += 1
            raise
        except asyncio.TimeoutError:
            self.over += 1
            self.killed += 1
            self._forget(pool, kill=True)
            raise OverBudget(seconds) from None
        except BrokenProcessPool:
            self._forget(pool, kill=False)
            raise

    def _forget(self, pool: botworker.Worker, kill: bool) -> None:
        if self._pool is pool:
            self._pool = None
            self.kept.clear()
        if kill:
            botworker.kill(pool)

    def close(self) -> None:
        self.closed = True
        self.kept.clear()
        if self._pool is not None:
            botworker.kill(self._pool)
            self._pool = None
