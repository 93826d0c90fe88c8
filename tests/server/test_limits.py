"""What one client can make the server do: bodies over
64 KiB are 413 before anything is parsed, no error echoes its input, game creation is
rate-limited per address (429 with Retry-After), the bots play in the background, at
most ``BOT_BATCH`` answers per commit, each batch stored before a page sees it (also
after a restart), who asks is checked before the version, and ``undos`` counts one
game's undos."""

from __future__ import annotations

import json
import time

import pytest
from fastapi.testclient import TestClient

from realms.core.game import get_game
from realms.server import app as app_module
from realms.server.app import create_app, make_agents, run_bots
from realms.server.limits import MAX_BODY, TokenBucket

from .conftest import bearer, new_game, settled
from .test_undo import answer, me, play_to_undoable, undo


def stored_games(client) -> list:
    return client.get("/api/games").json()["games"]


def wait_for(probe, done, seconds: float = 60.0):
    """Call ``probe`` until ``done(result)``; the last result."""
    deadline = time.monotonic() + seconds
    while True:
        result = probe()
        if done(result):
            return result
        if time.monotonic() > deadline:
            pytest.fail(f"still not done after {seconds} s: {str(result)[:300]}")
        time.sleep(0.02)


# -- bodies -----------------------------------------------------------------------------------
def test_a_body_over_64_kib_is_413_and_stores_nothing(client):
    body = {"game": "hy-breasil", "seats": ["human", "auto"], "options": {"names": ["x" * 10_000_000, "Bo"]}}
    r = client.post("/api/games", json=body)
    assert r.status_code == 413 and len(r.content) < 200 and "xxxx" not in r.text
    assert stored_games(client) == []
    # just under the limit the body is read, and refused for what it says
    small = {"game": "hy-breasil", "seats": ["human", "auto"], "options": {"names": ["x" * 60_000, "Bo"]}}
    assert len(json.dumps(small)) < MAX_BODY
    assert client.post("/api/games", json=small).status_code == 422


def test_a_streamed_body_without_a_length_is_cut_off_at_the_limit(client):
    out = new_game(client)
    gid, tok = out["id"], out["seats"][0]["token"]
    before = me(client, gid, tok)

    def chunks():
        yield b'{"key": "'
        for _ in range(100):
            yield b"k" * 4096
        yield b'", "version": %d}' % before["version"]

    r = client.post(f"/api/games/{gid}/answers", headers={**bearer(tok), "Content-Type": "application/json"},
                    content=chunks())
    assert r.status_code == 413 and "kkkk" not in r.text
    assert me(client, gid, tok) == before


def test_a_declared_length_over_the_limit_is_refused_before_reading(client):
    r = client.post("/api/games", content=b"{}", headers={"Content-Type": "application/json",
                                                          "Content-Length": str(MAX_BODY + 1)})
    assert r.status_code == 413


# -- errors never echo the input ----------------------------------------------------------------
@pytest.mark.parametrize("body", [
    {"game": "hy-breasil", "seats": ["human", "auto"], "q" * 60_000: 1},             # an unknown field
    {"game": "hy-breasil", "seats": ["human", "auto"], "seed": "q" * 60_000},         # not a number
    {"game": "q" * 60_000, "seats": ["human", "auto"]},                               # an unknown game
    {"game": "hy-breasil", "seats": ["human", "q" * 60_000]},                          # an unknown seat kind
])
def test_a_refused_body_is_not_echoed(client, body):
    r = client.post("/api/games", json=body)
    assert r.status_code == 422
    assert "qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqq" not in r.text and len(r.content) < 1000, r.text[:300]


def test_a_key_that_is_not_an_option_is_not_echoed(client):
    out = new_game(client)
    gid, tok = out["id"], out["seats"][0]["token"]
    r = client.post(f"/api/games/{gid}/answers", headers=bearer(tok), json={"key": "q" * 500, "version": me(client, gid, tok)["version"]})
    assert r.status_code == 422 and "not an option" in r.json()["detail"] and "qqqq" not in r.text
    r = client.post(f"/api/games/{gid}/answers", headers=bearer(tok), json={"key": "q" * 501, "version": 0})
    assert r.status_code == 422 and "qqqq" not in r.text
    r = client.get("/api/games/" + "q" * 39)
    assert r.status_code == 404 and "qqqq" not in r.text


