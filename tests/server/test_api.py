"""The HTTP + WebSocket API contract: health, create, view per token, answers
200/409/422/403/404 with the state unchanged on every refusal, records, pushes, hidden
information, and games that survive a restart of the app."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

import realms
from realms.core.game import get_game
from realms.core.record import Record
from realms.server.app import create_app

from .conftest import bearer, new_game, settled


def live_state(client, gid):
    return client.app.state.server.live[gid].state


def play_first_options(client, gid, tokens: dict[int, str], answers: int) -> dict:
    """Answer the first option of whoever is awaited, ``answers`` times (or to the end)."""
    state = client.get(f"/api/games/{gid}").json()
    for _ in range(answers):
        if state["over"]:
            break
        seat = state["awaiting"][0]
        mine = client.get(f"/api/games/{gid}", headers=bearer(tokens[seat])).json()
        r = client.post(f"/api/games/{gid}/answers", headers=bearer(tokens[seat]),
                        json={"key": mine["pending"][0]["options"][0]["key"], "version": mine["version"]})
        assert r.status_code == 200, r.text
        state = settled(client, gid)
    return state


# -- health and creation --------------------------------------------------------------------
def test_health(client):
    r = client.get("/api/health")
    assert r.status_code == 200 and r.json() == {"status": "ok"}


def test_openapi_docs(client):
    assert client.get("/docs").status_code == 200
    paths = client.get("/openapi.json").json()["paths"]
    assert {"/api/health", "/api/games", "/api/games/{game_id}", "/api/games/{game_id}/answers",
            "/api/games/{game_id}/undo", "/api/games/{game_id}/record"} <= set(paths)
    assert {"403", "409", "422"} <= set(paths["/api/games/{game_id}/undo"]["post"]["responses"])


@pytest.mark.parametrize("page", ["/docs", "/redoc"])
def test_docs_load_their_scripts_from_the_app_not_a_cdn(client, page):
    """The API's docs work without internet: every script, style sheet
    and icon the page loads is served by the app (Swagger UI and ReDoc from an installed
    package), none from another host."""
    import re

    html = client.get(page).text
    loaded = re.findall(r"""(?:src|href)=["']([^"']+)["']""", html)
    assert any(u.endswith(".js") for u in loaded)
    assert all(u.startswith("/") and not u.startswith("//") for u in loaded), loaded
    assert "http://" not in html and "https://" not in html
    for url in loaded:
        r = client.get(url)
        assert r.status_code == 200 and len(r.content) > 1000, url
    assert client.get("/openapi.json").json()["openapi"].startswith("3.")


def test_create_gives_a_token_to_each_human_seat_only(client):
    out = new_game(client, seats=["human", "auto", "human", "random"])
    assert set(out) == {"id", "seats", "host"}  # host: the host's link (server/host.py)
    assert [(s["seat"], s["kind"]) for s in out["seats"]] == [(0, "human"), (2, "human")]
    tokens = [s["token"] for s in out["seats"]]
    assert len(set(tokens)) == 2 and out["host"] not in tokens
    assert all(len(t) >= 22 for t in tokens)  # ≥ 128 random bits in URL-safe base64


def test_players_are_the_seats_and_options_take_the_cli_names(client):
    out = new_game(client, seats=["human", "auto", "auto"], options={"turns": 15, "rules": ["races", "abilities"]})
    st = live_state(client, out["id"])
    assert st.options["players"] == 3 and st.options["rules"] == ["races", "abilities"] and st.options["turns"] == 15


def test_seed_makes_the_game(client):
    a, b = new_game(client, seed=11), new_game(client, seed=11)
    assert live_state(client, a["id"]).state_hash() == live_state(client, b["id"]).state_hash()


def test_brian_boru_with_greedy_bots(client):
    out = new_game(client, game="brian-boru", seats=["human", "greedy", "random"])
    st = client.get(f"/api/games/{out['id']}", headers=bearer(out["seats"][0]["token"])).json()
    assert st["game"] == "brian-boru" and st["pending"] and st["pending"][0]["player"] == 0


@pytest.mark.parametrize("body, words", [
    ({"game": "chess", "options": {}, "seats": ["human", "auto"]}, "unknown game"),
    ({"game": "hy-breasil", "options": {}, "seats": ["human"]}, "2 to 6"),
    ({"game": "hy-breasil", "options": {}, "seats": ["human", "wizard"]}, "unknown seat kind"),
    ({"game": "hy-breasil", "options": {"turns": 0}, "seats": ["human", "auto"]}, "turns"),
    ({"game": "hy-breasil", "options": {"colour": 1}, "seats": ["human", "auto"]}, "unknown option"),
    ({"game": "hy-breasil", "options": {"players": 3}, "seats": ["human", "auto"]}, "number of seats"),
    ({"game": "hy-breasil", "options": {"map": "/etc/passwd"}, "seats": ["human", "auto"]}, "bundled map"),
    ({"game": "hy-breasil", "options": {"map": "atlantis"}, "seats": ["human", "auto"]}, ""),
    ({"game": "hy-breasil", "seats": ["human", "auto"], "seed": -1}, ""),
    ({"game": "hy-breasil", "seats": ["human", "auto"], "cheat": True}, ""),
    ({"game": "hy-breasil", "seats": []}, ""),
    ({"seats": ["human", "auto"]}, ""),
])
def test_bad_new_games_are_422_and_store_nothing(client, body, words):
    r = client.post("/api/games", json=body)
    assert r.status_code == 422, r.text
    assert words in json.dumps(r.json())
    assert client.get("/api/games").json()["games"] == []


def test_catalog_serves_each_games_option_schema(client):
    """The catalog carries each game's declared options, the ones POST /api/games checks:
    players and names for every game, then the game's own (Hy Breasil's bounds and maps)."""
    games = {g["id"]: g for g in client.get("/api/catalog").json()["games"]}
    for g in games.values():
        names = [o["name"] for o in g["options"]]
        assert names[:2] == ["players", "names"]
        players = g["options"][0]
        assert (players["min"], players["max"]) == (g["min_players"], g["max_players"])
    hb = {o["name"]: o for o in games["hy-breasil"]["options"]}
    assert hb["turns"]["type"] == "int" and hb["turns"]["default"] == 15 and hb["turns"]["max"] == 100
    assert hb["max_turns"]["max"] == 100 and hb["map"]["choices"] == ["hy-breasil"]
    assert hb["rules"]["choices"] == ["races", "submission", "abilities"] and hb["variant"]["nullable"]
    assert all(o["max"] is not None for o in hb.values() if o["type"] == "int")
    assert [o["name"] for o in games["brian-boru"]["options"]] == ["players", "names"]


@pytest.mark.parametrize("options, words", [
    # just under the 64 KiB a body may have (a bigger one is 413: test_limits.py)
    ({"names": ["x" * 60_000, "Bo"]}, "option 'names': name 1 is 60000 characters long"),
    ({"x" * 60_000: 1}, "unknown option(s) xxxx"),
    ({"variant": "y" * 60_000}, "option 'variant' must be one of"),
    ({"turns": 10**9}, "option 'turns' must be 1..100"),
    ({"max_turns": 10**9}, "option 'max_turns' must be 1..100"),
    ({"vp_target": 10**9}, "option 'vp_target' must be 1..1000"),
    ({"set_size": 10**6}, "option 'set_size' must be"),
    ({"joins": [[3, "Dana"]] * 1000, "variant": "continuous"}, "option 'joins' has 1000 entries"),
    ({"names": ["Ann", "Ann"]}, "duplicate names"),
    ({"turns": True}, "option 'turns' must be a whole number"),
])
def test_options_out_of_bounds_are_422_naming_the_option_without_echoing_it(client, options, words):
    """Every option is bounded by the game's schema (no 60 KB
    name, no turns of 10⁹), refused up front with a short error naming the option."""
    r = client.post("/api/games", json={"game": "hy-breasil", "options": options, "seats": ["human", "auto"]})
    assert r.status_code == 422 and words in r.json()["detail"]
    assert len(r.content) < 1000
    assert client.get("/api/games").json()["games"] == []


@pytest.mark.parametrize("where", ["atlantis", "/etc/passwd", "../../hy_breasil/data/maps/hy-breasil.toml"])
def test_a_map_from_the_web_is_a_bundled_name_and_errors_show_no_path(client, where):
    """A file option from the web is one of the game's bundled names
    only, and the error names the option, not a file on the server."""
    r = client.post("/api/games", json={"game": "hy-breasil", "options": {"map": where}, "seats": ["human", "auto"]})
    assert r.status_code == 422
    detail = r.json()["detail"]
    assert "option 'map' must be the name of a bundled map (hy-breasil)" in detail
    assert str(Path(realms.__file__).parent) not in detail and "/realms/" not in detail


def test_a_game_on_an_island_made_from_a_seed(client):
    """The lobby offers a generated Hy Breasil map by its seed, an option of the
    game's schema like any other (the form is drawn from it); the game is played and drawn
    on that island; a seed out of bounds is refused, naming the option."""
    schema = {o["name"]: o for g in client.get("/api/catalog").json()["games"] if g["id"] == "hy-breasil"
              for o in g["options"]}
    assert schema["map_seed"]["type"] == "int" and schema["map_seed"]["default"] == 0
    out = new_game(client, seats=["human", "auto"], options={"turns": 1, "map_seed": 3})
    gid, tok = out["id"], out["seats"][0]["token"]
    svg = client.get(f"/api/games/{gid}/board.svg").text
    assert "Hy Breasil (48 areas, seed 3)" in svg
    mine = client.get(f"/api/games/{gid}", headers=bearer(tok)).json()
    assert mine["view"]["options"]["map"] == "seed:3" and mine["pending"]
    assert live_state(client, gid).options["map_seed"] == 3
    end = play_first_options(client, gid, {0: tok}, 300)
    assert end["over"]
    r = client.post("/api/games", json={"game": "hy-breasil", "seats": ["human", "auto"],
                                        "options": {"map_seed": 2**31}})
    assert r.status_code == 422 and "map_seed" in r.json()["detail"]


def test_the_lobby_offers_each_bots_declared_levels(client):
    """A game declares its bots' variants (Hy Breasil: the auto bot's levels,
    AUTO.md) and the catalog offers them with labels, so the lobby lists them without
    naming a game; a seat of a level plays at that level, also after a restart; a bot with
    parameters the game does not offer is refused."""
    hb = next(g for g in client.get("/api/catalog").json()["games"] if g["id"] == "hy-breasil")
    choices = {c["kind"]: c["label"] for c in hb["seat_choices"]}
    assert choices["auto:level=easy"] == "auto (easy)" and choices["auto:level=hard"] == "auto (steady)"
    assert choices["auto"] == "auto (normal)" and choices["human"] == "human"
    assert hb["seat_kinds"] == list(choices)
    out = new_game(client, seats=["human", "auto:level=easy", "auto:level=hard"], options={"turns": 1})
    gid, tok = out["id"], out["seats"][0]["token"]
    agents = client.app.state.server.live[gid].agents
    assert (agents[1].level.name, agents[2].level.name) == ("easy", "hard")
    end = play_first_options(client, gid, {0: tok}, 300)
    assert end["over"] and [s["kind"] for s in end["seats"]] == ["human", "auto:level=easy", "auto:level=hard"]
    client.app.state.server.live.pop(gid)
    assert client.get(f"/api/games/{gid}").status_code == 200  # rebuilt from the database
    rebuilt = client.app.state.server.live[gid].agents
    assert (rebuilt[1].level.name, rebuilt[2].level.name) == ("easy", "hard")
    for kind in ("auto:level=insane", "ismcts:iters=100000", "auto:level=hard:x=1"):
        r = client.post("/api/games", json={"game": "hy-breasil", "seats": ["human", kind]})
        assert r.status_code == 422 and "unknown seat kind" in r.json()["detail"]


def test_malformed_json_is_422(client):
    r = client.post("/api/games", content=b"{not json", headers={"Content-Type": "application/json"})
    assert r.status_code == 422


# -- views -----------------------------------------------------------------------------------
def test_view_pending_and_version_per_token(client):
    out = new_game(client)
    gid, tok = out["id"], out["seats"][0]["token"]
    mine = client.get(f"/api/games/{gid}", headers=bearer(tok)).json()
    assert {"view", "pending", "version"} <= set(mine)
    assert mine["seat"] == 0 and mine["view"]["you"] == 0
    d = mine["pending"][0]
    assert {"kind", "prompt", "options"} <= set(d)
    assert all(set(o) == {"key", "label"} for o in d["options"])
    assert mine["version"] == len(live_state(client, gid).answers)
    spectator = client.get(f"/api/games/{gid}").json()
    assert spectator["seat"] is None and spectator["pending"] == [] and spectator["version"] == mine["version"]


def test_unknown_game_and_bad_tokens(client):
    out = new_game(client)
    assert client.get("/api/games/nosuchgame").status_code == 404
    assert client.get(f"/api/games/{out['id']}", headers=bearer("x" * 32)).status_code == 403
    assert client.get(f"/api/games/{out['id']}", headers={"Authorization": "Basic abc"}).status_code == 403


# -- answers ------------------------------------------------------------------------------------
def test_answer_advances_and_bots_reply(client):
    out = new_game(client)
    gid, tok = out["id"], out["seats"][0]["token"]
    s0 = client.get(f"/api/games/{gid}", headers=bearer(tok)).json()
    key = s0["pending"][0]["options"][0]["key"]
    r = client.post(f"/api/games/{gid}/answers", headers=bearer(tok), json={"key": key, "version": s0["version"]})
    assert r.status_code == 200
    s1 = r.json()
    assert s1["version"] == s0["version"] + 1  # the 200 comes with the person's answer alone
    assert live_state(client, gid).answers[s0["version"]] == (0, key)
    # after the bots, in the background: a person (seat 0) is awaited, or the game is over
    s2 = settled(client, gid, tok)
    assert s2["over"] or s2["awaiting"] == [0]
    assert s2["version"] >= s1["version"]


def _unchanged(client, gid, tok, before):
    after = client.get(f"/api/games/{gid}", headers=bearer(tok)).json()
    assert after == before


def test_refusals_leave_the_state_unchanged(client):
    out = new_game(client, game="brian-boru", seats=["human", "human", "human"])
    gid = out["id"]
    toks = {s["seat"]: s["token"] for s in out["seats"]}
    me = client.get(f"/api/games/{gid}").json()["awaiting"][0]
    other = (me + 1) % 3
    before = client.get(f"/api/games/{gid}", headers=bearer(toks[me])).json()
    h0 = live_state(client, gid).state_hash()
    v = before["version"]
    key = before["pending"][0]["options"][0]["key"]
    url = f"/api/games/{gid}/answers"
    assert before["awaiting"] == [me]
    # 409: stale (or future) version
    r = client.post(url, headers=bearer(toks[me]), json={"key": key, "version": v + 1})
    assert r.status_code == 409
    # 422: not an option
    r = client.post(url, headers=bearer(toks[me]), json={"key": "no-such-option", "version": v})
    assert r.status_code == 422 and "not an option" in r.json()["detail"]
    # 403: a seat that must not decide now, a spectator, a stranger
    for headers in (bearer(toks[other]), {}, bearer("y" * 32)):
        assert client.post(url, headers=headers, json={"key": key, "version": v}).status_code == 403
    # 404: unknown game
    assert client.post("/api/games/nope/answers", headers=bearer(toks[me]), json={"key": key, "version": v}).status_code == 404
    # 422: bodies that are not {key, version}
    for body in ({"key": key}, {"version": v}, {"key": key, "version": "x"}, {"key": key, "version": v, "x": 1}, []):
        assert client.post(url, headers=bearer(toks[me]), json=body).status_code == 422
    assert live_state(client, gid).state_hash() == h0
    _unchanged(client, gid, toks[me], before)
    # and the right answer still works
    assert client.post(url, headers=bearer(toks[me]), json={"key": key, "version": v}).status_code == 200


def test_the_same_version_answered_twice_is_409(client):
    out = new_game(client)
    gid, tok = out["id"], out["seats"][0]["token"]
    s = client.get(f"/api/games/{gid}", headers=bearer(tok)).json()
    body = {"key": s["pending"][0]["options"][0]["key"], "version": s["version"]}
    assert client.post(f"/api/games/{gid}/answers", headers=bearer(tok), json=body).status_code == 200
    assert client.post(f"/api/games/{gid}/answers", headers=bearer(tok), json=body).status_code == 409


def test_a_finished_game_takes_no_answer(client):
    out = new_game(client, options={"turns": 1})
    gid, tok = out["id"], out["seats"][0]["token"]
    end = play_first_options(client, gid, {0: tok}, 500)
    assert end["over"] and end["result"]["scores"]
    r = client.post(f"/api/games/{gid}/answers", headers=bearer(tok), json={"key": "x", "version": end["version"]})
    assert r.status_code == 403


# -- records ----------------------------------------------------------------------------------
def test_record_of_a_running_game_is_the_seats_and_of_a_finished_one_replays(client):
    out = new_game(client, options={"turns": 1})
    gid, tok = out["id"], out["seats"][0]["token"]
    running = client.get(f"/api/games/{gid}/record", headers=bearer(tok)).json()
    assert running["format"] == "realms-view-record" and "seed" not in running and running["player"] == 0
    play_first_options(client, gid, {0: tok}, 500)
    full = client.get(f"/api/games/{gid}/record").json()
    assert full["format"] == "realms-record"
    replayed = get_game("hy-breasil").replay(Record.from_json(full))
    assert replayed.state_hash() == live_state(client, gid).state_hash()


def test_all_bot_game_plays_to_the_end_on_creation(client):
    out = new_game(client, seats=["auto", "random"], options={"turns": 2})
    assert out["seats"] == []
    st = client.get(f"/api/games/{out['id']}").json()
    assert st["over"] and st["result"]["winners"]


def test_board_svg_and_replay_positions(client):
    out = new_game(client, options={"turns": 1})
    gid, tok = out["id"], out["seats"][0]["token"]
    svg = client.get(f"/api/games/{gid}/board.svg")
    assert svg.status_code == 200 and svg.headers["content-type"].startswith("image/svg+xml")
    assert 'id="area-' in svg.text
    assert client.get(f"/api/games/{gid}/board.svg?at=3").status_code == 403  # running: no past positions
    play_first_options(client, gid, {0: tok}, 500)
    assert client.get(f"/api/games/{gid}/board.svg?at=3").status_code == 200



@pytest.mark.parametrize("game, seats, options, word", [
    ("hy-breasil", ["auto", "random", "auto"], {"turns": 3}, "turn"),
    ("brian-boru", ["greedy", "random", "random"], {}, "round"),
])
def test_replay_viewer_steps_by_turn(client, game, seats, options, word):
    """A finished game's turns: where each begins, in answers to replay (the replay
    viewer's stops); a running game has none yet."""
    running = new_game(client, game=game, seats=["human", *seats[1:]], options=options)
    assert client.get(f"/api/games/{running['id']}/turns").status_code == 403
    gid = new_game(client, game=game, seats=seats, options=options)["id"]
    data = client.get(f"/api/games/{gid}/turns").json()
    state = live_state(client, gid)
    assert data["word"] == word and data["answers"] == len(state.answers)
    turns = [t["turn"] for t in data["turns"]]
    ats = [t["at"] for t in data["turns"]]
    assert turns == sorted(set(turns)) and max(turns) == max(e.turn for e in state.events)
    assert ats == sorted(ats) and ats[0] == 0 and ats[-1] < data["answers"]
    record = state.record()
    g = get_game(game)
    for t, at in zip(turns, ats):
        # replayed to its stop, the game has begun turn t and not gone past it
        before = g.replay(Record(record.game, record.options, record.seed, record.answers[:at]))
        assert max(e.turn for e in before.events) == t
    assert client.get(f"/api/games/{gid}/board.svg?at={ats[-1]}").status_code == 200


