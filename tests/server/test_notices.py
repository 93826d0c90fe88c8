"""Notices (server/notices.py): a seat's webhook and e-mail get "your turn", "a bot took
your seat" and "the game is over", once each, from the outbox; a receiver that fails is
tried again after the back-off; bad addresses are refused and change nothing.  The
receivers are local (an HTTP server on 127.0.0.1, aiosmtpd), the tables' clock injected,
and the watcher and sender driven by the test."""

from __future__ import annotations

import json
import socket
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from fastapi.testclient import TestClient

from realms.server import notices, tabledb
from realms.server.app import create_app

from .conftest import bearer, settled
from .test_table import Clock, create, look, table


class Receiver:
    """A webhook receiver on 127.0.0.1: the JSON bodies posted, and the statuses to
    answer with (then 204)."""

    def __init__(self, statuses=()) -> None:
        self.bodies: list[dict] = []
        self.statuses = list(statuses)
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                status = outer.statuses.pop(0) if outer.statuses else 204
                if status == 204:
                    outer.bodies.append(body)
                self.send_response(status)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args) -> None:
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}/hook"
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


@pytest.fixture
def receiver():
    r = Receiver()
    yield r
    r.close()


def sender(client) -> int:
    """One pass of the notice sender: how many it sent."""
    return client.portal.call(client.app.state.tables.outbox.send_due)


def flushed(client) -> None:
    """Wait until the store's writer has committed what was queued before (the notices)."""
    client.app.state.server.store.submit_call(lambda conn: None).result(30)


LOCAL = notices.Settings(allow_local_webhooks=True)


def test_a_webhook_gets_your_turn_and_the_end_once_each(database, receiver):
    clock = Clock()
    with TestClient(create_app(database, clock=clock, notice_settings=LOCAL, watch_tables=False)) as client:
        made = create(client, seats=("human", "random"))
        gid, tok = made["id"], made["seats"][0]["token"]
        r = client.put(f"/api/games/{gid}/notices", headers=bearer(tok), json={"webhook": receiver.url})
        assert r.status_code == 200 and r.json()["notices"]["webhook"] == receiver.url
        assert table(client, gid)["notices"] is None                     # a spectator sees no address
        look(client, gid)
        look(client, gid)                                                # a second look queues nothing
        flushed(client)
        assert sender(client) == 1 and sender(client) == 0
        assert len(receiver.bodies) == 1
        body = receiver.bodies[0]
        assert "your turn" in body["content"] and body["text"] == body["content"]
        host = made["host"]
        client.post(f"/api/games/{gid}/host", headers=bearer(host), json={"action": "end"})
        look(client, gid)
        flushed(client)
        sender(client)
        assert [("over" in b["text"]) for b in receiver.bodies] == [False, True]
        rows = tabledb.notices(client.app.state.server.store, gid)
        assert [r["state"] for r in rows] == ["sent", "sent"]


def test_a_failing_webhook_is_tried_again_after_its_back_off_and_given_up_on_a_4xx(database):
    clock = Clock()
    receiver = Receiver(statuses=[503, 503])
    try:
        with TestClient(create_app(database, clock=clock, notice_settings=LOCAL, watch_tables=False)) as client:
            made = create(client, seats=("human", "random"))
            gid, tok = made["id"], made["seats"][0]["token"]
            client.put(f"/api/games/{gid}/notices", headers=bearer(tok), json={"webhook": receiver.url})
            look(client, gid)
            flushed(client)
            assert sender(client) == 0                                   # 503: again in 5 s
            assert sender(client) == 0                                   # not due yet
            clock.now += notices.BACKOFF
            assert sender(client) == 0                                   # 503 again: in 10 s
            clock.now += notices.BACKOFF * 2
            assert sender(client) == 1 and len(receiver.bodies) == 1
            receiver.statuses = [404]
            client.post(f"/api/games/{gid}/host", headers=bearer(made["host"]), json={"action": "end"})
            look(client, gid)
            flushed(client)
            sender(client)
            clock.now += 10_000
            assert sender(client) == 0 and len(receiver.bodies) == 1
            states = [(r["state"], r["attempts"]) for r in tabledb.notices(client.app.state.server.store, gid)]
            assert states == [("sent", 3), ("failed", 1)]
    finally:
        receiver.close()


