"""The tables of games played over days, beside the store's (``store.metadata``: made by
the store's ``create_all``, in SQLite and PostgreSQL alike).

- ``tables``: one row a game whose table has settings (``host.py``): the settings (clock,
  talk), the host link's SHA-256, the clocks, each seat's notice addresses, who played
  which decisions for a seat (stand-ins), whether the host ended it, its rematch.
- ``talk``: the table talk, one row a message (``talk.py``).
- ``outbox``: the notices to send, one row each, keyed so that a notice is queued once
  (``notices.py``).
- ``table_actions``: in a cluster, a change of a table asked through a process that does
  not own the game (the host's pause, resume, extend or end, a seat's notice addresses, a
  seat taken back), handed to the owner, which applies it and writes its outcome
  (``host.Tables.hand``); the asking process deletes it once read.  SQLite never uses it.

Writes go through the store's writer thread (``Store.submit_call``), in order with the
answers, and never hold a request up; reads are plain queries, run in a thread.
"""

from __future__ import annotations

import json
from concurrent.futures import Future

from sqlalchemy import Column, Float, Integer, String, Table as _Table, Text, delete, insert, select, update

from .store import Store, games_table, metadata

tables_table = _Table(
    "tables",
    metadata,
    Column("game_id", String(40), primary_key=True),
    Column("settings", Text, nullable=False),   # JSON: {"clock": ClockSpec, "talk": mode}
    Column("host", String(64), nullable=False),  # SHA-256 (hex) of the host link's token
    Column("state", Text, nullable=False),      # JSON: clocks, notices, stand-ins, ended, rematch
    Column("watch", Integer, nullable=False),   # 1: a clock runs and the game is not over
)

talk_table = _Table(
    "talk",
    metadata,
    Column("game_id", String(40), primary_key=True),
    Column("n", Integer, primary_key=True, autoincrement=False),  # the game's message number
    Column("at", Float, nullable=False),
    Column("seat", Integer, nullable=False),
    Column("to_seat", Integer, nullable=True),  # NULL: to everyone
    Column("text", Text, nullable=False),
)

outbox_table = _Table(
    "outbox",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("key", String(200), nullable=False, unique=True),  # one notice, queued once
    Column("game_id", String(40), nullable=False),
    Column("channel", String(10), nullable=False),  # webhook | email
    Column("target", Text, nullable=False),          # the URL or the address
    Column("subject", Text, nullable=False),
    Column("body", Text, nullable=False),
    Column("state", String(10), nullable=False),     # queued | sending | sent | failed
    Column("attempts", Integer, nullable=False),
    Column("next_at", Float, nullable=False),
    Column("done_at", Float, nullable=True),
)

actions_table = _Table(
    "table_actions",
    metadata,
    Column("id", String(40), primary_key=True),  # chosen by the asking process
    Column("game_id", String(40), nullable=False),
    Column("body", Text, nullable=False),        # JSON: {"kind": "act"|"notices"|"back", …}
    Column("status", Integer, nullable=True),    # NULL: not claimed; 0: being applied; else HTTP
    Column("detail", Text, nullable=True),       # the refusal's reason
)


# -- the game's table row --------------------------------------------------------------
def put_table(store: Store, game_id: str, settings: dict, host: str, state: dict, watch: bool):
    """Queue the game's whole row (replacing the one kept); a future done once committed.
    In a cluster the same transaction notifies the game's channel that it changed
    (``cluster.Cluster.tabled``)."""
    row = {"game_id": game_id, "settings": json.dumps(settings), "host": host, "state": json.dumps(state),
           "watch": int(watch)}

    def write(conn) -> None:
        conn.execute(delete(tables_table).where(tables_table.c.game_id == game_id))
        conn.execute(insert(tables_table).values(**row))
        if store.cluster is not None:
            store.cluster.tabled(conn, game_id)
    return store.submit_call(write)


def put_table_now(store: Store, game_id: str, settings: dict, host: str, state: dict, watch: bool) -> None:
    """A new game's row, committed before returning (its creation's 201 waits for it, as for
    the game's own row)."""
    with store.engine.begin() as conn:
        conn.execute(insert(tables_table).values(game_id=game_id, settings=json.dumps(settings), host=host,
                                                 state=json.dumps(state), watch=int(watch)))