# -- WebSocket --------------------------------------------------------------------------------
def past(ws, version: int) -> dict:
    """The socket's next push of another version than ``version``: the game's odds, worked
    out once its set-up in the odds' worker is done, are pushed with the version they are
    of, and may come first."""
    while (pushed := ws.receive_json())["version"] == version:
        pass
    return pushed


def test_websocket_pushes_each_new_state(client):
    out = new_game(client)
    gid, tok = out["id"], out["seats"][0]["token"]
    with client.websocket_connect(f"/api/games/{gid}/ws?token={tok}") as ws, \
            client.websocket_connect(f"/api/games/{gid}/ws") as spectator:
        first = ws.receive_json()
        assert first["seat"] == 0 and first["pending"]
        assert spectator.receive_json()["pending"] == []
        key = first["pending"][0]["options"][0]["key"]
        r = client.post(f"/api/games/{gid}/answers", headers=bearer(tok), json={"key": key, "version": first["version"]})
        pushed = past(ws, first["version"])
        assert pushed["version"] == r.json()["version"] > first["version"]
        seen = past(spectator, first["version"])
        assert seen["version"] == pushed["version"] and seen["pending"] == [] and seen["seat"] is None


def test_websocket_refuses_a_bad_token(client):
    from starlette.websockets import WebSocketDisconnect

    out = new_game(client)
    with pytest.raises(WebSocketDisconnect) as exc:
        with client.websocket_connect(f"/api/games/{out['id']}/ws?token=forged") as ws:
            ws.receive_json()
    assert exc.value.code == 4403


