"""``server/cluster.py``'s bookkeeping of the notifications, in one process, without a
PostgreSQL server: a write heard while the game was being loaded is caught up once the
game is in memory (the load may have read the game before that write)."""

from __future__ import annotations

from types import SimpleNamespace

from sqlalchemy import create_engine

from realms.server import deadlines as deadlines_module
from realms.server.cluster import Cluster


def a_process() -> tuple[Cluster, SimpleNamespace, list[str]]:
    """A cluster's process around a stand-in server (no game in memory, none loading),
    and the games it set catching up, in order."""
    server = SimpleNamespace(store=SimpleNamespace(engine=create_engine("sqlite://")), live={}, loading={})
    process = Cluster(server)
    caught: list[str] = []
    process._soon = lambda gid, full=False: caught.append(gid)
    return process, server, caught


def test_a_write_heard_while_its_game_loads_is_caught_up_once_the_game_is_in_memory():
    process, server, caught = a_process()
    server.loading["g1"] = [None, 1]
    process._heard("g1 7 3 0 another-process")
    assert caught == []  # nothing in memory to catch up yet
    del server.loading["g1"]
    server.live["g1"] = SimpleNamespace(row=SimpleNamespace(seq=(2, 0)), version=6)
    process.loaded("g1")
    assert caught == ["g1"]
    process.loaded("g1")  # loaded again later, nothing heard meanwhile: nothing to read
    assert caught == ["g1"]


def test_a_game_loaded_with_no_write_heard_during_its_load_is_not_read_again():
    process, server, caught = a_process()
    process._heard("g2 7 3 0 another-process")  # neither in memory nor loading: not this process's
    server.live["g2"] = SimpleNamespace(row=SimpleNamespace(seq=(3, 0)), version=7)
    process.loaded("g2")
    assert caught == []


def test_a_game_loaded_as_far_as_the_head_known_while_it_was_not_in_memory_is_not_read_again():
    """A game owned (just claimed) and not in memory when its channel is first listened
    to: its head is read then, and once loaded it is caught up only if its copy is behind
    that head (a take-over's load most often is not: no second read of each game); so is
    a game whose write was heard while it loaded."""
    import asyncio

    process, server, caught = a_process()
    process.owned = {"level", "behind"}

    class Listening:
        async def execute(self, query, params=None):
            rows = [("level", 5, 0), ("behind", 5, 0)]

            class Cursor:
                async def fetchall(self):
                    return rows
            return Cursor()

    asyncio.run(process._subscribe(Listening()))
    server.live["level"] = SimpleNamespace(row=SimpleNamespace(seq=(5, 0)), version=9)
    server.live["behind"] = SimpleNamespace(row=SimpleNamespace(seq=(4, 0)), version=8)
    process.loaded("level")
    process.loaded("behind")
    assert caught == ["behind"]
    server.loading["heard"] = [None, 1]
    process._heard("heard 7 3 0 another-process")
    del server.loading["heard"]
    server.live["heard"] = SimpleNamespace(row=SimpleNamespace(seq=(3, 0)), version=7)
    process.loaded("heard")
    assert caught == ["behind"]


def test_a_take_over_catches_up_the_due_rounds_first_a_few_at_a_time_and_ends_them_at_once(monkeypatch):
    """Games claimed at once are caught up in turn, ``TAKE_AT_ONCE`` at a time: first those
    with a deadline round (the longest begun first), then those in memory whose bots are
    to move, then the rest; a round whose deadline passed is ended as soon as its game is
    caught up (not at the deadlines' next sweep); a round not yet due is left to it."""
    import asyncio
    import math

    from realms.server import app as app_module
    from realms.server import cluster as cluster_module

    monkeypatch.setattr(cluster_module, "TAKE_AT_ONCE", 2)
    monkeypatch.setattr(app_module, "bots_to_move", lambda state, agents: state == "bots to move")
    ended: list[str] = []

    class Deadlines:
        rounds: dict = {}

        @staticmethod
        def clock() -> float:
            return 100.0

        @staticmethod
        def due(live) -> float | None:
            return live.due

        overdue = deadlines_module.Deadlines.overdue  # the real test, on the due and clock above

        @staticmethod
        async def expire(live) -> bool:
            ended.append(live.row.id)
            return True

    def live(gid: str, state: str = "a person awaited", due: float | None = None) -> SimpleNamespace:
        return SimpleNamespace(row=SimpleNamespace(id=gid, seq=(1, 0)), version=2, state=state, agents={}, due=due)

    rounds = {"late": ('{"r": 1}', 50.0, False), "early": ('{"r": 1}', 10.0, False),
              "no-round": (None, None, False)}
    server = SimpleNamespace(store=SimpleNamespace(engine=create_engine("sqlite://"), rounds=lambda: rounds),
                             live={"bots": live("bots", "bots to move"), "person": live("person")},
                             loading={}, deadlines=Deadlines())
    process = Cluster(server)
    games = {"late", "early", "no-round", "bots", "person", "unloaded"}
    process.owned, process.valid_until = set(games), math.inf
    order: list[str] = []
    running, most = set(), 0

    async def main() -> None:
        go = asyncio.Event()

        async def catch_up(gid: str, full: bool = False, load: bool = False):
            nonlocal most
            assert full
            order.append(gid)
            running.add(gid)
            most = max(most, len(running))
            await go.wait()
            running.discard(gid)
            server.live.setdefault(gid, live(gid, due={"early": 99.0, "late": 101.0}.get(gid)))

        process.catch_up = catch_up
        process._read_taken = lambda order, known: {}  # the stand-in's catch-ups read nothing
        await process.take_over(games)
        while len(order) < 2:
            await asyncio.sleep(0)
        await asyncio.sleep(0.01)  # any catch-up let through beyond the two would have begun by now
        assert order == ["early", "late"]
        go.set()
        while process._catching:
            await asyncio.sleep(0.01)

    asyncio.run(main())
    assert order == ["early", "late", "bots", "no-round", "person", "unloaded"]
    assert most == 2
    assert ended == ["early"]  # due at 99, the clock at 100; "late" is due at 101: the sweep's
