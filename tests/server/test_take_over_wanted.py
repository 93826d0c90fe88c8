"""A request for a game its process is taking over (``Cluster.wanted``,
``Server.get``): the game's catch-up goes at once, ahead of the others' waiting for their
turn, and the request waits for that game alone; no turn is lost, and the take-over's own
load of the game does not wait for itself."""

from __future__ import annotations

import asyncio
import math
from types import SimpleNamespace

import pytest
from sqlalchemy import create_engine

from realms.server.cluster import Cluster

from .conftest import PG, drop_database, fresh_database


class Deadlines:
    rounds: dict = {}

    @staticmethod
    def overdue(live) -> bool:
        return False


def _taking_over(monkeypatch, at_once: int, games: set[str]):
    """A process of a stand-in server owning ``games``, ``TAKE_AT_ONCE`` made ``at_once``."""
    from realms.server import cluster as cluster_module

    monkeypatch.setattr(cluster_module, "TAKE_AT_ONCE", at_once)
    server = SimpleNamespace(store=SimpleNamespace(engine=create_engine("sqlite://"), rounds=lambda: {}),
                             live={}, loading={}, deadlines=Deadlines())
    process = Cluster(server)
    process.owned, process.valid_until = set(games), math.inf
    return server, process


async def _settle() -> None:
    for _ in range(50):
        await asyncio.sleep(0)


def test_a_game_asked_for_is_caught_up_next_and_waited_for_alone(monkeypatch):
    """A request for a game waiting for its take-over's turn: the game is caught up in the
    next turn free, before the games ahead of it in the take-over's order, not beside the
    one running (the turns stay bounded however many pages ask); the request waits for
    that game alone, and the take-over's own load of the game does not wait for itself."""
    server, process = _taking_over(monkeypatch, 1, {"a", "b", "c"})
    order: list[str] = []
    inner: list = []

    async def main() -> None:
        first = asyncio.Event()  # "a", first in turn, holds the one turn until this is set

        async def catch_up(gid: str, full: bool = False, load: bool = False):
            order.append(gid)
            inner.append(await process.wanted(gid))  # the take-over's own load: not waited for
            if gid == "a":
                await first.wait()
            server.live[gid] = SimpleNamespace(row=SimpleNamespace(id=gid))
            return server.live[gid]

        process.catch_up = catch_up
        await process.take_over({"a", "b", "c"})
        while order != ["a"]:
            await asyncio.sleep(0)
        asked = asyncio.create_task(process.wanted("c"))
        await _settle()
        assert order == ["a"] and not asked.done()  # the one turn is a's: c waits for it
        assert process._taking.waiting() == ["c", "b"]
        first.set()
        live = await asyncio.wait_for(asked, 30)
        assert live is server.live["c"]
        assert order[:2] == ["a", "c"]  # "b" waited behind "c"
        while process._catching:
            await asyncio.sleep(0.01)
        assert await process.wanted("b") is None  # caught up: a request loads it as any other

    asyncio.run(main())
    assert order == ["a", "c", "b"]
    assert inner == [None, None, None]
    assert process._taking.free == 1 and process._taking.waiting() == []  # the turn given back
    assert process._turns == {}


def test_pages_asking_for_every_game_of_a_take_over_at_once_share_its_bounded_turns(monkeypatch):
    """A hundred pages asking again within a second of their process's death: every game
    of the take-over wanted at once is still caught up ``TAKE_AT_ONCE`` at a time (were
    each let go at once, all would slow each other down and finish together), and every
    request gets its game."""
    games = {f"g{i:02d}" for i in range(12)}
    server, process = _taking_over(monkeypatch, 3, games)
    running: set[str] = set()
    most = 0

    async def main() -> None:
        nonlocal most
        go = asyncio.Event()

        async def catch_up(gid: str, full: bool = False, load: bool = False):
            nonlocal most
            running.add(gid)
            most = max(most, len(running))
            await go.wait()
            running.discard(gid)
            server.live[gid] = SimpleNamespace(row=SimpleNamespace(id=gid))
            return server.live[gid]

        process.catch_up = catch_up
        await process.take_over(games)
        asked = [asyncio.create_task(process.wanted(g)) for g in sorted(games, reverse=True)]
        await _settle()
        assert len(running) == 3
        go.set()
        got = await asyncio.wait_for(asyncio.gather(*asked), 30)
        assert [g.row.id for g in got] == sorted(games, reverse=True)

    asyncio.run(main())
    assert most == 3


