"""A cluster's store writes a batch of answers in one statement (``Store._appended``,
``cluster.Cluster.appended``): each game's head moved on from the one its process knew,
its move notified and its answers stored, in one round trip and one transaction; a game
whose head had moved elsewhere keeps its head and answers and its write alone fails; a
batch of another kind goes the usual way.  Counted, never timed."""

from __future__ import annotations

from concurrent.futures import Future
from types import SimpleNamespace

import psycopg
import pytest
from sqlalchemy import event, select, text

from realms.server.cluster import Cluster, Conflict, channel, heads_table
from realms.server.store import Store, answers_table

from .conftest import PG, drop_database, fresh_database

pytestmark = [pytest.mark.postgres,
              pytest.mark.skipif(not PG, reason="needs REALMS_TEST_POSTGRES=postgresql://…")]

GAMES = ("g0", "g1", "g2")


@pytest.fixture
def cluster(tmp_path):
    """A store of a cluster's process (no writer thread: batches are written by the test)
    on a fresh database, with ``GAMES`` in memory at head (0, 0), none of their answers
    stored; the statements it runs through SQLAlchemy counted in ``store.statements``."""
    url = fresh_database("postgresql", tmp_path)
    store = Store(url)
    server = SimpleNamespace(store=store, live={}, loading={})
    process = Cluster(server)
    store.cluster = process
    with store.engine.begin() as conn:
        for gid in GAMES:
            conn.execute(heads_table.insert().values(game_id=gid, seq=0, undone=0, version=0))
            server.live[gid] = SimpleNamespace(row=SimpleNamespace(seq=(0, 0)))
    store.statements = []
    event.listen(store.engine, "before_cursor_execute",
                 lambda conn, cursor, statement, *rest: store.statements.append(statement))
    yield store, server, url
    store.close()
    drop_database(url)


def queued(store: Store, gid: str, start: int, answers: list) -> tuple[tuple, Future]:
    """A write of ``answers`` to game ``gid`` as the server queues it (checked against the
    head its game in memory knows), caught before the writer thread takes it."""
    caught: list = []

    def enqueue(op: tuple) -> Future:
        caught.append((op, Future()))
        return caught[-1][1]

    store.cluster.guarded(enqueue, ("append", gid, start, answers, None), start + len(answers))
    return caught[0]


def stored(url_store: Store) -> tuple[dict, dict]:
    with url_store.engine.connect() as conn:
        heads = {r.game_id: (r.seq, r.undone, r.version) for r in conn.execute(select(heads_table))}
        answers: dict = {}
        for r in conn.execute(select(answers_table).order_by(answers_table.c.game_id, answers_table.c.n)):
            answers.setdefault(r.game_id, []).append((r.n, r.player, r.key))
    return heads, answers


def test_a_batch_of_appends_is_one_statement_outside_any_transaction_and_notified(cluster):
    store, server, url = cluster
    listener = psycopg.connect(url, autocommit=True)
    for gid in GAMES:
        listener.execute(f'LISTEN "{channel(gid)}"')
    batch = [queued(store, "g0", 0, [(0, "a"), (1, "b")]), queued(store, "g1", 0, [(1, "c")]),
             queued(store, "g2", 0, [(0, "d")])]
    store._write(batch)
    assert [f.result(timeout=0) for _, f in batch] == [None, None, None]
    # the whole batch in one statement on the writer's own connection: none through
    # SQLAlchemy's (whose transaction would be BEGIN, the heads' UPDATE, the INSERT, COMMIT)
    assert store.statements == []
    assert (store.transactions, store.writes) == (1, 3)
    heads, answers = stored(store)
    assert heads == {"g0": (1, 0, 2), "g1": (1, 0, 1), "g2": (1, 0, 1)}
    assert answers == {"g0": [(0, 0, "a"), (1, 1, "b")], "g1": [(0, 1, "c")], "g2": [(0, 0, "d")]}
    notes = sorted(n.payload.split(" ")[0] for n in listener.notifies(timeout=30, stop_after=3))
    assert notes == ["g0", "g1", "g2"]
    listener.close()


def test_a_write_whose_head_moved_elsewhere_fails_alone_and_leaves_its_game_as_it_was(cluster):
    store, server, url = cluster
    with store.engine.begin() as conn:  # another process wrote g1's first answer
        conn.execute(text("UPDATE realms_heads SET seq = 1, version = 1 WHERE game_id = 'g1'"))
        conn.execute(answers_table.insert().values(game_id="g1", n=0, player=0, key="theirs"))
    store.statements.clear()
    batch = [queued(store, "g0", 0, [(0, "a")]), queued(store, "g1", 0, [(1, "mine")]),
             queued(store, "g2", 0, [(0, "d")])]
    store._write(batch)
    assert batch[0][1].result(timeout=0) is None and batch[2][1].result(timeout=0) is None
    with pytest.raises(Conflict):
        batch[1][1].result(timeout=0)
    assert store.statements == []
    assert (store.transactions, store.writes) == (1, 2)
    heads, answers = stored(store)
    assert heads == {"g0": (1, 0, 1), "g1": (1, 0, 1), "g2": (1, 0, 1)}
    assert answers == {"g0": [(0, 0, "a")], "g1": [(0, 0, "theirs")], "g2": [(0, 0, "d")]}


def test_a_batch_with_another_kind_of_write_goes_in_one_transaction(cluster):
    store, server, url = cluster
    batch = [queued(store, "g0", 0, [(0, "a")]),
             (("round", "g1", None, None, 0, 1), Future())]
    store._write(batch)
    assert [f.result(timeout=0) for _, f in batch] == [None, None]
    assert store.statements, "the transaction's statements go through SQLAlchemy"
    assert (store.transactions, store.writes) == (1, 2)
    heads, answers = stored(store)
    assert heads["g0"] == (1, 0, 1) and answers == {"g0": [(0, 0, "a")]}
