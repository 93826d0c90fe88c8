"""Several server processes on one PostgreSQL database: any of them answers any request.

``realms serve --database postgresql://…`` makes its server one process of a cluster
(:class:`Cluster`); SQLite keeps the one process it always had, none of this running.

Each process keeps the games it was asked for in memory, as one process does; what makes
them agree lives in the database, in three tables of this module's own:

- ``realms_heads``: a game's head ``(seq, undone)`` — its writes counted, its undos
  counted — and its version.  Every write of a game (answers, an undo) carries the head
  the writing process last knew, checked and moved on by one ``UPDATE … WHERE seq = :known``
  in the very transaction that stores the answers (:meth:`Cluster.guarded`): the second
  writer of a version waits for the first's row lock, then finds the head moved and fails
  with :class:`Conflict` (the server answers 409), so a game never forks.  The same
  transaction notifies the game's own channel (``realms:<game>``, :func:`channel`) with
  ``"game version seq undone process"`` and, when the whole fits in ``NOTE_BYTES``, the
  answers written (never a state: ``NOTIFY`` carries less than 8,000 bytes and takes a
  lock at commit).  A batch of writes moves its heads and notifies in one statement
  (:meth:`Cluster.check`); a batch of answers alone is written whole in one statement in
  autocommit, the answers inserted only where their head moved (:meth:`Cluster.appended`).
- ``realms_leases``: one owner per game at a time, with an expiry (``LEASE_SECONDS``).
  Only the owner plays the game's bots, ends its deadlines and clocks and sends its notices
  (:meth:`Cluster.owns`).  Each process renews its leases every ``LEASE_EVERY`` seconds and
  claims the expired ones with ``FOR UPDATE SKIP LOCKED`` (two claimants never wait for
  each other, and never both win), each its share (:meth:`Cluster._tick`).  A process
  holds an advisory lock (``ALIVE_LOCK``) on a connection of its own while it lives: a
  killed process's lock is freed as the database ends its sessions, and its games are
  claimed at the next renewal rather than when their leases expire (within
  ``LEASE_SECONDS + LEASE_EVERY``, as those of a process that hangs).  A lease lost by a
  process that only paused cannot make anything happen twice: its late write meets a
  moved head.
- ``realms_processes``: each process's id, address, last renewal and whether it is ready
  to claim, for ``realms serve --check`` (:func:`report`), ``/api/health`` and the claims'
  shares.

Every process listens on a connection of its own (:meth:`Cluster.listen`) to the
channels of the games it holds in memory (those its pages watch or were asked for) and of
those it owns, and to no other: a write wakes only the processes that hold its game.  A
game in its memory whose head moved in another process is caught up (the new answers
applied: those the notifications carried when they follow on from its copy, else read
from the database; or the game rebuilt after an undo) and pushed to its pages.  A game
that enters memory is listened to from then on, and once the ``LISTEN`` is in force its
head is compared with the copy (a write committed before it was not heard); a game that
leaves memory, and is not owned, is unlistened.  A lost listening connection is opened
again, every channel listened to again and every game in memory compared with its head,
so nothing notified meanwhile is missed; so is a game loaded while a write of it was
notified (the load may have read it before that write).

Table talk goes the same way: a message's insert notifies its game's channel with
``"game talk n process"`` (:meth:`Cluster.talked`: its number, never its text), and a
process that hears another's and holds the game reads the messages past those its table
sockets were told, keeps them and pushes each to the sockets that may read it
(:meth:`Cluster._talk_up`, ``host.Tables.heard``); a game newly listened to, and every
game after a lost listening connection, has its last message stored compared with those
told.  So does a table's
row: each write notifies ``"game table - process"`` (:meth:`Cluster.tabled`), and a
process holding the game reads it and pushes the view to its table sockets
(:meth:`Cluster._table_up`, ``host.Tables.stored_elsewhere``: the owner takes only the
game's end from it).  Only the owner writes that row: a change of the table asked through
another process (the host's pause, a seat's notice addresses, a seat taken back…) is
handed to it, a ``table_actions`` row whose insert notifies ``"game act id process"``
(:meth:`Cluster.asked`); the owner applies it to its own copy and notifies its outcome,
``"game acted id process"`` (:meth:`Cluster.acted`), to the asker (``host.Tables.hand``).
"""

from __future__ import annotations

import asyncio
import logging
import os
import secrets
import socket
import time
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable, Sequence

import orjson
from fastapi import HTTPException
from sqlalchemy import (Boolean, Column, Float, Integer, MetaData, String, Table, create_engine, inspect,
                        select, text, true)

from . import tabledb
from .store import create_tables
from .turns import Turns

if TYPE_CHECKING:
    from .app import Live, Server

log = logging.getLogger("realms.server")

#: seconds a lease lasts past its last renewal, and between two renewals (and claims of
#: expired leases): a dead process's games are claimed 1.5-2.5 s after its death, and a
#: process may stall 1.25 s before it stops acting as an owner (``valid_until``)
LEASE_SECONDS = 2.0
LEASE_EVERY = 0.5
#: leases one process claims at once (the others are left to the next tick or to others)
CLAIM_AT_ONCE = 200
#: the games a take-over catches up at once (loaded, replayed, their tables read): the
#: others wait their turn, so that the first taken over move again first instead of every
#: game finishing together at the end (each load's replay queued behind all the others').
#: As many as the default thread pool's threads on two cores: the loads still overlap
#: their reads from the database
TAKE_AT_ONCE = 6
#: seconds a lease claimable stays to the ready processes alive before one whose bots'
#: worker is still starting may claim it.  Its games wait for that
#: worker (10-25 s at load 20 on two cores), so a ready process that is only slow to
#: renew (its event loop busy with a take-over) is given time first
STARTING_GRACE = 5.0
#: seconds a process starting waits at most for its bots' worker before it takes requests
#: (:meth:`Cluster.serving`); past it, it serves with the worker still starting
SERVE_WAIT = 60.0
#: seconds since its last renewal a live process still counts in the claims' shares
#: (:meth:`Cluster._live`): a survivor busy with a take-over on a loaded machine renews
#: seconds late (3.9 s in one soak), and left out at ``LEASE_SECONDS`` it had no share,
#: the process finding the death took all the dead one's games and held them all at the
#: next death.  A share its process does not claim is taken by the others one renewal later
LIVE_SECONDS = 10.0
#: seconds between two comparisons of the heads stored with the copies in memory
#: (:meth:`Cluster.look`): a notification missed for any cause leaves a copy behind, and
#: a game owned whose person answered through another process would wait for bots that
#: its owner's copy does not know are to move, until its next take-over
LOOK_EVERY = 2.0
#: the advisory lock (this key and the hash of a process's id) each process holds on a
#: connection of its own while it lives: free, its process is dead
ALIVE_LOCK = 0x6C697665  # "live"
#: a process not seen for this many seconds is forgotten by ``--check``
PROCESS_GONE = 60.0
#: the prefix of the channels the heads' moves are notified on, one a game (:func:`channel`)
CHANNEL = "realms"
#: seconds between two attempts to open the listening connection again
LISTEN_AGAIN = 0.5
#: the longest notification that carries the answers written (PostgreSQL takes less than
#: 8,000 bytes; a longer one says only where the head moved, and is read)
NOTE_BYTES = 7900
#: the second word of a table talk message's notification, where a head's move has its
#: version (a number)
TALK = "talk"
#: the second word of a table row's write's notification
TABLE = "table"
#: the second words of a table change handed to the owner's notification, and of its
#: outcome's (``host.Tables.hand``)
ACT, ACTED = "act", "acted"

