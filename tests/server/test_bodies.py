"""Request bodies are taken as sent: a number must be a JSON integer (not a string, a
float or a boolean), and a game's options are cross-checked by the game's own
``check_options``."""

from __future__ import annotations

import pytest

from .conftest import bearer, new_game, settled


@pytest.mark.parametrize("version", ["0", 0.0, False, None, "v"])
def test_an_answers_version_must_be_an_integer(client, version):
    out = new_game(client)
    gid, tok = out["id"], out["seats"][0]["token"]
    s = settled(client, gid, tok)
    key = s["pending"][0]["options"][0]["key"]
    r = client.post(f"/api/games/{gid}/answers", headers=bearer(tok), json={"key": key, "version": version})
    assert r.status_code == 422, r.text
    assert r.json()["detail"][0]["loc"] == ["body", "version"]
    assert client.get(f"/api/games/{gid}").json()["version"] == s["version"]


@pytest.mark.parametrize("version", ["0", 0.0, True])
def test_an_undos_version_must_be_an_integer(client, version):
    out = new_game(client)
    gid, tok = out["id"], out["seats"][0]["token"]
    r = client.post(f"/api/games/{gid}/undo", headers=bearer(tok), json={"version": version})
    assert r.status_code == 422, r.text
    assert r.json()["detail"][0]["loc"] == ["body", "version"]


@pytest.mark.parametrize("seed", ["5", True, 5.0])
def test_a_seed_must_be_an_integer(client, seed):
    r = client.post("/api/games", json={"game": "hy-breasil", "seats": ["human", "auto"], "seed": seed})
    assert r.status_code == 422, r.text
    assert r.json()["detail"][0]["loc"] == ["body", "seed"]


def test_players_must_be_a_whole_number(client):
    r = client.post("/api/games", json={"game": "hy-breasil", "seats": ["human", "auto"], "options": {"players": 2.0}})
    assert r.status_code == 422, r.text
    assert "players" in r.json()["detail"]


def test_a_board_made_for_fewer_players_is_refused(client):
    r = client.post("/api/games", json={"game": "version2", "seats": ["human"] + ["random"] * 5,
                                        "options": {"map": "board-2"}})
    assert r.status_code == 422, r.text
    assert "board-2 is the board for 2 players, not 6" in r.json()["detail"]
    fits = client.post("/api/games", json={"game": "version2", "seats": ["human", "random"],
                                           "options": {"map": "board-2"}})
    assert fits.status_code == 201, fits.text
