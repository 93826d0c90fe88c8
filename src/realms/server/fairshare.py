"""The bots' process given out fairly: whose bots think next.

The bots of every game think in one process (``botworker``), one batch at a time.  Given
in the order asked, one address with many bots-only games of slow bots (``ismcts``) had
most of the batches, and another game's bots waited behind all of them (0.023 s to
5.1 s, p50).  Here each game's batch waits for its turn (:class:`FairShare`):

- a game a person plays goes before a bots-only game (a person waits for the reply;
  nobody waits for a bots-only game but its spectators);
- within each of the two, the addresses that created the games take turns, one batch
  each (round robin), and so do the games of one address;
- a bots-only game's batch is shorter (``BOTS_ONLY_SECONDS``), so a person's game waits
  behind at most one short batch.

And the bots-only games are bounded where they are created (:func:`bots_only_refusal`):
``PER_ADDRESS`` playing at once from one address, ``TOTAL`` from all.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict, deque
from contextlib import asynccontextmanager
from typing import AsyncIterator, Iterable

#: seconds of thinking per batch of a bots-only game (a person's game: ``app.BOT_SECONDS``)
BOTS_ONLY_SECONDS = 0.1
#: bots-only games playing at once that one address may have created, and all addresses
PER_ADDRESS = 2
TOTAL = 16


class FairShare:
    """Turns at one resource, first for games people play, then for bots-only games, the
    owners (addresses) of each class in turn."""

    def __init__(self) -> None:
        #: per class (0: people's games, 1: bots-only), owner -> its waiters, in turn order
        self._waiting: tuple[OrderedDict, OrderedDict] = (OrderedDict(), OrderedDict())
        self._busy = False
        #: the owners given turns, in order (for tests and the benchmark)
        self.given: deque[str] = deque(maxlen=1000)

    @asynccontextmanager
    async def turn(self, people: bool, owner: str) -> AsyncIterator[None]:
        """Hold the resource for one batch of ``owner``'s game (``people``: a person plays it)."""
        if self._busy or any(self._waiting):
            waiter = asyncio.get_running_loop().create_future()
            self._waiting[0 if people else 1].setdefault(owner, deque()).append(waiter)
            try:
                await waiter
            except BaseException:
                if waiter.done() and not waiter.cancelled():
                    self._next()  # the turn was given: give it on
                else:
                    self._forget(waiter)
                raise
        else:
            self._busy = True
        self.given.append(owner)
        try:
            yield
        finally:
            self._next()

    def _next(self) -> None:
        """Give the turn to the next waiter: people's games first, owners in turn."""
        for queue in self._waiting:
            while queue:
                owner, waiters = next(iter(queue.items()))
                waiter = waiters.popleft()
                if waiters:
                    queue.move_to_end(owner)
                else:
                    del queue[owner]
                if not waiter.done():
                    waiter.set_result(None)
                    return
        self._busy = False

    def _forget(self, waiter: asyncio.Future) -> None:
        for queue in self._waiting:
            for owner, waiters in list(queue.items()):
                if waiter in waiters:
                    waiters.remove(waiter)
                    if not waiters:
                        del queue[owner]
                    return


def bots_only_refusal(playing: Iterable[str], owner: str) -> str | None:
    """Why a new bots-only game of ``owner`` is refused, given the owners of the bots-only
    games playing now; None if it is not."""
    owners = list(playing)
    if owners.count(owner) >= PER_ADDRESS:
        return (f"this address has {PER_ADDRESS} games of bots alone playing; "
                "a new one can be created when one of them is over")
    if len(owners) >= TOTAL:
        return f"the server plays {TOTAL} games of bots alone already; try again when one is over"
    return None
