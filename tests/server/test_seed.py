"""Who may know the seed.  Where the seed decides what the players may not
know (a deal of cards, the dice to come) and more than one person plays, a seed sent
is refused (422) and the server draws a secret one: no response of a running game carries
it, and the finished game's record gives it, replaying exactly.  One person with bots may
still choose the seed."""

from __future__ import annotations

import json

import pytest

from realms.core.game import games, get_game
from realms.core.record import Record
from realms.server.app import SECRET_SEEDS, seed_is_secret

from .conftest import bearer, settled

SECRET = sorted(g.id for g in games().values() if seed_is_secret(g))


def seats_for(game_id: str, people: int) -> list[str]:
    game = get_game(game_id)
    bot = sorted(game.bots)[0] if game.bots else "random"
    n = max(game.min_players, people)
    return ["human"] * people + [bot] * (n - people)


def test_the_seed_decides_brian_borus_deal_and_hy_breasils_dice():
    assert {"brian-boru", "hy-breasil"} <= set(SECRET)


@pytest.mark.parametrize("game_id", SECRET)
def test_a_seed_is_refused_when_more_than_one_person_plays(client, game_id):
    r = client.post("/api/games", json={"game": game_id, "seats": seats_for(game_id, 2), "seed": 42})
    assert r.status_code == 422 and r.json()["detail"].startswith("seed: ") and "send no seed" in r.json()["detail"]
    assert client.get("/api/games").json()["games"] == []


@pytest.mark.parametrize("game_id", SECRET)
def test_one_person_with_bots_may_choose_the_seed(client, game_id):
    r = client.post("/api/games", json={"game": game_id, "seats": seats_for(game_id, 1), "seed": 42})
    assert r.status_code == 201
    assert client.app.state.server.live[r.json()["id"]].row.seed == 42


def _every_response(client, gid, tokens: dict[int, str]) -> str:
    """Everything anybody can read about a running game, as text."""
    texts = [client.get(f"/api/games/{gid}").text, client.get("/api/games").text,
             client.get(f"/api/games/{gid}/record").text, client.get(f"/api/games/{gid}/turns").text]
    for tok in tokens.values():
        texts += [client.get(f"/api/games/{gid}", headers=bearer(tok)).text,
                  client.get(f"/api/games/{gid}/record", headers=bearer(tok)).text]
        with client.websocket_connect(f"/api/games/{gid}/ws?token={tok}") as ws:
            texts.append(json.dumps(ws.receive_json()))
    return "\n".join(texts)


def test_the_secret_seed_is_shown_to_nobody_until_the_end_and_then_replays(client):
    """Brian Boru, two people and a bot, the seed drawn by the server: no response of the
    running game holds it; the finished game's record does, and replays to the same game."""
    r = client.post("/api/games", json={"game": "brian-boru", "seats": ["human", "human", "greedy"]})
    assert r.status_code == 201
    gid = r.json()["id"]
    tokens = {s["seat"]: s["token"] for s in r.json()["seats"]}
    live = client.app.state.server.live[gid]
    seed = live.row.seed
    assert 0 <= seed < SECRET_SEEDS
    for step in range(2000):
        if step % 100 == 0:
            assert str(seed) not in _every_response(client, gid, tokens)
            assert all("seed" not in client.get(f"/api/games/{gid}/record", headers=bearer(t)).json()
                       for t in tokens.values())
        spectator = settled(client, gid)
        if spectator["over"]:
            break
        seat = spectator["awaiting"][0]
        s = client.get(f"/api/games/{gid}", headers=bearer(tokens[seat])).json()
        r = client.post(f"/api/games/{gid}/answers", headers=bearer(tokens[seat]),
                        json={"key": s["pending"][0]["options"][0]["key"], "version": s["version"]})
        assert r.status_code == 200
    else:
        pytest.fail("the game did not end")
    record = client.get(f"/api/games/{gid}/record", headers=bearer(tokens[0])).json()
    assert record["format"] == "realms-record" and record["seed"] == seed
    replayed = get_game("brian-boru").replay(Record.from_json(record))
    assert replayed.state_hash() == live.state.state_hash()


def test_a_database_made_for_31_bit_seeds_keeps_a_secret_seed_whole(database):
    """The seed column of a database made before is widened (PostgreSQL's INTEGER is 32
    bits; SQLite's already 64), so a seed up to 2**53 is stored and read back exactly."""
    from sqlalchemy import create_engine, text

    from realms.server.store import Store, database_url

    engine = create_engine(database_url(database))
    with engine.begin() as conn:
        conn.execute(text("CREATE TABLE games (id VARCHAR(40) PRIMARY KEY, game VARCHAR(40) NOT NULL, "
                          "options TEXT NOT NULL, seed INTEGER NOT NULL, seats TEXT NOT NULL, "
                          "created FLOAT NOT NULL)"))
    engine.dispose()
    store = Store(database)
    try:
        store.create("g", "hy-breasil", {}, SECRET_SEEDS - 1, [], [(0, "a")])
        assert store.load("g").seed == SECRET_SEEDS - 1
    finally:
        store.close()
