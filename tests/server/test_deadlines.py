"""Turn deadlines kept across a restart (server/deadlines.py: the turn
resolves when a deadline the game's creator set has passed).  The round's start is in the
store, so a restarted server ends the round at the same instant, and its watcher finds a
game with a deadline that nobody opened since the restart.  The deadlines' clock is
injected (``create_app(clock=…)``), so the tests move time instead of sleeping for
minutes; the watcher runs as in production, every second."""

from __future__ import annotations

import time

import pytest
from fastapi.testclient import TestClient

from realms.server.app import create_app
from realms.server.store import Store

from .conftest import bearer, settled

#: the deadlines' clock when a test begins (seconds since the epoch, far in the past)
T0 = 1000.0


class Clock:
    def __init__(self) -> None:
        self.now = T0

    def __call__(self) -> float:
        return self.now


def answer(client, gid: str, token: str, key: str) -> dict:
    st = settled(client, gid, token)
    r = client.post(f"/api/games/{gid}/answers", headers=bearer(token), json={"key": key, "version": st["version"]})
    assert r.status_code == 200, r.text
    return r.json()


def brittania_at_turn_one(client, deadline_minutes: int) -> tuple[str, list[str]]:
    """A Brittania game of two people and two bots with a deadline, its setup done: the
    people are to write turn 1's orders.  Its id and the people's tokens."""
    r = client.post("/api/games", json={"game": "brittania",
                                        "options": {"turns": 3, "deadline_minutes": deadline_minutes},
                                        "seats": ["human", "human", "steward", "random"]})
    assert r.status_code == 201, r.text
    gid, tokens = r.json()["id"], [s["token"] for s in r.json()["seats"]]
    for token in tokens:
        while True:
            mine = [d for d in settled(client, gid, token)["pending"] if d["kind"] != "br.order"]
            if not mine:
                break
            answer(client, gid, token, mine[0]["options"][0]["key"])
    return gid, tokens


def ended_rounds(db: str, gid: str) -> list[tuple]:
    """The rounds of ``gid`` its deadlines ended, as written: (round, first answer,
    answers given, when, by which process)."""
    from sqlalchemy import select

    from realms.server.store import deadline_ends_table as t

    store = Store(db)
    try:
        with store.engine.connect() as conn:
            return [tuple(r) for r in conn.execute(select(t.c.round, t.c.n, t.c.answers, t.c.at, t.c.by)
                                                  .where(t.c.game_id == gid).order_by(t.c.id))]
    finally:
        store.close()


