"""The store's writer thread: it wakes the server once per committed batch
(``Store.after_batch``), by which time every write of the batch is done; SQLite's WAL is
checkpointed by a thread of its own."""

from __future__ import annotations

import shutil
import sqlite3
import threading
import time
from concurrent.futures import Future

import pytest

from realms.server import store as store_module
from realms.server.store import Store, UndoConflict


def test_the_writer_calls_after_batch_once_per_batch_when_its_writes_are_done(tmp_path):
    store = Store(str(tmp_path / "s.db"))
    try:
        store.create("g", "hy-breasil", {}, 1, [], [])
        futures = []
        calls: list[list[bool]] = []
        hold = threading.Event()
        # the first batch waits in the hook, so that the next writes queue up into one batch
        store.after_batch = lambda: (calls.append([f.done() for f in futures]), hold.wait(10))
        futures.append(store.submit("g", 0, [(0, "a")]))
        futures[0].result(10)
        futures.extend(store.submit("g", n, [(n % 2, f"k{n}")]) for n in range(1, 6))
        hold.set()
        for f in futures:
            f.result(10)
        store.submit_undo("g", 5, 1).result(10)
        # the five writes queued behind the first batch are one batch: one call, all done
        assert calls == [[True], [True] * 6, [True] * 6]
        assert store.load("g").answers == [(0, "a"), (1, "k1"), (0, "k2"), (1, "k3"), (0, "k4")]
    finally:
        store.close()


def rows_in_the_database_file(path, copy) -> int:
    """The answers in the SQLite file itself, its WAL left out: those checkpointed (none
    before the tables themselves are)."""
    shutil.copyfile(path, copy)
    conn = sqlite3.connect(copy)
    try:
        if conn.execute("SELECT count(*) FROM sqlite_master WHERE name = 'answers'").fetchone()[0] == 0:
            return 0
        return conn.execute("SELECT count(*) FROM answers").fetchone()[0]
    finally:
        conn.close()


def test_the_wal_is_checkpointed_by_a_thread_of_its_own_not_by_a_commit(tmp_path, monkeypatch):
    """SQLite: the writer's commits leave the WAL alone up to ``AUTOCHECKPOINT_PAGES``; a
    thread of the store's copies it into the database file every ``CHECKPOINT_COMMITS``
    commits (a checkpoint's disk syncs held up every answer of the commit that made it)."""
    monkeypatch.setattr(store_module, "CHECKPOINT_COMMITS", 5)
    path = tmp_path / "s.db"
    store = Store(str(path))
    try:
        with store.engine.connect() as conn:
            assert conn.exec_driver_sql("PRAGMA wal_autocheckpoint").scalar() == store_module.AUTOCHECKPOINT_PAGES
        store.create("g", "hy-breasil", {}, 1, [], [])
        for n in range(4):
            store.submit("g", n, [(0, f"k{n}")]).result(10)
        assert store.checkpoints == 0 and rows_in_the_database_file(path, tmp_path / "copy.db") == 0
        for n in range(4, 20):
            store.submit("g", n, [(n % 2, f"k{n}")]).result(10)
        deadline = time.monotonic() + 10
        while rows_in_the_database_file(path, tmp_path / "copy.db") < 20 and time.monotonic() < deadline:
            time.sleep(0.02)
        assert store.checkpoints >= 1 and rows_in_the_database_file(path, tmp_path / "copy.db") == 20
        assert len(store.load("g").answers) == 20
    finally:
        store.close()
    assert store._checkpointer is None


def test_a_batch_written_one_write_at_a_time_counts_each_commit_toward_the_checkpoint(tmp_path, monkeypatch):
    """A batch whose transaction fails is written again one write at a time (one bad
    write must not sink the others): each of those commits counts, as a batch's does,
    so the WAL's checkpoint comes due after ``CHECKPOINT_COMMITS`` commits whichever
    way they were made."""
    monkeypatch.setattr(store_module, "CHECKPOINT_COMMITS", 2)
    store = Store(str(tmp_path / "s.db"))
    try:
        store.create("g", "hy-breasil", {}, 1, [], [(0, "a")])
        batch = [(("append", "g", 1, [(1, "b")], None), Future()), (("undo", "g", 0, 1), Future())]
        store._write(batch)  # the undo names answer 0, not the last: the batch fails whole
        assert batch[0][1].result(timeout=0) is None
        with pytest.raises(UndoConflict):
            batch[1][1].result(timeout=0)
        assert (store.transactions, store.writes) == (1, 1) and store._checkpointer is None
        store._write([(("append", "g", 2, [(0, "c")], None), Future())])
        assert store.transactions == 2 and store._checkpointer is not None  # the second commit: due
        assert store.load("g").answers == [(0, "a"), (1, "b"), (0, "c")]
    finally:
        store.close()


def test_a_postgresql_url_without_its_driver_is_a_one_line_error(monkeypatch):
    import sys

    from click.testing import CliRunner

    from realms.server.cli import serve
    from realms.server.store import Store, StoreError

    monkeypatch.setitem(sys.modules, "psycopg", None)  # as if the extra were not installed
    with pytest.raises(StoreError, match=r"pip install 'realms\[postgres\]'"):
        Store("postgresql://nobody@127.0.0.1/none")
    out = CliRunner().invoke(serve, ["--database", "postgresql://nobody@127.0.0.1/none"])
    assert out.exit_code == 1
    assert out.output.strip().splitlines() == ["Error: a postgresql database needs the 'psycopg' package: "
                                               "pip install 'realms[postgres]'"]


def test_tokens_are_stored_hashed(tmp_path):
    """The database keeps a hash of each seat's token, never the token."""
    from fastapi.testclient import TestClient

    from realms.server.app import create_app

    db = str(tmp_path / "realms.db")
    with TestClient(create_app(db)) as c:
        r = c.post("/api/games", json={"game": "hy-breasil", "options": {"turns": 2}, "seats": ["human", "auto"]})
        assert r.status_code == 201, r.text
        token = r.json()["seats"][0]["token"]
    raw = sqlite3.connect(db).execute("SELECT seats FROM games").fetchone()[0]
    assert token not in raw and store_module.hash_token(token) in raw


def test_a_game_stored_with_plain_tokens_keeps_its_seats(tmp_path):
    """A database written before tokens were hashed: its tokens are hashed when a store
    opens it, and each still opens its seat."""
    import json

    from fastapi.testclient import TestClient

    from realms.server.app import create_app

    db = str(tmp_path / "realms.db")
    Store(db).create("old", "hy-breasil", {"turns": 2, "players": 2}, 7,
                     [{"kind": "human", "token": "plain-old-token"}, {"kind": "auto", "token": None}], [])
    with TestClient(create_app(db)) as c:
        s = c.get("/api/games/old", headers={"Authorization": "Bearer plain-old-token"})
        assert s.status_code == 200, s.text
        assert s.json()["seat"] == 0
        assert c.get("/api/games/old", headers={"Authorization": "Bearer wrong"}).status_code == 403
    seats = json.loads(sqlite3.connect(db).execute("SELECT seats FROM games").fetchone()[0])
    assert seats == [{"kind": "human", "token_hash": store_module.hash_token("plain-old-token")},
                     {"kind": "auto", "token_hash": None}]