metadata = MetaData()

heads_table = Table(
    "realms_heads", metadata,
    Column("game_id", String(40), primary_key=True),
    Column("seq", Integer, nullable=False),  # the game's writes (answers committed, undos) so far
    Column("undone", Integer, nullable=False),  # the undos among them
    Column("version", Integer, nullable=False),  # the answers stored
)

leases_table = Table(
    "realms_leases", metadata,
    Column("game_id", String(40), primary_key=True),
    Column("owner", String(120), nullable=False),
    Column("expires", Float, nullable=False),  # the database's clock, seconds since the epoch
)

processes_table = Table(
    "realms_processes", metadata,
    Column("id", String(120), primary_key=True),
    Column("address", String(200), nullable=False),
    Column("started", Float, nullable=False),
    Column("seen", Float, nullable=False),
    Column("ready", Boolean, nullable=False, server_default=true()),  # its bots' worker started: it claims
)

NOW = "extract(epoch from clock_timestamp())::float8"

#: a batch of appends in one statement (:meth:`Cluster.appended`): the heads moved on and
#: notified, then the answers of the games whose head moved inserted.  Its two parameters
#: are JSON arrays of rows, not an array a column: twelve arrays cost psycopg 60 µs of the
#: writer's CPU to send and the database 40 µs to read, more than the rest of the statement
APPEND = (
    "WITH moved AS (UPDATE realms_heads h SET seq = w.s, undone = w.u, version = w.v "
    "FROM json_to_recordset(%(w)s::json) AS w(g text, s int, u int, v int, ks int, ku int, c text, n text) "
    "WHERE h.game_id = w.g AND h.seq = w.ks AND h.undone = w.ku RETURNING h.game_id, pg_notify(w.c, w.n) AS sent), "
    "stored AS (INSERT INTO answers (game_id, n, player, key) SELECT a.g, a.n, a.p, a.k "
    "FROM json_to_recordset(%(a)s::json) AS a(g text, n int, p int, k text) "
    "JOIN moved m ON m.game_id = a.g) "
    "SELECT game_id, sent FROM moved")


class Conflict(RuntimeError):
    """A write of a game whose head moved since the writing process last knew it."""


@dataclass(frozen=True)
class Guard:
    """The check a write of a game carries (:meth:`Cluster.check`): the head its process
    knew, the head it moves to, the answers stored then, and the notification of the move."""
    game_id: str
    known: tuple[int, int]
    seq: int
    undone: int
    version: int
    note: str


def process_id() -> str:
    return f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(3)}"


def channel(game_id: str) -> str:
    """The channel a game's heads' moves are notified on: a game's own, so that only the
    processes holding the game hear them (a game id has at most 40 characters: the channel
    is within PostgreSQL's 63)."""
    return f"{CHANNEL}:{game_id}"