def test_a_write_heard_while_a_game_waits_for_its_take_over_is_caught_up_once_it_is_loaded():
    """Another process's write of a game heard while the game waits for its take-over's
    turn (or its read): the take-over loads it from its one read, which may predate the
    write, so the write is noted as missed and caught up once the game is in memory (where
    the load answered a person's page and the bots never moved)."""
    server = SimpleNamespace(store=SimpleNamespace(engine=create_engine("sqlite://"), rounds=lambda: {}),
                             live={}, loading={}, deadlines=Deadlines())
    process = Cluster(server)
    process.owned, process.valid_until = set(), math.inf
    process._turns["waiting"] = (asyncio.Event(), None)
    process._taken_read["read"] = ("row", None, None)
    for gid in ("waiting", "read", "elsewhere"):
        process._heard(f"{gid} 4 7 0 another-process")
    assert process._missed == {"waiting": 7, "read": 7}


@pytest.mark.postgres
@pytest.mark.skipif(not PG, reason="needs REALMS_TEST_POSTGRES=postgresql://…")
def test_a_page_asking_for_a_game_being_taken_over_gets_the_take_overs_load_ahead_of_its_turn(tmp_path, monkeypatch):
    """Two apps of a cluster in this process; ``a``, owner of three games, is made dead
    and ``b`` (holding none) takes them over one at a time, the first held up: a page's
    ``GET`` of the last through ``b`` waits for the one turn, takes it ahead of the game
    between, and is answered with the person asked from the take-over's one read (no
    load of its own through the store); the game is ``b``'s, caught up."""
    import threading

    from fastapi.testclient import TestClient

    from realms.server import cluster as cluster_module
    from realms.server.app import create_app

    from .test_processes import _die, _person_and_three_bots, _take_overs_noted, _wait, bearer

    monkeypatch.setattr(cluster_module, "TAKE_AT_ONCE", 1)
    database = fresh_database("postgresql", tmp_path)
    gate = threading.Event()
    try:
        with TestClient(create_app(database, several=True)) as a, TestClient(create_app(database, several=True)) as b:
            games = dict(_person_and_three_bots(a) for _ in range(3))
            for gid, tok in games.items():
                _wait(f"game {gid}'s person awaited",
                      lambda gid=gid, tok=tok: a.get(f"/api/games/{gid}", headers=bearer(tok)).json()["pending"])
            first, last = min(games), max(games)  # the take-over's order: none in memory, no round
            heir, server = b.app.state.server.cluster, b.app.state.server
            caught = _take_overs_noted(heir)
            noted = heir.catch_up
            begun: list[str] = []

            async def held_up(game_id: str, full: bool = False, load: bool = False):
                begun.append(game_id)
                if game_id == first:
                    await asyncio.to_thread(gate.wait, 60)
                return await noted(game_id, full, load)

            heir.catch_up = held_up
            loads: list[str] = []
            load = server.store.load
            server.store.load = lambda gid, conn=None: loads.append(gid) or load(gid, conn)
            _die(a, list(games))
            _wait("b's take-over to begin with the first game", lambda: begun == [first])
            _wait("the last game's catch-up to wait for its turn", lambda: last in heir._turns)
            got: list = []
            page = threading.Thread(target=lambda: got.append(
                b.get(f"/api/games/{last}", headers=bearer(games[last])).json()), daemon=True)
            page.start()
            _wait("the page's request to hurry the last game", lambda: heir._taking.waiting()[:1] == [last])
            assert begun == [first] and not got  # the one turn is the first game's: it waits
            gate.set()
            page.join(90)
            assert got and got[0]["pending"], got
            assert begun[:2] == [first, last]  # ahead of the game between
            assert loads == []
            assert last in caught and heir.owns(last)
            _wait("b to take the three games over", lambda: caught >= set(games))
            assert loads == []
    finally:
        gate.set()
        drop_database(database)


