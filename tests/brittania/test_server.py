"""Brittania in the web app through the shared API: people and bots in any mix, 12 seats;
a person's orders stay hidden from the other seats until the turn resolves (BR-Q29)."""

from __future__ import annotations

import time

import pytest
from fastapi.testclient import TestClient

from realms.server.app import create_app


def bearer(token: str) -> dict:
    return {"Authorization": f"Bearer {token}"}


def new_game(client, game, seats, options) -> dict:
    """Two people: the server draws a secret seed (the dice decide what they may not know)."""
    r = client.post("/api/games", json={"game": game, "options": options, "seats": seats})
    assert r.status_code == 201, r.text
    return r.json()


def test_two_people_and_ten_bots_write_orders_hidden_from_each_other(tmp_path):
    with TestClient(create_app(str(tmp_path / "realms.db"))) as client:
        seats = ["human", "human"] + ["steward"] * 5 + ["random"] * 5
        out = new_game(client, game="brittania", seats=seats, options={"turns": 2})
        gid = out["id"]
        ann, bob = (s["token"] for s in out["seats"])

        def me(token):
            """The state once only people are awaited (the bots may play in the background)."""
            deadline = time.monotonic() + 60
            while time.monotonic() < deadline:
                st = client.get(f"/api/games/{gid}", headers=bearer(token)).json()
                if set(st["awaiting"]) <= {0, 1}:
                    return st
                time.sleep(0.02)
            pytest.fail("the bots still play after 60 s")

        def answer(token, key):
            st = me(token)
            r = client.post(f"/api/games/{gid}/answers", headers=bearer(token),
                            json={"key": key, "version": st["version"]})
            assert r.status_code == 200, r.text

        for token, start in ((ann, "kent"), (bob, "umall")):
            st = me(token)
            while st["pending"] and st["pending"][0]["player"] in (0, 1) and st["view"]["phase"] == "setup":
                d = next(d for d in st["pending"] if d["kind"] in ("br.start", "br.trait", "br.name"))
                keys = [o["key"] for o in d["options"]]
                answer(token, start if start in keys else keys[0])
                st = me(token)
                if d["kind"] == "br.name":
                    break
        st = me(ann)
        assert st["pending"][0]["kind"] == "br.order" and st["view"]["turn"] == 1
        answer(ann, "invest:kent")
        answer(ann, "8")
        assert me(ann)["view"]["orders"] == [{"by": 0, "grain": 8, "kind": "invest", "target": "kent"}]
        assert "invest:kent" not in str(me(bob)) and "kent" not in str(me(bob)["view"]["orders"])
        answer(ann, "done")
        answer(bob, "done")
        st = me(bob)
        assert st["view"]["turn"] == 2
        # BR-Q13 at 4 in the capital; BR-Q101: a bot may have walked into undefended Kent
        told = "\n".join(st["chronicle"])
        assert "invests 8 grain in Kent: output 10 → 12." in told or "8 grain for Kent are lost with the state" in told


def _people_game(client) -> tuple[str, str, str]:
    """Two people, set up, at turn 1's orders."""
    out = new_game(client, game="brittania", seats=["human", "human"], options={"turns": 2})
    gid = out["id"]
    tokens = [s["token"] for s in out["seats"]]
    for _ in range(20):
        states = [client.get(f"/api/games/{gid}", headers=bearer(tok)).json() for tok in tokens]
        kinds = [st["pending"][0]["kind"] if st["pending"] else None for st in states]
        if kinds == ["br.order", "br.order"]:
            return gid, tokens[0], tokens[1]
        seat = next(i for i, k in enumerate(kinds) if k not in (None, "br.order"))
        d = states[seat]["pending"][0]
        r = client.post(f"/api/games/{gid}/answers", headers=bearer(tokens[seat]),
                        json={"key": d["options"][0]["key"], "version": states[seat]["version"]})
        assert r.status_code == 200, r.text
    raise AssertionError(f"the setup did not reach the orders: {kinds}")


