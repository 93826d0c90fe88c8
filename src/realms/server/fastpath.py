"""A person's answer without FastAPI's machinery: the request a game's page sends most.

``POST /api/games/{id}/answers`` is declared as a FastAPI route (its OpenAPI entry, its
checks of the body and headers, its errors), but a well-formed request never reaches it:
:class:`AnswerFastPath`, an ASGI middleware, reads it first and, when it is exactly what
the route takes (a JSON object of a ``key`` string of at most 500 characters and a
``version`` integer of at least 0, each header given once, the socket's name within bounds),
answers it through the same :func:`answer_request` the route calls.  Anything else goes on
to the route untouched (its body replayed), which refuses it as it always has: the fast path
takes only requests the route would take the same way.

Why: on a loaded server the answer is most of the requests, and FastAPI's route matching,
dependencies and body model cost the event loop about 0.2 ms an answer, a fifth of all it
spent on one (with one auto opponent, 1.04 ms before, 0.77 ms after).
"""

from __future__ import annotations

import re
from typing import Any, Awaitable, Callable

import orjson
from fastapi import HTTPException
from fastapi.responses import JSONResponse

#: the answers route's path (the game's id: any text without a slash, as the route's)
ANSWER_PATH = re.compile(r"/api/games/([^/]+)/answers")
#: the longest key the route takes (``Answer.key``)
MAX_KEY = 500


class AnswerFastPath:
    """ASGI middleware: a well-formed person's answer handled by ``handle(game_id,
    authorization, key, version, socket) -> JSON bytes`` (raising ``HTTPException`` as the
    route would); every other request passed to ``app``.  ``max_body`` and ``max_socket``
    are the bounds the app's own checks apply (``limits.MAX_BODY``, ``app.SOCKET_ID``)."""

    def __init__(self, app, handle: Callable[..., Awaitable[bytes]], max_body: int, max_socket: int) -> None:
        self.app = app
        self.handle = handle
        self.max_body = max_body
        self.max_socket = max_socket

    async def __call__(self, scope, receive, send) -> None:
        match = None
        if scope["type"] == "http" and scope["method"] == "POST" and not scope.get("root_path"):
            match = ANSWER_PATH.fullmatch(scope["path"])
        headers = _headers(scope, self.max_body, self.max_socket) if match else None
        if headers is None:
            await self.app(scope, receive, send)
            return
        messages, body = await _read(receive)
        answer = _answer(body) if body is not None else None
        if answer is None:  # the route refuses it, as it always has
            async def replayed():
                return messages.pop(0) if messages else await receive()

            await self.app(scope, replayed, send)
            return
        assert match is not None
        try:
            payload = await self.handle(match.group(1), headers.get(b"authorization"), answer[0], answer[1],
                                        headers.get(b"x-realms-socket"))
        except HTTPException as exc:
            await JSONResponse({"detail": exc.detail}, status_code=exc.status_code, headers=exc.headers)(
                scope, receive, send)
            return
        except RuntimeError as exc:  # as the app's handler of RuntimeError answers
            await JSONResponse({"detail": str(exc)}, status_code=500)(scope, receive, send)
            return
        await send({"type": "http.response.start", "status": 200,
                    "headers": [(b"content-type", b"application/json"),
                                (b"content-length", b"%d" % len(payload))]})
        await send({"type": "http.response.body", "body": payload})


def _headers(scope, max_body: int, max_socket: int) -> dict[bytes, str] | None:
    """The request's authorization and socket name (latin-1 text, as Starlette reads them),
    or None when the route must judge the request: a header given twice, a socket name
    over ``max_socket`` characters, a body of unsaid or excessive length, or not JSON."""
    out: dict[bytes, str] = {}
    length = kind = None
    for name, value in scope["headers"]:
        if name in (b"authorization", b"x-realms-socket"):
            if name in out:
                return None
            out[name] = value.decode("latin-1")
        elif name == b"content-length":
            if length is not None:
                return None
            length = value
        elif name == b"content-type":
            if kind is not None:
                return None
            kind = value
    if length is None or not length.isdigit() or int(length) > max_body:
        return None
    if kind is None or kind.split(b";")[0].strip().lower() != b"application/json":
        return None
    if len(out.get(b"x-realms-socket", "")) > max_socket:
        return None
    return out


async def _read(receive) -> tuple[list[dict], bytes | None]:
    """The request's messages as received, and its body (None if the client left first)."""
    messages, chunks = [], []
    while True:
        message = await receive()
        messages.append(message)
        if message["type"] != "http.request":
            return messages, None
        chunks.append(message.get("body", b""))
        if not message.get("more_body", False):
            return messages, b"".join(chunks)


def _answer(body: bytes) -> tuple[str, int] | None:
    """(key, version) of a body the route takes as it is, else None."""
    try:
        data: Any = orjson.loads(body)
    except orjson.JSONDecodeError:
        return None
    if type(data) is not dict or len(data) != 2:
        return None
    key, version = data.get("key"), data.get("version")
    if type(key) is not str or len(key) > MAX_KEY or type(version) is not int or version < 0:
        return None
    return key, version