def test_the_leases_are_renewed_while_a_take_over_reads_the_games_it_claimed(monkeypatch):
    """A take-over runs beside the renewals: while its read of the games claimed is held
    (on a loaded machine it queued behind the pages' loads for seconds), the renewals go
    on, so that the process neither stops acting as the owner of its games
    (``valid_until``) nor looks dead to the others' claims.  A write heard meanwhile for
    a game claimed is noted for after its load, not loaded beside the take-over."""
    import threading

    from realms.server import cluster as cluster_module

    monkeypatch.setattr(cluster_module, "LEASE_EVERY", 0.01)
    server, process = _taking_over(monkeypatch, 6, set())
    server.bots = SimpleNamespace(ready=lambda: True)
    server.continue_bots = lambda live: None
    gate = threading.Event()
    ticks: list[int] = []
    caught: list[str] = []

    def tick(done, claim=True, mine=()):
        ticks.append(len(ticks))
        return {"a", "b"}, ({"a", "b"} if len(ticks) == 1 else set())

    def read_taken(order, known):
        gate.wait(120)  # longer than the wait for the renewals below: they are not let go by it
        return {}

    async def catch_up(gid: str, full: bool = False, load: bool = False):
        caught.append(gid)  # loaded, as a game owned is: the renewals then leave it be
        server.live[gid] = SimpleNamespace(row=SimpleNamespace(id=gid, seq=None))
        return server.live[gid]

    process._tick = tick
    process._read_taken = read_taken
    process.catch_up = catch_up

    async def main() -> None:
        loop = asyncio.create_task(process.lease_loop())
        try:
            for _ in range(6000):
                if len(ticks) >= 4:
                    break
                await asyncio.sleep(0.01)
            assert len(ticks) >= 4, "the renewals waited for the take-over's read"
            assert process.owns("a") and caught == []
            process._heard("a 4 7 0 another-process")
            assert process._missed == {"a": 7} and "a" not in process._catching
            gate.set()
            for _ in range(6000):
                if sorted(caught) == ["a", "b"]:
                    break
                await asyncio.sleep(0.01)
        finally:
            gate.set()
            loop.cancel()
            await asyncio.gather(loop, *process._takes, return_exceptions=True)

    asyncio.run(main())
    assert sorted(caught) == ["a", "b"] and process._claimed == set()


@pytest.mark.postgres
@pytest.mark.skipif(not PG, reason="needs REALMS_TEST_POSTGRES=postgresql://…")
def test_a_take_overs_game_is_replayed_on_its_own_thread_not_behind_the_pages_loads(tmp_path, monkeypatch):
    """A game a take-over loads from its one read is replayed on the take-overs' own
    thread (``Cluster.taker``), not queued in the default pool behind the loads of the
    pages asking for games this process does not own; a request's own load stays there."""
    import threading

    from fastapi.testclient import TestClient

    from realms.server import app as app_module
    from realms.server.app import create_app

    from .test_processes import _person_and_three_bots

    database = fresh_database("postgresql", tmp_path)
    threads: list[str] = []
    rebuild = app_module.rebuild

    def noted(row):
        threads.append(threading.current_thread().name)
        return rebuild(row)

    try:
        with TestClient(create_app(database, several=True)) as client:
            server = client.app.state.server
            gid, _ = _person_and_three_bots(client)
            monkeypatch.setattr(app_module, "rebuild", noted)
            read = server._read(gid)
            server.live.pop(gid)
            client.portal.call(server._load, gid, read)
            server.live.pop(gid)
            client.portal.call(server._load, gid)
        assert threads[0].startswith("realms-take") and not threads[1].startswith("realms-take"), threads
    finally:
        drop_database(database)


def test_a_copy_behind_its_head_is_caught_up_at_the_next_look(monkeypatch):
    """A write whose notification this process missed leaves its copy behind the head (an
    owned game's bots then wait on a person who has answered): the next comparison of the
    heads stored with the copies (``Cluster.look``) catches that copy up, and only it: not a
    copy at its head, one ahead (this process's own write, committed after the read), nor a
    game whose catch-up already runs."""
    from sqlalchemy import insert
    from sqlalchemy.pool import StaticPool

    from realms.server.cluster import heads_table

    server, process = _taking_over(monkeypatch, 1, {"behind", "level", "ahead", "undone", "catching"})
    server.store.engine = create_engine("sqlite://", poolclass=StaticPool, connect_args={"check_same_thread": False})
    heads_table.metadata.create_all(server.store.engine, tables=[heads_table])
    stored = {"behind": (5, 0), "level": (5, 0), "ahead": (5, 0), "undone": (5, 1), "catching": (5, 0)}
    copies = {"behind": (4, 0), "level": (5, 0), "ahead": (6, 0), "undone": (5, 0), "catching": (4, 0)}
    with server.store.engine.begin() as conn:
        conn.execute(insert(heads_table), [{"game_id": g, "seq": seq, "undone": undone, "version": 0}
                                           for g, (seq, undone) in stored.items()])
    server.live = {g: SimpleNamespace(row=SimpleNamespace(id=g, seq=seq)) for g, seq in copies.items()}
    caught: list[str] = []
    monkeypatch.setattr(process, "_soon", caught.append)

    async def main() -> list[str]:
        process._catching["catching"] = asyncio.get_running_loop().create_future()
        return await process.look()

    assert sorted(asyncio.run(main())) == ["behind", "undone"]
    assert sorted(caught) == ["behind", "undone"] and process.behind == 2
