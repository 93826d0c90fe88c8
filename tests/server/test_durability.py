"""Durability: a real ``realms serve`` process on a loopback port and a temporary
SQLite file, answers played into it from several client threads at once, SIGKILL in the
middle, a restart on the same file — and every game continues from exactly where it was:
no acknowledged answer lost, the same view and decision at the same version, and play
goes on."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import httpx
import pytest

from realms.core.game import get_game

from .conftest import database_params, drop_database, fresh_database

GAMES = 6
SEATS = ["human", "auto", "auto"]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for(what: str, ok, seconds: float = 60.0, every: float = 0.1):
    """``ok()``'s first true answer, asked every ``every`` s; a failure naming ``what``
    after ``seconds``."""
    deadline = time.monotonic() + seconds
    while True:
        found = ok()
        if found:
            return found
        if time.monotonic() > deadline:
            pytest.fail(f"waited {seconds} s for {what}")
        time.sleep(every)


@contextlib.contextmanager
def served_in_thread(app, what: str = "the server"):
    """``app`` served by uvicorn in a thread of this process on a free loopback port: its
    URL once /api/health answers (within 30 s), the server stopped after."""
    import uvicorn

    srv = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=free_port(), log_level="warning"))
    thread = threading.Thread(target=srv.run, daemon=True)
    thread.start()
    url = f"http://127.0.0.1:{srv.config.port}"
    for _ in range(300):
        try:
            if httpx.get(url + "/api/health", timeout=1).status_code == 200:
                break
        except httpx.HTTPError:
            time.sleep(0.1)
    else:
        pytest.fail(f"{what} did not start within 30 s")
    try:
        yield url
    finally:
        srv.should_exit = True
        thread.join(10)


def start_server(database: str, tries: int = 3) -> tuple[subprocess.Popen, str]:
    """A ``realms serve`` process on a free port; a port taken between choosing it and the
    server binding it (other processes on the machine) is chosen again.  Its stderr goes
    to a file beside a file database (a pipe nobody reads would stop a server that logs
    much once the pipe is full)."""
    log = Path(database + ".log") if "://" not in database else Path(tempfile.mkstemp(suffix=".log")[1])
    for _ in range(tries):
        port = free_port()
        with open(log, "wb") as err:
            proc = subprocess.Popen(
                [sys.executable, "-m", "realms.server", "--port", str(port), "--database", database],
                stdout=subprocess.DEVNULL, stderr=err,
            )
        url = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 120  # a loaded machine warms the games slowly
        while time.monotonic() < deadline:
            if proc.poll() is not None:
                text = log.read_text(errors="replace")
                if "address already in use" in text.lower():
                    break
                raise RuntimeError(f"server exited: {text[-2000:]}")
            try:
                if httpx.get(url + "/api/health", timeout=1).status_code == 200:
                    return proc, url
            except httpx.HTTPError:
                time.sleep(0.1)
        else:
            proc.kill()
            raise RuntimeError("server did not answer /api/health within 120 s")
    raise RuntimeError(f"no free port for the server in {tries} tries")


def roundtrip(value):
    return json.loads(json.dumps(value))


def my_turn(c: httpx.Client, gid: str, headers: dict, state: dict, seconds: float = 120.0) -> dict:
    """``state`` if seat 0 has a decision in it, else the game as the server shows it once
    the bots (who play in the background after the 200) have played up to seat 0's turn."""
    deadline = time.monotonic() + seconds
    while not state["pending"] and not state["over"]:
        if time.monotonic() > deadline:
            raise RuntimeError(f"game {gid}: seat 0 still not awaited after {seconds} s")
        time.sleep(0.02)
        state = c.get(f"/api/games/{gid}", headers=headers).json()
    return state


