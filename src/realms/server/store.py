"""Storage of served games: SQLite file by default, PostgreSQL by URL (SQLAlchemy Core).

A game is one row of ``games`` (id, game id, options, seed, seats with their kinds and
tokens) and its answers, one row each in ``answers`` keyed by (game id, number).  The
answers are the record: the live state is rebuilt by replaying them.  :meth:`Store.append`
writes a batch of answers in one transaction; the server sends its 200 only after that
commit, so an answer acknowledged is an answer kept, whatever happens to the process
(SQLite: written to its WAL, without waiting for the disk's sync, so not across a power cut
or a crash of the system; PostgreSQL: synced at each commit).
The primary key (game, n) makes a second writer of the same answer number fail instead
of forking the game.  :meth:`Store.submit_undo` takes a game's last answer back (a row
deleted in a transaction, checked to be the last one and the seat's), again before the
server answers.
"""

from __future__ import annotations

import hashlib
import json
import queue
import threading
import time
from concurrent.futures import Future
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from sqlalchemy import (
    BigInteger,
    Column,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    Float,
    create_engine,
    delete,
    event,
    func,
    select,
    insert,
    inspect,
)
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import Engine

metadata = MetaData()

games_table = Table(
    "games",
    metadata,
    Column("id", String(40), primary_key=True),
    Column("game", String(40), nullable=False),
    Column("options", Text, nullable=False),  # JSON, normalized
    Column("seed", BigInteger, nullable=False),  # the server draws seeds up to 2**53
    # JSON: [{"kind": "human"|bot, "token_hash": hash_token(the seat's token)|None}]
    Column("seats", Text, nullable=False),
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

#: the turn deadlines' rounds (server/deadlines.py): the round a game awaits and when it
#: began, so that a restart keeps the deadline's instant and finds the games to watch
rounds_table = Table(
    "rounds",
    metadata,
    Column("game_id", String(40), primary_key=True),
    Column("round", Text, nullable=True),  # JSON of the round awaited; NULL: none
    Column("started", Float, nullable=True),  # when it began, seconds since the epoch
    Column("passed", Integer, nullable=False),  # 1: the round before ended at its deadline
    Column("over", Integer, nullable=False),  # 1: the game is over, never watched again
)

#: each round a deadline ended (server/deadlines.py), written in the transaction of the
#: answers it gave: the record that counts how often each round was ended (once), and by
#: which process
deadline_ends_table = Table(
    "deadline_ends",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("game_id", String(40), nullable=False, index=True),
    Column("round", Text, nullable=False),  # JSON of the round ended
    Column("n", Integer, nullable=False),  # the number of the first answer it gave
    Column("answers", Integer, nullable=False),  # the answers it gave
    Column("at", Float, nullable=False),  # the deadlines' clock when it ended
    Column("by", String(120), nullable=False),  # the process (``cluster``), "" alone
)


class StoreError(RuntimeError):
    """The database named cannot be used (its driver is not installed); one line."""


#: the package each database's driver comes from, and the extra that installs it
DRIVERS = {"postgresql": ("psycopg", "postgres")}


class UndoConflict(RuntimeError):
    """The answer to take back is not the game's last stored one, or not that seat's."""


#: SQLite: the WAL is checkpointed (its pages copied into the database file, each with a
#: disk sync) by a thread of its own after this many of the writer's commits, not within
#: the commit that finds the WAL long (SQLite's own rule): there its syncs held up every
#: answer of that commit, 8-11 ms every few hundred commits
CHECKPOINT_COMMITS = 200
#: SQLite's own checkpoints, within a commit, only past this many pages of WAL (80 MB):
#: a safety net, should the checkpoints of the thread not keep up
AUTOCHECKPOINT_PAGES = 20_000

#: the INSERTs that can replace a row in one statement (``ON CONFLICT DO UPDATE``), by dialect
UPSERTS: dict[str, Callable[..., Any]] = {"postgresql": postgresql.insert, "sqlite": sqlite.insert}

#: answers per INSERT statement (4 parameters each: within SQLite's and PostgreSQL's limits)
INSERT_ROWS = 1000


def _insert_answers(conn, rows: list[tuple]) -> None:
    """Insert (game id, n, player, key) rows with one multi-row INSERT per ``INSERT_ROWS``.

    One statement, not an executemany: the driver gives up Python's GIL around each
    statement it runs, and the writer thread must win it back from the event loop's
    thread every time (up to a switch interval each while the loop is busy), so one
    statement a batch keeps a commit short under load.
    """
    dialect = conn.dialect
    if dialect.paramstyle == "qmark":
        mark = "?"
    elif dialect.paramstyle in ("format", "pyformat"):
        mark = "%s"
    else:  # a driver of another kind: let SQLAlchemy write it
        conn.execute(insert(answers_table), [dict(zip(("game_id", "n", "player", "key"), r)) for r in rows])
        return
    q = dialect.identifier_preparer.quote
    head = (f"INSERT INTO {q(answers_table.name)} "
            f"({', '.join(q(c) for c in ('game_id', 'n', 'player', 'key'))}) VALUES ")
    one = f"({mark}, {mark}, {mark}, {mark})"
    for i in range(0, len(rows), INSERT_ROWS):
        chunk = rows[i:i + INSERT_ROWS]
        conn.exec_driver_sql(head + ", ".join([one] * len(chunk)), tuple(v for r in chunk for v in r))


def _closed(conn: Any) -> Any:
    """Close ``conn`` (if any) whatever state it is in; None, for the caller to forget it."""
    if conn is not None:
        try:
            conn.close()
        except Exception:
            pass
    return None


#: the advisory lock processes starting at once on one PostgreSQL database make their
#: tables under, one at a time (two ``CREATE TABLE`` of one name at once: one fails)
TABLES_LOCK = 0x7265616C  # "real"


def create_tables(engine: Engine, tables: MetaData) -> None:
    """The tables of ``tables`` not yet in the database (PostgreSQL: under ``TABLES_LOCK``)."""
    if engine.dialect.name != "postgresql":
        tables.create_all(engine)
        return
    with engine.begin() as conn:
        conn.exec_driver_sql(f"SELECT pg_advisory_xact_lock({TABLES_LOCK})")
        tables.create_all(conn)


def hash_token(token: str) -> str:
    """What the store keeps of a seat's token: its SHA-256 (a token is 192 random bits, so
    a plain hash is as hard to turn back as the token is to guess), so that a copy of the
    database lets nobody play a seat."""
    return hashlib.sha256(token.encode()).hexdigest()


def hashed_seats(seats: list[dict]) -> tuple[list[dict], bool]:
    """``seats`` with each plain ``token`` (as games stored before tokens were hashed
    kept them) replaced by its ``token_hash``; and whether any was."""
    out, changed = [], False
    for seat in seats:
        if "token" in seat:
            token = seat["token"]
            seat = {k: v for k, v in seat.items() if k != "token"}
            seat["token_hash"] = hash_token(token) if token else None
            changed = True
        out.append(seat)
    return out, changed


@dataclass
class GameRow:
    id: str
    game: str
    options: dict
    seed: int
    seats: list[dict]
    answers: list[tuple[int, str]]
    #: the game's head (``cluster``: its writes counted) read before its answers; None
    #: for a store of one process
    seq: tuple[int, int] | None = None


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
        create_tables(self.engine, metadata)
        self._widen_seed()
        self._hash_tokens()
        self._queue: queue.SimpleQueue = queue.SimpleQueue()
        self._writer: threading.Thread | None = None
        self._writer_lock = threading.Lock()
        #: called by the writer thread once after each batch, all of whose futures are
        #: done by then: the server wakes its event loop once for the whole batch
        #: (a callback per future would make the writer win the interpreter back from the
        #: event loop once per future, each a switch interval while the bots play)
        self.after_batch: Callable[[], None] | None = None
        #: SQLite: the checkpointing thread (started at the first checkpoint due), woken
        #: by the writer every ``CHECKPOINT_COMMITS`` commits; the checkpoints it made
        self._checkpointer: threading.Thread | None = None
        self._checkpoint_due = threading.Event()
        self._closing = False
        self.checkpoints = 0
        #: the writer thread's connections (a transaction's; a cluster's in autocommit)
        self._conn: Any = None
        self._fast: Any = None
        #: the transactions the writer committed, and the writes (answers' batches, undos,
        #: rounds, tables' writes) in them: what a commit carries (``/api/health``)
        self.transactions = 0
        self.writes = 0
        #: several processes on this database (``cluster.Cluster``): each write of a game
        #: checked against its head in the transaction that makes it; None: one process
        self.cluster: Any = None

    @staticmethod
    def _make_engine(url: str) -> Engine:
        dialect = url.split(":", 1)[0].split("+", 1)[0]
        if dialect in DRIVERS:
            package, extra = DRIVERS[dialect]
            try:
                __import__(package)
            except ImportError:
                raise StoreError(f"a {dialect} database needs the {package!r} package: "
                                 f"pip install 'realms[{extra}]'") from None
        if url.startswith("sqlite"):
            engine = create_engine(url, connect_args={"check_same_thread": False, "timeout": 30})

            @event.listens_for(engine, "connect")
            def _pragmas(dbapi_conn, _record) -> None:  # pragma: no cover - trivial
                cur = dbapi_conn.cursor()
                # WAL: readers never block the writer.  NORMAL: a commit is written to the
                # WAL before it returns, so it survives a crash or SIGKILL of the process (the
                # system has it), not a power cut or a crash of the system, which may take the
                # last commits back (never corrupting the file); FULL would sync the disk at
                # every commit, 2-10 ms that every answer waited for (PostgreSQL, which syncs
                # each commit, is the choice for a server whose answers must survive power cuts)
                cur.execute("PRAGMA journal_mode=WAL")
                cur.execute("PRAGMA synchronous=NORMAL")
                cur.execute(f"PRAGMA wal_autocheckpoint={AUTOCHECKPOINT_PAGES}")
                cur.execute("PRAGMA busy_timeout=30000")
                cur.close()

            return engine
        return create_engine(url, pool_size=10, max_overflow=20, pool_pre_ping=True)

    def _widen_seed(self) -> None:
        """A database made when seeds were 31-bit has a 32-bit ``seed`` column in
        PostgreSQL: widen it to 64 bits (SQLite's integers are 64-bit already)."""
        if self.engine.dialect.name != "postgresql":
            return
        column = next(c for c in inspect(self.engine).get_columns("games") if c["name"] == "seed")
        if not isinstance(column["type"], BigInteger):
            with self.engine.begin() as conn:
                conn.exec_driver_sql("ALTER TABLE games ALTER COLUMN seed TYPE BIGINT")

    def _hash_tokens(self) -> None:
        """Replace the plain tokens of games stored before tokens were hashed by their
        hashes (:func:`hashed_seats`), in one transaction: once, the first time a store
        opens such a database."""
        with self.engine.begin() as conn:
            rows = conn.execute(select(games_table.c.id, games_table.c.seats)
                                .where(games_table.c.seats.like('%"token":%'))).all()
            for gid, seats in rows:
                new, changed = hashed_seats(json.loads(seats))
                if changed:
                    conn.execute(games_table.update().where(games_table.c.id == gid).values(seats=json.dumps(new)))

    def close(self) -> None:
        if self._writer is not None:
            self._queue.put(None)
            self._writer.join(10)
            self._writer = None
        self._conn = _closed(self._conn)  # batches written without the thread (tests)
        self._fast = _closed(self._fast)
        if self._checkpointer is not None:
            self._closing = True
            self._checkpoint_due.set()
            self._checkpointer.join(10)
            self._checkpointer = None
        self.engine.dispose()

    # -- checkpoints (SQLite) -------------------------------------------------------------
    def _committed(self, writes: int) -> None:
        """The writer committed a transaction of ``writes`` writes: counted, and every
        ``CHECKPOINT_COMMITS`` transactions the checkpointing thread woken (SQLite only;
        PostgreSQL keeps its own log)."""
        self.transactions += 1
        self.writes += writes
        if self.engine.dialect.name != "sqlite" or self.transactions % CHECKPOINT_COMMITS:
            return
        if self._checkpointer is None:
            self._checkpointer = threading.Thread(target=self._checkpoint_loop, name="realms-store-checkpoint",
                                                  daemon=True)
            self._checkpointer.start()
        self._checkpoint_due.set()

    def _checkpoint_loop(self) -> None:
        """Checkpoint the WAL whenever woken, on a connection of its own, without waiting
        for anybody (PASSIVE): the writer goes on appending to the WAL meanwhile, and only
        this thread waits for the disk's syncs.  A checkpoint that fails is tried again at
        the next wake (SQLite's own, past ``AUTOCHECKPOINT_PAGES``, stays a safety net)."""
        conn = None
        try:
            while True:
                self._checkpoint_due.wait()
                self._checkpoint_due.clear()
                if self._closing:
                    return
                try:
                    conn = conn or self.engine.raw_connection()
                    cur = conn.cursor()
                    cur.execute("PRAGMA wal_checkpoint(PASSIVE)")
                    cur.fetchall()
                    cur.close()
                    self.checkpoints += 1
                except Exception:
                    conn = _closed(conn)
        finally:
            _closed(conn)

    # -- group commit -------------------------------------------------------------------
    def submit(self, game_id: str, start: int, answers: list[tuple[int, str]],
               also: Callable | None = None) -> Future:
        """Queue answers for the writer thread; the future is done once they are committed.
        ``also(conn)``, if given, is written in their transaction, after them (what stands
        or falls with them: :meth:`deadline_end`).

        The writer commits everything queued meanwhile (answers of many games) in one
        transaction, so that many answers share one sync to disk: the 200s wait for the
        commit, the throughput does not wait for one sync per answer.
        """
        if not answers:
            fut: Future = Future()
            fut.set_result(None)
            return fut
        if self.cluster is not None:
            return self.cluster.guarded(self._enqueue, ("append", game_id, start, list(answers), also),
                                        start + len(answers))
        return self._enqueue(("append", game_id, start, list(answers), also))

    @staticmethod
    def deadline_end(game_id: str, round_: str, n: int, given: int, at: float, by: str) -> Callable:
        """The write of one round ended by its deadline (``deadline_ends``), for
        :meth:`submit`'s ``also``: kept if and only if the answers it gave are."""
        def write(conn) -> None:
            conn.execute(insert(deadline_ends_table).values(game_id=game_id, round=round_, n=n, answers=given,
                                                            at=at, by=by))

        return write

    def submit_round(self, game_id: str, round_: str | None, started: float | None, passed: bool,
                     over: bool) -> Future:
        """Queue a game's deadline round (its JSON, when it began, whether the round before
        ended at its deadline, whether the game is over), replacing the one kept."""
        return self._enqueue(("round", game_id, round_, started, int(passed), int(over)))

    def submit_call(self, write: Callable) -> Future:
        """Queue ``write(conn)``, a write of another module's tables (``tabledb``: a game's
        clocks, talk, notices), committed in order with the answers around it."""
        return self._enqueue(("call", write))

    def submit_undo(self, game_id: str, n: int, player: int) -> Future:
        """Queue the deletion of answer number ``n`` of a game, which must be its last
        stored answer and ``player``'s (else the future fails with :class:`UndoConflict`);
        done once committed."""
        if self.cluster is not None:
            return self.cluster.guarded(self._enqueue, ("undo", game_id, n, player), n)
        return self._enqueue(("undo", game_id, n, player))

    def _enqueue(self, op: tuple) -> Future:
        fut: Future = Future()
        with self._writer_lock:
            if self._writer is None:
                self._writer = threading.Thread(target=self._write_loop, name="realms-store-writer", daemon=True)
                self._writer.start()
        self._queue.put((op, fut))
        return fut

    def _write_loop(self) -> None:
        """Commit what is queued, batch after batch (:meth:`_write`)."""
        try:
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
                self._write(batch)
                if self.after_batch is not None:
                    try:
                        self.after_batch()
                    except Exception:  # the server's loop is gone: nobody waits any more
                        pass
        finally:
            self._conn = _closed(self._conn)
            self._fast = _closed(self._fast)

    def _write(self, batch: list[tuple[tuple, Future]]) -> None:
        """Commit one batch of ``(op, future)``, each future done then, on connections kept
        open by the writer thread (checking a connection out of the pool for every batch
        costs the writer as much as the insert; a failed batch closes it, and the next
        batch opens a new one): in a cluster, a batch of appends alone in one statement
        (:meth:`_appended`); else in one transaction, and if that fails one write at a time."""
        if self.cluster is not None and self._appended(batch):
            return
        try:
            self._conn = self._conn or self.engine.connect()
            with self._conn.begin():
                self._apply(self._conn, [op for op, _ in batch])
        except Exception:
            self._conn = _closed(self._conn)
            # one bad entry must not sink the others: commit them one by one
            for op, fut in batch:
                try:
                    self._conn = self._conn or self.engine.connect()
                    with self._conn.begin():
                        self._apply(self._conn, [op])
                except Exception as exc:
                    self._conn = _closed(self._conn)
                    fut.set_exception(exc)
                else:
                    self._committed(1)
                    fut.set_result(None)
        else:
            self._committed(len(batch))
            for _, fut in batch:
                fut.set_result(None)

    def _appended(self, batch: list[tuple[tuple, Future]]) -> bool:
        """A batch of a cluster's appends alone (each checked against its game's head, of
        games all different, with nothing written beside them) written in one statement
        (``cluster.Cluster.appended``: one round trip, not a transaction's four), the
        writes of the games whose head had moved failed with ``cluster.Conflict``.  False
        if the batch is of another kind, or the statement failed: the batch then goes the
        usual way, which says which write fails (one whose commit was made but not
        acknowledged, its connection lost, then finds its head moved: a conflict, and its
        game is rebuilt from what was stored, never written twice)."""
        guards: list[Any] = []
        rows: list[tuple] = []
        for op, _ in batch:
            if op[0] != "guard" or op[1][0] != "append" or op[1][4] is not None:
                return False
            _, g, start, answers, _ = op[1]
            guards.append(op[2])
            rows.extend((g, start + i, p, k) for i, (p, k) in enumerate(answers))
        if len({w.game_id for w in guards}) != len(guards):
            return False
        try:
            self._fast = self._fast or self.cluster.writer()
            moved = self.cluster.appended(self._fast, guards, rows)
        except Exception:
            self._fast = _closed(self._fast)
            return False
        from .cluster import Conflict

        self._committed(len(moved))
        for (_, fut), guard in zip(batch, guards):
            if guard.game_id in moved:
                fut.set_result(None)
            else:
                fut.set_exception(Conflict(f"game {guard.game_id}: another process wrote it first"))
        return True

    def _apply(self, conn, ops: list[tuple]) -> None:
        """Write ``ops`` in order on ``conn`` (one transaction); consecutive appends (of
        different games: a game has one write in flight at a time) go in together, their
        heads' checks (``cluster``) made together before them."""
        rows: list[tuple] = []
        guards: list = []

        def flush() -> None:
            if guards:
                self.cluster.check(conn, guards)
                guards.clear()
            if rows:
                _insert_answers(conn, rows)
                rows.clear()

        for op in ops:
            guard = None
            if op[0] == "guard":  # the head's check before the write it carries (``cluster``)
                op, guard = op[1], op[2]
            if op[0] == "append":
                _, g, start, answers, also = op
                if guard is not None:
                    guards.append(guard)
                rows.extend((g, start + i, p, k) for i, (p, k) in enumerate(answers))
                if also is not None:
                    flush()
                    also(conn)
                continue
            flush()
            if guard is not None:
                self.cluster.check(conn, [guard])
            if op[0] == "round":
                _, g, round_, started, passed, over = op
                self._put_round(conn, g, round_, started, passed, over)
                continue
            if op[0] == "call":
                op[1](conn)
                continue
            _, g, n, player = op
            self._delete_last(conn, g, n, player)
        flush()

    @staticmethod
    def _put_round(conn, game_id: str, round_: str | None, started: float | None, passed: int, over: int) -> None:
        """A game's round row replaced in one statement (two processes of a cluster that
        write it at once, an owner and the one it hands over to, never collide)."""
        values = dict(game_id=game_id, round=round_, started=started, passed=passed, over=over)
        upsert = UPSERTS.get(conn.dialect.name)
        if upsert is not None:
            stmt = upsert(rounds_table).values(**values)
            conn.execute(stmt.on_conflict_do_update(index_elements=[rounds_table.c.game_id],
                                                    set_={k: v for k, v in values.items() if k != "game_id"}))
            return
        conn.execute(delete(rounds_table).where(rounds_table.c.game_id == game_id))
        conn.execute(insert(rounds_table).values(**values))

    @staticmethod
    def _delete_last(conn, game_id: str, n: int, player: int) -> None:
        last = conn.execute(select(func.max(answers_table.c.n)).where(answers_table.c.game_id == game_id)).scalar()
        if last != n:
            raise UndoConflict(f"game {game_id}: answer #{n} is not the last one stored (#{last} is)")
        gone = conn.execute(delete(answers_table).where(
            answers_table.c.game_id == game_id, answers_table.c.n == n, answers_table.c.player == player))
        if gone.rowcount != 1:
            raise UndoConflict(f"game {game_id}: answer #{n} is not player {player}'s")

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
            if self.cluster is not None:
                self.cluster.created(conn, game_id, len(answers))

    def append(self, game_id: str, start: int, answers: list[tuple[int, str]]) -> None:
        """Answers number ``start``, ``start + 1``… of a game, committed before returning."""
        if not answers:
            return
        with self.engine.begin() as conn:
            conn.execute(insert(answers_table), [
                {"game_id": game_id, "n": start + i, "player": p, "key": k}
                for i, (p, k) in enumerate(answers)
            ])

    def undo(self, game_id: str, n: int, player: int) -> None:
        """Delete answer number ``n`` (the game's last, ``player``'s), committed before
        returning; :class:`UndoConflict` if it is not."""
        with self.engine.begin() as conn:
            self._delete_last(conn, game_id, n, player)

    # -- reads ----------------------------------------------------------------------
    def load(self, game_id: str, conn=None) -> GameRow | None:
        """A game's row and its answers (on ``conn``, else a connection of its own)."""
        if conn is None:
            with self.engine.connect() as conn:
                return self.load(game_id, conn)
        row = conn.execute(select(games_table).where(games_table.c.id == game_id)).first()
        if row is None:
            return None
        seq = None if self.cluster is None else self.cluster.head(conn, game_id)
        rows = conn.execute(
            select(answers_table.c.n, answers_table.c.player, answers_table.c.key)
            .where(answers_table.c.game_id == game_id)
            .order_by(answers_table.c.n)
        ).all()
        return game_row(row, [(p, k) for _, p, k in rows], seq, [n for n, _, _ in rows])

    def rounds(self) -> dict[str, tuple]:
        """The deadline rounds kept of the games not over: game id -> (round JSON or
        None, when it began, whether the round before ended at its deadline)."""
        with self.engine.connect() as conn:
            rows = conn.execute(select(rounds_table).where(rounds_table.c.over == 0)).all()
        return {r.game_id: (r.round, r.started, bool(r.passed)) for r in rows}

    def unfinished(self, kinds: list[str]) -> list[tuple[str, str, dict]]:
        """(id, game, options) of the games of the ``kinds`` (game ids) not known to be
        over: the games a deadline watcher may have to watch, in one query (a game whose
        round row says it is over is left out by the join)."""
        if not kinds:
            return []
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(games_table.c.id, games_table.c.game, games_table.c.options)
                .select_from(games_table.outerjoin(rounds_table, rounds_table.c.game_id == games_table.c.id))
                .where(games_table.c.game.in_(kinds), func.coalesce(rounds_table.c.over, 0) == 0)
            ).all()
        return [(r.id, r.game, json.loads(r.options)) for r in rows]

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


