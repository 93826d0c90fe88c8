"""A page's WebSocket never holds up its game (``server/sockets.py``): a push is a put in
each socket's bounded queue, sent by the socket's own task, and a socket that never reads
is dropped when its queue is full; and one address holds a bounded number open."""

from __future__ import annotations

import asyncio

import pytest
from starlette.websockets import WebSocketDisconnect

from realms.server import sockets

from .conftest import bearer, new_game, settled
from .test_undo import answer


class NeverReads:
    """A WebSocket whose peer never reads: every send waits for ever."""

    def __init__(self) -> None:
        self.closed = None

    async def send_text(self, text: str) -> None:
        await asyncio.Event().wait()

    async def close(self, code: int = 1000, reason: str = "") -> None:
        self.closed = code


def test_a_socket_that_never_reads_is_dropped_and_the_game_goes_on(client, monkeypatch):
    monkeypatch.setattr(sockets, "QUEUE", 2)
    out = new_game(client)
    gid, tok = out["id"], out["seats"][0]["token"]
    server = client.app.state.server
    live = server.live[gid]

    async def attach():
        box = sockets.Outbox(NeverReads())
        live.sockets[box] = None
        return box

    stuck = client.portal.call(attach)
    with client.websocket_connect(f"/api/games/{gid}/ws") as watching:
        s = settled(client, gid, tok)
        assert watching.receive_json()["version"] == s["version"]
        for _ in range(4):  # each answer and each batch of the bots' replies is a push
            if s["over"]:
                break
            r = answer(client, gid, tok, s)
            assert r.status_code == 200, r.text
            # the bots reply although one socket takes nothing: their loop never waits on it
            s = settled(client, gid, tok)
        seen = watching.receive_json()["version"]
        while seen < s["version"]:
            seen = watching.receive_json()["version"]
        assert seen == s["version"]
    assert stuck.dropped and stuck not in live.sockets, "a socket over its queue's bound is dropped"
    assert stuck.task.cancelled() or stuck.task.done()


def test_sockets_of_one_address_are_bounded(client):
    client.app.state.server.socket_count.limit = 2
    out = new_game(client)
    gid = out["id"]
    with client.websocket_connect(f"/api/games/{gid}/ws") as a, client.websocket_connect(f"/api/games/{gid}/ws") as b:
        a.receive_json(), b.receive_json()
        with pytest.raises(WebSocketDisconnect) as refused:
            with client.websocket_connect(f"/api/games/{gid}/ws") as c:
                c.receive_json()
        assert refused.value.code == sockets.TOO_MANY
    # the two closed, their places are free again
    with client.websocket_connect(f"/api/games/{gid}/ws") as d:
        assert d.receive_json()["id"] == gid
