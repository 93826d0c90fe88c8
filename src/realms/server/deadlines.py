"""Turn deadlines in the web app: a game whose creator set one (the game's
``deadline_minutes`` option, 0: none) does not wait for ever for a silent seat.

A game says which decisions a deadline ends through ``Game.no_answer(decision)``: the
round the decision belongs to (a turn of simultaneous orders) and the answer a seat gives
that has not answered when the deadline passes (no orders).  A round's deadline runs
from when the round is first seen pending here.  When it passes, every seat still
pending on a decision of that round gives the game's answer, as many times as the game
asks (the grain of an order begun, then the orders sent); those answers are committed
and pushed to the game's pages, and the bots that follow play as after a person's answer.

The watcher looks at the games in memory every ``EVERY`` seconds; the clock is
injected (``Deadlines.clock``) so that tests move time instead of sleeping.  A game is
in memory from its creation or its first request after a restart; a restarted server
counts a round's deadline from when it sees the round again.
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import TYPE_CHECKING, Callable

if TYPE_CHECKING:
    from realms.core.engine import GameState

    from .app import Live, Server

log = logging.getLogger("realms.server")

#: seconds between two looks at the games' deadlines
EVERY = 1.0
#: answers a deadline may give in one game at once (a seat's round ends in a few)
MAX_ANSWERS = 10_000


def deadline_seconds(live: "Live") -> float:
    """The game's deadline per round in seconds (0: none)."""
    if live.game.no_answer is None:
        return 0.0
    return 60.0 * (live.state.options.get("deadline_minutes") or 0)


def current_round(live: "Live"):
    """The round of the first pending decision a deadline may end, or None."""
    for d in live.state.pending():
        found = live.game.no_answer(d)
        if found is not None:
            return found[0]
    return None


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


class Deadlines:
    """The deadlines of the games of one :class:`Server`."""

    def __init__(self, server: "Server", clock: Callable[[], float] = time.monotonic, every: float = EVERY) -> None:
        self.server = server
        self.clock = clock
        self.every = every
        #: game id -> (round, when it was first seen)
        self.rounds: dict[str, tuple] = {}
        self.task: asyncio.Task | None = None

    def due(self, live: "Live") -> float | None:
        """When the game's current round ends (None: no deadline, or nothing awaited),
        noting the round's start the first time it is seen."""
        limit = deadline_seconds(live)
        gid = live.row.id
        round_ = current_round(live) if limit else None
        if round_ is None:
            self.rounds.pop(gid, None)
            return None
        seen = self.rounds.get(gid)
        if seen is None or seen[0] != round_:
            seen = self.rounds[gid] = (round_, self.clock())
        return seen[1] + limit

    async def sweep(self) -> list[str]:
        """Look at every game in memory; end the rounds whose deadline passed.  The ids of
        the games whose round was ended."""
        ended = []
        for gid, live in list(self.server.live.items()):
            due = self.due(live)
            if due is not None and self.clock() >= due and await self.expire(live):
                ended.append(gid)
        for gid in set(self.rounds) - set(self.server.live):
            del self.rounds[gid]
        return ended

    async def expire(self, live: "Live") -> bool:
        """End ``live``'s current round (its deadline passed): the silent seats' answers
        committed and pushed; the bots then play on."""
        async with live.lock:
            if self.server.live.get(live.row.id) is not live:
                return False
            round_ = current_round(live)
            if round_ is None or self.rounds.get(live.row.id, (None,))[0] != round_:
                return False
            before = live.state
            new = before.clone()
            start = live.version
            try:
                given = silence(new, live.game.no_answer, round_)
                await asyncio.wrap_future(self.server.store.submit(live.row.id, start, new.answers[start:]))
            except Exception:
                log.exception("game %s: the deadline's answers could not be played or stored", live.row.id)
                self.server.live.pop(live.row.id, None)
                new.release()
                return False
            live.settle_bots(before, new)
            log.info("game %s: the deadline passed; %d answers given for silent seats", live.row.id, given)
        self.server.continue_bots(live)
        if live.sockets:
            await self.server.push(live)
        return True

    async def run(self) -> None:
        """Sweep every ``every`` seconds until cancelled."""
        while True:
            try:
                await self.sweep()
            except Exception:  # a deadline must never stop the watcher
                log.exception("the deadline watcher failed a sweep")
            await asyncio.sleep(self.every)

    def start(self) -> None:
        self.task = asyncio.get_running_loop().create_task(self.run())

    def stop(self) -> None:
        if self.task is not None:
            self.task.cancel()