@pytest.mark.parametrize("kind", database_params())
def test_sigkill_under_load_loses_no_answer(kind, tmp_path):
    database = fresh_database(kind, tmp_path)
    game = get_game("hy-breasil")
    proc, url = start_server(database)
    try:
        games = []
        with httpx.Client(base_url=url, timeout=60) as c:
            for i in range(GAMES):
                r = c.post("/api/games", json={"game": "hy-breasil", "options": {"turns": 4},
                                               "seed": 100 + i, "seats": SEATS})
                assert r.status_code == 201
                games.append({"id": r.json()["id"], "token": r.json()["seats"][0]["token"], "seed": 100 + i})

        acked: dict[str, dict] = {}        # game id -> last 200 (version, view, pending)
        in_flight: dict[str, str] = {}     # game id -> key sent, not yet acknowledged
        stop = threading.Event()
        errors: list[str] = []

        def player(g: dict) -> None:
            headers = {"Authorization": f"Bearer {g['token']}"}
            with httpx.Client(base_url=url, timeout=60, headers=headers) as c:
                try:
                    state = c.get(f"/api/games/{g['id']}").json()
                    acked[g["id"]] = state
                    for _ in range(2000):
                        state = my_turn(c, g["id"], headers, state)
                        acked[g["id"]] = state  # what the server shows is stored
                        if stop.is_set() or state["over"]:
                            return
                        opts = state["pending"][0]["options"]
                        key = opts[len(opts) // 2]["key"]
                        in_flight[g["id"]] = key
                        r = c.post(f"/api/games/{g['id']}/answers", json={"key": key, "version": state["version"]})
                        if r.status_code != 200:
                            errors.append(f"{r.status_code} {r.text[:200]}")
                            return
                        state = r.json()
                        acked[g["id"]] = state
                        in_flight.pop(g["id"], None)
                except httpx.HTTPError:
                    return  # the server was killed under us

        threads = [threading.Thread(target=player, args=(g,)) for g in games]
        for t in threads:
            t.start()
        # the kill comes mid-run: after 400 answers, or after 20 s once there are more than
        # 50 (a loaded machine plays slowly), within 300 s
        start = time.monotonic()
        while time.monotonic() < start + 300 and any(t.is_alive() for t in threads):
            played = sum(a["version"] for a in acked.values())
            if played >= 400 or (played > 50 and time.monotonic() > start + 20):
                break
            time.sleep(0.05)
        os.kill(proc.pid, signal.SIGKILL)  # mid-run: requests are in flight
        proc.wait(10)
        stop.set()
        for t in threads:
            t.join(20)
        assert not errors, errors
        assert sum(a["version"] for a in acked.values()) > 50, "too little load before the kill"
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(10)

    proc, url = start_server(database)
    try:
        with httpx.Client(base_url=url, timeout=60) as c:
            for g in games:
                headers = {"Authorization": f"Bearer {g['token']}"}
                now = c.get(f"/api/games/{g['id']}", headers=headers).json()
                before = acked[g["id"]]
                record = c.get(f"/api/games/{g['id']}/record", headers=headers).json()
                answers = [tuple(a) for a in record["answers"]]
                assert now["version"] == len(answers)
                # nothing acknowledged is lost; beyond it only the one answer in flight (if
                # any) and the bots' answers after it, played in the background, were stored
                assert now["version"] >= before["version"]
                later = answers[before["version"]:]
                if later and later[0][0] == 0:
                    assert later[0] == (0, in_flight[g["id"]])
                    later = later[1:]
                assert all(p != 0 for p, _ in later)
                # the acknowledged position is exactly the one the stored answers lead to
                state = game.new_game({"turns": 4, "players": 3}, g["seed"])
                for p, key in answers[: before["version"]]:
                    state.apply(p, key)
                assert roundtrip(state.view(0)) == before["view"]
                assert roundtrip([d.to_json() for d in state.pending_for(0)]) == [
                    {k: v for k, v in d.items() if k != "controls"} for d in before["pending"]]  # the page's hints aside
                for p, key in answers[before["version"]:]:
                    state.apply(p, key)
                assert roundtrip(state.view(0)) == now["view"]
                if now["version"] == before["version"]:
                    assert now["view"] == before["view"] and now["pending"] == before["pending"]
                # and the game goes on
                for _ in range(3):
                    now = my_turn(c, g["id"], headers, now)
                    if now["over"]:
                        break
                    r = c.post(f"/api/games/{g['id']}/answers", headers=headers,
                               json={"key": now["pending"][0]["options"][0]["key"], "version": now["version"]})
                    assert r.status_code == 200, r.text
                    now = r.json()
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(10)
        drop_database(database)
