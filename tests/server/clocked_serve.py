"""One process of a cluster (``realms serve --database postgresql://…``) whose deadlines'
and tables' clock the process that started it shares with its other processes, so that
tests and soaks move time for all of them instead of waiting minutes for each deadline:

- ``--clock-file PATH``: the seconds written in the file (a test writes the next instant);
- ``--clock-speed S --clock-epoch E --clock-start T``: ``T + (now - E) * S`` (a soak's
  minutes passing in seconds, the same instant in every process).

``--sweep-every S``: the deadlines' watcher looks every ``S`` seconds (a second in
``realms serve``): racing processes then look within moments of each other.

``--lease SECONDS,EVERY``: the leases' length and renewal (``cluster.LEASE_SECONDS``,
``LEASE_EVERY``; 2 s and 0.5 s in ``realms serve``), to measure another choice.

``--games-at-once N``: the games one address may create in a burst, as ``realms serve``'s
option of that name (a soak makes its games from one address).

``--race``: this process does every game's once-only work as if it held every lease (the
deadlines it sees, the bots), as every process would if the leases failed: then only the
head's check in the database keeps a round from being ended twice.

    python tests/server/clocked_serve.py --port P --database postgresql://… --clock-file F [--race]

Also the helpers the tests and ``benchmarks/bench_processes.py`` share to drive such
processes: a game whose every round a deadline ends, the rounds recorded as ended.
"""

from __future__ import annotations

import argparse
import os
import time
from pathlib import Path

import httpx


#: the deadlines' clock when a clocked test begins (seconds since the epoch), and one deadline
T0, DEADLINE = 1000.0, 60.0


def set_clock(path: Path, now: float) -> None:
    """The clocked processes' instant: ``now`` (written whole, never read half-written)."""
    new = path.with_suffix(".new")
    new.write_text(repr(now))
    os.replace(new, path)


