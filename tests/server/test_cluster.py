"""``server/cluster.py``'s bookkeeping of the notifications, in one process, without a
PostgreSQL server: a write heard while the game was being loaded is caught up once the
game is in memory (the load may have read the game before that write)."""

from __future__ import annotations

from types import SimpleNamespace

from sqlalchemy import create_engine

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