def get_table(store: Store, game_id: str) -> tuple[dict, str, dict] | None:
    """(settings, host hash, state) of a game, None for a game with no row."""
    with store.engine.connect() as conn:
        r = conn.execute(select(tables_table).where(tables_table.c.game_id == game_id)).first()
    return None if r is None else (json.loads(r.settings), r.host, json.loads(r.state))


def tables_of(conn, game_ids: list[str]) -> dict[str, tuple[tuple[dict, str, dict] | None, list[dict]]]:
    """Per game of ``game_ids``, read on ``conn`` in two queries (a take-over's, for all
    the games it claimed at once): what :func:`get_table` and :func:`messages` give."""
    out: dict[str, tuple] = {gid: (None, []) for gid in game_ids}
    for r in conn.execute(select(tables_table).where(tables_table.c.game_id.in_(game_ids))):
        out[r.game_id] = ((json.loads(r.settings), r.host, json.loads(r.state)), [])
    for r in conn.execute(select(talk_table).where(talk_table.c.game_id.in_(game_ids))
                          .order_by(talk_table.c.game_id, talk_table.c.n)):
        out[r.game_id][1].append(_message(r))
    return out


def watched(store: Store) -> list[str]:
    """The games whose clocks run and that are not over (a restarted server loads them)."""
    with store.engine.connect() as conn:
        return [r.game_id for r in conn.execute(select(tables_table.c.game_id).where(tables_table.c.watch == 1))]


def put_seats(store: Store, game_id: str, seats: list[dict]):
    """Queue a game's seats (a seat's new link); a future done once committed."""
    def write(conn) -> None:
        conn.execute(update(games_table).where(games_table.c.id == game_id).values(seats=json.dumps(seats)))
    return store.submit_call(write)


# -- a table change handed to the game's owner -----------------------------------------
def ask_action(store: Store, action_id: str, game_id: str, body: dict) -> None:
    """Store a change for the game's owner to apply and notify it, in one transaction
    (``cluster.Cluster.asked``): committed before returning."""
    with store.engine.begin() as conn:
        conn.execute(insert(actions_table).values(id=action_id, game_id=game_id, body=json.dumps(body)))
        if store.cluster is not None:
            store.cluster.asked(conn, game_id, action_id)


def claim_action(store: Store, action_id: str) -> dict | None:
    """The body of a change not yet claimed, claimed now (status 0), else None: it is
    applied once, and never after its asker gave up on it (:func:`drop_action`)."""
    with store.engine.begin() as conn:
        r = conn.execute(update(actions_table).where(actions_table.c.id == action_id, actions_table.c.status.is_(None))
                         .values(status=0).returning(actions_table.c.body)).first()
    return None if r is None else json.loads(r.body)


def unclaimed_actions(store: Store) -> list[tuple[str, str]]:
    """(id, game) of the changes nobody claimed yet."""
    with store.engine.connect() as conn:
        return [(r.id, r.game_id) for r in conn.execute(
            select(actions_table.c.id, actions_table.c.game_id).where(actions_table.c.status.is_(None)))]


def settle_action(store: Store, game_id: str, action_id: str, status: int, detail: str | None) -> None:
    """A change's outcome (200, or the refusal's status and reason), notified to its asker."""
    with store.engine.begin() as conn:
        conn.execute(update(actions_table).where(actions_table.c.id == action_id)
                     .values(status=status, detail=detail))
        if store.cluster is not None:
            store.cluster.acted(conn, game_id, action_id)


def action_outcome(store: Store, action_id: str) -> tuple[int | None, str | None]:
    """(status, detail) of a change; status None: not claimed yet (or gone)."""
    with store.engine.connect() as conn:
        r = conn.execute(select(actions_table.c.status, actions_table.c.detail)
                         .where(actions_table.c.id == action_id)).first()
    return (None, None) if r is None else (r.status, r.detail)