def silent_brittania(url: str, turns: int) -> tuple[str, str]:
    """A Brittania game of two people with a one-minute deadline, made through ``url``,
    its setup answered: each turn's orders are then the deadline's to end, both people
    silent.  Its id and the first person's token."""
    r = httpx.post(url + "/api/games", timeout=60, json={
        "game": "brittania", "options": {"turns": turns, "deadline_minutes": int(DEADLINE // 60)},
        "seats": ["human", "human"]})
    assert r.status_code == 201, r.text
    gid, tokens = r.json()["id"], [s["token"] for s in r.json()["seats"]]
    for tok in tokens:
        while True:
            s = httpx.get(f"{url}/api/games/{gid}", headers={"Authorization": f"Bearer {tok}"}, timeout=30).json()
            setup = [d for d in s["pending"] if d["kind"] != "br.order"]
            if not setup:
                break
            r = httpx.post(f"{url}/api/games/{gid}/answers", headers={"Authorization": f"Bearer {tok}"}, timeout=60,
                           json={"key": setup[0]["options"][0]["key"], "version": s["version"]})
            assert r.status_code == 200, r.text
    return gid, tokens[0]


def deadline_ends(database: str, gid: str) -> list[tuple]:
    """The rounds of ``gid`` ended by a deadline, as recorded: (round, first answer,
    answers given, by which process), in the order of their answers."""
    from sqlalchemy import create_engine, text

    from realms.server.store import database_url

    engine = create_engine(database_url(database))
    try:
        with engine.connect() as conn:
            return [tuple(r) for r in conn.execute(text(
                'SELECT round, n, answers, "by" FROM deadline_ends WHERE game_id = :g ORDER BY n, id'), {"g": gid})]
    finally:
        engine.dispose()


class FileClock:
    """The instant written in a file (written whole by ``os.replace``, never half)."""

    def __init__(self, path: str) -> None:
        self.path = path

    def __call__(self) -> float:
        with open(self.path) as f:
            return float(f.read())


class FastClock:
    """The wall clock sped up ``speed`` times from ``epoch`` (wall), which reads ``start``."""

    def __init__(self, speed: float, epoch: float, start: float) -> None:
        self.speed, self.epoch, self.start = speed, epoch, start

    def __call__(self) -> float:
        return self.start + (time.time() - self.epoch) * self.speed


def timeline(app):
    """``REALMS_TIMELINE=1`` (a soak's ``--timeline``): each game request's arrival and
    answer, each game's load (its read and its replay apart), each wait over 0.1 s for a
    game in memory (``got``) or for its odds (``advised``) and each stall of the event
    loop over 0.1 s, logged by ``realms.timeline`` with the wall clock's seconds
    (``T <wall> <event> …``), for the soak to set beside a death.  Off, nothing is wrapped."""
    import asyncio
    import logging

    from realms.server import app as served

    log = logging.getLogger("realms.timeline")
    log.setLevel(logging.INFO)
    server = app.state.server
    rebuild, read, load = served.rebuild, type(server)._read, type(server)._load

    def timed_rebuild(row):
        t = time.time()
        out = rebuild(row)
        log.info("T %.3f replay %s %.3f %d", time.time(), row.id, time.time() - t, len(row.answers))
        return out

    def timed_read(self, game_id):
        t = time.time()
        out = read(self, game_id)
        log.info("T %.3f read %s %.3f", time.time(), game_id, time.time() - t)
        return out

    async def timed_load(self, game_id, pre=None):
        t = time.time()
        out = await load(self, game_id, pre)
        log.info("T %.3f loaded %s %.3f %s", time.time(), game_id, time.time() - t, "taken" if pre else "asked")
        return out

    get, advise = type(server).get, type(server).advise

    async def timed_get(self, game_id, read=None):
        t = time.time()
        out = await get(self, game_id, read)
        if time.time() - t > 0.1:
            log.info("T %.3f got %s %.3f", time.time(), game_id, time.time() - t)
        return out

    async def timed_advise(self, live, seats):
        t = time.time()
        out = await advise(self, live, seats)
        if time.time() - t > 0.1:
            log.info("T %.3f advised %s %.3f", time.time(), live.row.id, time.time() - t)
        return out

    served.rebuild = timed_rebuild
    type(server)._read, type(server)._load = timed_read, timed_load
    type(server).get, type(server).advise = timed_get, timed_advise

    stalling: list = []

    async def stalls() -> None:
        while True:
            t = time.monotonic()
            await asyncio.sleep(0.05)
            late = time.monotonic() - t - 0.05
            if late > 0.1:
                log.info("T %.3f stall %.3f", time.time(), late)

    async def timed(scope, receive, send):
        if not stalling and scope["type"] != "lifespan":
            stalling.append(asyncio.get_running_loop().create_task(stalls()))
        parts = scope.get("path", "").split("/")
        if scope["type"] != "http" or len(parts) < 4 or parts[2] != "games":
            return await app(scope, receive, send)
        t, status = time.time(), [0]

        async def sent(message):
            if message["type"] == "http.response.start":
                status[0] = message["status"]
            await send(message)

        await app(scope, receive, sent)
        log.info("T %.3f %s %s %s %.3f %d", time.time(), scope["method"], parts[3], "/".join(parts[4:]) or "-",
                 time.time() - t, status[0])

    return timed


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--port", type=int, required=True)
    ap.add_argument("--database", required=True)
    ap.add_argument("--clock-file")
    ap.add_argument("--clock-speed", type=float)
    ap.add_argument("--clock-epoch", type=float)
    ap.add_argument("--clock-start", type=float)
    ap.add_argument("--sweep-every", type=float)
    ap.add_argument("--lease")
    ap.add_argument("--race", action="store_true")
    ap.add_argument("--games-at-once", type=int)
    ap.add_argument("--log-level", default="warning")
    args = ap.parse_args()

    import logging

    import uvicorn

    from realms.core.game import games
    from realms.server import cluster
    from realms.server.app import create_app
    from realms.server.botworker import Bots
    from realms.server.heavy import Lanes
    from realms.server.limits import CREATE_BURST, TokenBucket

    if args.lease:
        cluster.LEASE_SECONDS, cluster.LEASE_EVERY = (float(x) for x in args.lease.split(","))
    if args.race:
        cluster.Cluster.owns = lambda self, game_id: True
    clock = (FileClock(args.clock_file) if args.clock_file
             else FastClock(args.clock_speed, args.clock_epoch, args.clock_start))
    # as ``realms serve`` starts: the bots' and the heavy work's processes its own, the
    # games warmed and the bots' and the odds' workers started (and warmed) before it listens
    bots, work = Bots(tied=True), Lanes(tied=True)
    app = create_app(args.database, clock=clock, several=True, address=f"127.0.0.1:{args.port}", bots=bots,
                     work=work, creations=TokenBucket(args.games_at_once or CREATE_BURST))
    for game in games().values():
        if game.warm is not None:
            game.warm()
    bots.start(warm=True)
    work.odds.start(warm=True)
    if args.sweep_every:
        app.state.deadlines.every = args.sweep_every
    logging.basicConfig(level=args.log_level.upper(), format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    served = timeline(app) if os.environ.get("REALMS_TIMELINE") else app
    uvicorn.run(served, host="127.0.0.1", port=args.port, log_level=args.log_level)


if __name__ == "__main__":
    main()
