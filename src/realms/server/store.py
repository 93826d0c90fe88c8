"""Storage of served games: SQLite file by default, PostgreSQL by URL (SQLAlchemy Core).

A game is one row of ``games`` (id, game id, options, seed, seats with their kinds and
tokens) and its answers, one row each in ``answers`` keyed by (game id, number).  The
answers are the record: the live state is rebuilt by replaying them.  :meth:`Store.append`
writes a batch of answers in one transaction; the server sends its 200 only after that
commit, so an answer acknowledged is an answer kept, whatever happens to the process.
The primary key (game, n) makes a second writer of the same answer number fail instead
of forking the game.
"""

from __future__ import annotations

import json
import queue
import threading
import time
from concurrent.futures import Future
from dataclasses import dataclass
from pathlib import Path

from sqlalchemy import (
    Column,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    Float,
    create_engine,
    event,
    select,
    insert,
)
from sqlalchemy.engine import Engine

metadata = MetaData()

games_table = Table(
    "games",
    metadata,
    Column("id", String(40), primary_key=True),
    Column("game", String(40), nullable=False),
    Column("options", Text, nullable=False),  # JSON, normalized
    Column("seed", Integer, nullable=False),
    Column("seats", Text, nullable=False),  # JSON: [{"kind": "human"|bot, "token": str|None}]
    Column("created", Float, nullable=False),
)

answers_table = Table(
    "answers",
    metadata,
    Column("game_id", String(40), primary_key=True),
    Column("n", Integer, primary_key=True, autoincrement=False),  # 0-based answer number
    Column("player", Integer, nullable=False),
    Column("key", Text, nullable=False),
)


@dataclass
class GameRow:
    id: str
    game: str
    options: dict
    seed: int
    seats: list[dict]
    answers: list[tuple[int, str]]


def database_url(url: str | None) -> str:
    """A SQLAlchemy URL from what ``--database`` says: a URL, or a file path for SQLite.

    ``postgresql://`` is taken to mean the psycopg 3 driver.
    """
    if not url:
        url = "realms.db"
    if "://" not in url:
        return "sqlite:///" + str(Path(url).expanduser().resolve())
    if url.startswith("postgresql://") or url.startswith("postgres://"):
        return "postgresql+psycopg://" + url.split("://", 1)[1]
    return url


class Store:
    """The games table and the answers table behind a small interface."""

    def __init__(self, url: str | None = None) -> None:
        self.url = database_url(url)
        self.engine: Engine = self._make_engine(self.url)
        metadata.create_all(self.engine)
        self._queue: queue.SimpleQueue = queue.SimpleQueue()
        self._writer: threading.Thread | None = None
        self._writer_lock = threading.Lock()

    @staticmethod
    def _make_engine(url: str) -> Engine:
        if url.startswith("sqlite"):
            engine = create_engine(url, connect_args={"check_same_thread": False, "timeout": 30})

            @event.listens_for(engine, "connect")
            def _pragmas(dbapi_conn, _record) -> None:  # pragma: no cover - trivial
                cur = dbapi_conn.cursor()
                # WAL: readers never block the writer; FULL: a commit is on disk (fsync)
                # before it returns, so it survives a crash of the process or the machine.
                cur.execute("PRAGMA journal_mode=WAL")
                cur.execute("PRAGMA synchronous=FULL")
                cur.execute("PRAGMA busy_timeout=30000")
                cur.close()

            return engine
        return create_engine(url, pool_size=10, max_overflow=20, pool_pre_ping=True)

    def close(self) -> None:
        if self._writer is not None:
            self._queue.put(None)
            self._writer.join(10)
            self._writer = None
        self.engine.dispose()

    # -- group commit -------------------------------------------------------------------
    def submit(self, game_id: str, start: int, answers: list[tuple[int, str]]) -> Future:
        """Queue answers for the writer thread; the future is done once they are committed.

        The writer commits everything queued meanwhile (answers of many games) in one
        transaction, so that many answers share one sync to disk: the 200s wait for the
        commit, the throughput does not wait for one sync per answer.
        """
        fut: Future = Future()
        if not answers:
            fut.set_result(None)
            return fut
        with self._writer_lock:
            if self._writer is None:
                self._writer = threading.Thread(target=self._write_loop, name="realms-store-writer", daemon=True)
                self._writer.start()
        self._queue.put((game_id, start, answers, fut))
        return fut

    def _write_loop(self) -> None:
        while True:
            item = self._queue.get()
            if item is None:
                return
            batch = [item]
            while len(batch) < 1000:
                try:
                    more = self._queue.get_nowait()
                except queue.Empty:
                    break
                if more is None:
                    self._queue.put(None)  # finish this batch, then stop
                    break
                batch.append(more)
            try:
                with self.engine.begin() as conn:
                    conn.execute(insert(answers_table), [
                        {"game_id": g, "n": start + i, "player": p, "key": k}
                        for g, start, answers, _ in batch
                        for i, (p, k) in enumerate(answers)
                    ])
            except Exception:
                # one bad entry must not sink the others: commit them one by one
                for g, start, answers, fut in batch:
                    try:
                        self.append(g, start, answers)
                    except Exception as exc:
                        fut.set_exception(exc)
                    else:
                        fut.set_result(None)
            else:
                for *_, fut in batch:
                    fut.set_result(None)

    # -- writes ---------------------------------------------------------------------
    def create(self, game_id: str, game: str, options: dict, seed: int, seats: list[dict],
               answers: list[tuple[int, str]]) -> None:
        """The game row and its first answers (bots that play first), in one transaction."""
        with self.engine.begin() as conn:
            conn.execute(insert(games_table).values(
                id=game_id, game=game, options=json.dumps(options, sort_keys=True),
                seed=seed, seats=json.dumps(seats), created=time.time()))
            if answers:
                conn.execute(insert(answers_table), [
                    {"game_id": game_id, "n": i, "player": p, "key": k}
                    for i, (p, k) in enumerate(answers)
                ])

    def append(self, game_id: str, start: int, answers: list[tuple[int, str]]) -> None:
        """Answers number ``start``, ``start + 1``… of a game, committed before returning."""
        if not answers:
            return
        with self.engine.begin() as conn:
            conn.execute(insert(answers_table), [
                {"game_id": game_id, "n": start + i, "player": p, "key": k}
                for i, (p, k) in enumerate(answers)
            ])

    # -- reads ----------------------------------------------------------------------
    def load(self, game_id: str) -> GameRow | None:
        with self.engine.connect() as conn:
            row = conn.execute(select(games_table).where(games_table.c.id == game_id)).first()
            if row is None:
                return None
            rows = conn.execute(
                select(answers_table.c.n, answers_table.c.player, answers_table.c.key)
                .where(answers_table.c.game_id == game_id)
                .order_by(answers_table.c.n)
            ).all()
        answers = []
        for i, (n, p, k) in enumerate(rows):
            if n != i:  # never happens: the key (game, n) and append's numbering forbid gaps
                raise RuntimeError(f"game {game_id}: answer #{i} missing in the database")
            answers.append((p, k))
        return GameRow(row.id, row.game, json.loads(row.options), row.seed,
                       json.loads(row.seats), answers)

    def list_games(self, limit: int = 50) -> list[dict]:
        """The newest games (id, game, seat kinds, created), for the lobby."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(games_table.c.id, games_table.c.game, games_table.c.seats, games_table.c.created)
                .order_by(games_table.c.created.desc())
                .limit(limit)
            ).all()
        return [
            {"id": r.id, "game": r.game, "seats": [s["kind"] for s in json.loads(r.seats)],
             "created": r.created}
            for r in rows
        ]