# -- hidden information --------------------------------------------------------------------------
def test_no_response_carries_another_players_hand(client):
    """Brian Boru: every view, answer response and push to a seat is scanned for the cards
    the rules hide from that seat now (other hands, picks, packets, the leftover and the
    discards); records keep other seats' draft picks out."""
    game = get_game("brian-boru")
    out = new_game(client, game="brian-boru", seats=["human", "human", "human"], seed=3)
    gid = out["id"]
    toks = {s["seat"]: s["token"] for s in out["seats"]}
    import re

    def check(seat, text):
        hidden = set(game.hidden(live_state(client, gid), seat))
        shown = set(re.findall(r"\b\d+[A-Z]\b", text))
        leak = shown & hidden
        assert not leak, f"seat {seat} was shown hidden cards {sorted(leak)}"

    with client.websocket_connect(f"/api/games/{gid}/ws?token={toks[1]}") as ws1:
        ws1.receive_text()
        for step in range(120):
            spectator = client.get(f"/api/games/{gid}").text
            check(None, spectator)
            states = {}
            for seat, tok in toks.items():
                r = client.get(f"/api/games/{gid}", headers=bearer(tok))
                check(seat, r.text)
                # the record is a history: cards once played in a trick stay in it, but
                # nobody's draft picks but the seat's own
                rec = client.get(f"/api/games/{gid}/record", headers=bearer(tok)).json()
                kinds = live_state(client, gid).answer_kinds
                assert all(k is None for (p, k), kind in zip(rec["answers"], kinds)
                           if p != seat and kind in game.private_kinds)
                states[seat] = r.json()
            awaited = [s for s in toks if states[s]["pending"]]
            if not awaited:
                break
            seat = awaited[0]
            r = client.post(f"/api/games/{gid}/answers", headers=bearer(toks[seat]),
                            json={"key": states[seat]["pending"][0]["options"][-1]["key"],
                                  "version": states[seat]["version"]})
            assert r.status_code == 200
            check(seat, r.text)
            check(1, ws1.receive_text())
        assert step > 30  # through the draft and into the tricks


