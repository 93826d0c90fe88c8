"""Several server processes on one PostgreSQL database (``server/cluster.py``).

Four figures, on a fresh database each time, the load generator on the same machine:

1. flat-out answers per second and the CPU per answer, one process against
   ``--processes`` processes, each warmed first (``--warm``: the measured games played,
   so its bots' and odds' workers are started and each game is set up for its odds)
   (each game's player talks to the process it made the game
   through, the games spread over them), with the machine's own speed-up for that many
   processes measured the same way (a CPU loop in one process, then in as many at once).
   The load generator and the database share the machine's cores with the servers, so
   their CPU per answer is measured too, and the rate is set beside the CPU bound,
   cores / (servers' + generator's + database's CPU per answer): how many answers a second
   the machine could make at best;
2. push latency across processes: each game's person answers through one process while a
   spectator's WebSocket watches it through another; the time from sending the answer to
   the spectator's push of that version, at ``--rate`` answers per second offered in all;
3. (``--only deadlines``) ``--rounds`` deadline rounds raced for by three processes, each
   ending every round it sees due: counted in ``deadline_ends``, each must end once;
4. (``--only kills``) the SIGKILL soak: one of three processes killed every
   ``--kill-every`` seconds under load for ``--seconds``: acknowledged answers lost, bot
   turns and deadline rounds run twice, and how soon the dead owner's games move again;
5. (``--only talk``) table talk's push across two processes: ``--messages`` messages posted
   one after another through one process, each game's table watched by a spectator's
   socket on each process; the time from a message's post sent to its push on the other
   process's socket, and on the posting process's own.

Modes 3 and 4 run ``tests/server/clocked_serve.py``'s processes, whose deadlines' clock the
benchmark moves (or speeds up).

    PYTHONPATH=src .venv/bin/python benchmarks/bench_processes.py \\
        --database postgresql://realms:realms@127.0.0.1/realms [--games 30] [--seconds 8]

The database named is the server's admin connection: a database of its own is made for
each run and dropped after.

All the games come from this one address, so every server is started with a burst of game
creations for one address (``--games-at-once``, ``realms serve``'s option; default: ten per
game the run makes, room for the tokens a game's setup CPU costs) instead of the
``limits.CREATE_BURST`` that would answer 429 past about twenty games: what a host load
testing from one machine sets.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import multiprocessing
import os
import random
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
import uvloop
from websockets.asyncio.client import connect as ws_connect
from websockets.exceptions import ConnectionClosed

sys.path.insert(0, os.path.dirname(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "tests", "server"))
import clocked_serve  # noqa: E402
from bench_server import Conn, cpu_seconds, cpu_used, create_games, free_port, load, pct, player_address  # noqa: E402


def admin(url: str, sql: str) -> None:
    from sqlalchemy import create_engine, text

    engine = create_engine(url.replace("postgresql://", "postgresql+psycopg://", 1), isolation_level="AUTOCOMMIT")
    with engine.connect() as conn:
        conn.execute(text(sql))
    engine.dispose()


def start(database: str, n: int, clocked: list[str] | None = None, logs: str | None = None
          ) -> list[tuple[subprocess.Popen, str]]:
    """``n`` server processes on ``database``, each ready: ``realms serve``, or with
    ``clocked`` ``clocked_serve.py`` with those options; their logs in ``logs`` (a folder)."""
    out = []
    for i in range(n):
        out.append(start_one(database, clocked, None if logs is None else os.path.join(logs, f"serve-{i}.log")))
    for proc, url in out:
        ready(proc, url)
    return out


#: the options every server is started with (``main``: its burst of game creations)
SERVER_OPTIONS: list[str] = []


def start_one(database: str, clocked: list[str] | None, log: str | None) -> tuple[subprocess.Popen, str]:
    port = free_port()
    command = ["-m", "realms.server"] if clocked is None else [clocked_serve.__file__, *clocked, "--log-level", "info"]
    with open(log or os.devnull, "ab") as err:
        proc = subprocess.Popen([sys.executable, *command, "--port", str(port), "--database", database,
                                 *SERVER_OPTIONS],
                                stdout=subprocess.DEVNULL, stderr=err)
    return proc, f"http://127.0.0.1:{port}"


def ready(proc: subprocess.Popen, url: str) -> None:
    """Wait until the process at ``url`` listens to the database's notifications."""
    for _ in range(600):
        try:
            if httpx.get(url + "/api/health", timeout=1).json().get("listening"):
                return
        except httpx.HTTPError:
            pass
        if proc.poll() is not None:
            break
        time.sleep(0.1)
    raise SystemExit(f"server {url} did not start")


def stop(procs) -> None:
    for proc, _ in procs:
        proc.terminate()
    for proc, _ in procs:
        try:
            proc.wait(20)
        except subprocess.TimeoutExpired:
            proc.kill()


def spin(seconds: float, out) -> None:
    n, end = 0, time.perf_counter() + seconds
    while time.perf_counter() < end:
        for _ in range(1000):
            n += 1
    out.put(n)


def machine_speedup(n: int, seconds: float = 4.0) -> float:
    """Work done by ``n`` processes of a CPU loop at once over the work of one."""
    def run(k: int) -> int:
        q = multiprocessing.Queue()
        ps = [multiprocessing.Process(target=spin, args=(seconds, q)) for _ in range(k)]
        for p in ps:
            p.start()
        total = sum(q.get() for _ in ps)
        for p in ps:
            p.join()
        return total

    return run(n) / run(1)


def database_pids(database: str) -> dict[int, bool]:
    """The PostgreSQL backends serving ``database`` now, each with whether it is a
    process's listening connection (their CPU is the database's part of an answer: a
    backend on this machine shares its 2 cores)."""
    name = database.rsplit("/", 1)[1]
    return {r[0]: r[1].startswith("realms-listen") for r in query(
        database, "SELECT pid, application_name FROM pg_stat_activity WHERE datname = :d", d=name)}


def heard(url: str) -> int:
    """The notifications the process at ``url`` heard so far (its health says)."""
    return httpx.get(url + "/api/health", timeout=30).json().get("heard", 0)


def written(url: str) -> tuple[int, int]:
    """The transactions the store's writer of the process at ``url`` committed so far, and
    the writes (answers' batches, undos, rounds, tables' writes) in them (its health says)."""
    w = httpx.get(url + "/api/health", timeout=30).json().get("written", {})
    return w.get("transactions", 0), w.get("writes", 0)


