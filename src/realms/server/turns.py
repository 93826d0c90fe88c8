"""Turns at something bounded, given first to those somebody waits for.

An ``asyncio.Semaphore`` gives its turns in the order they were asked for.  Two places
need a queue one can jump: a take-over's catch-ups (``cluster``: a game a page asks for
goes next, not beside every other running) and the odds' worker (``heavy``: a job a
request waits for goes before a game's set-up nobody waits for).  Both still keep their
bound: however many are hurried, at most ``n`` hold a turn at once.
"""

from __future__ import annotations

import asyncio


class Turns:
    """``n`` turns, given to those waiting: first those hurried (asked for with ``first``,
    or :meth:`hurry`), in the order they were hurried, then the others in the order they
    asked.  A key waits at most once at a time."""

    def __init__(self, n: int) -> None:
        self.free = n
        #: those waiting for a turn (in the order they asked), and those hurried among them
        self._waiting: dict[object, asyncio.Future] = {}
        self._first: dict[object, None] = {}

    async def take(self, key: object, first: bool = False) -> None:
        """Wait for a turn, hurried if ``first``; give it back with :meth:`give`."""
        if self.free > 0 and not self._waiting:
            self.free -= 1
            return
        fut = asyncio.get_running_loop().create_future()
        self._waiting[key] = fut
        if first:
            self._first[key] = None
        try:
            await fut
        except asyncio.CancelledError:
            if self._waiting.get(key) is fut:
                self._forget(key)
            elif fut.done() and not fut.cancelled():
                self.give()  # given the turn, then cancelled before it ran
            raise

    def hurry(self, key: object) -> None:
        """Give ``key`` the next turn free, before every one not hurried (nothing if it does
        not wait)."""
        if key in self._waiting:
            self._first[key] = None

    def give(self) -> None:
        """A turn given back: to the next waiting, if any."""
        self.free += 1
        while self.free > 0 and self._waiting:
            key = next(iter(self._first), None)
            if key is None:
                key = next(iter(self._waiting))
            fut = self._waiting.pop(key)
            self._first.pop(key, None)
            if not fut.done():
                self.free -= 1
                fut.set_result(None)

    def waiting(self) -> list:
        """Those waiting, in the order their turns come."""
        return list(self._first) + [k for k in self._waiting if k not in self._first]

    def _forget(self, key: object) -> None:
        self._waiting.pop(key, None)
        self._first.pop(key, None)
