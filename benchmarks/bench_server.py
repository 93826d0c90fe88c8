"""The web app under load: answers per second through the HTTP API and latency.

Starts ``realms serve`` on a loopback port with a temporary SQLite file (or --database),
creates GAMES games of a person against bot opponents, and plays them all at once from
scripted clients (one asyncio task per game, each with the game's page WebSocket open,
answering its decision as soon as its turn comes: in the 200 of its previous answer, or,
when the bots are to reply, in the push that brings their answers, which they play in the
background).  Every answer is durable before its 200, every bot answer before its push.
The latency is the answers' (POST to 200); "turn back" is from a 200 that leaves the bots
to play to the push that gives the person its turn again.  Then the server is SIGKILLed
mid-run, restarted, and the answers acknowledged (by a 200 or a push) but missing are
counted (must be 0).  All of it with one and with three bot opponents (``--opponents``),
each on a server of its own; a table of the figures at the end, with the server's CPU time
per person answer (its main process, and its bots' process: Linux's /proc), which a loaded
machine changes much less than the latency.

    .venv/bin/python benchmarks/bench_server.py [--games 100] [--seconds 10] [--bots auto] [--opponents 1,3]

``--webhooks``: every person's seat is subscribed to a webhook (a receiver in this
process, on 127.0.0.1, the server started with ``--allow-local-webhooks``), so the
notices' outbox works under the load; after the SIGKILL and the restart the receiver's
count says whether each notice arrived once (``X-Realms-Notice``: the outbox key).

``--misbehave``: the held run again with one misbehaving client of each kind beside the
well-behaved games (:func:`misbehave`): a spectator's WebSocket that never reads, a
client asking for uncached replays of a finished game, one creating bots-only games of
``ismcts`` bots, one creating games on islands made from seeds, one opening WebSockets
by the hundred, and twelve Brittania seats answering the same version at once; the
well-behaved games' latency is compared with the run without them.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time

import httpx
import uvloop
from websockets.asyncio.client import connect as ws_connect
from websockets.exceptions import ConnectionClosed, InvalidMessage


def player_address(i: int) -> str:
    """The loopback address the ``i``-th well-behaved player connects from (Linux answers
    all of 127.0.0.0/8): the server bounds what one address may hold, as it would on the
    internet; the misbehaving clients connect from 127.0.0.1."""
    return f"127.1.{i // 250}.{i % 250 + 1}"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Receiver:
    """A webhook receiver on 127.0.0.1: how many times each notice key arrived."""

    def __init__(self) -> None:
        import threading
        from collections import Counter
        from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

        self.keys: Counter = Counter()
        keys = self.keys

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                self.rfile.read(int(self.headers["Content-Length"]))
                keys[self.headers.get("X-Realms-Notice", "")] += 1
                self.send_response(204)
                self.end_headers()

            def log_message(self, *args) -> None:
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}/hook"
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()


async def misbehave(url: str, stop: asyncio.Event, counts: dict, kinds: set[str]) -> None:
    """One misbehaving client of each of ``kinds`` (all: :data:`MISBEHAVING`), until
    ``stop``; what each got in ``counts``."""
    host, port = url.split("//", 1)[1].split(":")

    async def never_reads() -> None:
        async with httpx.AsyncClient(base_url=url, timeout=30) as c:
            gid = (await c.get("/api/games")).json()["games"][0]["id"]
        raw = socket.socket()
        raw.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        raw.connect((host, int(port)))
        raw.sendall((f"GET /api/games/{gid}/ws HTTP/1.1\r\nHost: {host}\r\nUpgrade: websocket\r\n"
                     "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
                     "Sec-WebSocket-Version: 13\r\n\r\n").encode())
        await stop.wait()  # and never reads a byte
        raw.close()

    async with httpx.AsyncClient(base_url=url, timeout=60) as c:  # the game to replay, made first
        finished = None if "replays" not in kinds else (await c.post("/api/games", json={"game": "hy-breasil", "options": {"turns": 15},
                                                     "seats": ["auto"] * 4})).json()["id"]

    async def replays() -> None:
        async with httpx.AsyncClient(base_url=url, timeout=60) as c:
            gid = finished
            while not (await c.get(f"/api/games/{gid}")).json()["over"] and not stop.is_set():
                await asyncio.sleep(0.5)
            n = 0
            while not stop.is_set():
                n += 1
                for path in (f"/api/games/{gid}?at={n}", f"/api/games/{gid}/board.svg?at={n}"):
                    r = await c.get(path)
                    counts[f"replay {r.status_code}"] = counts.get(f"replay {r.status_code}", 0) + 1

    async def creates(body: dict, name: str) -> None:
        async with httpx.AsyncClient(base_url=url, timeout=120) as c:
            while not stop.is_set():
                r = await c.post("/api/games", json=body)
                counts[f"{name} {r.status_code}"] = counts.get(f"{name} {r.status_code}", 0) + 1
                if r.status_code != 201:
                    await asyncio.sleep(1)

    async def sockets() -> None:
        async with httpx.AsyncClient(base_url=url, timeout=30) as c:
            gid = (await c.get("/api/games")).json()["games"][0]["id"]
        held = []
        for _ in range(200):
            try:
                ws = await ws_connect(f"ws{url[4:]}/api/games/{gid}/ws", compression=None)
                await ws.recv()
                held.append(ws)
                counts["sockets open"] = counts.get("sockets open", 0) + 1
            except Exception:  # refused before the handshake ends (HTTP 403) or closed at once
                counts["sockets refused"] = counts.get("sockets refused", 0) + 1
        await stop.wait()
        for ws in held:
            await ws.close()

    async def simultaneous() -> None:
        async with httpx.AsyncClient(base_url=url, timeout=60) as c:
            r = await c.post("/api/games", json={"game": "brittania", "seats": ["human"] * 12})
            gid, tokens = r.json()["id"], {s["seat"]: s["token"] for s in r.json()["seats"]}
            while not stop.is_set():
                spectator = (await c.get(f"/api/games/{gid}")).json()
                if spectator["over"]:
                    break
                seen = [(await c.get(f"/api/games/{gid}", headers={"Authorization": f"Bearer {tokens[p]}"})).json()
                        for p in spectator["awaiting"]]

                async def send(state: dict, p: int) -> None:
                    r = await c.post(f"/api/games/{gid}/answers", headers={"Authorization": f"Bearer {tokens[p]}"},
                                     json={"key": state["pending"][0]["options"][0]["key"],
                                           "version": state["version"]})
                    counts[f"simultaneous {r.status_code}"] = counts.get(f"simultaneous {r.status_code}", 0) + 1

                await asyncio.gather(*(send(st, p) for st, p in zip(seen, spectator["awaiting"]) if st["pending"]))

    clients = {"never-reads": never_reads, "replays": replays, "sockets": sockets, "simultaneous": simultaneous,
               "bots-only": lambda: creates({"game": "hy-breasil", "seats": ["ismcts"] * 4}, "bots-only"),
               "map-seed": lambda: creates({"game": "hy-breasil", "options": {"map_seed": 7},
                                            "seats": ["human", "auto"]}, "map_seed")}
    await asyncio.gather(*(clients[k]() for k in MISBEHAVING if k in kinds))


#: the misbehaving clients of ``--misbehave``
MISBEHAVING = ("never-reads", "replays", "sockets", "simultaneous", "bots-only", "map-seed")


def start(database: str, webhooks: bool = False) -> tuple[subprocess.Popen, str]:
    port = free_port()
    # the server's own limits per address: each player creates its game from its own
    proc = subprocess.Popen([sys.executable, "-m", "realms.server", "--port", str(port), "--database", database]
                            + (["--allow-local-webhooks"] if webhooks else []),
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}"
    for _ in range(300):
        try:
            if httpx.get(url + "/api/health", timeout=1).status_code == 200:
                return proc, url
        except httpx.HTTPError:
            time.sleep(0.1)
    proc.kill()
    raise SystemExit("server did not start")


async def create_games(url: str, n: int, seats: list[str]) -> list[dict]:
    """``n`` games, each created by its player from the player's own address."""
    out = []
    for i in range(n):
        transport = httpx.AsyncHTTPTransport(local_address=player_address(i))
        async with httpx.AsyncClient(base_url=url, timeout=30, transport=transport) as c:
            r = await c.post("/api/games", json={"game": "hy-breasil", "options": {"turns": 15},
                                                 "seed": 1000 + i, "seats": seats})
            r.raise_for_status()
            out.append({"id": r.json()["id"], "token": r.json()["seats"][0]["token"], "acked": 0})
    return out


