"""The answers' fast path (server/fastpath.py): a well-formed answer is taken before
FastAPI's routing and answered as the route answers it; anything else reaches the route
with its body intact, which refuses it as it always has."""

from __future__ import annotations

import asyncio
import json

import pytest
from fastapi import HTTPException

from realms.server.fastpath import AnswerFastPath

from .conftest import bearer, new_game, settled

#: a content type FastAPI reads as JSON that the fast path leaves to the route
ROUTE_ONLY = "application/x-realms+json"


def run(fast: AnswerFastPath, body: bytes, headers: list[tuple[bytes, bytes]],
        path: str = "/api/games/g1/answers") -> tuple[list[dict], list]:
    """Send one request through ``fast``: (what it sent back, the calls that reached the
    app behind it, each with the body it read)."""
    scope = {"type": "http", "method": "POST", "path": path, "root_path": "", "headers": headers}
    sent: list[dict] = []
    behind: list = []

    async def app(scope, receive, send):
        message = await receive()
        behind.append(message["body"])
        await send({"type": "http.response.start", "status": 599, "headers": []})
        await send({"type": "http.response.body", "body": b""})

    async def receive():
        return {"type": "http.request", "body": body, "more_body": False}

    async def send(message):
        sent.append(message)

    fast.app = app
    asyncio.run(fast(scope, receive, send))
    return sent, behind


def fast_path(calls: list) -> AnswerFastPath:
    async def handle(game_id, authorization, key, version, socket):
        calls.append((game_id, authorization, key, version, socket))
        if key == "refused":
            raise HTTPException(409, "stale", headers={"X-Why": "test"})
        return b'{"ok":true}'

    return AnswerFastPath(None, handle, max_body=64 * 1024, max_socket=64)


def heads(body: bytes, kind: bytes = b"application/json", **more: bytes) -> list[tuple[bytes, bytes]]:
    out = [(b"content-type", kind), (b"content-length", str(len(body)).encode()), (b"authorization", b"Bearer t")]
    return out + [(name.replace("_", "-").encode(), value) for name, value in more.items()]


def test_a_well_formed_answer_is_answered_by_the_fast_path():
    calls: list = []
    body = json.dumps({"key": "a>b", "version": 3}).encode()
    sent, behind = run(fast_path(calls), body, heads(body, x_realms_socket=b"page"))
    assert calls == [("g1", "Bearer t", "a>b", 3, "page")] and behind == []
    assert sent[0]["status"] == 200 and sent[1]["body"] == b'{"ok":true}'
    assert (b"content-length", b"11") in sent[0]["headers"]


def test_an_error_of_the_answer_is_the_routes_json():
    calls: list = []
    body = json.dumps({"key": "refused", "version": 3}).encode()
    sent, _ = run(fast_path(calls), body, heads(body))
    assert sent[0]["status"] == 409 and (b"x-why", b"test") in sent[0]["headers"]
    assert json.loads(sent[1]["body"]) == {"detail": "stale"}


@pytest.mark.parametrize("body, headers", [
    (b'{"key": "k", "version": 1, "more": 2}', {}),     # a field the route forbids
    (b'{"key": "' + b"k" * 501 + b'", "version": 1}', {}),  # a key over 500 characters
    (b'{"key": "k", "version": -1}', {}),
    (b'{"key": "k", "version": "1"}', {}),              # the route's model judges text
    (b'{"key": "k", "version": true}', {}),
    (b'{"key": 5, "version": 1}', {}),
    (b'{"key": "k"}', {}),
    (b'["k", 1]', {}),
    (b'{"key": "k", "version": 1', {}),                 # not JSON
    (b'{"key": "k", "version": 1}', {"kind": b"text/plain"}),
    (b'{"key": "k", "version": 1}', {"x_realms_socket": b"s" * 65}),
])
def test_anything_else_reaches_the_route_with_its_body(body, headers):
    calls: list = []
    kind = headers.pop("kind", b"application/json")
    sent, behind = run(fast_path(calls), body, heads(body, kind, **headers))
    assert calls == [] and behind == [body] and sent[0]["status"] == 599


def test_a_header_given_twice_or_another_path_reaches_the_route():
    calls: list = []
    body = b'{"key": "k", "version": 1}'
    fast = fast_path(calls)
    assert run(fast, body, heads(body) + [(b"authorization", b"Bearer u")])[1] == [body]
    assert run(fast, body, heads(body), path="/api/games/g1/answers/")[1] == [body]
    assert run(fast, body, heads(body), path="/api/games/g1/undo")[1] == [body]
    assert calls == []


def awaited(client, gid: str, tokens: list[str]) -> tuple[str, dict]:
    """The token of the seat awaited, and the state as it sees it."""
    seat = settled(client, gid)["awaiting"][0]
    return tokens[seat], settled(client, gid, tokens[seat])


def test_the_fast_path_answers_as_the_route_does(client):
    """The same requests, through the fast path and (by a content type it leaves alone)
    through the route: the same status and body, a 200 as every error."""
    out = new_game(client, seats=("human", "human"))
    gid, tokens = out["id"], [s["token"] for s in out["seats"]]
    mine, s = awaited(client, gid, tokens)
    theirs = next(t for t in tokens if t != mine)
    key, v = s["pending"][0]["options"][0]["key"], s["version"]
    cases = [
        (gid, mine, {"key": key, "version": v + 5}),  # 409 stale
        (gid, theirs, {"key": key, "version": v}),    # 403 not its decision
        (gid, "no-such-token", {"key": key, "version": v}),
        (gid, None, {"key": key, "version": v}),      # a spectator
        ("nope", mine, {"key": key, "version": v}),   # 404
        (gid, mine, {"key": "not-an-option", "version": v}),  # 422
    ]
    for game_id, token, body in cases:
        url = f"/api/games/{game_id}/answers"
        fast = client.post(url, headers=bearer(token), json=body)
        route = client.post(url, headers={**bearer(token), "Content-Type": ROUTE_ONLY}, content=json.dumps(body))
        assert fast.status_code == route.status_code != 200 and fast.json() == route.json(), (body, fast.text)
    # a 200 either way in: the state after the answer, as its seat is shown it
    for way in ("application/json", ROUTE_ONLY):
        token, s = awaited(client, gid, tokens)
        body = {"key": s["pending"][0]["options"][0]["key"], "version": s["version"]}
        r = client.post(f"/api/games/{gid}/answers", headers={**bearer(token), "Content-Type": way},
                        content=json.dumps(body))
        assert r.status_code == 200 and r.headers["content-type"] == "application/json", r.text
        assert r.json() == settled(client, gid, token) and r.json()["version"] == s["version"] + 1
