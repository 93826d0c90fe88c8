"""Several server processes on one PostgreSQL database (``server/cluster.py``).

Three figures, on a fresh database each time, the load generator on the same machine:

1. flat-out answers per second and the servers' CPU per answer, one process against
   ``--processes`` processes (each game's player talks to the process it made the game
   through, the games spread over them), with the machine's own speed-up for that many processes measured the same
   way (a CPU loop in one process, then in as many at once);
2. push latency across processes: each game's person answers through one process while a
   spectator's WebSocket watches it through another; the time from sending the answer to
   the spectator's push of that version, at ``--rate`` answers per second offered in all.

    PYTHONPATH=src .venv/bin/python benchmarks/bench_processes.py \\
        --database postgresql://realms:realms@127.0.0.1/realms [--games 40] [--seconds 8]

The database named is the server's admin connection: a database of its own is made for
each run and dropped after.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import os
import subprocess
import sys
import time
import uuid

import httpx
import uvloop
from websockets.asyncio.client import connect as ws_connect
from websockets.exceptions import ConnectionClosed

sys.path.insert(0, os.path.dirname(__file__))
from bench_server import Conn, cpu_used, create_games, free_port, load, pct, player_address  # noqa: E402


def admin(url: str, sql: str) -> None:
    from sqlalchemy import create_engine, text

    engine = create_engine(url.replace("postgresql://", "postgresql+psycopg://", 1), isolation_level="AUTOCOMMIT")
    with engine.connect() as conn:
        conn.execute(text(sql))
    engine.dispose()


def start(database: str, n: int) -> list[tuple[subprocess.Popen, str]]:
    out = []
    for _ in range(n):
        port = free_port()
        proc = subprocess.Popen([sys.executable, "-m", "realms.server", "--port", str(port), "--database", database],
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        out.append((proc, f"http://127.0.0.1:{port}"))
    for proc, url in out:
        for _ in range(600):
            try:
                if httpx.get(url + "/api/health", timeout=1).json().get("listening"):
                    break
            except httpx.HTTPError:
                pass
            time.sleep(0.1)
        else:
            raise SystemExit(f"server {url} did not start")
    return out


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


def flat_out(args, n: int) -> tuple[float, float]:
    """(answers/s, servers' CPU ms per answer incl. their bots) with ``n`` processes."""
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
        cpu0 = [cpu_used(p.pid) for p, _ in procs]
        t0 = time.perf_counter()

        async def all_at_once() -> int:
            return sum(await asyncio.gather(*(load(urls[i], parts[i], args.seconds, None) for i in range(n))))

        done = asyncio.run(all_at_once())
        dt = time.perf_counter() - t0
        cpu1 = [cpu_used(p.pid) for p, _ in procs]
        cpu = sum((b[0] - a[0]) + (b[1] - a[1]) for a, b in zip(cpu0, cpu1))
        return done / dt, cpu / max(done, 1) * 1000
    finally:
        stop(procs)
        admin(args.database, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


async def across(urls: list[str], games: list[dict], seconds: float, rate: float) -> list[float]:
    """Each game answered through ``urls[i % n]`` and watched through ``urls[(i+1) % n]``:
    the seconds from an answer sent to the watcher's push of its version."""
    latencies: list[float] = []
    n = len(urls)
    start_t = time.perf_counter()
    end = start_t + seconds
    period = len(games) / rate

    async def play(i: int, g: dict) -> None:
        url, far = urls[i % n], urls[(i + 1) % n]
        source = player_address(i)
        conn = Conn(url, source)
        waits: list[tuple[int, float]] = []  # (version, sent at) not yet seen by the watcher
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
                    now = time.perf_counter()
                    v = json.loads(text)["version"]
                    while waits and waits[0][0] <= v:
                        latencies.append(now - waits.pop(0)[1])
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
                waits.append((new["version"], t0))
                state = new
        except (OSError, asyncio.TimeoutError, ConnectionClosed) as exc:
            print(f"  game {i}: {type(exc).__name__} {exc}", file=sys.stderr)
        finally:
            await asyncio.sleep(1.0)  # the last pushes
            for t in tasks:
                t.cancel()
            conn.close()
            await mine.close()
            await watcher.close()

    await asyncio.gather(*(play(i, g) for i, g in enumerate(games)))
    return latencies


def push_latency(args, n: int) -> tuple[str, int, float]:
    name = "realms_bench_" + uuid.uuid4().hex[:8]
    admin(args.database, f'CREATE DATABASE "{name}"')
    database = args.database.rsplit("/", 1)[0] + "/" + name
    procs = start(database, n)
    try:
        urls = [u for _, u in procs]
        games = asyncio.run(create_games(urls[0], args.games, ["human", "auto"]))
        t0 = time.perf_counter()
        lat = asyncio.run(across(urls, games, args.seconds, args.rate))
        return pct(lat), len(lat), len(lat) / (time.perf_counter() - t0)
    finally:
        stop(procs)
        admin(args.database, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--database", required=True, help="postgresql://… (an admin connection: databases are made)")
    ap.add_argument("--games", type=int, default=40)
    ap.add_argument("--seconds", type=float, default=8.0)
    ap.add_argument("--processes", type=int, default=2)
    ap.add_argument("--rate", type=float, default=500.0, help="answers/s offered in all for the push latency")
    ap.add_argument("--only", choices=["push"], help="only the push latency")
    args = ap.parse_args()
    asyncio.set_event_loop_policy(uvloop.EventLoopPolicy())
    print(f"load average before: {os.getloadavg()}, {os.cpu_count()} CPUs", flush=True)
    if args.only == "push":
        lat, count, rate = push_latency(args, args.processes)
        print(f"push across processes at {args.rate:.0f}/s offered ({rate:.0f}/s made, {count} pushes): {lat} "
              f"(load {os.getloadavg()[0]:.1f})", flush=True)
        return
    one = flat_out(args, 1)
    print(f"1 process: {one[0]:.0f} answers/s flat out, {one[1]:.2f} ms CPU per answer "
          f"(load {os.getloadavg()[0]:.1f})", flush=True)
    many = flat_out(args, args.processes)
    print(f"{args.processes} processes: {many[0]:.0f} answers/s flat out ({many[0] / one[0]:.2f}x), "
          f"{many[1]:.2f} ms CPU per answer ({many[1] / one[1]:.2f}x) (load {os.getloadavg()[0]:.1f})", flush=True)
    print(f"the machine's own speed-up for {args.processes} CPU loops: {machine_speedup(args.processes):.2f}x "
          f"(load {os.getloadavg()[0]:.1f})", flush=True)
    lat, count, rate = push_latency(args, args.processes)
    print(f"push across processes at {args.rate:.0f}/s offered ({rate:.0f}/s made, {count} pushes): {lat} "
          f"(load {os.getloadavg()[0]:.1f})", flush=True)


if __name__ == "__main__":
    main()
