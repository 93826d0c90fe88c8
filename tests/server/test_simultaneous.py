"""Simultaneous decisions (Brittania's orders, §3: every nation orders at once): each
seat's answer to its own decision is taken whatever answers the other seats gave since
the version it was chosen in; only a seat's stale or repeated answer is 409."""

from __future__ import annotations

import threading

from .conftest import bearer, new_game

SEATS = 12


def _round_of_orders(client):
    """A 12-seat Brittania game of people, played by its awaited seats until every seat
    is awaited at once; (game id, tokens, version)."""
    out = new_game(client, game="brittania", seats=("human",) * SEATS, options={}, seed=1)
    gid = out["id"]
    tokens = {s["seat"]: s["token"] for s in out["seats"]}
    for _ in range(400):
        s = client.get(f"/api/games/{gid}").json()
        if len(s["awaiting"]) == SEATS:
            return gid, tokens, s["version"]
        seat = s["awaiting"][0]
        mine = client.get(f"/api/games/{gid}", headers=bearer(tokens[seat])).json()
        r = client.post(f"/api/games/{gid}/answers", headers=bearer(tokens[seat]),
                        json={"key": mine["pending"][0]["options"][0]["key"], "version": mine["version"]})
        assert r.status_code == 200, r.text
    raise AssertionError("no round with every seat awaited in 400 answers")


def _first_keys(client, gid, tokens) -> dict[int, str]:
    return {seat: client.get(f"/api/games/{gid}", headers=bearer(tok)).json()["pending"][0]["options"][0]["key"]
            for seat, tok in tokens.items()}


def test_twelve_answers_to_the_same_version_are_all_taken(client):
    gid, tokens, version = _round_of_orders(client)
    keys = _first_keys(client, gid, tokens)
    for seat, tok in tokens.items():  # each arrives after the others moved the game on
        r = client.post(f"/api/games/{gid}/answers", headers=bearer(tok), json={"key": keys[seat], "version": version})
        assert r.status_code == 200, (seat, r.text)
    # the same answer again, at the version it was chosen in: a repeat, refused
    again = client.post(f"/api/games/{gid}/answers", headers=bearer(tokens[0]), json={"key": keys[0], "version": version})
    assert again.status_code == 409, again.text
    assert client.get(f"/api/games/{gid}").json()["version"] >= version + SEATS


def test_twelve_answers_sent_at_once_are_all_taken(client):
    gid, tokens, version = _round_of_orders(client)
    keys = _first_keys(client, gid, tokens)
    ready = threading.Barrier(SEATS)
    codes: dict[int, int] = {}

    def send(seat: int) -> None:
        ready.wait(timeout=60)
        r = client.post(f"/api/games/{gid}/answers", headers=bearer(tokens[seat]),
                        json={"key": keys[seat], "version": version})
        codes[seat] = r.status_code

    threads = [threading.Thread(target=send, args=(seat,)) for seat in tokens]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    assert not any(t.is_alive() for t in threads), "an answer got no reply within 120 s"
    assert codes == {seat: 200 for seat in tokens}