def game_row(row, answers: list[tuple], seq: tuple[int, int] | None, numbers: list[int]) -> GameRow:
    """A game's row from its ``games`` row and its answers in order (numbered ``numbers``)."""
    for i, n in enumerate(numbers):
        if n != i:  # never happens: the key (game, n) and append's numbering forbid gaps
            raise RuntimeError(f"game {row.id}: answer #{i} missing in the database")
    return GameRow(row.id, row.game, json.loads(row.options), row.seed,
                   hashed_seats(json.loads(row.seats))[0], answers, seq)


def game_rows(conn, heads: dict[str, tuple[int, int]]) -> dict[str, GameRow]:
    """The rows of the games of ``heads`` (game id -> its head, read in the same
    snapshot on ``conn``), in two queries: what :meth:`Store.load` gives each."""
    ids = list(heads)
    rows = {r.id: r for r in conn.execute(select(games_table).where(games_table.c.id.in_(ids)))}
    answers: dict[str, list] = {gid: [] for gid in rows}
    for gid, n, p, k in conn.execute(
            select(answers_table.c.game_id, answers_table.c.n, answers_table.c.player, answers_table.c.key)
            .where(answers_table.c.game_id.in_(ids)).order_by(answers_table.c.game_id, answers_table.c.n)):
        answers[gid].append((n, p, k))
    return {gid: game_row(row, [(p, k) for _, p, k in answers[gid]], heads[gid], [n for n, _, _ in answers[gid]])
            for gid, row in rows.items()}
