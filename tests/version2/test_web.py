"""version² through the web app's API: a person against three ``general`` bots; his view
shows his mission and no other; the board is served as SVG; a path as ``map`` is refused."""

from __future__ import annotations

import json
import time
import warnings

import pytest

warnings.filterwarnings("ignore", message="Using `httpx` with `starlette.testclient`")

from fastapi.testclient import TestClient  # noqa: E402

from realms.server.app import create_app  # noqa: E402

pytestmark = pytest.mark.filterwarnings("ignore:Using `httpx`")


@pytest.fixture
def client(tmp_path):
    with TestClient(create_app(str(tmp_path / "realms.db"))) as c:
        yield c


def _new(client, options=None, seats=("human", "general", "general", "general")):
    r = client.post("/api/games", json={"game": "version2", "options": options or {}, "seats": list(seats), "seed": 3})
    return r


def _settled(client, gid: str, head: dict) -> dict:
    """The game once its bots have played (they play in the background after a creation
    or an answer): the person is awaited or the game is over."""
    deadline = time.monotonic() + 60
    while True:
        st = client.get(f"/api/games/{gid}", headers=head).json()
        if st["over"] or st["awaiting"] == [0]:
            return st
        assert time.monotonic() < deadline, f"the bots still play (version {st['version']})"
        time.sleep(0.01)


def test_person_against_three_generals(client):
    r = _new(client)
    assert r.status_code == 201, r.text
    out = r.json()
    gid, tok = out["id"], out["seats"][0]["token"]
    head = {"Authorization": f"Bearer {tok}"}
    st = _settled(client, gid, head)
    assert st["pending"] and st["pending"][0]["player"] == 0 and st["pending"][0]["kind"] == "v2.action"
    text = json.dumps(st)
    assert text.count('"code": "mission:') == 1 or text.count('"code":"mission:') == 1
    for _ in range(2):                                 # end two turns: the bots answer between
        st = _settled(client, gid, head)
        r = client.post(f"/api/games/{gid}/answers", headers=head, json={"key": "end", "version": st["version"]})
        assert r.status_code == 200, r.text
    assert r.json()["version"] > st["version"]
    st = _settled(client, gid, head)
    assert st["over"] or (st["awaiting"] == [0] and st["view"]["turn"] == 3)


def test_map_path_refused(client):
    r = _new(client, {"map": "/etc/passwd"})
    assert r.status_code == 422 and "bundled map" in r.text
    assert _new(client, {"map": "board-4"}).status_code == 201