class Cluster:
    """This process's part in a cluster of servers on one PostgreSQL database."""

    def __init__(self, server: "Server", address: str = "") -> None:
        self.server = server
        self.store = server.store
        self.id = process_id()
        self.address = address
        create_tables(self.store.engine, metadata)
        _add_ready(self.store.engine)
        #: the games whose lease this process holds, and until when (monotonic) it may act
        self.owned: set[str] = set()
        self.valid_until = 0.0
        #: the games a catch-up is running for, those to catch up once more after it, and
        #: those whose next catch-up is a take-over's (rebuilt whole)
        self._catching: dict[str, asyncio.Task] = {}
        self._again: set[str] = set()
        self._full: set[str] = set()
        #: per game of a take-over not yet caught up, what its take-over's one read of all
        #: the games it claimed holds of it (:meth:`_read_taken`)
        self._taken_read: dict[str, tuple] = {}
        #: the take-overs' reads (one for all the games claimed at once)
        self.taken_reads = 0
        #: the take-overs' catch-ups' turns: ``TAKE_AT_ONCE`` at a time, those a request
        #: wants first, then the others in the order :meth:`take_over` gave them
        self._taking = Turns(TAKE_AT_ONCE)
        #: per game of a take-over not yet caught up, its take-over's [start, games left]
        #: (the log says when the last is caught up)
        self._taken: dict[str, list] = {}
        #: per game whose take-over's catch-up waits for its turn or runs: the event set
        #: once it is done, and the task running it (:meth:`wanted`)
        self._turns: dict[str, tuple[asyncio.Event, asyncio.Task | None]] = {}
        self.tasks: list[asyncio.Task] = []
        #: the renewals' own thread: never queued behind the loads and catch-ups of the
        #: games just taken over (the default pool's threads), which would let this
        #: process's own leases run out meanwhile
        self._renewer = ThreadPoolExecutor(1, thread_name_prefix="realms-leases")
        #: the take-overs' own thread, for their reads and their games' replays
        #: (``Server._load``): not queued behind the loads of the pages asking again after
        #: a death (dozens in the default pool's queue), which held the games just claimed
        #: up for seconds
        self.taker = ThreadPoolExecutor(1, thread_name_prefix="realms-take")
        #: when the heads were last compared with the copies (:meth:`look`), and the games
        #: found behind so far
        self._looked = 0.0
        self.behind = 0
        #: the take-overs running (:meth:`take_over`, a task of its own: the renewals go on
        #: beside it), and the games they claimed not yet handed to their catch-ups
        self._takes: set[asyncio.Task] = set()
        self._claimed: set[str] = set()
        #: the connection holding this process's ``ALIVE_LOCK`` (the renewals' thread's)
        self._alive: Any = None
        self._stopped = False
        self._ready = False
        #: the listening connection's backend pid (tests end it to check the reconnect)
        self.listener_pid: int | None = None
        self.listening = asyncio.Event()
        #: catch-ups after a reconnect (what ``/api/health`` and tests read)
        self.reconnects = 0
        #: per game in memory, the notifications of other processes' writes not yet caught
        #: up: {seq: (undone, (start, answers) or None)}
        self._notes: dict[str, dict[int, tuple]] = {}
        #: the games a move of whose head was heard while they were being loaded or were
        #: waiting for their take-over, or whose head was read as their channel was first
        #: listened to while not in memory, and the highest write counted then (the load
        #: may have read the database before it: caught up once in memory if its copy is
        #: behind it)
        self._missed: dict[str, int] = {}
        #: catch-ups made from the answers notifications carried, and read from the
        #: database (but a take-over's rebuild); notifications heard
        self.carried = self.reads = self.heard = 0
        #: per (``TALK`` or ``TABLE``, game), the read of its talk or table row running for
        #: its table sockets, and those to read once more after it (:meth:`_follow`); the
        #: talk and table notifications heard, and the reads
        self._following: dict[tuple[str, str], asyncio.Task] = {}
        #: the table changes handed to this process being applied (``host.Tables.apply``)
        self._acting: set[asyncio.Task] = set()
        self._follow_again: set[tuple[str, str]] = set()
        self.talk_heard = self.talk_reads = self.table_heard = self.table_reads = 0
        #: the games whose channel the listening connection listens to, and the event that
        #: wakes it when those it should listen to (:meth:`_wanted`) may have changed
        self.listened: set[str] = set()
        self._changed = asyncio.Event()
        self._loop: asyncio.AbstractEventLoop | None = None

    # -- the heads ---------------------------------------------------------------------------
    def created(self, conn, game_id: str, answers: int) -> None:
        """A new game's head and its lease (this process's), in its creation's transaction."""
        conn.execute(heads_table.insert().values(game_id=game_id, seq=0, undone=0, version=answers))
        conn.execute(text(f"INSERT INTO realms_leases (game_id, owner, expires) VALUES (:g, :o, {NOW} + :t)"),
                     {"g": game_id, "o": self.id, "t": LEASE_SECONDS})
        self.owned.add(game_id)
        if self._loop is not None:  # listened to from now (this runs in the store's thread)
            self._loop.call_soon_threadsafe(self._changed.set)

    def head(self, conn, game_id: str) -> tuple[int, int]:
        """A game's head, read before its answers (a game stored before the cluster gets one)."""
        row = conn.execute(select(heads_table.c.seq, heads_table.c.undone)
                           .where(heads_table.c.game_id == game_id)).first()
        if row is None:
            conn.execute(text("INSERT INTO realms_heads (game_id, seq, undone, version) "
                              "SELECT :g, 0, 0, count(*) FROM answers WHERE game_id = :g ON CONFLICT DO NOTHING"),
                         {"g": game_id})
            conn.execute(text("INSERT INTO realms_leases (game_id, owner, expires) VALUES (:g, '', 0) "
                              "ON CONFLICT DO NOTHING"), {"g": game_id})
            conn.commit()
            row = conn.execute(select(heads_table.c.seq, heads_table.c.undone)
                               .where(heads_table.c.game_id == game_id)).first()
        return (row.seq, row.undone)

    def guarded(self, enqueue: Callable[[tuple], Future], op: tuple, version: int) -> Future:
        """Queue the store's write ``op`` of a game behind the check of its head: the head
        this process knows (its live game's, whose lock the writer holds) moved on in the
        same transaction, else :class:`Conflict`; the move notified (:meth:`check`)."""
        game_id, undo = op[1], op[0] == "undo"
        live = self.server.live.get(game_id)
        known = None if live is None else live.row.seq
        if live is None or known is None:
            fut: Future = Future()
            fut.set_exception(Conflict(f"game {game_id}: not in this process's memory"))
            return fut
        seq, undone = known[0] + 1, known[1] + (1 if undo else 0)
        note = self._note(game_id, version, seq, undone, None if undo else (op[2], op[3]))
        row = live.row

        def moved_on(f: Future) -> None:
            if f.exception() is None:
                row.seq = (seq, undone)

        fut = enqueue(("guard", op, Guard(game_id, known, seq, undone, version, note)))
        fut.add_done_callback(moved_on)
        return fut

    def _note(self, game_id: str, version: int, seq: int, undone: int, answers: tuple | None) -> str:
        """The notification of a head's move: ``"game version seq undone process"``, then
        the answers written (``start [[player, key], …]`` as JSON) when the whole fits in
        ``NOTE_BYTES``, so that the other processes need not read them (:meth:`_heard`)."""
        head = f"{game_id} {version} {seq} {undone} {self.id}"
        if answers is None:
            return head
        start, given = answers
        carried = f"{head} {start} {orjson.dumps(given).decode()}"
        return carried if len(carried.encode()) <= NOTE_BYTES else head

    @staticmethod
    def check(conn, guards: list["Guard"]) -> None:
        """Move the heads of ``guards`` (one write each, of different games) on, each only
        from the head its process knew, and notify each move on its game's channel, in one
        statement (a notification is sent at the commit only): :class:`Conflict` if any
        head had moved meanwhile (the store then writes the batch one write at a time, and
        only the stale one fails)."""
        moved = conn.execute(text(
            "UPDATE realms_heads h SET seq = w.s, undone = w.u, version = w.v "
            "FROM unnest(CAST(:g AS text[]), CAST(:s AS int[]), CAST(:u AS int[]), CAST(:v AS int[]), "
            "CAST(:ks AS int[]), CAST(:ku AS int[]), CAST(:c AS text[]), CAST(:n AS text[])) "
            "AS w(g, s, u, v, ks, ku, c, n) "
            "WHERE h.game_id = w.g AND h.seq = w.ks AND h.undone = w.ku RETURNING pg_notify(w.c, w.n)"),
            {"g": [w.game_id for w in guards], "s": [w.seq for w in guards], "u": [w.undone for w in guards],
             "v": [w.version for w in guards], "ks": [w.known[0] for w in guards],
             "ku": [w.known[1] for w in guards], "c": [channel(w.game_id) for w in guards],
             "n": [w.note for w in guards]}).all()
        if len(moved) != len(guards):
            raise Conflict(f"game {guards[0].game_id if len(guards) == 1 else '(one of several)'}: "
                           "another process wrote it first")

    def talked(self, conn, game_id: str, n: int) -> None:
        """Notify, in the transaction that stores it (on ``conn``), message ``n`` of the
        game's table talk: a pointer, never the text (:meth:`_heard_talk`)."""
        conn.execute(text("SELECT pg_notify(:c, :p)"), {"c": channel(game_id), "p": f"{game_id} {TALK} {n} {self.id}"})

    def tabled(self, conn, game_id: str) -> None:
        """Notify, in the transaction that stores it (on ``conn``), that the game's table
        row changed (:meth:`_heard`; the row itself is read)."""
        conn.execute(text("SELECT pg_notify(:c, :p)"), {"c": channel(game_id), "p": f"{game_id} {TABLE} - {self.id}"})

    def asked(self, conn, game_id: str, action_id: str) -> None:
        """Notify the game's owner, in the transaction that stores it, of a table change
        to apply (``tabledb.ask_action``: :meth:`_heard_act`)."""
        conn.execute(text("SELECT pg_notify(:c, :p)"),
                     {"c": channel(game_id), "p": f"{game_id} {ACT} {action_id} {self.id}"})

    def acted(self, conn, game_id: str, action_id: str) -> None:
        """Notify the asker, in the transaction that stores it, of a handed change's
        outcome (``tabledb.settle_action``)."""
        conn.execute(text("SELECT pg_notify(:c, :p)"),
                     {"c": channel(game_id), "p": f"{game_id} {ACTED} {action_id} {self.id}"})

    def writer(self) -> Any:
        """A connection in autocommit for the store's writer thread (:meth:`appended`)."""
        import psycopg

        return psycopg.connect(self._conninfo(), autocommit=True, application_name=f"realms-write {self.id}"[:63])

    @staticmethod
    def appended(conn, guards: list["Guard"], rows: list[tuple]) -> set[str]:
        """Write a batch of appends (``guards``, one a game, and their answers' ``rows``
        ``(game, n, player, key)``) in one statement on ``conn`` (in autocommit: one round
        trip, where :meth:`check`'s transaction takes four): each game's head moved on from
        the one its process knew and its move notified, and its answers inserted only if it
        moved.  The games that moved; the others' heads and answers are left as they were
        (another process wrote them first: :class:`Conflict` for those writes alone)."""
        moved = conn.execute(APPEND, {
            "w": orjson.dumps([{"g": w.game_id, "s": w.seq, "u": w.undone, "v": w.version, "ks": w.known[0],
                                "ku": w.known[1], "c": channel(w.game_id), "n": w.note} for w in guards]).decode(),
            "a": orjson.dumps([{"g": g, "n": n, "p": p, "k": k} for g, n, p, k in rows]).decode()}).fetchall()
        return {gid for gid, _ in moved}

    def current(self, live: "Live") -> None:
        """409 if ``live`` is no longer the game in memory (caught up meanwhile): the caller
        holds its lock and would write from a state that is gone."""
        if self.server.live.get(live.row.id) is not live:
            raise HTTPException(409, "the game moved on in another process; send the answer again")

    # -- answering through any process ----------------------------------------------------------
    async def answer(self, answer: Callable, live: "Live", *args) -> bytes:
        """``answer(live, *args)``; on a 409, once more on the game caught up from the
        database if it had moved on elsewhere (an answer to the version another process
        showed the page is then taken; a second answer to one version is still 409)."""
        known = live.row.seq
        try:
            return await answer(live, *args)
        except HTTPException as exc:
            if exc.status_code != 409:
                raise
            fresh = await self.catch_up(live.row.id, load=True)
            if fresh is None or (fresh is live and live.row.seq == known):
                raise
            return await answer(fresh, *args)

    # -- ownership ---------------------------------------------------------------------------------
    def owns(self, game_id: str) -> bool:
        """Whether this process may do the game's once-only work now (its lease held)."""
        return game_id in self.owned and time.monotonic() < self.valid_until

    def _tick(self, done: list[str], claim: bool = True, mine: Sequence[str] = ()) -> tuple[set[str], set[str]]:
        """One renewal: this process seen, its leases renewed, expired ones claimed, the
        leases of finished games (``done``) deleted.  (owned, newly claimed).

        A lease is claimable once it expired, or at once when its owner is dead
        (:meth:`_dead`: its ``ALIVE_LOCK`` free, as it is the moment a killed process's
        connection closes).  A ready process claims at once its share of them
        (:meth:`_live`), so that a dead process's games are spread over the live processes
        (their bots' processes replay them side by side), and the rest ``LEASE_EVERY`` later
        (a share whose process did not claim it), those in its memory (``mine``: caught up
        rather than loaded) first.  A process not ready (``claim`` false: its bots'
        worker still starting) has no share and claims only what no ready process took
        within ``STARTING_GRACE`` seconds (one that is only slow is given time: the games
        would wait for the starting worker), or, none being alive, what is claimable for
        ``LEASE_EVERY`` (a deadline needs no bots)."""
        self._keep_alive()
        with self.store.engine.begin() as conn:
            conn.execute(text(f"INSERT INTO realms_processes (id, address, started, seen, ready) "
                              f"VALUES (:i, :a, {NOW}, {NOW}, :r) "
                              f"ON CONFLICT (id) DO UPDATE SET seen = {NOW}, ready = :r"),
                         {"i": self.id, "a": self.address, "r": claim})
            if done:
                conn.execute(text("DELETE FROM realms_leases WHERE owner = :o AND game_id = ANY(:g)"),
                             {"o": self.id, "g": done})
            kept = conn.execute(text(f"UPDATE realms_leases SET expires = {NOW} + :t WHERE owner = :o "
                                     "RETURNING game_id"), {"t": LEASE_SECONDS, "o": self.id}).scalars().all()
            self._dead(conn)
            live = self._live(conn)
            part, parts = (live.index(self.id), len(live)) if claim else (-1, 1)
            grace = LEASE_EVERY if claim or not live else STARTING_GRACE
            claimed = conn.execute(text(
                f"WITH c AS (SELECT game_id FROM realms_leases WHERE expires < {NOW} "
                f"AND (expires < {NOW} - :grace OR mod(hashtext(game_id)::bigint + 2147483648, :parts) = :part) "
                "ORDER BY game_id = ANY(:mine) DESC, expires LIMIT :k FOR UPDATE SKIP LOCKED) "
                f"UPDATE realms_leases l SET owner = :o, expires = {NOW} + :t FROM c WHERE l.game_id = c.game_id "
                "RETURNING l.game_id"), {"k": CLAIM_AT_ONCE, "o": self.id, "t": LEASE_SECONDS,
                                         "grace": grace,
                                         "mine": list(mine) if claim else [], "part": part, "parts": parts}
            ).scalars().all()
            conn.execute(text(f"DELETE FROM realms_processes WHERE seen < {NOW} - :g"), {"g": PROCESS_GONE})
        return set(kept) | set(claimed), set(claimed)

    def _live(self, conn) -> list[str]:
        """The live ready processes (seen within ``LIVE_SECONDS``; the dead ones are gone
        from the table by then, :meth:`_dead`), in the order of their ids: a process's
        share of the claimable games is those whose id hashes to its place among them."""
        return conn.execute(text(f"SELECT id FROM realms_processes WHERE seen > {NOW} - :t AND ready ORDER BY id"),
                            {"t": LIVE_SECONDS}).scalars().all()

    def _dead(self, conn) -> list[str]:
        """The processes seen whose ``ALIVE_LOCK`` is free (killed: the database ended their
        sessions, and with them the lock), forgotten, their leases made claimable now
        rather than when they expire.  The lock is taken for this transaction only: two
        processes never both find one dead."""
        dead = conn.execute(text("SELECT id FROM realms_processes WHERE id <> :i "
                                 "AND pg_try_advisory_xact_lock(CAST(:k AS int), hashtext(id))"),
                            {"i": self.id, "k": ALIVE_LOCK}).scalars().all()
        if dead:
            conn.execute(text(f"UPDATE realms_leases SET expires = {NOW} WHERE owner = ANY(:d) AND expires > {NOW}"),
                         {"d": dead})
            conn.execute(text("DELETE FROM realms_processes WHERE id = ANY(:d)"), {"d": dead})
            log.info("cluster: %s found dead: its leases are claimable", ", ".join(dead))
        return dead

    def _keep_alive(self) -> None:
        """This process's ``ALIVE_LOCK``, held on a connection of its own for as long as
        the process lives (opened again if lost): the others' sign that it is alive."""
        import psycopg

        conn = self._alive
        if self._stopped:
            return
        if conn is not None:
            try:
                conn.execute("SELECT 1")
                return
            except psycopg.Error:
                conn.close()
                self._alive = None
        try:
            conn = psycopg.connect(self._conninfo(), autocommit=True,
                                   application_name=f"realms-alive {self.id}"[:63])
            conn.execute("SELECT pg_advisory_lock(%s::int, hashtext(%s))", (ALIVE_LOCK, self.id))
        except psycopg.Error as exc:
            log.warning("cluster: the alive lock could not be taken (%s): the others may take this "
                        "process's games", type(exc).__name__)
            return
        self._alive = conn

    async def lease_loop(self) -> None:
        """Renew and claim every ``LEASE_EVERY`` seconds; take over what was claimed, in a
        task of its own (:meth:`take_over`): a renewal waiting for a take-over's read came
        seconds late on a loaded machine, its process then stopped acting as the owner of
        every game (``valid_until``) and, not seen for ``LEASE_SECONDS``, counted as dead
        in the next claim's shares (another took all of a dead process's games).  A
        process whose bots' worker is still starting claims late (``STARTING_GRACE``):
        the games it took would wait for it, while a ready process can play them at once."""
        while True:
            started = time.monotonic()
            done = [g for g in self.owned if (live := self.server.live.get(g)) is not None and live.state.is_over()]
            held = set(self.owned)
            ready = self.server.bots.ready()
            if ready != self._ready:
                self._ready = ready
                log.info("cluster: %s %s", self.id, "ready: claims its share" if ready else "not ready: claims late")
            try:
                owned, claimed = await asyncio.get_running_loop().run_in_executor(
                    self._renewer, self._tick, done, ready, list(self.server.live))
            except Exception:
                log.exception("cluster: the leases could not be renewed")
            else:
                # a game whose lease was lost: its bots stop before their next batch
                # (``owns``), not in the middle of one, whose commit would go on while the
                # game in memory, cancelled before taking the batch, stayed behind it; a game
                # created during the renewal is owned already (``created``)
                self.owned = owned | (self.owned - held)
                self.valid_until = started + LEASE_SECONDS - LEASE_EVERY / 2
                if claimed:
                    self._claimed |= claimed
                    task = asyncio.get_running_loop().create_task(self.take_over(claimed))
                    self._takes.add(task)
                    task.add_done_callback(self._takes.discard)
                for gid in owned - self._claimed:  # those claimed are their take-over's
                    live = self.server.live.get(gid)
                    if live is None:
                        if gid not in self._catching:  # a take-over's catch-up loads it already
                            self._soon(gid)  # owned but not in memory (dropped after a failed write)
                    else:
                        self.server.continue_bots(live)  # owned again, or since before the first renewal
            if started >= self._looked + LOOK_EVERY:
                self._looked = started
                await self.look()
            await asyncio.sleep(max(0.0, LEASE_EVERY - (time.monotonic() - started)))

    async def look(self) -> list[str]:
        """Compare the heads stored with the copies in memory, in one read on the renewals'
        thread, and catch up each copy behind (:meth:`behind_of`): the notifications say
        when to catch up, this makes sure it happens.  The games found behind."""
        games = [g for g, live in self.server.live.items()
                 if live.row.seq is not None and g not in self._catching and g not in self._claimed]
        if not games:
            return []
        try:
            heads = await asyncio.get_running_loop().run_in_executor(self._renewer, self._heads_of, games)
        except Exception:
            log.exception("cluster: the heads could not be read")
            return []
        late = self.behind_of(heads)
        for gid in late:
            log.warning("cluster: game %s was behind its head: caught up", gid)
            self._soon(gid)
        self.behind += len(late)
        return late

    def _heads_of(self, games: list[str]) -> dict[str, tuple[int, int]]:
        with self.store.engine.connect() as conn:
            return _heads(conn, games)

    def behind_of(self, heads: dict[str, tuple[int, int]]) -> list[str]:
        """The games in memory whose copy is not at its head in ``heads`` (read before):
        written elsewhere since, and not caught up here.  A write of this process's own
        committed after the read, or committed and not yet in the copy, is no harm: its
        catch-up finds nothing to read."""
        out = []
        for gid, head in heads.items():
            live = self.server.live.get(gid)
            if live is not None and live.row.seq is not None \
                    and (head[1] != live.row.seq[1] or head[0] > live.row.seq[0]):
                out.append(gid)
        return out

    async def take_over(self, claimed: set[str]) -> None:
        """The games just claimed: their deadline rounds as stored, each caught up and set
        going (bots, deadlines and clocks are this process's from now), in the order of
        :meth:`_first`.  The reads run in the take-overs' own thread."""
        try:
            await self._take_over(claimed)
        except Exception:  # each game is then caught up by the renewals' look at what is owned
            log.exception("cluster: the games claimed could not be taken over")
        finally:
            self._claimed -= claimed

    async def _take_over(self, claimed: set[str]) -> None:
        loop = asyncio.get_running_loop()
        rounds = await loop.run_in_executor(self.taker, self.store.rounds)
        from .deadlines import Round

        for gid in claimed:
            if gid in rounds:
                key, started, passed = rounds[gid]
                self.server.deadlines.rounds[gid] = Round(key, started, passed)
        batch = [time.monotonic(), len(claimed)]
        order = self._first(claimed, rounds)
        known = {gid: (live.version, live.row.seq) for gid in order
                 if (live := self.server.live.get(gid)) is not None and live.row.seq is not None}
        try:
            self._taken_read.update(await loop.run_in_executor(self.taker, self._read_taken, order, known))
            self.taken_reads += 1
        except Exception:  # each game is then read on its own, as it is caught up
            log.exception("cluster: the games taken over could not be read at once")
        for gid in order:
            log.info("cluster: game %s taken over by %s", gid, self.id)
            self._taken[gid] = batch
            self._soon(gid, full=True)

    def _read_taken(self, order: list[str], known: dict[str, tuple]) -> dict[str, tuple]:
        """The games just claimed, read in one snapshot for all (a handful of queries, where
        each game read on its own takes a dozen round trips, which queue behind one another
        on a loaded machine): per game, its table's row and talk and, for one in memory
        (``known``: its version and head), ``("since", known, fresh, table)`` as
        :meth:`_read_since` gives ``fresh``; for another, ``("row", row, table)`` as the
        store loads it."""
        from .store import game_rows
        from .tabledb import tables_of

        with self.store.engine.connect().execution_options(isolation_level="REPEATABLE READ") as conn:
            with conn.begin():
                heads = _heads(conn, order)
                tables = tables_of(conn, order)
                rows = game_rows(conn, {g: heads[g] for g in order if g not in known and g in heads})
                since: dict[str, list] = {g: [] for g in known}
                for g, p, k in conn.execute(text(
                        "SELECT a.game_id, a.player, a.key FROM answers a JOIN unnest(CAST(:g AS text[]), "
                        "CAST(:v AS int[])) AS k(g, v) ON a.game_id = k.g AND a.n >= k.v ORDER BY a.game_id, a.n"),
                        {"g": list(known), "v": [v for v, _ in known.values()]}):
                    since[g].append((p, k))
        out: dict[str, tuple] = {g: ("row", row, tables[g]) for g, row in rows.items()}
        for g, (version, seq) in known.items():
            head = heads.get(g)
            fresh: tuple | None = None
            if head is not None and head != seq:  # answers only added since, else rebuilt
                fresh = (head, None if head[1] != seq[1] or head[0] < seq[0] else since[g])
            out[g] = ("since", (version, seq), fresh, tables[g])
        return out

    def _first(self, claimed: set[str], rounds: dict[str, tuple]) -> list[str]:
        """The games taken over in the order they are caught up: those with a deadline
        round, the longest begun first (the soonest due: ended at once once caught up,
        :meth:`_due_ended`); then those in memory whose bots are to move (a person waits
        for them); then the rest (most await a person: moving again once caught up)."""
        from .app import bots_to_move

        def rank(gid: str) -> tuple:
            kept = rounds.get(gid)
            if kept is not None and kept[0] is not None:
                return (0, kept[1] or 0.0, gid)
            live = self.server.live.get(gid)
            if live is not None and bots_to_move(live.state, live.agents):
                return (1, 0.0, gid)
            return (2, 0.0, gid)

        return sorted(claimed, key=rank)

    async def _taken_over(self, gid: str) -> None:
        """A take-over's catch-up of ``gid`` in its turn (one of ``TAKE_AT_ONCE``: in the
        order asked for, but before the others once a request wants the game,
        :meth:`wanted`); then its round ended if its deadline passed meanwhile."""
        done = asyncio.Event()
        self._turns[gid] = (done, asyncio.current_task())
        try:
            await self._taking.take(gid)
            try:
                await self.catch_up(gid, True)
            finally:
                self._taking.give()
                done.set()
            await self._due_ended(gid)
        finally:
            done.set()  # a request waiting for it is let go (cancelled: the request loads it)
            if self._turns.get(gid, (done,))[0] is done:
                del self._turns[gid]
            batch = self._taken.pop(gid, None)
            if batch is not None:
                batch[1] -= 1
                if not batch[1]:
                    log.info("cluster: the games taken over caught up in %.2f s", time.monotonic() - batch[0])

    async def wanted(self, gid: str) -> "Live | None":
        """A request's wait for ``gid`` while a take-over catches it up: its catch-up given
        the next turn free if it still waits for one (before the games not asked for, not
        beside every one running: a hundred pages asking again within a second would have
        a hundred catch-ups slow each other down), and waited for alone (not the other
        games' ahead of it, nor a second load of its own beside the take-over's, which
        would read the game again).  The game then in memory; None if no take-over is
        catching it up (or this is that catch-up)."""
        turn = self._turns.get(gid)
        if turn is None or turn[1] is asyncio.current_task():
            return None
        done, _ = turn
        self._taking.hurry(gid)
        await done.wait()
        return self.server.live.get(gid)

    async def _due_ended(self, gid: str) -> bool:
        """End the round of ``gid``, just taken over, if its deadline passed (its last owner
        died before ending it): now, not at the deadlines' next sweep.  Whether it did."""
        live, deadlines = self.server.live.get(gid), self.server.deadlines
        if live is None or not self.owns(gid):
            return False
        return deadlines.overdue(live) and await deadlines.expire(live)

    # -- catching up -----------------------------------------------------------------------------
    def _soon(self, gid: str, full: bool = False) -> None:
        """Catch ``gid`` up in the background (once more after the running catch-up, if any;
        ``full``, a take-over's, is kept for that next one)."""
        if full:
            self._full.add(gid)
        if gid in self._catching:
            self._again.add(gid)
            return

        async def run() -> None:
            try:
                again = True
                while again:
                    self._again.discard(gid)
                    full = gid in self._full
                    self._full.discard(gid)
                    await (self._taken_over(gid) if full else self.catch_up(gid))
                    again = gid in self._again
            except HTTPException:
                pass  # no such game any more
            except Exception:
                log.exception("cluster: game %s could not be caught up", gid)
            finally:
                self._catching.pop(gid, None)

        self._catching[gid] = asyncio.get_running_loop().create_task(run())

    async def catch_up(self, gid: str, full: bool = False, load: bool = False) -> "Live | None":
        """The game in memory made what the database holds (the answers written elsewhere
        applied, or the game rebuilt after an undo; with ``full``, a take-over's, its table
        read again, or the game loaded whole if a replay is needed), pushed to its pages,
        its bots set going if this process owns it; loaded if not in memory and owned (or
        ``load``).  A take-over's uses what its one read of all its games holds of this one
        (:meth:`_read_taken`) if the game in memory is still the one it was read for.
        The game now in memory, or None."""
        server = self.server
        read = self._taken_read.pop(gid, None) if full else None
        live = server.live.get(gid)
        if live is None:
            self._notes.pop(gid, None)
            pre = read[1:] if read is not None and read[0] == "row" else None
            return await server.get(gid, pre) if load or self.owns(gid) else None
        async with live.lock:
            if server.live.get(gid) is not live:
                return server.live.get(gid)
            fresh = None if full else self._noted(live)
            table = None
            if fresh is None and read is not None and read[0] == "since" and read[1] == (live.version, live.row.seq):
                fresh, table = read[2], read[3]
            elif fresh is None:
                self.reads += not full
                fresh = await asyncio.to_thread(self._read_since, gid, live.version, live.row.seq)
            elif not fresh[1]:
                return live
            else:
                self.carried += 1
            if fresh is None and not full:
                return live
            try:
                new = live if fresh is None else self._extended(live, *fresh) if fresh[1] is not None else None
            except Exception:  # never: the answers stored after one's own replay on it
                log.exception("cluster: game %s's new answers did not apply; rebuilt", gid)
                new = None
            if new is None:
                new = await self._rebuilt(live, full)
            elif full:
                await self._retabled(new, table)
        server.continue_bots(new)
        server.push(new)
        server.note_finished(new)
        return new

    def _read_since(self, gid: str, version: int, known: tuple[int, int] | None) -> tuple | None:
        """In one snapshot: the game's head, and its answers from ``version`` on if the head
        has only answers past ``known`` (else None: rebuild).  None if the head is ``known``."""
        with self.store.engine.connect().execution_options(isolation_level="REPEATABLE READ") as conn:
            with conn.begin():
                row = conn.execute(select(heads_table.c.seq, heads_table.c.undone)
                                   .where(heads_table.c.game_id == gid)).first()
                if row is None or (row.seq, row.undone) == known:
                    return None
                if known is None or row.undone != known[1] or row.seq < known[0]:
                    return (row.seq, row.undone), None
                from .store import answers_table
                answers = conn.execute(select(answers_table.c.player, answers_table.c.key)
                                       .where(answers_table.c.game_id == gid, answers_table.c.n >= version)
                                       .order_by(answers_table.c.n)).all()
        return (row.seq, row.undone), [(p, k) for p, k in answers]

    def _extended(self, live: "Live", head: tuple[int, int], answers: list) -> "Live":
        """``live`` with ``answers`` (written elsewhere after its own) applied."""
        before = live.state
        new = before.clone()
        try:
            for p, key in answers:
                new.apply(p, key)
        except Exception:
            new.release()
            raise
        live.settle_bots(before, new)
        live.row.seq = head  # the bots' mirror still holds: answers were only added
        return live

    async def _retabled(self, live: "Live", read: tuple | None = None) -> None:
        """A game taken over, its state caught up: its table read again (talk, settings,
        clocks and the seats bots hold, as the last owner left them), its pages kept.  The
        state itself is not rebuilt: every answer stored is applied already, and a replay
        of the whole record would hold up the take-over of every other game."""
        old = live.table
        await self.server.tables.attach(live, read)
        if old is not None:
            live.table.keep(old)
        live.ended = live.table.ended

    async def _rebuilt(self, old: "Live", full: bool) -> "Live":
        """``old`` rebuilt from the database (an undo made elsewhere, or a game taken over),
        keeping its pages; a version gone back counts as an undo for the pages' order."""
        from .app import rebuild

        server, gid = self.server, old.row.id
        row = await asyncio.to_thread(server.store.load, gid)
        if row is None:
            raise HTTPException(404, "no such game")
        new = await asyncio.to_thread(rebuild, row)
        new.undos = old.undos + (1 if new.version <= old.version and row.seq != old.row.seq else 0)
        server.undos[gid] = new.undos
        new.deadlines, new.owner, new.stand_ins, new.ended = old.deadlines, old.owner, old.stand_ins, old.ended
        new.sockets, new.named = old.sockets, old.named
        if full:
            await server.tables.attach(new)
            if old.table is not None:
                new.table.keep(old.table)
            new.ended = new.table.ended
        else:
            new.table = old.table
        server.live[gid] = new
        return new

    # -- the listening connection ------------------------------------------------------------------
    def _conninfo(self) -> str:
        url = self.store.engine.url
        return url.set(drivername="postgresql").render_as_string(hide_password=False)

    async def listen(self) -> None:
        """Listen to the channels of the games this process holds until cancelled (opened
        again whenever lost, each time every game in memory compared with its head)."""
        import psycopg

        while True:
            try:
                async with await psycopg.AsyncConnection.connect(
                        self._conninfo(), autocommit=True, application_name=f"realms-listen {self.id}"[:63]) as conn:
                    self.listener_pid = conn.info.backend_pid
                    if self.listening.is_set():
                        self.reconnects += 1
                    self._notes.clear()  # some may have been missed meanwhile: read
                    self.listened = set()
                    await self._subscribe(conn, everything=True)
                    self.listening.set()
                    while True:
                        await self._hear(conn)
                        await self._subscribe(conn)
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                log.warning("cluster: the listening connection was lost (%s); opening it again", type(exc).__name__)
            await asyncio.sleep(LISTEN_AGAIN)

    def _wanted(self) -> set[str]:
        """The games whose channel this process listens to: those in its memory, and those
        it owns (loaded on their next write if not in memory)."""
        return set(self.server.live) | self.owned

    async def _subscribe(self, conn, everything: bool = False) -> None:
        """``LISTEN`` to the channels of the games now wanted (:meth:`_wanted`) and not yet
        listened to, ``UNLISTEN`` those no longer wanted, in one round trip; then, the
        ``LISTEN`` in force, the heads of the games newly listened to (``everything``: of
        every game in memory too, after a lost connection) compared with their copies in
        memory, and those that moved caught up (a write committed before the ``LISTEN`` was
        not heard); one still being loaded is caught up once in memory (:meth:`loaded`)."""
        from psycopg import sql

        self._changed.clear()
        wanted = self._wanted()
        new, gone = wanted - self.listened, self.listened - wanted
        if new or gone:
            await conn.execute(sql.SQL("; ").join(
                [sql.SQL("LISTEN {}").format(sql.Identifier(channel(g))) for g in sorted(new)]
                + [sql.SQL("UNLISTEN {}").format(sql.Identifier(channel(g))) for g in sorted(gone)]))
            self.listened = wanted
        ids = (set(self.server.live) | new) if everything else new
        if not ids:
            return
        cur = await conn.execute("SELECT game_id, seq, undone FROM realms_heads WHERE game_id = ANY(%s)", (list(ids),))
        for gid, seq, undone in await cur.fetchall():
            live = self.server.live.get(gid)
            if live is None:
                self._miss(gid, seq)
            elif live.row.seq != (seq, undone):
                self._soon(gid)
        at_tables = [g for g in ids if self._told(g) is not None]
        for gid in at_tables:  # a table row written meanwhile (the owner's own: its copy)
            if everything or not self.owns(gid):
                self._follow(TABLE, gid)
        if at_tables:
            cur = await conn.execute("SELECT game_id, max(n) FROM talk WHERE game_id = ANY(%s) GROUP BY game_id",
                                     (at_tables,))
            for gid, last in await cur.fetchall():
                told = self._told(gid)
                if told is not None and last >= told:
                    self._follow(TALK, gid)

    async def _hear(self, conn) -> None:
        """The notifications on ``conn`` heard (:meth:`_heard`) until the games to listen
        to are no longer those listened to (looked at when :meth:`loaded` or :meth:`created`
        says so, and every ``LEASE_EVERY`` seconds for the games that left memory); the
        connection's error raised if it is lost."""
        async def drain() -> None:
            async for note in conn.notifies():
                self._heard(note.payload)

        heard = asyncio.ensure_future(drain())
        changed: asyncio.Future | None = None
        try:
            while not heard.done():
                changed = asyncio.ensure_future(self._changed.wait())
                await asyncio.wait({heard, changed}, timeout=LEASE_EVERY, return_when=asyncio.FIRST_COMPLETED)
                changed.cancel()
                self._changed.clear()
                if self._wanted() != self.listened:
                    break
        finally:
            for task in (heard, changed):
                if task is not None:
                    task.cancel()
            await asyncio.wait({heard})
        if not heard.cancelled() and (lost := heard.exception()) is not None:
            raise lost

    def _heard(self, payload: str) -> None:
        """A head moved: this process's own write is in memory already; another's, for a
        game in memory (or owned), is caught up, from the answers the notification carries
        when it carries them (:meth:`_note`), else from the database."""
        try:
            gid, _version, seq, undone, *rest = payload.split(" ", 6)
            if _version == TALK:
                return self._heard_talk(gid, int(seq), undone)
            if _version == TABLE:
                return self._heard_table(gid, undone)
            if _version == ACT:
                return self._heard_act(gid, seq)
            if _version == ACTED:
                return self.server.tables.answered(seq)
            head = (int(seq), int(undone))
        except ValueError:
            log.warning("cluster: a notification not understood: %r", payload[:100])
            return
        self.heard += 1
        if rest and rest[0] == self.id:
            return
        live = self.server.live.get(gid)
        if live is not None and (live.row.seq is None or head[0] > live.row.seq[0]):
            answers = None
            if len(rest) == 3:  # answers read only for a game caught up here
                try:
                    answers = (int(rest[1]), [(int(p), k) for p, k in orjson.loads(rest[2])])
                except (ValueError, TypeError):
                    log.warning("cluster: a notification's answers not understood: %r", payload[:100])
            self._notes.setdefault(gid, {})[head[0]] = (head[1], answers)
            self._soon(gid)
        elif live is None:
            if gid in self.server.loading or gid in self._turns or gid in self._taken_read or gid in self._claimed:
                self._miss(gid, head[0])  # its load (a take-over's from its one read) may predate this write
            if self.owns(gid) and gid not in self._claimed:  # else its take-over's catch-up loads it
                self._soon(gid)

    def _heard_talk(self, gid: str, n: int, process: str) -> None:
        """Message ``n`` of a game's talk was stored: by this process, pushed already by
        its post; by another, read, kept and pushed if this process holds the game and its
        table sockets were not told it."""
        self.talk_heard += 1
        told = self._told(gid)
        if process != self.id and told is not None and n >= told:
            self._follow(TALK, gid)

    def _heard_table(self, gid: str, process: str) -> None:
        """The game's table row was stored: by another process, read if the game is in
        memory (:meth:`_table_up`)."""
        self.table_heard += 1
        live = self.server.live.get(gid)
        if process != self.id and live is not None and getattr(live, "table", None) is not None:
            self._follow(TABLE, gid)

    def _heard_act(self, gid: str, action_id: str) -> None:
        """A table change asked through another process: applied here if this process
        owns the game (``host.Tables.apply``), else left to the owner."""
        if self.owns(gid):
            task = asyncio.get_running_loop().create_task(self.server.tables.apply(gid, action_id))
            self._acting.add(task)
            task.add_done_callback(self._acting.discard)

    def _told(self, gid: str) -> int | None:
        """The messages of the game's talk this process's table sockets were told (the
        table's view a socket joining is sent has those kept), None if the game is not in
        memory with its table."""
        live = self.server.live.get(gid)
        table = None if live is None else getattr(live, "table", None)
        return None if table is None else table.told

    def _follow(self, kind: str, gid: str) -> None:
        """Read and push the game's new talk (``TALK``: :meth:`_talk_up`) or its table row
        (``TABLE``: :meth:`_table_up`); once more after the read running if one runs."""
        key = (kind, gid)
        if key in self._following:
            self._follow_again.add(key)
        else:
            self._following[key] = asyncio.get_running_loop().create_task(self._followed(kind, gid))

    async def _followed(self, kind: str, gid: str) -> None:
        key = (kind, gid)
        try:
            while True:
                self._follow_again.discard(key)
                await (self._talk_up(gid) if kind == TALK else self._table_up(gid))
                if key not in self._follow_again:
                    return
        except Exception:
            log.exception("cluster: game %s: its %s could not be read for its pages", gid, kind)
        finally:
            self._following.pop(key, None)

    async def _talk_up(self, gid: str) -> None:
        """The game's messages past those its table sockets were told, read from the
        database, kept and pushed (``host.Tables.heard``)."""
        live = self.server.live.get(gid)
        told = self._told(gid)
        if live is None or told is None:
            return
        rows = await asyncio.to_thread(tabledb.messages, self.store, gid, min(told, len(live.table.messages)))
        self.talk_reads += 1
        live = self.server.live.get(gid)
        if live is not None and getattr(live, "table", None) is not None:
            await self.server.tables.heard(live, rows)

    async def _table_up(self, gid: str) -> None:
        """The game's table row read from the database and taken in as this process may
        (``host.Tables.stored_elsewhere``: whole if it does not own the game)."""
        live = self.server.live.get(gid)
        if live is not None and getattr(live, "table", None) is not None:
            self.table_reads += 1
            await self.server.tables.stored_elsewhere(live, self.owns(gid))

    def loaded(self, gid: str) -> None:
        """A game just put in memory (loaded from the database, or created): listened to
        from now (:meth:`_subscribe`); caught up if a write of it was heard during its load
        (which may have read the game before that write, and whose notification found
        nothing in memory to catch up), or if its channel was listened to before it was in
        memory (its head was not compared then): in either case only if its copy is behind
        the head then known (a game taken over is most often loaded after its channel was
        listened to, and as far as that head)."""
        seen = self._missed.pop(gid, None)
        live = self.server.live.get(gid)
        if seen is not None and (live is None or live.row.seq is None or live.row.seq[0] < seen):
            self._soon(gid)
        if gid not in self.listened:
            self._changed.set()

    def _miss(self, gid: str, seq: int) -> None:
        """Note that ``gid``, not in memory, has had ``seq`` writes (:meth:`loaded`)."""
        self._missed[gid] = max(seq, self._missed.get(gid, seq))

    def _noted(self, live: "Live") -> tuple | None:
        """The game's head and its answers past ``live``'s from the notifications heard
        (:meth:`_heard`), when they follow on from ``live`` up to the last heard, one write
        after another (no answers: none are new); None if any is missing (an undo,
        answers too long to carry): read."""
        notes = self._notes.pop(live.row.id, None)
        known = live.row.seq
        if not notes or known is None:
            return None
        head, version, answers = known, live.version, []
        for seq in sorted(s for s in notes if s > known[0]):
            undone, carried = notes[seq]
            if seq != head[0] + 1 or undone != head[1] or carried is None or carried[0] != version:
                return None
            head, version = (seq, undone), version + len(carried[1])
            answers.extend(carried[1])
        return head, answers

    # -- running ---------------------------------------------------------------------------------------
    def start(self) -> None:
        loop = self._loop = asyncio.get_running_loop()
        self.tasks = [loop.create_task(self.lease_loop()), loop.create_task(self.listen())]

    async def serving(self) -> None:
        """Wait, before this process takes requests (its app's start-up, which runs before
        the port listens), for its bots' worker to have started, at most ``SERVE_WAIT``
        seconds.  A page that asks a process whose worker still starts (10-25 s at load
        20) waits on a machine busy with that start: a dead owner's game it loaded took
        2.1-2.4 s at load 12-16, where a ready process took 0.3-0.6 s.  Not listening yet,
        it is given no connection (``SO_REUSEPORT``, a proxy's health check): the ready
        processes answer meanwhile.  Its leases are renewed and claimed as a process not
        ready does (:meth:`_tick`) while it waits."""
        try:
            await asyncio.wait_for(self.server.bots.warmed(), SERVE_WAIT)
        except Exception as exc:
            log.warning("cluster: %s serves with its bots' worker not started (%s)", self.id, type(exc).__name__)

    async def stop(self) -> None:
        """Stop, handing this process's leases back (another takes them at once)."""
        self._stopped = True
        for task in self.tasks + list(self._takes) + list(self._catching.values()) + list(self._following.values()):
            task.cancel()
        try:
            await asyncio.to_thread(self._release)
        except Exception:
            log.exception("cluster: the leases could not be handed back")
        self._renewer.shutdown(wait=False)
        self.taker.shutdown(wait=False)

    def _release(self) -> None:
        with self.store.engine.begin() as conn:
            conn.execute(text("UPDATE realms_leases SET expires = 0 WHERE owner = :o"), {"o": self.id})
            conn.execute(text("DELETE FROM realms_processes WHERE id = :i"), {"i": self.id})
        if self._alive is not None:
            self._alive.close()
            self._alive = None

    def health(self) -> dict:
        return {"process": self.id, "games_owned": len(self.owned), "listening": self.listening.is_set(),
                "reconnects": self.reconnects, "caught_up": {"carried": self.carried, "read": self.reads, "behind": self.behind},
                "listened": len(self.listened), "heard": self.heard,
                "talk": {"heard": self.talk_heard, "read": self.talk_reads},
                "table": {"heard": self.table_heard, "read": self.table_reads},
                "written": {"transactions": self.store.transactions, "writes": self.store.writes}}