class Conn:
    """A minimal HTTP/1.1 keep-alive client: a load script must cost less than the server
    it measures (httpx's pool costs more CPU than the server per request here)."""

    def __init__(self, url: str, source: str | None = None) -> None:
        host, port = url.split("//", 1)[1].split(":")
        self.host, self.port = host, int(port)
        self.source = source
        self.reader = self.writer = None

    async def request(self, method: str, path: str, token: str, body: dict | None = None,
                      socket: str = "") -> tuple[int, dict]:
        if self.writer is None:
            self.reader, self.writer = await asyncio.open_connection(
                self.host, self.port, local_addr=(self.source, 0) if self.source else None)
        data = json.dumps(body).encode() if body is not None else b""
        named = f"X-Realms-Socket: {socket}\r\n" if socket else ""
        head = (f"{method} {path} HTTP/1.1\r\nHost: {self.host}\r\nAuthorization: Bearer {token}\r\n{named}"
                f"Content-Type: application/json\r\nContent-Length: {len(data)}\r\n\r\n").encode()
        self.writer.write(head + data)
        raw = await self.reader.readuntil(b"\r\n\r\n")
        lines = raw.decode("latin-1").split("\r\n")
        status = int(lines[0].split()[1])
        length = next(int(ln.split(":", 1)[1]) for ln in lines if ln.lower().startswith("content-length:"))
        payload = await self.reader.readexactly(length)
        return status, json.loads(payload)

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()


