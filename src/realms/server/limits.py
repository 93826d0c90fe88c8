"""What bounds the work and the input of one client.

- :class:`BodyLimit`: an ASGI middleware that answers 413 to a request body over
  ``MAX_BODY`` bytes, whether it says its length (``Content-Length``) or streams it, before
  the app reads or parses any of it.
- :class:`TokenBucket`: game creation per client.  Each client (its address) has a bucket
  of ``burst`` tokens, refilled at ``per_minute`` tokens a minute; creating a game takes
  one, and a client with an empty bucket gets 429 with ``Retry-After`` (whole seconds until
  a token is back).  A bucket that has refilled to full is the same as no bucket, so the
  buckets kept are pruned to the clients that still owe tokens: memory stays bounded by the
  clients active in the last ``burst / per_minute`` minutes.  Behind a reverse proxy every
  request comes from the proxy's address unless uvicorn is told to trust its
  ``X-Forwarded-For`` (``realms serve --trusted-proxy``); the header itself is never
  trusted otherwise, since any client can write it.  A game whose setup cost CPU takes
  more tokens (:meth:`TokenBucket.charge`: ``SETUP_TOKENS_PER_SECOND`` a second of it past
  ``SETUP_FREE_SECONDS``), so
  that what one address makes the server compute is bounded, not only its count of games.
- :func:`validation_error`: FastAPI's 422 for a malformed body, without the ``input``
  FastAPI would echo back (a 60 KiB key would come back whole) and with each location name
  cut to ``SHOWN`` characters, as option errors cut the values they show.
"""

from __future__ import annotations

import math
import time
from typing import Callable

from realms.core.options import SHOWN

# FastAPI is imported where it is used: ``realms serve --help`` (and ``realms --help``,
# which lists it) reads the defaults below without loading it

#: the largest request body accepted, in bytes (a game's creation is well under 4 KiB)
MAX_BODY = 64 * 1024
#: game creations a client may make at once, and how many tokens come back a minute
CREATE_BURST = 20
CREATE_PER_MINUTE = 10
#: tokens a game's creation takes for each second of CPU its setup cost past
#: ``SETUP_FREE_SECONDS`` (an island made from a seed: 2.5-7.5 s; a bundled map: 0.01-0.05 s),
#: beside the one every creation takes
SETUP_TOKENS_PER_SECOND = 1.0
SETUP_FREE_SECONDS = 0.5


class BodyLimit:
    """ASGI middleware: 413 for an HTTP request whose body is over ``max_bytes``.

    A declared ``Content-Length`` over the limit is refused before anything is read; a body
    streamed without one is read here up to the limit (at most 64 KiB held) and refused as
    soon as it passes it, so the app never sees a body over the limit.  (Raising from inside
    the app's own read would not do: FastAPI turns any error while reading into a 400.)
    """

    def __init__(self, app, max_bytes: int = MAX_BODY) -> None:
        self.app = app
        self.max_bytes = max_bytes

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        for name, value in scope.get("headers", ()):
            if name == b"content-length" and (not value.isdigit() or int(value) > self.max_bytes):
                await self._refuse(send)
                return
        chunks: list[bytes] = []
        seen = 0
        while True:
            message = await receive()
            if message["type"] != "http.request":  # the client left: the app will hear it
                replay = [message]
                break
            chunk = message.get("body", b"")
            seen += len(chunk)
            if seen > self.max_bytes:
                await self._refuse(send)
                return
            chunks.append(chunk)
            if not message.get("more_body", False):
                replay = [{"type": "http.request", "body": b"".join(chunks), "more_body": False}]
                break

        async def replayed():
            return replay.pop() if replay else await receive()

        await self.app(scope, replayed, send)

    async def _refuse(self, send) -> None:
        body = (b'{"detail":"the request body is over %d bytes"}' % self.max_bytes)
        await send({"type": "http.response.start", "status": 413,
                    "headers": [(b"content-type", b"application/json"),
                                (b"content-length", str(len(body)).encode()),
                                (b"connection", b"close")]})
        await send({"type": "http.response.body", "body": body})


class TokenBucket:
    """``burst`` tokens per client, ``per_minute`` of them given back a minute (see the
    module docstring).  ``clock`` is for tests."""

    def __init__(self, burst: int = CREATE_BURST, per_minute: float = CREATE_PER_MINUTE,
                 clock: Callable[[], float] = time.monotonic) -> None:
        if burst < 1 or per_minute <= 0:
            raise ValueError("a token bucket needs burst >= 1 and per_minute > 0")
        self.burst = burst
        self.rate = per_minute / 60.0  # tokens a second
        self.clock = clock
        self._buckets: dict[str, tuple[float, float]] = {}  # client -> (tokens, when)
        self._pruned = clock()

    def take(self, client: str) -> float:
        """Take a token of ``client``'s: 0.0 if there was one, else the seconds until there
        is (nothing is taken then)."""
        now = self.clock()
        self._prune(now)
        tokens, when = self._buckets.get(client, (float(self.burst), now))
        tokens = min(float(self.burst), tokens + (now - when) * self.rate)
        if tokens < 1.0:
            self._buckets[client] = (tokens, now)
            return (1.0 - tokens) / self.rate
        self._buckets[client] = (tokens - 1.0, now)
        return 0.0

    def charge(self, client: str, tokens: float) -> None:
        """Take ``tokens`` more of ``client``'s (its bucket may go below empty: it waits
        the longer for its next token)."""
        if tokens <= 0:
            return
        now = self.clock()
        have, when = self._buckets.get(client, (float(self.burst), now))
        have = min(float(self.burst), have + (now - when) * self.rate)
        self._buckets[client] = (have - tokens, now)

    def _prune(self, now: float) -> None:
        """Forget the buckets that are full again, at most once per refill of one token."""
        if now - self._pruned < 1.0 / self.rate:
            return
        self._pruned = now
        full = [c for c, (t, w) in self._buckets.items() if t + (now - w) * self.rate >= self.burst]
        for c in full:
            del self._buckets[c]

    def __len__(self) -> int:
        return len(self._buckets)


def client_address(request) -> str:
    """Who asks, for rate limits: the peer's address as the ASGI server gives it."""
    return request.client.host if request.client else "unknown"


def creation_limit(bucket: TokenBucket):
    """A FastAPI dependency that takes a token of the asking client's from ``bucket``, or
    refuses the request with 429 and ``Retry-After``."""
    from fastapi import HTTPException, Request

    async def limit(request) -> None:
        wait = bucket.take(client_address(request))
        if wait > 0:
            raise HTTPException(429, f"too many new games from this address: at most {bucket.burst} at once "
                                     f"and {bucket.rate * 60:g} a minute",
                                headers={"Retry-After": str(max(1, math.ceil(wait)))})

    limit.__annotations__ = {"request": Request, "return": None}  # what FastAPI injects
    return limit


def _short(part):
    """A location's part, a field's name cut as option errors cut values (``SHOWN``)."""
    if isinstance(part, str) and len(part) > SHOWN:
        return part[:SHOWN] + "…"
    return part


async def validation_error(request, exc):
    """422 for a body that is not what the endpoint takes (a ``RequestValidationError``):
    each error's type, location and message, never the input itself."""
    from fastapi.encoders import jsonable_encoder
    from fastapi.responses import JSONResponse

    detail = [{"type": e.get("type"), "loc": [_short(p) for p in e.get("loc", ())], "msg": e.get("msg")}
              for e in exc.errors()]
    return JSONResponse({"detail": jsonable_encoder(detail)}, status_code=422)