def drop_action(store: Store, action_id: str, unclaimed: bool) -> bool:
    """Delete a change (``unclaimed``: only if nobody claimed it); whether it was deleted."""
    q = delete(actions_table).where(actions_table.c.id == action_id)
    if unclaimed:
        q = q.where(actions_table.c.status.is_(None))
    with store.engine.begin() as conn:
        return conn.execute(q).rowcount > 0


# -- table talk --------------------------------------------------------------------------
def put_message(store: Store, game_id: str, msg: dict):
    """Queue a message's row; a future done once committed.  In a cluster the same
    transaction notifies the game's channel of it (``cluster.Cluster.talked``), so that the
    other processes push it to their pages."""
    def write(conn) -> None:
        conn.execute(insert(talk_table).values(game_id=game_id, n=msg["n"], at=msg["at"], seat=msg["seat"],
                                               to_seat=msg["to"], text=msg["text"]))
        if store.cluster is not None:
            store.cluster.talked(conn, game_id, msg["n"])
    return store.submit_call(write)


def messages(store: Store, game_id: str, since: int = 0) -> list[dict]:
    """The game's messages numbered ``since`` and after, in order."""
    with store.engine.connect() as conn:
        rows = conn.execute(select(talk_table).where(talk_table.c.game_id == game_id, talk_table.c.n >= since)
                            .order_by(talk_table.c.n)).all()
    return [_message(r) for r in rows]


def _message(r) -> dict:
    """A message as the table holds it, from its ``talk`` row."""
    return {"n": r.n, "at": r.at, "seat": r.seat, "to": r.to_seat, "text": r.text}


# -- the outbox --------------------------------------------------------------------------
def queue_notice(store: Store, key: str, game_id: str, channel: str, target: str, subject: str, body: str,
                 now: float):
    """Queue a notice unless one of the same ``key`` is queued already (checked in the
    writer's transaction: one writer, so no race)."""
    def write(conn) -> None:
        if conn.execute(select(outbox_table.c.id).where(outbox_table.c.key == key)).first() is None:
            conn.execute(insert(outbox_table).values(key=key, game_id=game_id, channel=channel, target=target,
                                                     subject=subject, body=body, state="queued", attempts=0,
                                                     next_at=now))
    return store.submit_call(write)


def claim_due(store: Store, now: float, limit: int, out: list) -> "Future":
    """Queue the claim of up to ``limit`` queued notices due by ``now``: marked as being
    sent in the writer's transaction, put in ``out`` (dicts) once it is committed.  A
    notice is claimed before it is sent, so a crash in between never sends it twice (it
    is not sent at all: at most once); the writer's transaction, not one of its own, so
    that the claim waits for no lock the answers' commits hold."""
    def write(conn) -> None:
        rows = conn.execute(select(outbox_table).where(outbox_table.c.state == "queued",
                                                       outbox_table.c.next_at <= now)
                            .order_by(outbox_table.c.id).limit(limit)
                            .with_for_update(skip_locked=True)).all()  # PostgreSQL: one sender each
        if rows:
            conn.execute(update(outbox_table).where(outbox_table.c.id.in_([r.id for r in rows]))
                         .values(state="sending", attempts=outbox_table.c.attempts + 1))
        out[:] = [dict(r._mapping) for r in rows]
    return store.submit_call(write)


def settle_notice(store: Store, notice_id: int, state: str, now: float, next_at: float | None = None) -> "Future":
    """Queue a notice's outcome: sent (``sent``), given up (``failed``) or to try again at
    ``next_at`` (``queued``)."""
    values = {"state": state, "done_at": None if state == "queued" else now}
    if next_at is not None:
        values["next_at"] = next_at

    def write(conn) -> None:
        conn.execute(update(outbox_table).where(outbox_table.c.id == notice_id).values(**values))
    return store.submit_call(write)


def notices(store: Store, game_id: str | None = None) -> list[dict]:
    q = select(outbox_table).order_by(outbox_table.c.id)
    if game_id is not None:
        q = q.where(outbox_table.c.game_id == game_id)
    with store.engine.connect() as conn:
        return [dict(r._mapping) for r in conn.execute(q)]