async def load(url: str, games: list[dict], seconds: float, latencies: list[float] | None,
               rate: float = 0.0, turns_back: list[float] | None = None) -> int:
    """Play all games at once for ``seconds``; returns the number of answers acknowledged.

    ``rate`` > 0 paces the clients to that many answers per second in all (each game
    answering at rate/games per second, staggered): an offered load held, whose latency
    is the server's; 0 answers as fast as the server allows (latency is then mostly queueing).
    """
    done = 0
    start = time.perf_counter()
    end = start + seconds
    period = len(games) / rate if rate > 0 else 0.0

    async def play(i: int, g: dict) -> None:
        nonlocal done
        source = player_address(i)  # each player from an address of its own, as on the internet
        conn = Conn(url, source)
        ws = reader = None
        pushed: list[str] = []  # the last push that asks something (or ends the game)
        arrived = asyncio.Event()

        async def read() -> None:
            """Read every push as a page does (unread, they would fill the socket and hold
            the server's sends up), parsing only those that ask something or end the game:
            the load script must cost less than the server it measures."""
            try:
                async for text in ws:
                    if '"pending":[]' not in text or '"over":true' in text:
                        pushed[:] = [text]
                        arrived.set()
            except ConnectionClosed:
                return  # killed under us

        try:
            # no compression, for the same reason (a browser would inflate each push, and
            # the server deflate it)
            # named as a page names its socket: the state of its own answers comes in their 200s only
            name = f"bench{i}"
            ws = await ws_connect(f"ws{url[4:]}/api/games/{g['id']}/ws?token={g['token']}&socket={name}", max_size=None,
                                  compression=None, local_addr=(source, 0))
            state = json.loads(await ws.recv())
            reader = asyncio.create_task(read())
            k = 0
            while time.perf_counter() < end and not state["over"]:
                if not state["pending"]:  # the bots play: their answers come over the WebSocket
                    t0 = time.perf_counter()
                    async with asyncio.timeout(max(0.1, end + 5 - time.perf_counter())):
                        while not state["pending"] and not state["over"]:
                            await arrived.wait()
                            arrived.clear()
                            new = json.loads(pushed[0])
                            if new["version"] >= state["version"]:
                                state = new
                                g["acked"] = max(g["acked"], state["version"])
                    if turns_back is not None:
                        turns_back.append(time.perf_counter() - t0)
                    continue
                if period:
                    due = start + period * (k + i / len(games))
                    k += 1
                    delay = due - time.perf_counter()
                    if delay > 0:
                        await asyncio.sleep(delay)
                opts = state["pending"][0]["options"]
                key = opts[(state["version"] * 7) % len(opts)]["key"]
                t0 = time.perf_counter()
                status, new = await conn.request("POST", f"/api/games/{g['id']}/answers", g["token"],
                                                 {"key": key, "version": state["version"]}, name)
                if latencies is not None:
                    latencies.append(time.perf_counter() - t0)
                if status != 200:
                    raise SystemExit(f"answer refused: {status} {new}")
                state = new
                g["acked"] = max(g["acked"], state["version"])
                done += 1
        except (OSError, asyncio.IncompleteReadError, asyncio.TimeoutError, ConnectionClosed):
            return  # killed under us
        finally:
            conn.close()
            if reader is not None:
                reader.cancel()
            if ws is not None:
                await ws.close()

    await asyncio.gather(*(play(i, g) for i, g in enumerate(games)))
    return done