def _heads(conn, games: Sequence[str]) -> dict[str, tuple[int, int]]:
    """The heads of ``games`` as stored, read on ``conn``: (seq, undone) each."""
    return {g: (seq, undone) for g, seq, undone in conn.execute(
        select(heads_table.c.game_id, heads_table.c.seq, heads_table.c.undone)
        .where(heads_table.c.game_id.in_(games)))}


def _add_ready(engine) -> None:
    """``realms_processes.ready`` added to a table made before it (every process then
    counted ready, as every process claimed)."""
    if engine.dialect.name != "postgresql":
        return
    if "ready" not in {c["name"] for c in inspect(engine).get_columns("realms_processes")}:
        with engine.begin() as conn:
            conn.execute(text("ALTER TABLE realms_processes "
                              "ADD COLUMN IF NOT EXISTS ready boolean NOT NULL DEFAULT true"))


def report(database: str) -> list[dict]:
    """The processes of the cluster on ``database`` (those that renewed their leases in the
    last ``2 * LEASE_SECONDS``) and the games each holds:
    ``[{id, address, seen (seconds ago), games: [ids]}]``, then the games nobody holds
    (``id: None``); what ``realms serve --check`` prints."""
    from .store import database_url

    engine = create_engine(database_url(database))
    try:
        create_tables(engine, metadata)
        with engine.connect() as conn:
            now = conn.execute(text(f"SELECT {NOW}")).scalar()
            procs = conn.execute(select(processes_table)).all()
            leases = conn.execute(select(leases_table)).all()
    finally:
        engine.dispose()
    out: dict[Any, dict] = {p.id: {"id": p.id, "address": p.address, "seen": round(now - p.seen, 1), "games": []}
                            for p in procs if now - p.seen <= 2 * LEASE_SECONDS}
    orphans: dict[str, Any] = {"id": None, "address": "", "seen": None, "games": []}
    for lease in leases:
        held = lease.expires >= now and lease.owner in out
        (out[lease.owner] if held else orphans)["games"].append(lease.game_id)
    return list(out.values()) + ([orphans] if orphans["games"] else [])