# -- game creation per client -------------------------------------------------------------------
def test_the_token_bucket_gives_a_burst_then_a_token_per_interval():
    now = [0.0]
    bucket = TokenBucket(burst=3, per_minute=60, clock=lambda: now[0])
    assert [bucket.take("a") for _ in range(3)] == [0.0, 0.0, 0.0]
    assert bucket.take("a") == pytest.approx(1.0)
    assert bucket.take("b") == 0.0  # another client has its own bucket
    now[0] = 0.5
    assert bucket.take("a") == pytest.approx(0.5)
    now[0] = 1.0
    assert bucket.take("a") == 0.0 and bucket.take("a") == pytest.approx(1.0)
    now[0] = 100.0  # every bucket is full again: they are forgotten
    assert bucket.take("c") == 0.0 and len(bucket) == 1
    with pytest.raises(ValueError):
        TokenBucket(burst=0)


def test_creating_too_many_games_is_429_with_retry_after(tmp_path):
    app = create_app(str(tmp_path / "r.db"), creations=TokenBucket(burst=2, per_minute=1))
    with TestClient(app) as c, TestClient(app, client=("10.0.0.2", 5000)) as other:
        for _ in range(2):
            assert c.post("/api/games", json={"game": "hy-breasil", "seats": ["human", "auto"]}).status_code == 201
        r = c.post("/api/games", json={"game": "hy-breasil", "seats": ["human", "auto"]})
        assert r.status_code == 429 and r.headers["Retry-After"] == "60"
        assert "too many new games" in r.json()["detail"]
        assert len(stored_games(c)) == 2
        # another address is not held up, and nothing else is limited
        assert other.post("/api/games", json={"game": "hy-breasil", "seats": ["human", "auto"]}).status_code == 201
        assert c.get("/api/games").status_code == 200


def test_serve_takes_the_creation_limits():
    from click.testing import CliRunner

    from realms.server.cli import serve

    out = CliRunner().invoke(serve, ["--help"])
    assert "--games-at-once" in out.output and "--games-per-minute" in out.output
    assert CliRunner().invoke(serve, ["--games-per-minute", "0"]).exit_code == 2


# -- bot work per request -------------------------------------------------------------------------
def _bot_batches(client, monkeypatch) -> list[int]:
    """The number of bot answers in each commit from now on (the game's creation included)."""
    store = client.app.state.server.store
    sizes: list[int] = []
    submit, create = store.submit, store.create

    def counted_submit(game_id, start, answers):
        sizes.append(sum(1 for p, _ in answers if p in client.app.state.server.live[game_id].agents))
        return submit(game_id, start, answers)

    def counted_create(game_id, game, options, seed, seats, answers):
        sizes.append(len(answers))
        return create(game_id, game, options, seed, seats, answers)

    monkeypatch.setattr(store, "submit", counted_submit)
    monkeypatch.setattr(store, "create", counted_create)
    return sizes


def _played_in_one_go(live) -> str:
    game = get_game(live.game.id)
    state = game.new_game(live.state.options, live.row.seed)
    run_bots(state, make_agents(game, live.row.seats, live.row.seed))
    return state.state_hash()


def test_an_all_bot_game_plays_in_background_batches_each_committed(client, monkeypatch):
    monkeypatch.setattr(app_module, "BOT_BATCH", 40)
    sizes = _bot_batches(client, monkeypatch)
    r = client.post("/api/games", json={"game": "hy-breasil", "seats": ["auto", "random", "auto"],
                                        "options": {"turns": 2}, "seed": 3})
    assert r.status_code == 201
    gid = r.json()["id"]
    end = wait_for(lambda: client.get(f"/api/games/{gid}").json(), lambda s: s["over"])
    assert sizes[0] == 0  # the creation stores the game alone: the bots play afterwards
    assert max(sizes) <= 40 and sum(sizes) == end["version"] and len(sizes) > end["version"] // 40
    live = client.app.state.server.live[gid]
    assert live.state.state_hash() == _played_in_one_go(live)


def test_a_persons_answer_returns_at_once_and_pages_get_the_bots_answers_once_stored(client, monkeypatch):
    """The 200 carries the person's answer alone; the bots' answers come over the WebSocket
    in batches, each in the database before it is pushed, and a reload shows them."""
    monkeypatch.setattr(app_module, "BOT_BATCH", 3)
    sizes = _bot_batches(client, monkeypatch)
    out = new_game(client, seats=["human", "auto", "auto", "auto"], options={"turns": 2}, seed=7)
    gid, tok = out["id"], out["seats"][0]["token"]
    store = client.app.state.server.store
    with client.websocket_connect(f"/api/games/{gid}/ws?token={tok}") as ws:
        ws.receive_json()
        for _ in range(300):
            s = settled(client, gid, tok)
            r = answer(client, gid, tok, s)
            assert r.status_code == 200
            after = r.json()
            assert after["version"] == s["version"] + 1
            if after["awaiting"] != [0] and not after["over"]:
                break  # the bots are to reply
        else:
            pytest.fail("the bots never replied")
        assert 0 not in after["awaiting"] and not after["can_undo"]
        pushes = []
        while True:
            pushed = ws.receive_json()
            # durable before pushed: the database holds every answer the page is shown
            assert len(store.load(gid).answers) >= pushed["version"]
            pushes.append(pushed["version"])
            if pushed["awaiting"] == [0] or pushed["over"]:
                break
    assert pushes[0] == after["version"] and pushes == sorted(pushes) and pushes[-1] > after["version"] + 3
    assert max(sizes) <= 3
    reloaded = me(client, gid, tok)
    assert reloaded["version"] == pushes[-1] == len(store.load(gid).answers)