def test_a_notice_claimed_before_a_crash_is_never_sent_twice_and_a_queued_one_is_sent_after(database, receiver):
    """The claim is committed before the send: a restart finds the claimed notice
    'sending' and leaves it; a notice still queued is sent by the new process."""
    clock = Clock()
    with TestClient(create_app(database, clock=clock, notice_settings=LOCAL, watch_tables=False)) as client:
        made = create(client, seats=("human", "random"))
        gid, tok = made["id"], made["seats"][0]["token"]
        client.put(f"/api/games/{gid}/notices", headers=bearer(tok), json={"webhook": receiver.url})
        look(client, gid)
        flushed(client)
        store = client.app.state.server.store
        claimed: list = []
        tabledb.claim_due(store, clock(), 10, claimed).result(30)       # as a sender would, then "crashed"
        assert len(claimed) == 1
        client.post(f"/api/games/{gid}/host", headers=bearer(made["host"]), json={"action": "end"})
        look(client, gid)
        flushed(client)
    with TestClient(create_app(database, clock=clock, notice_settings=LOCAL, watch_tables=False)) as client:
        assert sender(client) == 1
        assert sender(client) == 0
        assert len(receiver.bodies) == 1 and "over" in receiver.bodies[0]["text"]


@pytest.mark.parametrize("url, why", [
    ("ftp://example.com/hook", "http"),
    ("javascript:alert(1)", "http"),
    ("http://127.0.0.1:9/hook", "private"),
    ("http://10.1.2.3/hook", "private"),
    ("http://[::1]/hook", "private"),
    ("http://169.254.169.254/latest", "private"),
    ("http://localhost/hook", "private"),
])
def test_a_webhook_that_is_not_http_or_not_public_is_refused_and_nothing_changes(client, url, why):
    made = create(client)
    gid, tok = made["id"], made["seats"][0]["token"]
    r = client.put(f"/api/games/{gid}/notices", headers=bearer(tok), json={"webhook": url})
    assert r.status_code == 422 and why in r.json()["detail"] and url not in r.json()["detail"], r.text
    assert table(client, gid, tok)["notices"] == {"webhook": None, "email": None}


def test_e_mail_goes_over_smtp_and_a_bad_address_is_refused(database):
    from aiosmtpd.controller import Controller

    got: list = []

    class Handler:
        async def handle_DATA(self, server, session, envelope):
            got.append((envelope.mail_from, envelope.rcpt_tos, envelope.content.decode()))
            return "250 OK"

    with socket.socket() as probe:  # a free port (aiosmtpd's start needs a known one)
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    smtp = Controller(Handler(), hostname="127.0.0.1", port=port)
    smtp.start()
    try:
        settings = notices.Settings(smtp_host="127.0.0.1", smtp_port=port, smtp_from="realms@example.org")
        clock = Clock()
        with TestClient(create_app(database, clock=clock, notice_settings=settings, watch_tables=False)) as client:
            made = create(client, seats=("human", "random"), table={"clock": {"kind": "turn", "minutes": 1,
                                                                              "misses": 1}})
            gid, tok = made["id"], made["seats"][0]["token"]
            r = client.put(f"/api/games/{gid}/notices", headers=bearer(tok), json={"email": "not an address"})
            assert r.status_code == 422 and "email" in r.json()["detail"]
            r = client.put(f"/api/games/{gid}/notices", headers=bearer(tok), json={"email": "ann@example.org"})
            assert r.status_code == 200
            look(client, gid)
            clock.now += 60
            look(client, gid)                                            # one miss: the bot takes the seat
            settled(client, gid)
            t = table(client, gid)
            assert list(t["bots"]) == ["0"], (t["bots"], t["clock"], t["stand_ins"], t["awaiting"])
            flushed(client)
            assert sender(client) == 2
            subjects = [c.split("Subject: ")[1].split("\n")[0].strip() for _, _, c in got]
            assert sorted(subjects)[1] == "realms: your turn" and sorted(subjects)[0].startswith("realms: a bot")
            assert all(frm == "realms@example.org" and to == ["ann@example.org"] for frm, to, _ in got)
    finally:
        smtp.stop()


def test_e_mail_is_refused_when_the_server_sends_none(client):
    made = create(client)
    r = client.put(f"/api/games/{made['id']}/notices", headers=bearer(made["seats"][0]["token"]),
                   json={"email": "ann@example.org"})
    assert r.status_code == 422 and "smtp-host" in r.json()["detail"]


def test_one_hour_left_is_said_once_a_turn(database, receiver):
    clock = Clock()
    with TestClient(create_app(database, clock=clock, notice_settings=LOCAL, watch_tables=False)) as client:
        made = create(client, seats=("human", "random"), table={"clock": {"kind": "turn", "minutes": 120}})
        gid, tok = made["id"], made["seats"][0]["token"]
        client.put(f"/api/games/{gid}/notices", headers=bearer(tok), json={"webhook": receiver.url})
        look(client, gid)
        clock.now += 3599                                               # 1 h 0 min 1 s left
        look(client, gid)
        flushed(client)
        assert sender(client) == 1                                      # your turn only
        clock.now += 1
        look(client, gid)
        clock.now += 60
        look(client, gid)
        flushed(client)
        assert sender(client) == 1 and sender(client) == 0
        assert "runs out in an hour" in receiver.bodies[-1]["text"] and len(receiver.bodies) == 2