def _answer(client, gid, token, key) -> dict:
    st = client.get(f"/api/games/{gid}", headers=bearer(token)).json()
    r = client.post(f"/api/games/{gid}/answers", headers=bearer(token), json={"key": key, "version": st["version"]})
    assert r.status_code == 200, r.text
    return r.json()


def test_sent_orders_cannot_be_taken_back(tmp_path):
    """TURN ORDER: "You cannot edit your orders once you've send the post!": Undo takes
    back an order being written, never the sending."""
    with TestClient(create_app(str(tmp_path / "realms.db"))) as client:
        gid, ann, bob = _people_game(client)
        st = client.get(f"/api/games/{gid}", headers=bearer(ann)).json()
        home = st["view"]["players"][0]["capital"]
        st = _answer(client, gid, ann, f"defend:{home}")
        r = client.post(f"/api/games/{gid}/undo", headers=bearer(ann), json={"version": st["version"]})
        assert r.status_code == 200, r.text                     # writing: the order is taken back
        _answer(client, gid, ann, f"defend:{home}")
        _answer(client, gid, ann, "3")
        st = _answer(client, gid, ann, "done")
        assert st["can_undo"] is False
        r = client.post(f"/api/games/{gid}/undo", headers=bearer(ann), json={"version": st["version"]})
        assert r.status_code == 422 and "cannot be taken back by the game's rules" in r.text


def test_the_record_shows_nothing_of_an_open_turn(tmp_path):
    """BR-Q29: while the turn's orders are written, a seat's or a spectator's record holds
    none of the other seats' answers of the turn (not even how many); once it resolves,
    their entries are there, their keys still hidden until the game ends."""
    with TestClient(create_app(str(tmp_path / "realms.db"))) as client:
        gid, ann, bob = _people_game(client)
        before = len(client.get(f"/api/games/{gid}/record").json()["answers"])
        st = client.get(f"/api/games/{gid}", headers=bearer(ann)).json()
        home = st["view"]["players"][0]["capital"]
        _answer(client, gid, ann, f"defend:{home}")
        _answer(client, gid, ann, "3")
        mine = client.get(f"/api/games/{gid}/record", headers=bearer(ann)).json()["answers"]
        assert mine[before:] == [[0, f"defend:{home}"], [0, "3"]]
        assert len(client.get(f"/api/games/{gid}/record", headers=bearer(bob)).json()["answers"]) == before
        assert len(client.get(f"/api/games/{gid}/record").json()["answers"]) == before
        _answer(client, gid, ann, "done")
        _answer(client, gid, bob, "done")
        theirs = client.get(f"/api/games/{gid}/record", headers=bearer(bob)).json()["answers"]
        assert theirs[before:before + 4] == [[0, None], [0, None], [0, None], [1, "done"]]


def test_a_person_names_his_king_in_the_web_app(tmp_path):
    """BR-Q6, PLAYER KINGS: "he needs a Name": the page offers the region's names, says any
    name will do, and the seat may send its own (Offa); an empty name is refused with a
    message and changes nothing."""
    with TestClient(create_app(str(tmp_path / "realms.db"))) as client:
        out = new_game(client, game="brittania", seats=["human", "human"], options={"turns": 2})
        gid, ann = out["id"], out["seats"][0]["token"]
        _answer(client, gid, ann, "kent")
        st = _answer(client, gid, ann, "Rich")
        d = st["pending"][0]
        assert d["kind"] == "br.name" and d["options"][0]["key"] == "Alfred" and d["info"]["any_name"]
        r = client.post(f"/api/games/{gid}/answers", headers=bearer(ann), json={"key": "", "version": st["version"]})
        assert r.status_code == 422 and "br.name" in r.text
        st = _answer(client, gid, ann, "Offa")
        assert st["view"]["players"][0]["king"]["name"] == "Offa"
