"""``realms serve`` as a process: what only a real server on a loopback port shows.  The
bots' process ends with the server on a SIGTERM to the process group; ``X-Forwarded-For``
is trusted only from a proxy named by ``--trusted-proxy``; a WebSocket's token never
reaches the log."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import httpx
import pytest

from .test_durability import free_port, wait_for

# each starts a server process (its workers warmed): seconds each
pytestmark = pytest.mark.slow


def _group(pgid: int) -> list[str]:
    """The processes of the process group ``pgid``, as "pid command" lines."""
    out = []
    for d in Path("/proc").iterdir():
        if not d.name.isdigit():
            continue
        try:
            fields = (d / "stat").read_text().rsplit(")", 1)[1].split()
            if int(fields[2]) == pgid and fields[0] != "Z":
                command = (d / "cmdline").read_bytes().replace(bytes(1), b" ").decode()
                out.append(f"{d.name} {command[:200]}")
        except (OSError, IndexError, ValueError):
            continue  # gone meanwhile
    return out


class Served:
    """A ``realms serve`` in a process group of its own, its stderr in a file."""

    def __init__(self, tmp_path: Path, *args: str) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log = tmp_path / f"serve-{self.port}.log"
        with open(self.log, "wb") as err:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "realms.server", "--port", str(self.port),
                 "--database", str(tmp_path / "realms.db"), *args],
                stdout=subprocess.DEVNULL, stderr=err, start_new_session=True)

        def up():
            if self.proc.poll() is not None:
                pytest.fail(f"the server exited: {self.log.read_text()[-2000:]}")
            try:
                return httpx.get(self.url + "/api/health", timeout=2).status_code == 200
            except httpx.HTTPError:
                return False

        wait_for("the server's /api/health", up)

    def stop(self) -> None:
        if _group(self.proc.pid):
            os.killpg(self.proc.pid, signal.SIGKILL)
        self.proc.wait(30)


@pytest.fixture
def serve(tmp_path):
    started: list[Served] = []

    def start(*args: str) -> Served:
        started.append(Served(tmp_path, *args))
        return started[-1]

    yield start
    for s in started:
        s.stop()


def test_the_bots_process_ends_with_the_server_on_sigterm_to_the_group(serve):
    s = serve()
    # a bots-only game keeps the bots' process thinking when the signal comes
    r = httpx.post(s.url + "/api/games", json={"game": "hy-breasil", "options": {"turns": 15},
                                               "seats": ["auto", "auto", "auto", "auto"]}, timeout=30)
    assert r.status_code == 201, r.text
    gid = r.json()["id"]
    wait_for("the bots to play", lambda: httpx.get(f"{s.url}/api/games/{gid}", timeout=60).json()["version"] > 0)
    # a person's game: its odds, asked for by the person, start the odds' process
    r = httpx.post(s.url + "/api/games", json={"game": "hy-breasil", "options": {"turns": 2},
                                               "seats": ["human", "auto"]}, timeout=30)
    assert r.status_code == 201, r.text
    person = {"Authorization": f"Bearer {r.json()['seats'][0]['token']}"}
    wait_for("a decision with odds", lambda: _at_odds(f"{s.url}/api/games/{r.json()['id']}", person), seconds=120)
    # the server, the resource tracker, the bots' and the heavy work's processes
    wait_for("the workers", lambda: len(_group(s.proc.pid)) >= 4)
    os.killpg(s.proc.pid, signal.SIGTERM)
    s.proc.wait(60)
    left = []
    try:
        wait_for("every process of the server's group to end", lambda: not _group(s.proc.pid), seconds=30)
    except pytest.fail.Exception:
        left = _group(s.proc.pid)
    assert not left, f"still running 30 s after the server ended: {left}"


def _at_odds(url: str, person: dict) -> bool:
    """Whether the person's decision now is one the game gives odds for (its set-up's
    picks have none); if not, and the person is asked, answer with the first option."""
    from realms.games.hy_breasil import ADVICE_KINDS

    state = httpx.get(url, headers=person, timeout=60).json()
    if not state["pending"]:
        return False
    if state["pending"][0]["kind"] in ADVICE_KINDS:
        return True
    key = state["pending"][0]["options"][0]["key"]
    httpx.post(url + "/answers", headers=person, json={"key": key, "version": state["version"]}, timeout=60)
    return False


def test_x_forwarded_for_is_not_trusted_without_a_trusted_proxy(serve):
    s = serve("--games-at-once", "1", "--games-per-minute", "0.01")
    body = {"game": "hy-breasil", "options": {"turns": 2}, "seats": ["human", "auto"]}
    first = httpx.post(s.url + "/api/games", json=body, headers={"X-Forwarded-For": "203.0.113.1"}, timeout=30)
    assert first.status_code == 201, first.text
    other = httpx.post(s.url + "/api/games", json=body, headers={"X-Forwarded-For": "203.0.113.2"}, timeout=30)
    assert other.status_code == 429, "a client named another address in X-Forwarded-For and got a new bucket"


def test_a_trusted_proxy_names_the_client(serve):
    s = serve("--games-at-once", "1", "--games-per-minute", "0.01", "--trusted-proxy", "127.0.0.1")
    body = {"game": "hy-breasil", "options": {"turns": 2}, "seats": ["human", "auto"]}
    for client in ("203.0.113.1", "203.0.113.2"):
        r = httpx.post(s.url + "/api/games", json=body, headers={"X-Forwarded-For": client}, timeout=30)
        assert r.status_code == 201, r.text
    again = httpx.post(s.url + "/api/games", json=body, headers={"X-Forwarded-For": "203.0.113.2"}, timeout=30)
    assert again.status_code == 429


def test_a_websockets_token_is_not_logged(serve):
    import asyncio

    import websockets

    s = serve("--log-level", "info")
    r = httpx.post(s.url + "/api/games", json={"game": "hy-breasil", "options": {"turns": 2},
                                               "seats": ["human", "auto"]}, timeout=30)
    assert r.status_code == 201, r.text
    gid, token = r.json()["id"], r.json()["seats"][0]["token"]

    async def watch():
        async with websockets.connect(f"ws://127.0.0.1:{s.port}/api/games/{gid}/ws?token={token}&socket=a") as ws:
            return await asyncio.wait_for(ws.recv(), 60)

    assert gid in asyncio.run(watch())
    wait_for("the WebSocket's line in the log", lambda: f"/api/games/{gid}/ws" in s.log.read_text())
    assert token not in s.log.read_text()
    assert "token=…" in s.log.read_text()
