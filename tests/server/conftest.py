"""Fixtures for the web app: an app on a fresh database (SQLite, and PostgreSQL when
REALMS_TEST_POSTGRES names a server), and helpers that play through the API."""

from __future__ import annotations

import asyncio
import os
import time
import uuid
import warnings

import pytest

warnings.filterwarnings("ignore", message="Using `httpx` with `starlette.testclient`")


def pytest_configure(config) -> None:
    config.addinivalue_line("filterwarnings", "ignore:Using `httpx` with `starlette.testclient`")

from fastapi.testclient import TestClient  # noqa: E402

from realms.server import app as app_module  # noqa: E402
from realms.server.app import create_app  # noqa: E402

PG = os.environ.get("REALMS_TEST_POSTGRES")  # e.g. postgresql://realms:realms@127.0.0.1/realms


def database_params() -> list:
    """SQLite always; PostgreSQL in the ``postgres`` tier, when a server is named."""
    return ["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)] if PG else ["sqlite"]


def _admin(sql: str) -> None:
    """One statement on the PostgreSQL server itself (outside any transaction)."""
    from sqlalchemy import create_engine, text

    admin = create_engine(PG.replace("postgresql://", "postgresql+psycopg://", 1), isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(text(sql))
    admin.dispose()


def fresh_database(kind: str, tmp_path) -> str:
    if kind == "sqlite":
        return str(tmp_path / "realms.db")
    # one schema per test would need search_path games; a fresh database is simpler
    name = "realms_test_" + uuid.uuid4().hex[:10]
    _admin(f'CREATE DATABASE "{name}"')
    return PG.rsplit("/", 1)[0] + "/" + name


def drop_database(url: str) -> None:
    """Drop a test's PostgreSQL database (a server keeps every one otherwise: hundreds a
    run, gigabytes on a developer's machine); a SQLite file goes with its tmp_path."""
    if not (PG and url.startswith("postgresql")):
        return
    from sqlalchemy.exc import ProgrammingError

    deadline = time.monotonic() + 60
    while True:
        try:
            _admin(f'DROP DATABASE IF EXISTS "{url.rsplit("/", 1)[1]}" WITH (FORCE)')
            return
        except ProgrammingError as exc:
            # FORCE ends only the test role's sessions: another role's backend on the
            # database (an autovacuum worker's, the server's own) is waited out
            if "InsufficientPrivilege" not in type(exc.orig).__name__ or time.monotonic() > deadline:
                raise
            time.sleep(0.2)


@pytest.fixture(params=database_params())
def database(request, tmp_path):
    url = fresh_database(request.param, tmp_path)
    yield url
    drop_database(url)


@pytest.fixture
def client(database, monkeypatch):
    with TestClient(create_app(database)) as c:
        # the seed the server draws for itself, fixed per test by :func:`deal`
        c.deal = lambda seed: monkeypatch.setattr(app_module, "secret_seed", lambda: seed)
        yield c


def bearer(token: str | None) -> dict:
    return {"Authorization": f"Bearer {token}"} if token else {}


def new_game(client, game="hy-breasil", seats=("human", "auto", "auto", "auto"), options=None, seed=7):
    """Create a game of ``seed``: sent, or with more than one person (where no seed may be
    sent) drawn by the server as the test fixed it."""
    body = {"game": game, "options": options if options is not None else ({"turns": 2} if game == "hy-breasil" else {}),
            "seats": list(seats)}
    if seed is not None and list(seats).count("human") > 1:
        client.deal(seed)
    elif seed is not None:
        body["seed"] = seed
    r = client.post("/api/games", json=body)
    assert r.status_code == 201, r.text
    settled(client, r.json()["id"])
    return r.json()


def settled(client, gid: str, token: str | None = None, seconds: float = 60.0) -> dict:
    """The game as ``token``'s seat sees it once its bots have played: a person is awaited
    or the game is over (the bots play in the background after a creation or an answer)."""
    deadline = time.monotonic() + seconds
    while True:
        s = client.get(f"/api/games/{gid}", headers=bearer(token)).json()
        if s["over"] or all(s["seats"][p]["kind"] == "human" for p in s["awaiting"]):
            return s
        if time.monotonic() > deadline:
            pytest.fail(f"the bots of game {gid} still play after {seconds} s (version {s['version']})")
        time.sleep(0.01)


def odds_set_up(client, gid: str, seconds: float = 120.0) -> None:
    """Wait for the game's set-up in the odds' worker, if a request started one (the odds of
    a game not set up there come later: ``Server.advise``), and for its odds' push."""
    server = client.app.state.server

    async def wait() -> None:
        task = server.odds_tasks.get(gid)
        if task is not None:
            try:
                await asyncio.wait_for(asyncio.shield(task), seconds)
            except asyncio.TimeoutError:
                pytest.fail(f"the odds' set-up of game {gid} still runs after {seconds} s")

    client.portal.call(wait)


def advised_now(client, gid: str, token: str | None) -> dict:
    """The game as ``token``'s seat sees it, its odds worked out: asked again once the
    game's set-up in the odds' worker is done, if the first answer said they were coming."""
    s = client.get(f"/api/games/{gid}", headers=bearer(token)).json()
    if any(o["kind"] == "pending" for o in s["odds"]):
        odds_set_up(client, gid)
        s = client.get(f"/api/games/{gid}", headers=bearer(token)).json()
    return s