def wait_for(what, seconds: float = 60.0):
    """``what()`` once it is true (the watcher works in the background, every second; a
    loaded machine gives it, and a game's load and replay, seconds more)."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        found = what()
        if found:
            return found
        time.sleep(0.05)
    pytest.fail(f"not within {seconds} s: {what.__doc__}")


def test_a_restarted_server_ends_the_round_at_the_same_instant_unopened(tmp_path):
    """Ann sends turn 1's orders, Bob none; the server stops one second before the
    two-minute deadline.  Restarted, its watcher loads the game though no page opens it,
    leaves the round alone until the deadline's instant (counted from when the round
    began before the restart, not from the restart) and then ends it: Bob gives no
    orders and turn 1 resolves."""
    db, clock = str(tmp_path / "realms.db"), Clock()
    with TestClient(create_app(db, clock=clock)) as client:
        client.portal.call(client.app.state.deadlines.stop)
        gid, (ann, bob) = brittania_at_turn_one(client, 2)
        st = settled(client, gid, ann)
        assert st["view"]["turn"] == 1 and st["pending"][0]["kind"] == "br.order"
        assert st["deadline"] == {"at": T0 + 120, "passed": False}
        answer(client, gid, ann, "done")
        assert settled(client, gid, bob)["deadline"]["at"] == T0 + 120
    stored = len(Store(db).load(gid).answers)

    clock.now = T0 + 119  # the restart comes a minute and 59 seconds into the round
    with TestClient(create_app(db, clock=clock)) as client:
        server, deadlines = client.app.state.server, client.app.state.deadlines

        def loaded():
            """the watcher loads the unopened game"""
            return gid in server.live
        wait_for(loaded)
        time.sleep(2.5)                                  # two sweeps and more
        assert deadlines.rounds[gid].started == T0
        assert server.live[gid].state.turn == 1 and len(Store(db).load(gid).answers) == stored

        clock.now = T0 + 120

        def resolved():
            """the deadline ends turn 1"""
            return server.live[gid].state.turn == 2
        wait_for(resolved)
        assert len(Store(db).load(gid).answers) > stored
        # the round ended is in the record, with the answers it gave: Bob's "done"
        assert ended_rounds(db, gid) == [("1", stored, 1, T0 + 120, "")]

        st = settled(client, gid, ann)                   # the first page to open it
        assert st["view"]["turn"] == 2
        assert "P2 orders: nothing." in "\n".join(st["chronicle"])
        assert st["deadline"] == {"at": T0 + 120 + 120, "passed": True}
        # turn 2's round was written as it began: a second restart keeps its instant
    clock.now = T0 + 200
    with TestClient(create_app(db, clock=clock)) as client:
        client.portal.call(client.app.state.deadlines.stop)
        st = settled(client, gid, bob)
        assert st["view"]["turn"] == 2 and st["deadline"] == {"at": T0 + 240, "passed": True}


def test_the_round_after_one_a_deadline_ended_is_stored_as_it_begins(tmp_path):
    """The deadline ends turn 1's round; turn 2's round is stored at once, begun at that
    instant, though no page looks and no sweep comes: a process that takes the game over
    (or a restart) then ends it at its own deadline, not a whole deadline after it looked."""
    db, clock = str(tmp_path / "realms.db"), Clock()
    with TestClient(create_app(db, clock=clock)) as client:
        deadlines = client.app.state.deadlines
        client.portal.call(deadlines.stop)
        gid, (ann, _bob) = brittania_at_turn_one(client, 2)
        answer(client, gid, ann, "done")
        clock.now = T0 + 120
        live = client.app.state.server.live[gid]
        assert client.portal.call(deadlines.expire, live)
        assert live.state.turn == 2

        def stored():
            """turn 2's round stored, begun at the end of turn 1's"""
            kept = Store(db).rounds().get(gid)
            return kept is not None and kept[0] == "2" and kept[1:] == (T0 + 120, True)
        wait_for(stored)


def test_a_sweep_ends_the_rounds_due_side_by_side(tmp_path):
    """Two games' rounds due at one sweep: the second's answers are sent to the store while
    the first's commit is still awaited (held here), not after it."""
    import asyncio

    db, clock = str(tmp_path / "realms.db"), Clock()
    with TestClient(create_app(db, clock=clock)) as client:
        deadlines, server = client.app.state.deadlines, client.app.state.server
        client.portal.call(deadlines.stop)
        games = [brittania_at_turn_one(client, 2)[0] for _ in range(2)]
        committed, waiting = server.committed, []
        gate = client.portal.call(asyncio.Event)

        async def held(done):
            waiting.append(done)
            await gate.wait()
            await committed(done)

        server.committed = held
        clock.now = T0 + 120
        swept = client.portal.start_task_soon(deadlines.sweep)

        def both():
            """both rounds' answers sent to the store before either commit is let through"""
            return len(waiting) == 2
        try:
            wait_for(both)
        finally:
            client.portal.call(gate.set)
        assert sorted(swept.result(timeout=60)) == sorted(games)
        assert all(server.live[g].state.turn == 2 for g in games)


def test_the_watcher_loads_only_unfinished_games_with_a_deadline(tmp_path):
    """After a restart the watcher loads the game with a deadline, not the one without
    nor a game of another kind; a game over is marked so in the store and never loaded
    again."""
    db, clock = str(tmp_path / "realms.db"), Clock()
    with TestClient(create_app(db, clock=clock)) as client:
        client.portal.call(client.app.state.deadlines.stop)
        watched, _ = brittania_at_turn_one(client, 5)
        unwatched, _ = brittania_at_turn_one(client, 0)
        r = client.post("/api/games", json={"game": "hy-breasil", "options": {"turns": 2},
                                            "seats": ["human", "auto", "auto", "auto"], "seed": 3})
        other = r.json()["id"]
        r = client.post("/api/games", json={"game": "brittania", "options": {"turns": 1, "deadline_minutes": 1},
                                            "seats": ["steward", "random"], "seed": 4})
        finished = r.json()["id"]
        assert settled(client, finished)["over"]
        assert settled(client, finished)["deadline"] == {"at": None, "passed": False}
        settled(client, other)
    # the finished game's round row says it is over: the store's query leaves it out
    assert {g for g, _, _ in Store(db).unfinished(["brittania", "hy-breasil"])} == {watched, unwatched, other}

    with TestClient(create_app(db, clock=clock)) as client:
        server = client.app.state.server

        def loaded():
            """the watcher loads the game with a deadline"""
            return watched in server.live
        wait_for(loaded)
        assert not {unwatched, other, finished} & set(server.live)
        assert client.portal.call(client.app.state.deadlines.look) == []   # nothing more to load
