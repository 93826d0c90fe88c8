"""Turn deadlines in the web app: a game whose creator set one (the game's
``deadline_minutes`` option, 0: none) does not wait for ever for a silent seat.

A game says which decisions a deadline ends through ``Game.no_answer(decision)``: the
round the decision belongs to (a turn of simultaneous orders) and the answer a seat gives
that has not answered when the deadline passes (no orders).  A round's deadline runs
from when the round is first seen pending here: by the page's state after the answer
that opened it, or by the watcher's next look, a second later at most.  When it passes,
every seat still pending on a decision of that round gives the game's answer, as many
times as the game asks (the grain of an order begun, then the orders sent); those
answers are committed and pushed to the game's pages, and the bots that follow play as
after a person's answer.

The round and when it began are kept in the store (``rounds`` table: also whether the
round before ended at its deadline, and whether the game is over), so the deadline is the
same instant after a restart; the clock is the wall clock for that reason, and it is
injected (``Deadlines.clock``) so that tests move time instead of sleeping.  Each round
ended is written with its answers, in their transaction (``deadline_ends``: which round,
by which process): the record that counts each round ended once, however many processes
of a cluster raced for it.  The watcher
looks at the games in memory every ``EVERY`` seconds; at start-up and every
``LOOK_EVERY`` seconds it loads the games with a deadline that are not over and not in
memory (a game nobody opened since a restart), so their rounds end all the same.  A round
that began in the instant before a crash, not yet written, begins again when the
restarted server sees it.

The state payload carries ``deadline``: ``{"at": the instant the current round ends
(seconds since the epoch) or null, "passed": whether the round before ended at its
deadline}``, null for a game without a deadline; the page counts down to it.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable

from realms.core.game import Game, games, get_game

if TYPE_CHECKING:
    from realms.core.engine import GameState

    from .app import Live, Server

log = logging.getLogger("realms.server")

#: seconds between two looks at the games' deadlines
EVERY = 1.0
#: seconds between two looks in the store for games with a deadline not in memory
LOOK_EVERY = 60.0
#: answers a deadline may give in one game at once (a seat's round ends in a few)
MAX_ANSWERS = 10_000


def deadline_seconds(game: Game, options: dict) -> float:
    """A game's deadline per round in seconds (0: none): its ``deadline_minutes`` option,
    for a game that says what a silent seat answers."""
    if game.no_answer is None:
        return 0.0
    return 60.0 * (options.get("deadline_minutes") or 0)


def current_round(live: "Live"):
    """The round of the first pending decision a deadline may end, or None."""
    no_answer = live.game.no_answer
    assert no_answer is not None  # a game without it has no deadline
    for d in live.state.pending():
        found = no_answer(d)
        if found is not None:
            return found[0]
    return None


def round_key(round_) -> str | None:
    """A round as the store keeps it (JSON text), None for none."""
    return None if round_ is None else json.dumps(round_, sort_keys=True, default=str)


def silence(state: "GameState", no_answer: Callable, round_) -> int:
    """Answer, on ``state``, every decision of ``round_`` still pending with the game's
    answer for a silent seat, until none is left; the number of answers given."""
    given = 0
    while given < MAX_ANSWERS:
        for d in state.pending():
            found = no_answer(d)
            if found is not None and found[0] == round_:
                state.apply(d.player, found[1])
                given += 1
                break
        else:
            return given
    raise RuntimeError(f"a deadline gave {MAX_ANSWERS} answers and the round is still pending")


def _unwritten(gid: str, written) -> None:
    """Log a round the store did not take (the deadline then runs from when a restarted
    server sees the round)."""
    if written.exception() is not None:
        log.error("game %s: its deadline round could not be stored: %r", gid, written.exception())


@dataclass
class Round:
    """Where a game with a deadline stands: the round it awaits (``key``, its JSON; None:
    no round a deadline ends) since ``started``; whether the round before ended at its
    deadline (``passed``); whether the game is over; whether this round was ended by its
    deadline here (``ended``, for the next round's ``passed``)."""

    key: str | None
    started: float | None
    passed: bool
    over: bool = False
    ended: bool = False


class Deadlines:
    """The deadlines of the games of one :class:`Server`."""

    def __init__(self, server: "Server", clock: Callable[[], float] = time.time, every: float = EVERY,
                 look_every: float = LOOK_EVERY) -> None:
        self.server = server
        self.clock = clock
        self.every = every
        self.look_every = look_every
        #: game id -> its round, as noted here or kept in the store
        self.rounds: dict[str, Round] = {}
        self.task: asyncio.Task | None = None

    # -- the rounds ------------------------------------------------------------------------
    def note(self, live: "Live") -> Round | None:
        """The game's round now (None: the game has no deadline); a round not seen before
        begins now, and is written to the store."""
        if not deadline_seconds(live.game, live.state.options):
            return None
        gid = live.row.id
        over = live.state.is_over()
        key = None if over else round_key(current_round(live))
        old = self.rounds.get(gid)
        if old is not None and old.key == key and old.over == over:
            return old
        passed = old is not None and (old.ended or (old.key is None and old.passed))
        new = self.rounds[gid] = Round(key, None if key is None else self.clock(), passed, over)
        if self.server.owns(gid):  # in a cluster, the owner's round is the one kept
            written = self.server.store.submit_round(gid, key, new.started, passed, over)
            written.add_done_callback(lambda fut: _unwritten(gid, fut))
        return new

    def due(self, live: "Live") -> float | None:
        """When the game's current round ends (None: no deadline, or nothing awaited)."""
        found = self.note(live)
        if found is None or found.key is None or found.started is None:
            return None
        return found.started + deadline_seconds(live.game, live.state.options)

    def overdue(self, live: "Live") -> bool:
        """Whether the game's current round's deadline has passed (its round is due to end)."""
        at = self.due(live)
        return at is not None and self.clock() >= at

    def payload(self, live: "Live") -> dict | None:
        """The state payload's ``deadline`` (see the module docstring)."""
        found = self.note(live)
        if found is None:
            return None
        return {"at": self.due(live), "passed": found.passed}

    def load(self) -> None:
        """The rounds kept in the store, for the games not over (at start-up, before any
        request notes a round anew)."""
        for gid, (key, started, passed) in self.server.store.rounds().items():
            self.rounds.setdefault(gid, Round(key, started, passed))

    # -- the watcher ---------------------------------------------------------------------
    async def look(self) -> list[str]:
        """Load the games with a deadline that are not over and not in memory, so that the
        sweeps watch them; their ids."""
        kinds = [g.id for g in games().values() if g.no_answer is not None]
        rows = await asyncio.to_thread(self.server.store.unfinished, kinds)
        loaded = []
        for gid, kind, options in rows:
            if gid in self.server.live or not self.server.owns(gid) or not deadline_seconds(get_game(kind), options):
                continue
            try:
                await self.server.get(gid)
            except Exception:  # one game that does not load must not hide the others
                log.exception("game %s: not loaded for its deadline", gid)
                continue
            loaded.append(gid)
        return loaded

    async def sweep(self) -> list[str]:
        """Look at every game in memory; end the rounds whose deadline passed, side by side
        (each game under its own lock; their answers go in the store's batches together,
        rather than each round waiting for the commit of the one before).  The ids of the
        games whose round was ended."""
        due = []
        for gid, live in list(self.server.live.items()):
            if not self.server.owns(gid):  # another process of a cluster ends its rounds
                continue
            if self.overdue(live):
                due.append(live)
        ended = await asyncio.gather(*(self.expire(live) for live in due))
        return [live.row.id for live, done in zip(due, ended) if done]

    async def expire(self, live: "Live") -> bool:
        """End ``live``'s current round (its deadline passed): the silent seats' answers
        committed and pushed; the bots then play on."""
        async with live.lock:
            gid = live.row.id
            if self.server.live.get(gid) is not live:
                return False
            round_ = current_round(live)
            noted = self.rounds.get(gid)
            if round_ is None or noted is None or noted.key is None or noted.key != round_key(round_):
                return False
            before = live.state
            new = before.clone()
            start = live.version
            no_answer = live.game.no_answer
            assert no_answer is not None  # a game without it has no deadline
            by = "" if self.server.cluster is None else self.server.cluster.id
            try:
                given = silence(new, no_answer, round_)
                ended = self.server.store.deadline_end(gid, noted.key, start, given, self.clock(), by)
                await self.server.committed(self.server.store.submit(gid, start, new.answers[start:], ended))
            except Exception:
                log.exception("game %s: the deadline's answers could not be played or stored", gid)
                self.server.live.pop(gid, None)
                new.release()
                return False
            noted.ended = True
            live.settle_bots(before, new)
            self.note(live)  # the next round begins now, stored now: a process taking the game over keeps its instant
            await self.server.advise(live, live.watching())
            log.info("game %s: the deadline passed; %d answers given for silent seats", gid, given)
        self.server.continue_bots(live)
        self.server.push(live)
        self.server.note_finished(live)
        return True

    async def run(self) -> None:
        """Look in the store at once and every ``look_every`` seconds; sweep every
        ``every`` seconds; until cancelled."""
        next_look = 0.0
        while True:
            try:
                if time.monotonic() >= next_look:
                    next_look = time.monotonic() + self.look_every
                    await self.look()
                await self.sweep()
            except Exception:  # a deadline must never stop the watcher
                log.exception("the deadline watcher failed a look or a sweep")
            await asyncio.sleep(self.every)

    def start(self) -> None:
        self.load()
        self.task = asyncio.get_running_loop().create_task(self.run())

    def stop(self) -> None:
        if self.task is not None:
            self.task.cancel()
