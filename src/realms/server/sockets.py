"""The pages' WebSockets: what a push costs the game that makes it is a queue's put.

A push never awaits a send.  Each socket has an :class:`Outbox`: a bounded queue of the
texts it is to be sent and a task of its own that sends them, one by one.  A push puts
the new state in every watching socket's outbox and returns; a socket whose outbox is
full (its page has not read ``QUEUE`` states: a page that never reads, a connection that
stalled) is dropped, its task ended and the connection closed (code 1013), and the game, the
bots' loop and the deadlines' watcher never wait for it.  A page that was dropped
reconnects and gets the state anew, as after any lost connection.

:class:`PerAddress` bounds the sockets one address holds open at once (``PER_ADDRESS``):
a socket over the bound is refused before it is accepted (close code 4429).
"""

from __future__ import annotations

import asyncio
import logging
from collections import Counter
from typing import Any

log = logging.getLogger("realms.server")

#: the states a socket may have waiting to be sent before it is dropped as too slow
QUEUE = 32
#: seconds a dropped socket's closing handshake may take before it is abandoned
CLOSE_WAIT = 5.0
#: the WebSockets one address may hold open at once
PER_ADDRESS = 64
#: the close codes of a socket refused past ``PER_ADDRESS`` (a 4xxx: the page says it and
#: does not retry) and of one dropped as too slow (1013, "try again later": the page
#: reconnects after a delay and gets the state anew)
TOO_MANY, TOO_SLOW = 4429, 1013


class Outbox:
    """The texts waiting for one WebSocket, sent by a task of their own.  ``task`` ends
    when the socket fails or is dropped (:meth:`offer` found the queue full)."""

    def __init__(self, websocket: Any, size: int | None = None) -> None:
        self.websocket = websocket
        self.queue: asyncio.Queue[str] = asyncio.Queue(QUEUE if size is None else size)
        self.dropped = False
        self.task = asyncio.get_running_loop().create_task(self._send())

    def offer(self, text: str) -> bool:
        """Queue ``text`` for the socket, at once; False, and the socket dropped, when
        its queue is full (or it was dropped before)."""
        if self.dropped:
            return False
        try:
            self.queue.put_nowait(text)
        except asyncio.QueueFull:
            self.drop()
            return False
        return True

    def drop(self) -> None:
        """End the sending task; the socket's handler then closes the connection."""
        if not self.dropped:
            self.dropped = True
            self.task.cancel()

    async def _send(self) -> None:
        while True:
            text = await self.queue.get()
            await self.websocket.send_text(text)

    async def close(self, code: int = TOO_SLOW, reason: str = "") -> None:
        """Close the connection without waiting on a page that does not read for more
        than ``CLOSE_WAIT`` seconds."""
        self.drop()
        try:
            await asyncio.wait_for(self.websocket.close(code=code, reason=reason), CLOSE_WAIT)
        except Exception:  # closed already, or the peer never takes the close frame
            pass


class PerAddress:
    """How many WebSockets each address holds open, refused past ``limit``."""

    def __init__(self, limit: int = PER_ADDRESS) -> None:
        self.limit = limit
        self.open: Counter[str] = Counter()

    def take(self, address: str) -> bool:
        """Count one more socket of ``address``; False (nothing counted) past the limit."""
        if self.open[address] >= self.limit:
            return False
        self.open[address] += 1
        return True

    def give_back(self, address: str) -> None:
        self.open[address] -= 1
        if self.open[address] <= 0:
            del self.open[address]


def address_of(websocket: Any) -> str:
    """A socket's peer address, as the ASGI server gives it (never a forwarded header:
    ``limits``)."""
    client = getattr(websocket, "client", None)
    return client.host if client else "unknown"