def cpu_seconds(pid: int) -> float | None:
    """The CPU time (user + system) process ``pid`` has used, from /proc (Linux), else None."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return None


def children(pid: int) -> list[int]:
    """The child processes of ``pid`` (the server's bots' process), from /proc."""
    try:
        with open(f"/proc/{pid}/task/{pid}/children") as f:
            return [int(c) for c in f.read().split()]
    except OSError:
        return []


def cpu_used(pid: int) -> tuple[float | None, float]:
    """(the server process's CPU seconds, its children's: the bots' process)."""
    return cpu_seconds(pid), sum(cpu_seconds(c) or 0.0 for c in children(pid))


def pct(values: list[float]) -> str:
    """p50 and p99 of ``values`` (seconds) in milliseconds."""
    if not values:
        return "none"
    v = sorted(values)
    return f"p50 {v[len(v) // 2] * 1000:.1f} ms, p99 {v[min(len(v) - 1, int(len(v) * 0.99))] * 1000:.1f} ms"


def measure(args, opponents: int) -> dict:
    """One server, ``args.games`` games of a person against ``opponents`` bots: the held
    run, the flat-out run, then a SIGKILL mid-run and a restart; the figures, also printed."""
    tmp = tempfile.mkdtemp(prefix="realms-bench-")
    database = args.database or os.path.join(tmp, "bench.db")
    seats = ["human"] + [args.bots] * opponents
    out: dict = {"opponents": opponents}

    receiver = Receiver() if args.webhooks else None
    proc, url = start(database, args.webhooks)
    try:
        games = asyncio.run(create_games(url, args.games, seats))
        if receiver is not None:
            with httpx.Client(base_url=url, timeout=30) as c:
                for g in games:
                    c.put(f"/api/games/{g['id']}/notices", headers={"Authorization": f"Bearer {g['token']}"},
                          json={"webhook": receiver.url}).raise_for_status()

        def run(rate: float, title: str, key: str) -> None:
            lat: list[float] = []
            back: list[float] = []
            t0 = time.perf_counter()
            acked0 = sum(g["acked"] for g in games)
            cpu0 = cpu_used(proc.pid)
            n = asyncio.run(load(url, games, args.seconds, lat, rate, back))
            dt = time.perf_counter() - t0
            cpu1 = cpu_used(proc.pid)
            stored = sum(g["acked"] for g in games) - acked0
            # CPU per answer: robust to a loaded machine, where the latency is not
            cpu = ("n/a" if cpu0[0] is None or not n else
                   f"{(cpu1[0] - cpu0[0]) / n * 1000:.2f} ms (+ {(cpu1[1] - cpu0[1]) / n * 1000:.2f} ms in the bots' process)")
            out[key] = (n / dt, pct(lat), cpu)
            print(f"{title}: {n / dt:.0f} answers/s through the API, {pct(lat)} "
                  f"(mean {statistics.fmean(lat) * 1000:.1f} ms; {stored / dt:.0f} answers/s stored with the bots') "
                  f"; turn back after the bots: {pct(back)}; server CPU per person answer {cpu}; "
                  f"load average {os.getloadavg()[0]:.1f}", flush=True)

        print(f"{args.games} games at once ({' vs '.join(seats)}), {'database ' + args.database if args.database else 'SQLite file'}, "
              f"{args.seconds:.0f} s per run, every answer committed before its 200", flush=True)
        run(args.rate, f"  held {args.rate:.0f}/s offered", "held")
        if args.misbehave:
            async def beside() -> None:
                stop, counts = asyncio.Event(), {}
                bad = asyncio.create_task(misbehave(url, stop, counts, set(args.misbehave.split(","))))
                await asyncio.sleep(3)  # the misbehaving clients at work first
                await asyncio.to_thread(run, args.rate, f"  held {args.rate:.0f}/s offered, misbehaving clients beside",
                                        "misbehaved")
                stop.set()
                try:
                    await asyncio.wait_for(bad, 60)
                except Exception as exc:  # a misbehaving client's own failure is not the measure
                    counts["misbehaving client error"] = repr(exc)[:200]
                out["counts"] = counts
                print(f"  the misbehaving clients got: {counts}", flush=True)

            asyncio.run(beside())
            return out
        run(0.0, "  flat out", "flat")

        # SIGKILL mid-run, restart, count acknowledged answers that are missing
        async def kill_mid_run() -> None:
            task = asyncio.create_task(load(url, games, 3.0, None))
            await asyncio.sleep(1.5)
            os.kill(proc.pid, signal.SIGKILL)
            try:
                await task
            except (OSError, EOFError, ConnectionClosed, InvalidMessage):
                pass  # a client that was connecting when the server died

        asyncio.run(kill_mid_run())
        proc.wait(10)
    finally:
        if proc.poll() is None:
            proc.kill()
    proc, url = start(database, args.webhooks)
    try:
        lost = 0
        with httpx.Client(base_url=url, timeout=30) as c:
            for g in games:
                v = c.get(f"/api/games/{g['id']}", headers={"Authorization": f"Bearer {g['token']}"}).json()["version"]
                lost += max(0, g["acked"] - v)
        out["lost"] = (lost, sum(g["acked"] for g in games))
        print(f"  after SIGKILL mid-run and restart: {lost} acknowledged answers lost (of {out['lost'][1]})", flush=True)
        if receiver is not None:
            out["notices"] = notices_after(database, receiver)
            print("  notices: {} queued, {} arrived once, {} arrived more than once, {} claimed when the server "
                  "was killed (never sent: at most once), {} not sent".format(*out["notices"]), flush=True)
    finally:
        proc.terminate()
        proc.wait(10)
    return out


def notices_after(database: str, receiver: Receiver, seconds: float = 60.0) -> tuple:
    """Once the restarted server's outbox is empty (or ``seconds`` passed): (queued,
    arrived once, arrived twice or more, left 'sending' by the kill, neither sent nor
    sending)."""
    from realms.server import tabledb
    from realms.server.store import Store

    store = Store(database)
    try:
        end = time.monotonic() + seconds
        while True:
            rows = tabledb.notices(store)
            if not any(r["state"] == "queued" for r in rows) or time.monotonic() > end:
                break
            time.sleep(0.5)
        keys = {r["key"] for r in rows}
        once = sum(1 for k in keys if receiver.keys[k] == 1)
        twice = sum(1 for k in keys if receiver.keys[k] > 1)
        sending = sum(1 for r in rows if r["state"] == "sending" and not receiver.keys[r["key"]])
        unsent = sum(1 for r in rows if r["state"] != "sending" and not receiver.keys[r["key"]])
        return len(keys), once, twice, sending, unsent
    finally:
        store.close()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--seconds", type=float, default=10.0)
    ap.add_argument("--bots", default="auto", help="bot kind of the opponents (auto, random)")
    ap.add_argument("--opponents", default="1,3", help="numbers of bot opponents to measure, comma-separated")
    ap.add_argument("--rate", type=float, default=500.0, help="answers/s offered in all for the latency run")
    ap.add_argument("--database", help="database URL (default: a temporary SQLite file)")
    ap.add_argument("--webhooks", action="store_true", help="every person's seat subscribed to a local webhook")
    ap.add_argument("--misbehave", nargs="?", const=",".join(MISBEHAVING), default="",
                    help="the held run again beside one misbehaving client of each kind named (default: all of "
                         f"{', '.join(MISBEHAVING)}; no flat-out run, no SIGKILL)")
    args = ap.parse_args()
    # the load script's loop is uvloop, as the server's is (uvicorn's): it must cost less
    # than the server it measures
    asyncio.set_event_loop_policy(uvloop.EventLoopPolicy())
    results = [measure(args, int(n)) for n in args.opponents.split(",")]
    def row(name: str, cells, aim: str = "") -> None:
        print(f"| {name} | {' | '.join(cells)} | {aim} |")

    print()
    if args.misbehave:
        row("measure", [f"person v {r['opponents']} {args.bots}" for r in results], "aim")
        print("|---" * (len(results) + 2) + "|")
        row("latency, well-behaved games alone", [r["held"][1] for r in results], "p99 < 50 ms")
        row("the same beside misbehaving clients", [r["misbehaved"][1] for r in results], "p99 < 50 ms")
        row("answers per second there", [f"{r['misbehaved'][0]:.0f}" for r in results], f"≥ {args.rate:.0f}")
        return
    row("measure", [f"person v {r['opponents']} {args.bots}" for r in results], "aim")
    print("|---" * (len(results) + 2) + "|")
    row(f"answers per second at {args.rate:.0f}/s offered", [f"{r['held'][0]:.0f}" for r in results],
        f"≥ {args.rate:.0f}")
    row("latency there", [r["held"][1] for r in results], "p99 < 50 ms")
    row("server CPU per person answer there", [r["held"][2] for r in results])
    row("flat out: answers/s, latency", [f"{r['flat'][0]:.0f}, {r['flat'][1]}" for r in results])
    row("answers lost after SIGKILL mid-run", [f"{r['lost'][0]} of {r['lost'][1]}" for r in results], "0")
    if args.webhooks:
        row("notices: queued, once, twice+, lost to the kill", [", ".join(map(str, (n[0], n[1], n[2], n[3] + n[4])))
                                                                for n in (r["notices"] for r in results)],
            "twice+ 0")

if __name__ == "__main__":
    main()
