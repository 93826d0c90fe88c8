"""A game defined only in the tests is a full citizen of realms — listed,
simulated, analysed, served — while no line of shared code names it."""

from __future__ import annotations

import json

from realms.core.conformance import check_game
from realms.core.game import games


def test_registered_through_the_entry_point(tiny):
    assert "pebbles" in games()
    assert tiny.name == "Pebbles"


def test_passes_the_conformance_kit(tiny):
    report = check_game(tiny, {"players": 3}, range(1, 31), deep_every=3)
    assert report.games == 30 and report.decisions > 200


def test_a_seat_reads_only_its_own_secret_events(tiny):
    state = tiny.new_game({"players": 3}, 5)
    mine = state.chronicle_for(0)
    assert sum("is dealt a bonus" in line for line in mine) == 1
    assert state.chronicle_for(None) == [e.text for e in state.events if e.audience is None]
    while state.pending():
        d = state.pending()[0]
        state.apply(d.player, d.keys[0])
    assert state.chronicle_for(None) == state.chronicle()


def test_cli_lists_and_simulates_it(tiny, tmp_path):
    from click.testing import CliRunner

    from realms.cli import cli

    runner = CliRunner()
    listed = runner.invoke(cli, ["games"])
    assert "pebbles" in listed.output and "Pebbles (2–4 players)" in listed.output
    schema = json.loads(runner.invoke(cli, ["options", "pebbles", "--json"]).output)["options"]
    assert [o["name"] for o in schema] == ["players", "names", "pile"] and schema[2]["flag"] == "--pile"
    short = runner.invoke(cli, ["simulate", "pebbles", "--pile", "3", "--option", "names=Ann,Bo", "--json"])
    assert short.exit_code == 0, short.output
    assert json.loads(short.output)["players"] == ["Ann", "Bo"] and json.loads(short.output)["decisions"] <= 3
    played = runner.invoke(cli, ["simulate", "pebbles", "--seed", "3", "--json"])
    assert played.exit_code == 0, played.output
    line = json.loads(played.output)
    assert line["game"] == "pebbles" and line["decisions"] >= 8
    record = tmp_path / "game.json"
    assert runner.invoke(cli, ["simulate", "pebbles", "--seed", "3", "--record", str(record)]).exit_code == 0
    again = runner.invoke(cli, ["replay", str(record), "--json"])
    assert json.loads(again.output)["state_hash"] == line["state_hash"]
    page = tmp_path / "history.html"
    drawn = runner.invoke(cli, ["history", str(record), "-o", str(page)])
    assert drawn.exit_code == 0, drawn.output
    assert "takes" in page.read_text()
    report = runner.invoke(cli, ["simulate", "pebbles", "--games", "6", "--report", str(tmp_path / "out"),
                                 "--workers", "1"])
    assert report.exit_code == 0, report.output
    summary = json.loads((tmp_path / "out" / "summary.json").read_text())
    assert summary["game"] == "pebbles" and summary["games"] == 6


def test_lobby_catalog_and_web_api_serve_it(tiny, tmp_path):
    from fastapi.testclient import TestClient

    from realms.server.app import create_app

    with TestClient(create_app(str(tmp_path / "realms.db"))) as client:
        catalog = {g["id"]: g for g in client.get("/api/catalog").json()["games"]}
        assert catalog["pebbles"]["max_players"] == 4
        made = client.post("/api/games", json={"game": "pebbles", "seats": ["human", "random"], "options": {}})
        assert made.status_code == 201, made.text
        game = made.json()
        token = game["seats"][0]["token"]
        seen = client.get(f"/api/games/{game['id']}", headers={"Authorization": f"Bearer {token}"}).json()
        assert any("is dealt a bonus" in line for line in seen["chronicle"])
        assert sum("is dealt a bonus" in line for line in seen["chronicle"]) == 1
        spectator = client.get(f"/api/games/{game['id']}").json()
        assert not any("is dealt a bonus" in line for line in spectator["chronicle"])


def test_games_are_listed_by_rank_then_id(tiny):
    """The flagship declares rank 0 and comes first (the lobby opens on the first game);
    a game that declares nothing comes after, by id."""
    order = list(games())
    assert order[0] == "hy-breasil"
    assert order.index("pebbles") > order.index("brian-boru")