# -- durability within the process ---------------------------------------------------------------
def test_a_restarted_app_continues_every_game_exactly(database):
    """Two games of one seed; one app is restarted in the middle of one of them.  The same
    answers then give the same state: answers, and the bots' memories, come back."""
    with TestClient(create_app(database)) as c:
        a = new_game(c, seed=21, options={"turns": 2})
        b = new_game(c, seed=21, options={"turns": 2})
        play_first_options(c, a["id"], {0: a["seats"][0]["token"]}, 6)
        h_before = live_state(c, a["id"]).state_hash()
        end_b = play_first_options(c, b["id"], {0: b["seats"][0]["token"]}, 400)
        assert end_b["over"]
        h_b = live_state(c, b["id"]).state_hash()
    with TestClient(create_app(database)) as c:
        st = c.get(f"/api/games/{a['id']}", headers=bearer(a["seats"][0]["token"])).json()
        assert st["version"] > 0 and live_state(c, a["id"]).state_hash() == h_before
        end_a = play_first_options(c, a["id"], {0: a["seats"][0]["token"]}, 400)
        assert end_a["over"] and end_a["version"] == end_b["version"]
        assert live_state(c, a["id"]).state_hash() == h_b


def test_scores_and_panels_come_from_the_game(client):
    """The page shows each seat's score from the game's result and the panels the game
    declares for the viewer (Brian Boru: the viewer's own hand and draft picks only)."""
    out = new_game(client, game="brian-boru", seats=["human", "greedy", "greedy"], seed=5)
    me = client.get(f"/api/games/{out['id']}", headers=bearer(out["seats"][0]["token"])).json()
    assert me["scores"] == [p["points"] for p in me["view"]["players"]]
    titles = [p["title"] for p in me["panels"]]
    assert titles[0] == "Your hand" and me["panels"][0]["items"] == me["view"]["hand"]
    spectator = client.get(f"/api/games/{out['id']}").json()
    assert spectator["panels"] == [] and spectator["scores"] == me["scores"]