def odds(url: str) -> tuple[int, int]:
    """The odds' jobs the process at ``url`` sent its worker so far, and those it refused
    (too many waiting: shed under load), from its health."""
    o = httpx.get(url + "/api/health", timeout=30).json().get("odds", {})
    return o.get("sent", 0), o.get("refused", 0)


def commits(database: str) -> int:
    """The transactions committed in ``database`` so far (each a WAL flush and a round trip)."""
    name = database.rsplit("/", 1)[1]
    return query(database, "SELECT xact_commit FROM pg_stat_database WHERE datname = :d", d=name)[0][0]


def flat_out(args, n: int) -> dict:
    """With ``n`` processes flat out: answers/s, and the CPU ms per answer of the servers
    (with their bots' and odds' processes), of the load generator (this process) and of the
    database's backends; the CPU bound these allow, cores / all three; the generator's
    share of one core (it is one process: past 1.0 it would be the bottleneck)."""
    name = "realms_bench_" + uuid.uuid4().hex[:8]
    admin(args.database, f'CREATE DATABASE "{name}"')
    database = args.database.rsplit("/", 1)[0] + "/" + name
    procs = start(database, n)
    try:
        urls = [u for _, u in procs]
        # each game made through the process its player then talks to, which owns it (its
        # bots play there): a proxy sending a game's requests to one process does the same
        parts = [asyncio.run(create_games(urls[i], len(range(i, args.games, n)), ["human", "auto"]))
                 for i in range(n)]
        if args.warm > 0:
            # the measured games played first: each process's bots' and odds' workers
            # started and warmed, and each game set up in its process's odds' worker (in
            # the background, at its first decision with odds): a worker's start is a cost
            # per process and a set-up one per game, not per answer, and a game still being
            # set up is given no odds, so one process setting up twice the games would do
            # less odds' work an answer in the measured seconds
            async def warm_up() -> None:
                await asyncio.gather(*(load(urls[i], parts[i], args.warm, None) for i in range(n)))

            asyncio.run(warm_up())
        cpu0 = [cpu_used(p.pid) for p, _ in procs]
        backends = database_pids(database)
        db0 = {pid: cpu_seconds(pid) or 0.0 for pid in backends}
        commits0 = commits(database)
        heard0 = sum(heard(u) for u in urls)
        written0 = [written(u) for u in urls]
        odds0 = [odds(u) for u in urls]
        gen0 = os.times()
        t0 = time.perf_counter()

        async def all_at_once() -> int:
            return sum(await asyncio.gather(*(load(urls[i], parts[i], args.seconds, None) for i in range(n))))

        done = asyncio.run(all_at_once())
        dt = time.perf_counter() - t0
        gen1 = os.times()
        backends |= database_pids(database)
        db1 = {pid: cpu_seconds(pid) for pid in backends}
        committed = commits(database) - commits0
        notes = sum(heard(u) for u in urls) - heard0
        written1 = [written(u) for u in urls]
        odds1 = [odds(u) for u in urls]
        sent, refused = (sum(b[i] - a[i] for a, b in zip(odds0, odds1)) for i in (0, 1))
        transactions = sum(b[0] - a[0] for a, b in zip(written0, written1))
        writes = sum(b[1] - a[1] for a, b in zip(written0, written1))
        cpu1 = [cpu_used(p.pid) for p, _ in procs]
        cpu = sum((b[0] - a[0]) + (b[1] - a[1]) for a, b in zip(cpu0, cpu1))
        helpers = sum(b[1] - a[1] for a, b in zip(cpu0, cpu1))
        gen = (gen1.user - gen0.user) + (gen1.system - gen0.system)
        db = sum((c or 0.0) - db0.get(pid, 0.0) for pid, c in db1.items())
        listened = sum((c or 0.0) - db0.get(pid, 0.0) for pid, c in db1.items() if backends[pid])
        per = lambda seconds: seconds / max(done, 1) * 1000  # noqa: E731
        cores = os.cpu_count() or 1
        return {"rate": done / dt, "server": per(cpu), "generator": per(gen), "database": per(db),
                "helpers": per(helpers), "listening": per(listened), "commits": committed / max(done, 1),
                "heard": notes / max(done, 1), "transactions": transactions / max(done, 1),
                "writes": writes / max(transactions, 1), "odds": sent / max(done, 1),
                "refused": refused / max(done, 1),
                "bound": cores / max(per(cpu + gen + db) / 1000, 1e-9), "generator_share": gen / dt}
    finally:
        stop(procs)
        admin(args.database, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def said(r: dict) -> str:
    """A flat-out run's figures, the rate beside the CPU bound."""
    return (f"{r['rate']:.0f} answers/s flat out, {r['rate'] / r['bound'] * 100:.0f}% of the CPU bound "
            f"{r['bound']:.0f}/s (2 cores / all the CPU an answer costs); CPU per answer: servers "
            f"{r['server']:.2f} ms (of which their bots' and odds' processes {r['helpers']:.2f} ms), load generator {r['generator']:.2f} ms (a {r['generator_share']:.0%} share of "
            f"its one core), database {r['database']:.2f} ms (of which its listening connections "
            f"{r['listening']:.2f} ms; {r['commits']:.2f} commits per answer, its listening backends' wake-ups "
            f"included); the writers' transactions per answer {r['transactions']:.2f}, writes per transaction "
            f"{r['writes']:.2f}; notifications heard per answer, all processes: {r['heard']:.2f}; the odds' jobs "
            f"per answer worked out {r['odds']:.2f}, refused as busy {r['refused']:.2f}")


async def across(urls: list[str], games: list[dict], seconds: float, rate: float) -> tuple[list[float], int, int]:
    """Each game answered through ``urls[i % n]`` and watched through ``urls[(i+1) % n]``:
    the seconds from an answer sent to the watcher's first push of its version (or a later
    one), how many answers the watcher never saw pushed, and how many were answered in
    the ``seconds`` (the rate made is that over ``seconds``: not the sockets' connecting
    before, nor the last pushes' wait after)."""
    latencies: list[float] = []
    missed = [0]  # answers whose push the watcher never had
    answered: list[float] = []  # the seconds each answer's 200 took
    n = len(urls)
    start_t = time.perf_counter()
    end = start_t + seconds
    period = len(games) / rate

    async def play(i: int, g: dict) -> None:
        url, far = urls[i % n], urls[(i + 1) % n]
        source = player_address(i)
        conn = Conn(url, source)
        sent: list[tuple[int, float]] = []  # (version answered, sent at)
        seen: list[tuple[int, float]] = []  # (version pushed to the watcher, arrived at)
        mine = await ws_connect(f"ws{url[4:]}/api/games/{g['id']}/ws?token={g['token']}", max_size=None,
                                compression=None, local_addr=(source, 0))
        watcher = await ws_connect(f"ws{far[4:]}/api/games/{g['id']}/ws", max_size=None, compression=None,
                                   local_addr=(source, 0))
        state = json.loads(await mine.recv())
        await watcher.recv()
        latest: list[str] = []
        arrived = asyncio.Event()

        async def watch() -> None:
            try:
                async for text in watcher:
                    seen.append((json.loads(text)["version"], time.perf_counter()))
            except ConnectionClosed:
                return

        async def read() -> None:
            try:
                async for text in mine:
                    if '"pending":[]' not in text or '"over":true' in text:
                        latest[:] = [text]
                        arrived.set()
            except ConnectionClosed:
                return

        tasks = [asyncio.create_task(watch()), asyncio.create_task(read())]
        k = 0
        try:
            while time.perf_counter() < end and not state["over"]:
                if not state["pending"]:
                    async with asyncio.timeout(max(0.1, end + 5 - time.perf_counter())):
                        while not state["pending"] and not state["over"]:
                            await arrived.wait()
                            arrived.clear()
                            new = json.loads(latest[0])
                            if new["version"] >= state["version"]:
                                state = new
                    continue
                due = start_t + period * (k + i / len(games))
                k += 1
                if due > time.perf_counter():
                    await asyncio.sleep(due - time.perf_counter())
                opts = state["pending"][0]["options"]
                t0 = time.perf_counter()
                status, new = await conn.request("POST", f"/api/games/{g['id']}/answers", g["token"],
                                                 {"key": opts[(state["version"] * 7) % len(opts)]["key"],
                                                  "version": state["version"]})
                if status != 200:
                    raise SystemExit(f"answer refused: {status} {new}")
                sent.append((new["version"], t0))
                answered.append(time.perf_counter() - t0)
                state = new
        except (OSError, asyncio.TimeoutError, ConnectionClosed) as exc:
            print(f"  game {i}: {type(exc).__name__} {exc}", file=sys.stderr)
        finally:
            await asyncio.sleep(1.0)  # the last pushes
            for t in tasks:
                t.cancel()
            # a push may reach the watcher before the answer's 200 reaches the player
            for version, t0 in sent:
                first = [at - t0 for v, at in seen if v >= version and at >= t0][:1]
                latencies.extend(first)
                missed[0] += not first
            conn.close()
            await mine.close()
            await watcher.close()

    await asyncio.gather(*(play(i, g) for i, g in enumerate(games)))
    print(f"  the answers' own 200s: {pct(answered)}", flush=True)
    return latencies, missed[0], len(answered)


def push_latency(args, n: int) -> tuple[str, int, float, int]:
    name = "realms_bench_" + uuid.uuid4().hex[:8]
    admin(args.database, f'CREATE DATABASE "{name}"')
    database = args.database.rsplit("/", 1)[0] + "/" + name
    procs = start(database, n)
    try:
        urls = [u for _, u in procs]
        games = asyncio.run(create_games(urls[0], args.games, ["human", "auto"]))
        lat, missed, made = asyncio.run(across(urls, games, args.seconds, args.rate))
        return pct(lat), len(lat), made / args.seconds, missed
    finally:
        stop(procs)
        admin(args.database, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@contextlib.contextmanager
def fresh(admin_url: str):
    """A database of its own on the server of ``admin_url``, dropped after: its URL."""
    name = "realms_bench_" + uuid.uuid4().hex[:8]
    admin(admin_url, f'CREATE DATABASE "{name}"')
    try:
        yield admin_url.rsplit("/", 1)[0] + "/" + name
    finally:
        admin(admin_url, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@contextlib.contextmanager
def logs_in(folder: str | None):
    """The folder the processes' logs go to: ``folder`` (kept), else a temporary one."""
    if folder:
        os.makedirs(folder, exist_ok=True)
        yield folder
        return
    with tempfile.TemporaryDirectory() as tmp:
        yield tmp


def query(database: str, sql: str, **params) -> list:
    from sqlalchemy import create_engine, text

    engine = create_engine(database.replace("postgresql://", "postgresql+psycopg://", 1))
    try:
        with engine.connect() as conn:
            return conn.execute(text(sql), params).all()
    finally:
        engine.dispose()


def until(what: str, ok, seconds: float = 300.0, every: float = 0.2):
    end = time.monotonic() + seconds
    while not (found := ok()):
        if time.monotonic() > end:
            raise SystemExit(f"waited {seconds} s for {what}")
        time.sleep(every)
    return found


async def talked(urls: list[str], messages: int) -> tuple[list[float], list[float], list[float]]:
    """``messages`` table talk messages posted one after another through ``urls[0]``, to
    games of four people (each seat within ``talk.RATE``), each game's table watched by a
    spectator on ``urls[0]`` and one on ``urls[1]``: the seconds from each post sent to
    its 201, to its push on the posting process's socket, and on the other's."""
    from realms.server import talk

    per_game = 4 * talk.RATE
    games = []
    async with httpx.AsyncClient(base_url=urls[0], timeout=60) as c:
        for _ in range((messages + per_game - 1) // per_game):
            r = await c.post("/api/games", json={"game": "hy-breasil", "options": {"turns": 2},
                                                 "seats": ["human"] * 4})
            r.raise_for_status()
            games.append((r.json()["id"], [s["token"] for s in r.json()["seats"]]))
        pages = {}
        for gid, _ in games:
            for url in urls[:2]:
                ws = await ws_connect(f"ws{url[4:]}/api/games/{gid}/table/ws", compression=None)
                await ws.recv()  # the table's view
                pages[gid, url] = ws

        async def pushed(ws, n: int) -> float:
            while True:
                body = json.loads(await asyncio.wait_for(ws.recv(), 60))
                if body["type"] == "talk" and body["message"]["n"] == n:
                    return time.perf_counter()

        posted, near, far = [], [], []
        for i in range(messages):
            gid, tokens = games[i % len(games)]
            n = i // len(games)
            t0 = time.perf_counter()
            waits = [asyncio.ensure_future(pushed(pages[gid, url], n)) for url in urls[:2]]
            r = await c.post(f"/api/games/{gid}/talk", headers={"Authorization": f"Bearer {tokens[n % 4]}"},
                             json={"text": f"message {i}", "to": None})
            r.raise_for_status()
            posted.append(time.perf_counter() - t0)
            here, there = await asyncio.gather(*waits)
            near.append(here - t0)
            far.append(there - t0)
        for ws in pages.values():
            await ws.close()
    return posted, near, far


def talk_latency(args) -> None:
    with fresh(args.database) as database:
        procs = start(database, 2)
        try:
            posted, near, far = asyncio.run(talked([u for _, u in procs], args.messages))
        finally:
            stop(procs)
    print(f"table talk, {len(far)} messages posted one at a time through one of 2 processes: "
          f"the post's 201 {pct(posted)}; pushed on its own process {pct(near)}; "
          f"on the other process {pct(far)} (load {os.getloadavg()[0]:.1f})", flush=True)


def deadline_race(args) -> None:
    """``--rounds`` deadline rounds (over ``--games`` games of two silent people) raced
    for by three processes that each end every round whose deadline they see passed
    (``clocked_serve.py --race``), the clock moved one deadline on once all three show
    every game's round begun.  Counted from ``deadline_ends``: the rounds ended once, twice,
    never; and from the processes' logs, the ends each tried and lost to the head's check."""
    each = -(-args.rounds // args.games)
    with fresh(args.database) as database, logs_in(args.logs) as tmp:
        clock, now = Path(tmp) / "clock", clocked_serve.T0
        clocked_serve.set_clock(clock, now)
        procs = start(database, 3, ["--clock-file", str(clock), "--race", "--sweep-every", "0.1"], tmp)
        try:
            urls = [u for _, u in procs]
            games = [clocked_serve.silent_brittania(urls[i % 3], each + 2) for i in range(args.games)]
            client = httpx.Client(timeout=60)

            def begun(at: float) -> bool:
                return all(client.get(f"{u}/api/games/{gid}", headers={"Authorization": f"Bearer {tok}"}).json()
                           ["deadline"]["at"] == at + clocked_serve.DEADLINE for u in urls for gid, tok in games)

            def ended(k: int) -> bool:
                rows = query(database, "SELECT game_id, count(*) FROM deadline_ends GROUP BY game_id")
                return len(rows) == len(games) and all(c >= k for _, c in rows)

            t0 = time.perf_counter()
            for k in range(1, each + 1):
                until(f"every process to show every game's round {k} begun", lambda: begun(now))
                now += clocked_serve.DEADLINE
                clocked_serve.set_clock(clock, now)
                until(f"round {k} of every game ended", lambda: ended(k))
            until("every process at rest", lambda: begun(now))
            dt = time.perf_counter() - t0
        finally:
            stop(procs)
        per_round = query(database, "SELECT game_id, round, count(*) FROM deadline_ends GROUP BY game_id, round")
        by = query(database, 'SELECT "by", count(*) FROM deadline_ends GROUP BY "by"')
        tiled = sum(1 for gid, _ in games if _tiled(clocked_serve.deadline_ends(database, gid),
                                                   query(database, "SELECT count(*) FROM answers WHERE game_id = :g",
                                                         g=gid)[0][0], each))
        lost = sum(open(os.path.join(tmp, f"serve-{i}.log")).read().count("the deadline's answers could not be")
                   for i in range(3))
    rounds = len(games) * each
    print(f"{rounds} deadline rounds ({len(games)} games x {each}) raced for by 3 processes in {dt:.0f} s: "
          f"{sum(1 for *_, c in per_round if c == 1)} ended once, {sum(1 for *_, c in per_round if c > 1)} twice "
          f"or more, {rounds - len(per_round)} never; {tiled}/{len(games)} games' records tiled by their rounds' "
          f"answers; ends won per process {sorted(c for _, c in by)}, ends tried and lost to the head's check "
          f"{lost} (load {os.getloadavg()[0]:.1f})", flush=True)


def _tiled(ends: list[tuple], stored: int, rounds: int) -> bool:
    """Whether a game's ended rounds are 1..``rounds`` once each and their answers follow
    one another to the last one stored (none given twice, none by anyone else)."""
    return ([r for r, *_ in ends] == [str(t) for t in range(1, rounds + 1)]
            and all(b[1] == a[1] + a[2] for a, b in zip(ends, ends[1:])) and ends[-1][1] + ends[-1][2] == stored)


async def answering(urls: list[str], games: list[dict], until_t: float) -> None:
    """Each game's person answering flat out through one of the processes in ``urls``
    (replaced as processes die and start), as a page keeps its connection, and through
    the next once its process is gone; every 200 noted in ``game["acked"]`` (answer
    number -> key).  The state a 200 brings is the one answered next (a page's way)."""
    async with httpx.AsyncClient(timeout=30, limits=httpx.Limits(max_connections=200)) as client:
        async def play(i: int, g: dict) -> None:
            k, s = i, None
            while time.perf_counter() < until_t and not g["over"]:
                url = urls[k % len(urls)]
                head = {"Authorization": f"Bearer {g['token']}"}
                trace = g.get("trace")
                try:
                    if s is None:
                        t = time.time()
                        s = (await client.get(f"{url}/api/games/{g['id']}", headers=head)).json()
                        if trace is not None:
                            trace.append(("GET", url, t, time.time(), bool(s.get("pending"))))
                    g["over"] = s["over"]
                    if not s["pending"]:
                        s = None
                        await asyncio.sleep(0.05)
                        continue
                    options = s["pending"][0]["options"]
                    key = options[(s["version"] * 7) % len(options)]["key"]
                    g["sent"] += 1
                    t = time.time()
                    r = await client.post(f"{url}/api/games/{g['id']}/answers", headers=head,
                                          json={"key": key, "version": s["version"]})
                    if trace is not None:
                        trace.append(("POST", url, t, time.time(), r.status_code))
                except (httpx.HTTPError, ValueError, KeyError, AttributeError) as exc:
                    if trace is not None:
                        trace.append(("error", url, time.time(), time.time(), type(exc).__name__))
                    # its process is gone: another (httpcore may read the peer of a socket
                    # the kill closed as it connected, an AttributeError)
                    k += 1
                    s = None
                    await asyncio.sleep(0.05)
                    continue
                if r.status_code == 200:
                    g["acked"][s["version"]] = key
                    s = r.json()
                    continue
                if r.status_code != 409:
                    g["unexpected"].append(f"{r.status_code} {r.text[:200]}")
                s = None

        await asyncio.gather(*(play(i, g) for i, g in enumerate(games)))


class Records:
    """Queries of the soak's database on one connection pool of its own (a thread's)."""

    def __init__(self, database: str) -> None:
        from sqlalchemy import create_engine

        self.engine = create_engine(database.replace("postgresql://", "postgresql+psycopg://", 1))

    def __call__(self, sql: str, **params) -> list:
        from sqlalchemy import text

        with self.engine.connect() as conn:
            return conn.execute(text(sql), params).all()

    def owner_work(self, bot_games: list[str], deadline_games: list[str]) -> dict[str, int]:
        """What only a game's owner does, counted per game: its bots' answers stored (the
        seats past the person's), its rounds ended by a deadline."""
        rows = self("SELECT game_id, count(*) FROM answers WHERE player <> 0 AND game_id = ANY(:g) "
                    "GROUP BY game_id", g=bot_games)
        rows += self("SELECT game_id, count(*) FROM deadline_ends WHERE game_id = ANY(:g) GROUP BY game_id",
                     g=deadline_games)
        return dict(rows)

    def close(self) -> None:
        self.engine.dispose()


def kill_soak(args) -> None:
    """Three processes under load (``--games`` games of a person answering flat out and
    three bots, ``--deadline-games`` games whose every round a deadline ends, the deadlines'
    clock sped up ``--speed`` times); every ``--kill-every`` s, whatever else is going on,
    one of them SIGKILLed and another started in its place, for ``--seconds``.  Counted:
    the answers acknowledged and lost, the bot turns and deadline rounds run twice (the
    records: each round's ends, every game's answers replayed; the logs: the turns and ends
    tried and lost to the head's check), and for each death the seconds until every game
    its victim owned moved again: claimed by another process, and its bots answered or its
    person asked (the game then waits for nobody's owner), or, a game with deadlines, a
    round ended (the next deadline's; one comes every ``60 / --speed`` s)."""
    epoch = time.time()
    with fresh(args.database) as database, logs_in(args.logs) as tmp:
        clocked = ["--clock-speed", str(args.speed), "--clock-epoch", repr(epoch), "--clock-start", repr(epoch)]
        clocked += ["--lease", args.lease] if args.lease else []
        if args.timeline:
            os.environ["REALMS_TIMELINE"] = "1"  # the processes log their requests and loads
        procs = start(database, 3, clocked, tmp)
        logs = [f"serve-{i}.log" for i in range(3)]
        urls = [u for _, u in procs]
        bot_games = [{"id": gid, "token": tok, "acked": {}, "sent": 0, "unexpected": [], "over": False,
                      **({"trace": []} if args.timeline else {})}
                     for gid, tok in (_bot_game(urls[i % 3], i) for i in range(args.games))]
        deadline_games = [clocked_serve.silent_brittania(urls[i % 3], 100)[0] for i in range(args.deadline_games)]
        bot_ids = [g["id"] for g in bot_games]
        tokens = {g["id"]: g["token"] for g in bot_games}
        ids = {u: httpx.get(u + "/api/health").json()["process"] for u in urls}
        t0 = time.perf_counter()
        end = t0 + args.seconds
        deaths: list[dict] = []
        threads: list[threading.Thread] = []
        lock = threading.Lock()

        def replace(victim: int, name: str) -> None:
            new = start_one(database, clocked, os.path.join(tmp, name))
            with lock:
                procs[victim] = new
            ready(*new)
            ids[new[1]] = httpx.get(new[1] + "/api/health").json()["process"]
            urls[victim] = new[1]

        def killer() -> None:
            records = Records(database)
            for k in range(10 ** 6):
                at = t0 + args.kill_every * (k + 1)
                if at > end - 1:
                    break
                time.sleep(max(0.0, at - time.perf_counter()))
                victim = k % 3
                with lock:
                    proc, url = procs[victim]
                owner = ids.get(url)
                if owner is None:  # its replacement has not started yet: no owner to kill
                    deaths.append({"at": at - t0, "owned": 0, "moved": {}, "claimed": {}, "stuck": 0,
                                   "skipped": True})
                    continue
                owned = {g for (g,) in records("SELECT game_id FROM realms_leases WHERE owner = :o", o=owner)}
                owned -= {g["id"] for g in bot_games if g["over"]}
                before = records.owner_work(bot_ids, deadline_games)
                proc.kill()
                died, wall = time.perf_counter(), time.time()
                urls[victim] = urls[(victim + 1) % 3]  # the players go elsewhere meanwhile
                death = {"at": died - t0, "owned": len(owned), "moved": {}, "claimed": {}, "died": wall,
                         "wall": time.strftime("%H:%M:%S") + f"{time.time() % 1:.2f}"[1:]}
                deaths.append(death)
                logs.append(f"serve-{len(logs)}.log")
                t = threading.Thread(target=replace, args=(victim, logs[-1]), daemon=True)
                t.start()
                threads.append(t)
                alive = [u for i, u in enumerate(urls) if i != victim]
                watching.append((death, watchers.submit(watch_death, database, owner, sorted(owned), before,
                                                        wall, alive, bot_ids, deadline_games, tokens)))
                proc.wait()
            records.close()

        # each death watched in a process of its own: not slowed by the load generator's
        watchers = ProcessPoolExecutor(3, mp_context=multiprocessing.get_context("fork"))
        watching: list[tuple[dict, Any]] = []
        watchers.submit(int).result()
        kills = threading.Thread(target=killer, daemon=True)
        kills.start()
        try:
            asyncio.run(answering(urls, bot_games, end))
            dt = time.perf_counter() - t0
            kills.join(120)
            for t in threads:
                t.join(120)
            for death, fut in watching:
                death.update(fut.result(timeout=120))
        finally:  # no process left running on a database about to be dropped
            watchers.shutdown()
            stop(procs)
        records = Records(database)
        acked = sum(len(g["acked"]) for g in bot_games)
        sent = sum(g["sent"] for g in bot_games)
        lost = 0
        for g in bot_games:
            stored = dict(((n, k) for n, p, k in records("SELECT n, player, key FROM answers WHERE "
                                                         "game_id = :g AND player = 0", g=g["id"])))
            lost += sum(1 for n, key in g["acked"].items() if stored.get(n) != key)
        twice = records("SELECT count(*) FROM (SELECT game_id, round FROM deadline_ends "
                        "GROUP BY game_id, round HAVING count(*) > 1) t")[0][0]
        rounds = records("SELECT count(*) FROM deadline_ends")[0][0]
        bot_answers = sum(records.owner_work(bot_ids, []).values())
        records.close()
        unreplayed = _unreplayed(database, bot_ids + deadline_games)
        texts = [open(os.path.join(tmp, name)).read() for name in logs]
        bots_lost = sum(t.count(": the bots stopped") for t in texts)
        ends_lost = sum(t.count("the deadline's answers could not be") for t in texts)
        errors = sum(t.count("Traceback") for t in texts)
        if args.timeline:
            timelines(args.timeline, deaths, bot_games, dict(zip(logs, texts)))
    moved = sorted(s for d in deaths for s in d["moved"].values())
    claimed = sorted(s for d in deaths for s in d["claimed"].values())
    slow = [d for d in deaths if max(d["moved"].values(), default=0) > 5 or d["stuck"]]
    print(f"SIGKILL soak, {sum(1 for d in deaths if not d.get('skipped'))} deaths in {dt:.0f} s (one every "
          f"{args.kill_every:g} s), 3 processes, {args.games} games answered flat out and {args.deadline_games} "
          f"with deadlines (clock x{args.speed:g}), leases {args.lease or 'as served'} "
          f"(load {os.getloadavg()[0]:.1f}):", flush=True)
    print(f"  answers sent {sent} ({sent / dt:.0f}/s), acknowledged {acked} ({acked / dt:.0f}/s), lost {lost}; "
          f"bots' answers stored {bot_answers}; unexpected replies {sum(len(g['unexpected']) for g in bot_games)}; "
          f"tracebacks in the logs {errors}", flush=True)
    print(f"  deadline rounds ended {rounds}, ended twice {twice}; games whose record does not replay "
          f"{len(unreplayed)}; bot turns and deadline ends tried and lost to the head's check {bots_lost} and "
          f"{ends_lost}", flush=True)
    print(f"  games owned by the dead process: {sum(d['owned'] for d in deaths)}; taken over after the death: "
          f"p50 {claimed[len(claimed) // 2] if claimed else 0:.2f} s, max {max(claimed, default=0):.2f} s; "
          f"moving again: p50 {moved[len(moved) // 2] if moved else 0:.2f} s, max {max(moved, default=0):.2f} s; "
          f"games over 5 s {sum(1 for m in moved if m > 5)}; deaths with a game over 5 s {len(slow)}; "
          f"not moving within 60 s {sum(d['stuck'] for d in deaths)}", flush=True)
    for kind, games in (("answered by a person and bots", set(bot_ids)), ("with deadlines", set(deadline_games))):
        these = [s for d in deaths for g, s in d["moved"].items() if g in games]
        print(f"  moving again, games {kind}: {spread(these)}", flush=True)
    print(f"  moving again, every game, by second after the death: {histogram(moved)}", flush=True)
    for d in deaths:
        if d.get("skipped"):
            print(f"    at {d['at']:.0f} s: no kill (the process in turn had not started yet)", flush=True)
            continue
        worst = max(d["moved"].values(), default=0)
        print(f"    death at {d['at']:.0f} s ({d['wall']}): {d['owned']} games, all taken over within "
              f"{max(d['claimed'].values(), default=0):.2f} s and moving again within {worst:.2f} s"
              + (f", {d['stuck']} not" if d["stuck"] else "") + f" (claimed by pids {sorted(d.get('by', ()))})", flush=True)


def timelines(path: str, deaths: list[dict], bot_games: list[dict], texts: dict[str, str]) -> None:
    """``--timeline``: for each game a dead process owned, the seconds from its death to
    each step of its moving again (claimed, as the survivor's log says and as the watcher
    saw; loaded in a survivor, and how long the load took; the watcher's first request and
    its answer; the person's first request to a survivor and its answer; the person's
    first answer stored; the bots' next answer stored), written to ``path`` as JSON, and
    the steps' p50/p90 said for the games over 5 s and for the others."""
    import datetime

    taken: dict[str, list[float]] = {}
    events: dict[str, list[tuple]] = {}
    stalls: list[tuple] = []
    for name, text in texts.items():
        for line in text.splitlines():
            if " taken over by " in line:
                at = datetime.datetime.strptime(line[:23], "%Y-%m-%d %H:%M:%S,%f").timestamp()
                taken.setdefault(line.split(" game ", 1)[1].split()[0], []).append(at)
            elif "realms.timeline: T " in line:
                w = line.split("realms.timeline: T ", 1)[1].split()
                if w[1] == "stall":
                    stalls.append((float(w[0]), float(w[2]), name))
                else:
                    events.setdefault(w[2], []).append(
                        (float(w[0]), w[1], name, *w[3:]))
    games = {g["id"]: g for g in bot_games}
    rows = []
    for d in deaths:
        if d.get("skipped"):
            continue
        died = d["died"]
        for gid, moved in list(d["moved"].items()) + [(g, None) for g in d.get("unmoved", ())]:
            row: dict = {"game": gid, "died": died, "moved": moved, "claimed_seen": d["claimed"].get(gid),
                         "bots": d.get("bots", {}).get(gid), "asks": d.get("asks", {}).get(gid, [])[:3]}
            row["claimed"] = min((t - died for t in taken.get(gid, ()) if t >= died), default=None)
            loads = [(t - died, float(rest[0]), name, rest[1]) for t, kind, name, *rest in events.get(gid, ())
                     if kind == "loaded" and t >= died]
            row["loads"] = sorted(loads)[:3]
            row["served"] = sorted((t - died, kind, name, *rest) for t, kind, name, *rest in events.get(gid, ())
                                   if kind in ("GET", "POST", "got", "advised") and died <= t <= died + 20)[:8]
            trace = [(kind, url, t0 - died, t1 - died, what) for kind, url, t0, t1, what in games.get(gid, {})
                     .get("trace", ()) if t1 >= died]
            row["person"] = trace[:4]
            row["answered"] = next((t1 for kind, _, _, t1, what in trace if kind == "POST" and what == 200), None)
            rows.append(row)
    with open(path, "w") as f:
        json.dump({"games": rows, "stalls": stalls}, f)

    def step(rows: list[dict], of) -> str:
        xs = sorted(x for r in rows if (x := of(r)) is not None)
        return f"p50 {xs[len(xs) // 2]:.2f} p90 {xs[len(xs) * 9 // 10]:.2f} max {xs[-1]:.2f} ({len(xs)})" if xs else "-"

    first_ask = lambda r: r["asks"][0] if r["asks"] else None  # noqa: E731
    steps = [("claimed (survivor's log)", lambda r: r["claimed"]),
             ("claimed (watcher)", lambda r: r["claimed_seen"]),
             ("loaded in a survivor", lambda r: r["loads"][0][0] if r["loads"] else None),
             ("  the load's own seconds", lambda r: r["loads"][0][1] if r["loads"] else None),
             ("watcher's first GET sent", lambda r: (a := first_ask(r)) and a[1]),
             ("  answered", lambda r: (a := first_ask(r)) and a[2]),
             ("person's first request sent", lambda r: r["person"][0][2] if r["person"] else None),
             ("  answered", lambda r: r["person"][0][3] if r["person"] else None),
             ("person's first answer stored (200)", lambda r: r["answered"]),
             ("bots' next answer stored", lambda r: r["bots"]),
             ("moving again", lambda r: r["moved"])]
    slow = [r for r in rows if r["game"] in games and (r["moved"] or 0) > 5]
    fast = [r for r in rows if r["game"] in games and r not in slow]
    print(f"  timeline (seconds after the death; {path}): person-and-bots games over 5 s ({len(slow)}) | "
          f"the others ({len(fast)})", flush=True)
    for name, of in steps:
        print(f"    {name}: {step(slow, of)} | {step(fast, of)}", flush=True)
    longest = max((s for _, s, _ in stalls), default=0)
    print(f"  event loop stalls over 0.1 s: {len(stalls)}, the longest {longest:.2f} s", flush=True)


def spread(seconds: list[float]) -> str:
    """``seconds``' count, p50, p90, max and how many are over 5."""
    if not seconds:
        return "none"
    s = sorted(seconds)
    return (f"{len(s)}, p50 {s[len(s) // 2]:.2f} s, p90 {s[min(len(s) - 1, len(s) * 9 // 10)]:.2f} s, "
            f"max {s[-1]:.2f} s, over 5 s {sum(1 for x in s if x > 5)}")


def histogram(seconds: list[float]) -> str:
    """How many of ``seconds`` fall in each whole second: ``"0-1 s: n, 1-2 s: n, …"``."""
    counts: dict[int, int] = {}
    for x in seconds:
        counts[int(x)] = counts.get(int(x), 0) + 1
    return ", ".join(f"{k}-{k + 1} s: {counts.get(k, 0)}" for k in range(max(counts, default=-1) + 1))


#: a page's first try to reconnect after its socket closed, in seconds, drawn between the
#: two, then doubled after each failed try up to the last (``web/reconnect.js``)
PAGE_AGAIN, PAGE_AGAIN_MAX = (0.25, 1.0), 30.0


def watch_death(database: str, owner: str, owned: list[str], before: dict, died: float, urls: list[str],
                bot_ids: list[str], deadline_games: list[str], tokens: dict) -> dict:
    """For the games ``owner`` held when it died (at ``died``, wall clock), the seconds
    until each was claimed by another process and until it moved again (its bots'
    answers or its deadline ends counted past ``before``, or its person asked), for at
    most 60 s.  Each game is watched as its page watches it: the page's socket to the
    dead process closed at the death, and the page asks for the game again as
    ``web/game.js`` does (:func:`_page`), through a live process in ``urls`` as a proxy
    without stickiness would send it, each page on its own; a game whose person it then
    finds asked moves again once it is also claimed, another when its records move (the
    page then waits for the pushes).  The claims and the records are looked at every
    0.1 s, each on a thread of its own so that none waits for another."""
    out: dict = {"claimed": {}, "moved": {}, "by": set(), "bots": {}, "asks": {}}
    unclaimed, lock = set(owned), threading.Lock()
    waiting = set(owned)
    asked: dict[str, float] = {}  # the games whose page found the person asked, and when

    def claims() -> None:
        records = Records(database)
        try:
            while unclaimed and time.time() - died < 60:
                held = dict(records("SELECT game_id, owner FROM realms_leases WHERE owner <> :o AND "
                                    "expires > extract(epoch from clock_timestamp()) AND game_id = ANY(:g)",
                                    o=owner, g=list(unclaimed)))
                at = time.time() - died
                with lock:
                    for gid, by in held.items():
                        out["claimed"][gid] = at
                        out["by"].add(by.split(":")[1])
                    unclaimed.difference_update(held)
                for gid in held:
                    if gid in asked:
                        moved(gid, at)
                time.sleep(0.1)
        finally:
            records.close()

    def moved(gid: str, at: float) -> None:
        with lock:
            if gid in waiting and gid not in unclaimed:
                out["moved"][gid] = at
                waiting.discard(gid)

    def work() -> None:
        records = Records(database)
        try:
            while waiting and time.time() - died < 60:
                now = records.owner_work(bot_ids, deadline_games)
                at = time.time() - died
                for g in [g for g in list(waiting) if now.get(g, 0) > before.get(g, 0)]:
                    out["bots"].setdefault(g, at)
                    moved(g, at)
                time.sleep(0.1)
        finally:
            records.close()

    def page(i: int, gid: str) -> None:
        at = _page(client, urls, i, gid, tokens.get(gid), died, lambda: gid in waiting, out["asks"].setdefault(gid, []))
        if at is not None:
            asked[gid] = at
            moved(gid, at)

    looks = [threading.Thread(target=f, daemon=True) for f in (claims, work)]
    for t in looks:
        t.start()
    client = httpx.Client(timeout=10, limits=httpx.Limits(max_connections=len(owned) + 1))
    pool = ThreadPoolExecutor(max(1, len(owned)))
    try:
        list(pool.map(page, range(len(owned)), owned))
    finally:
        for t in looks:
            t.join(60)
        with lock:
            out["stuck"] = len(waiting)
            out["unmoved"] = sorted(waiting)
        client.close()
        pool.shutdown()
    return out


def _page(client: httpx.Client, urls: list[str], i: int, gid: str, token: str | None, died: float, wanted,
          asks: list) -> float | None:
    """A game's page whose socket closed at ``died`` (wall clock), as ``web/game.js``'s
    ``connect`` does: it asks for the game again within ``PAGE_AGAIN`` s, each failed try
    doubling the wait, through the process a proxy picks (``urls``, the live ones, in
    turn from the ``i``-th), while ``wanted()``.  The seconds since ``died`` at which its
    reply said the game's person is to answer (or the game is over), None if it said
    not (its bots are to move: the page then waits for the pushes) or the page gave up
    (not wanted, or 60 s)."""
    if token is None:  # a game with deadlines: its records say when it moves
        return None
    wait, k = random.Random(i).uniform(*PAGE_AGAIN), i
    due = died + wait
    while wanted() and due - died < 60:
        time.sleep(max(0.0, due - time.time()))
        url = urls[k % len(urls)]
        sent = time.time() - died
        try:
            r = client.get(f"{url}/api/games/{gid}", headers={"Authorization": f"Bearer {token}"})
            s = r.json() if r.status_code == 200 else None
        except (httpx.HTTPError, ValueError):
            s = None
        asks.append((url, sent, time.time() - died))
        if s is not None:
            return asks[-1][2] if s.get("pending") or s.get("over") else None
        wait, k = min(wait * 2, PAGE_AGAIN_MAX), k + 1
        due = time.time() + wait
    return None


def _bot_game(url: str, i: int) -> tuple[str, str]:
    r = httpx.post(url + "/api/games", timeout=60, json={"game": "hy-breasil", "seed": 2000 + i,
                                                         "seats": ["human", "random", "random", "random"]})
    r.raise_for_status()
    return r.json()["id"], r.json()["seats"][0]["token"]


def _unreplayed(database: str, ids: list[str]) -> list[str]:
    """The games whose stored answers do not replay (an answer given twice would not be
    one the game then asked for)."""
    from realms.server.app import rebuild
    from realms.server.store import Store

    store, bad = Store(database), []
    try:
        for gid in ids:
            try:
                rebuild(store.load(gid)).state.release()
            except Exception:
                bad.append(gid)
    finally:
        store.close()
    return bad


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--database", required=True, help="postgresql://… (an admin connection: databases are made)")
    ap.add_argument("--games", type=int, default=30,
                    help="games played at once (default 30: fewer than heavy.WAITING, so that one process "
                         "flat out sheds none of their odds as busy, and does the same work an answer as several)")
    ap.add_argument("--seconds", type=float, default=8.0)
    ap.add_argument("--processes", type=int, default=2)
    ap.add_argument("--warm", type=float, default=3.0,
                    help="seconds the measured games are first answered before the flat-out figures are taken "
                         "(0: measured from a cold start, each worker's start counted in the CPU per answer)")
    ap.add_argument("--rate", type=float, default=500.0, help="answers/s offered in all for the push latency")
    ap.add_argument("--rounds", type=int, default=1000, help="deadline rounds raced for (--only deadlines)")
    ap.add_argument("--deadline-games", type=int, default=10, help="games with deadlines (--only kills)")
    ap.add_argument("--speed", type=float, default=24.0, help="the deadlines' clock's speed (--only kills)")
    ap.add_argument("--logs", help="a folder to keep the processes' logs in (--only kills, deadlines)")
    ap.add_argument("--lease", help="SECONDS,EVERY: the leases' length and renewal (--only kills; "
                                    "default: realms serve's)")
    ap.add_argument("--timeline", help="a file: each dead owner's game's steps to moving again, as JSON, and "
                                       "their spread said (--only kills; the processes log their requests)")
    ap.add_argument("--kill-every", type=float, default=20.0, help="seconds between two SIGKILLs (--only kills)")
    ap.add_argument("--games-at-once", type=int,
                    help="each server's burst of game creations for one address (default: ten per game made)")
    ap.add_argument("--messages", type=int, default=200, help="table talk messages posted (--only talk)")
    ap.add_argument("--only", choices=["push", "deadlines", "kills", "talk"],
                    help="only the push latency; only the deadline rounds raced for by three processes; only "
                         "the SIGKILL soak (--seconds long); only table talk's push across processes")
    args = ap.parse_args()
    SERVER_OPTIONS[:] = ["--games-at-once", str(args.games_at_once or 10 * (args.games + args.deadline_games))]
    asyncio.set_event_loop_policy(uvloop.EventLoopPolicy())
    print(f"load average before: {os.getloadavg()}, {os.cpu_count()} CPUs", flush=True)
    if args.only == "kills":
        kill_soak(args)
        return
    if args.only == "deadlines":
        deadline_race(args)
        return
    if args.only == "push":
        push_said(args)
        return
    if args.only == "talk":
        talk_latency(args)
        return
    one = flat_out(args, 1)
    print(f"1 process: {said(one)} (load {os.getloadavg()[0]:.1f})", flush=True)
    many = flat_out(args, args.processes)
    print(f"{args.processes} processes: {said(many)} (load {os.getloadavg()[0]:.1f})", flush=True)
    print(f"  {args.processes} against 1: {many['rate'] / one['rate']:.2f}x the answers/s, "
          f"{many['server'] / one['server']:.2f}x the servers' CPU per answer", flush=True)
    if abs(many["refused"] - one["refused"]) > 0.02:
        print(f"  not the same work: the odds' jobs refused as busy, {one['refused']:.2f} per answer with 1 "
              f"process, {many['refused']:.2f} with {args.processes} (a process sheds them past heavy.WAITING "
              f"waiting: fewer games a process, fewer shed)", flush=True)
    print(f"the machine's own speed-up for {args.processes} CPU loops: {machine_speedup(args.processes):.2f}x "
          f"(load {os.getloadavg()[0]:.1f})", flush=True)
    push_said(args)


def push_said(args) -> None:
    lat, count, rate, missed = push_latency(args, args.processes)
    print(f"push across processes at {args.rate:.0f}/s offered ({rate:.0f}/s made, {count} pushes, {missed} "
          f"never seen): {lat} (load {os.getloadavg()[0]:.1f})", flush=True)


if __name__ == "__main__":
    main()