def test_bots_cut_short_by_a_restart_go_on_at_the_first_request(database, monkeypatch):
    monkeypatch.setattr(app_module, "BOT_BATCH", 40)
    with monkeypatch.context() as stopped, TestClient(create_app(database)) as c:
        # the process stops before its bots play anything
        stopped.setattr(app_module.Server, "continue_bots", lambda self, live: None)
        r = c.post("/api/games", json={"game": "hy-breasil", "seats": ["auto", "random", "auto"],
                                       "options": {"turns": 2}, "seed": 3})
        gid = r.json()["id"]
        assert c.get(f"/api/games/{gid}").json()["version"] == 0
    with TestClient(create_app(database)) as c:
        first = c.get(f"/api/games/{gid}").json()
        assert not first["over"]
        end = wait_for(lambda: c.get(f"/api/games/{gid}").json(), lambda s: s["over"])
        live = c.app.state.server.live[gid]
        assert end["version"] > first["version"] and live.state.state_hash() == _played_in_one_go(live)


# -- who asks first; undos per game ---------------------------------------------------------------
def test_no_token_with_an_old_version_is_403_not_409(client):
    out = new_game(client)
    gid, tok = out["id"], out["seats"][0]["token"]
    _, after, _ = play_to_undoable(client, gid, tok)
    old = after["version"] - 1
    assert client.post(f"/api/games/{gid}/answers", json={"key": "x", "version": old}).status_code == 403
    assert client.post(f"/api/games/{gid}/undo", json={"version": old}).status_code == 403
    # a seat with an old version still learns that it is stale
    assert client.post(f"/api/games/{gid}/answers", headers=bearer(tok), json={"key": "x", "version": old}).status_code == 409
    assert undo(client, gid, tok, old).status_code == 409


def test_undos_count_the_games_own_undos(client):
    a, b = new_game(client), new_game(client)
    _, a1, _ = play_to_undoable(client, a["id"], a["seats"][0]["token"])
    _, b1, _ = play_to_undoable(client, b["id"], b["seats"][0]["token"])
    assert undo(client, a["id"], a["seats"][0]["token"], a1["version"]).json()["undos"] == 1
    assert me(client, b["id"], b["seats"][0]["token"])["undos"] == 0
    assert undo(client, b["id"], b["seats"][0]["token"], b1["version"]).json()["undos"] == 1
    _, a2, _ = play_to_undoable(client, a["id"], a["seats"][0]["token"])
    assert undo(client, a["id"], a["seats"][0]["token"], a2["version"]).json()["undos"] == 2
    # a game rebuilt in the same process (after a failed write) keeps its count
    client.app.state.server.live.pop(a["id"])
    assert me(client, a["id"], a["seats"][0]["token"])["undos"] == 2


def test_a_charge_takes_more_tokens_and_makes_the_client_wait():
    now = [0.0]
    bucket = TokenBucket(burst=3, per_minute=60, clock=lambda: now[0])
    assert bucket.take("a") == 0.0
    bucket.charge("a", 4.5)  # 2 left, 4.5 taken: 2.5 owed
    assert bucket.take("a") == pytest.approx(3.5)  # a token a second: 3.5 s to the next
    now[0] = 3.5
    assert bucket.take("a") == 0.0
    assert bucket.take("b") == 0.0  # another client's bucket is its own


def test_a_creation_is_charged_the_cpu_of_its_setup(client, monkeypatch):
    """A game whose setup costs CPU (an island made from a seed) takes tokens for it."""
    from realms.server import limits

    monkeypatch.setattr(limits, "SETUP_FREE_SECONDS", 0.0)
    monkeypatch.setattr(limits, "SETUP_TOKENS_PER_SECOND", 1e9)  # any setup empties the bucket
    body = {"game": "hy-breasil", "options": {"turns": 2}, "seats": ["human", "auto"]}
    assert client.post("/api/games", json=body).status_code == 201
    r = client.post("/api/games", json=body)
    assert r.status_code == 429 and int(r.headers["Retry-After"]) >= 1
