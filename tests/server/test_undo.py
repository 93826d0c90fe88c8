"""Undo: a seat takes back its own last decision, when nobody else has decided
since and no die was rolled by it.  ``POST /api/games/{id}/undo {version}``: 200 the state
as it was before that answer (same state hash), 409 stale version, 403 not the seat's
answer / somebody decided since (bots reply at once) / a spectator / the game is over,
422 a die was rolled; the answer row is deleted before the 200 and stays deleted after a
restart, and an undo allowed before a restart is allowed after it."""

from __future__ import annotations

import random

import pytest
from fastapi.testclient import TestClient

from realms.core.game import games
from realms.server.app import MAX_UNDO, create_app
from realms.server.store import Store, UndoConflict

from .conftest import bearer, new_game, odds_set_up, settled

SEATS = ["human", "auto", "auto"]


def live(client, gid):
    return client.app.state.server.live[gid]


def me(client, gid, tok) -> dict:
    return client.get(f"/api/games/{gid}", headers=bearer(tok)).json()


def answer(client, gid, tok, state: dict, key: str | None = None):
    key = key if key is not None else state["pending"][0]["options"][0]["key"]
    return client.post(f"/api/games/{gid}/answers", headers=bearer(tok), json={"key": key, "version": state["version"]})


def undo(client, gid, tok, version: int):
    return client.post(f"/api/games/{gid}/undo", headers=bearer(tok), json={"version": version})


def play_to_undoable(client, gid, tok, limit: int = 200) -> tuple[dict, dict, str]:
    """Answer the first option until an answer can be taken back (a Hy Breasil move:
    no die, and the same seat moves again): (state before, state after, hash before)."""
    state = me(client, gid, tok)
    for _ in range(limit):
        h = live(client, gid).state.state_hash()
        r = answer(client, gid, tok, state)
        assert r.status_code == 200, r.text
        after = r.json()
        if after["can_undo"]:
            return state, after, h
        state = settled(client, gid, tok)
    pytest.fail("no undoable answer")


def first_key(state: dict) -> str:
    return state["pending"][0]["options"][0]["key"]


def test_undo_of_a_move_gives_back_the_state_before_it(client):
    out = new_game(client, seats=SEATS)
    gid, tok = out["id"], out["seats"][0]["token"]
    before, after, h = play_to_undoable(client, gid, tok)
    assert before["pending"][0]["kind"] == "hb.move"
    assert after["version"] == before["version"] + 1 and after["awaiting"] == [0]
    r = undo(client, gid, tok, after["version"])
    assert r.status_code == 200, r.text
    back = r.json()
    assert live(client, gid).state.state_hash() == h
    assert back["version"] == before["version"] and back["view"] == before["view"]
    assert back["pending"] == before["pending"]
    assert back["undos"] > before["undos"]
    assert len(live(client, gid).state.answers) == before["version"]
    # the same answer again is accepted and leads to the same state as the first time
    assert first_key(back) == first_key(before)
    again = answer(client, gid, tok, back)
    assert again.status_code == 200 and again.json()["view"] == after["view"]


def test_several_own_decisions_are_taken_back_one_by_one(client):
    out = new_game(client, seats=SEATS)
    gid, tok = out["id"], out["seats"][0]["token"]
    first, s1, h0 = play_to_undoable(client, gid, tok)
    r = answer(client, gid, tok, s1)
    s2 = r.json()
    assert s2["can_undo"] and s2["version"] == s1["version"] + 1
    assert undo(client, gid, tok, s2["version"]).json()["version"] == s1["version"]
    back = undo(client, gid, tok, s1["version"]).json()
    assert back["version"] == first["version"]
    assert live(client, gid).state.state_hash() == h0


def answer_the_bots_reply_to(client, gid, tok) -> dict:
    """Answer the first option until the bots are to reply: the 200 of that answer."""
    s = me(client, gid, tok)
    for _ in range(200):
        after = answer(client, gid, tok, s).json()
        if after["awaiting"] != [0] and not after["over"]:
            return after
        s = after
    pytest.fail("the bots never replied")


def test_undo_is_refused_once_the_bots_have_answered(client):
    out = new_game(client, seats=SEATS)
    gid, tok = out["id"], out["seats"][0]["token"]
    after = answer_the_bots_reply_to(client, gid, tok)
    assert not after["can_undo"]
    s = settled(client, gid, tok)
    assert s["version"] > after["version"]
    h = live(client, gid).state.state_hash()
    r = undo(client, gid, tok, s["version"])
    assert r.status_code == 403 and "somebody else decided" in r.json()["detail"]
    assert not s["can_undo"]
    assert live(client, gid).state.state_hash() == h


def test_an_answer_the_bots_are_to_reply_to_stands_before_their_replies_are_in(client, monkeypatch):
    """The 200 comes before the bots reply (they play in the background): the answer can
    no more be taken back in between than after, whatever the timing."""
    from realms.server.app import Server

    out = new_game(client, seats=SEATS)
    gid, tok = out["id"], out["seats"][0]["token"]
    monkeypatch.setattr(Server, "continue_bots", lambda self, live: None)  # the bots are slow
    after = answer_the_bots_reply_to(client, gid, tok)
    assert not after["can_undo"] and me(client, gid, tok)["version"] == after["version"]
    h = live(client, gid).state.state_hash()
    r = undo(client, gid, tok, after["version"])
    assert r.status_code == 403 and "bots are answering" in r.json()["detail"]
    assert live(client, gid).state.state_hash() == h


def test_undo_is_refused_after_a_die_roll(client):
    """Two people and no bots: whatever seat 0 answered last stands once it rolled dice."""
    out = new_game(client, seats=["human", "human"])
    gid = out["id"]
    toks = {s["seat"]: s["token"] for s in out["seats"]}
    for _ in range(400):
        seat = client.get(f"/api/games/{gid}").json()["awaiting"][0]
        s = me(client, gid, toks[seat])
        fp = live(client, gid).state.dice.fingerprint()
        r = answer(client, gid, toks[seat], s)
        assert r.status_code == 200
        if live(client, gid).state.dice.fingerprint() != fp and not r.json()["over"]:
            break
    else:
        pytest.fail("no answer rolled a die")
    after = r.json()
    assert not after["can_undo"]
    h = live(client, gid).state.state_hash()
    r = undo(client, gid, toks[seat], after["version"])
    assert r.status_code == 422 and "die was rolled" in r.json()["detail"]
    assert live(client, gid).state.state_hash() == h


def test_undo_is_refused_for_another_seat_a_spectator_and_a_stale_version(client):
    out = new_game(client, seats=["human", "human", "auto"])
    gid = out["id"]
    toks = {s["seat"]: s["token"] for s in out["seats"]}
    for _ in range(200):
        seat = settled(client, gid)["awaiting"][0]
        s = me(client, gid, toks[seat])
        after = answer(client, gid, toks[seat], s).json()
        if after["can_undo"]:
            break
    else:
        pytest.fail("no undoable answer")
    other = 1 - seat
    v = after["version"]
    h = live(client, gid).state.state_hash()
    assert me(client, gid, toks[other])["can_undo"] is False
    assert client.get(f"/api/games/{gid}").json()["can_undo"] is False
    r = undo(client, gid, toks[other], v)
    assert r.status_code == 403, r.text
    assert client.post(f"/api/games/{gid}/undo", json={"version": v}).status_code == 403
    assert undo(client, gid, "z" * 32, v).status_code == 403
    assert undo(client, gid, toks[seat], v - 1).status_code == 409
    assert undo(client, gid, toks[seat], v + 1).status_code == 409
    for body in ({}, {"version": "x"}, {"version": v, "key": "a"}, {"version": -1}):
        assert client.post(f"/api/games/{gid}/undo", headers=bearer(toks[seat]), json=body).status_code == 422
    assert client.post("/api/games/nope/undo", headers=bearer(toks[seat]), json={"version": v}).status_code == 404
    assert live(client, gid).state.state_hash() == h
    assert undo(client, gid, toks[seat], v).status_code == 200


def test_a_finished_game_takes_nothing_back(client):
    out = new_game(client, seats=SEATS, options={"turns": 1})
    gid, tok = out["id"], out["seats"][0]["token"]
    s = me(client, gid, tok)
    while not s["over"]:
        answer(client, gid, tok, s)
        s = settled(client, gid, tok)
    assert s["can_undo"] is False
    assert undo(client, gid, tok, s["version"]).status_code == 403


def test_the_undo_is_durable_and_survives_a_restart(database):
    with TestClient(create_app(database)) as c:
        out = new_game(c, seats=SEATS)
        gid, tok = out["id"], out["seats"][0]["token"]
        before, after, h = play_to_undoable(c, gid, tok)
        s2 = answer(c, gid, tok, after).json()  # a second move, left standing at the restart
        assert s2["can_undo"]
        assert undo(c, gid, tok, s2["version"]).json()["version"] == after["version"]
    with TestClient(create_app(database)) as c:
        # the undone answer is gone from the database; the one before can still be undone
        s = me(c, gid, tok)
        assert s["version"] == after["version"] and s["view"] == after["view"]
        assert s["can_undo"] is True
        r = undo(c, gid, tok, s["version"])
        assert r.status_code == 200
        assert live(c, gid).state.state_hash() == h
    with TestClient(create_app(database)) as c:
        s = me(c, gid, tok)
        assert s["version"] == before["version"] and s["view"] == before["view"]
        assert live(c, gid).state.state_hash() == h


def test_only_the_last_few_decisions_can_be_taken_back(client):
    out = new_game(client, seats=SEATS)
    gid, tok = out["id"], out["seats"][0]["token"]
    _, s, _ = play_to_undoable(client, gid, tok)
    answered = 1
    while answered <= MAX_UNDO:
        nxt = answer(client, gid, tok, s).json()
        assert nxt["can_undo"], "the game's seed must give a movement phase of more than MAX_UNDO moves"
        s, answered = nxt, answered + 1
    for _ in range(MAX_UNDO):
        r = undo(client, gid, tok, s["version"])
        assert r.status_code == 200
        s = r.json()
    assert s["can_undo"] is False
    r = undo(client, gid, tok, s["version"])
    assert r.status_code == 403 and f"last {MAX_UNDO}" in r.json()["detail"]


def test_undo_is_pushed_to_every_page(client):
    out = new_game(client, seats=SEATS)
    gid, tok = out["id"], out["seats"][0]["token"]
    _, after, _ = play_to_undoable(client, gid, tok)
    odds_set_up(client, gid)  # its push of the same version, odds added, is not the undo's
    with client.websocket_connect(f"/api/games/{gid}/ws?token={tok}") as ws, \
            client.websocket_connect(f"/api/games/{gid}/ws") as spectator:
        assert ws.receive_json()["version"] == after["version"]
        spectator.receive_json()
        back = undo(client, gid, tok, after["version"]).json()
        pushed = ws.receive_json()
        assert pushed["version"] == back["version"] == after["version"] - 1
        assert pushed["undos"] == back["undos"] > after["undos"]
        seen = spectator.receive_json()
        assert seen["version"] == back["version"] and seen["pending"] == []


def test_the_store_deletes_only_the_last_answer_of_that_seat(tmp_path):
    store = Store(str(tmp_path / "s.db"))
    try:
        store.create("g", "hy-breasil", {}, 1, [], [(0, "a"), (1, "b"), (0, "c")])
        with pytest.raises(UndoConflict):
            store.submit_undo("g", 1, 1).result(10)  # not the last one
        with pytest.raises(UndoConflict):
            store.submit_undo("g", 2, 1).result(10)  # not that seat's
        # a failed undo in a batch does not sink the others
        ok = store.submit("g", 3, [(1, "d")])
        bad = store.submit_undo("g", 0, 0)
        ok.result(10)
        with pytest.raises(UndoConflict):
            bad.result(10)
        store.submit_undo("g", 3, 1).result(10)
        assert store.load("g").answers == [(0, "a"), (1, "b"), (0, "c")]
        store.undo("g", 2, 0)
        assert store.load("g").answers == [(0, "a"), (1, "b")]
    finally:
        store.close()


# -- an answer that showed something hidden stands ---------------------------
HIDING = sorted(g.id for g in games().values() if g.hidden_information)
UNDO_OPTIONS = {"version2": {"type": "resistance"}}


def hidden_now(client, gid) -> dict:
    """What each seat, and a spectator, may not see now (``Game.hidden``)."""
    lv = live(client, gid)
    return {seat: set(map(str, lv.game.hidden(lv.state, seat))) for seat in (*range(len(lv.row.seats)), None)}


def test_every_game_that_hides_something_hides_it_from_undo_too():
    assert "brian-boru" in HIDING  # the list the next test runs over is not empty


@pytest.mark.parametrize("game_id", HIDING)
def test_no_answer_that_showed_something_hidden_can_be_undone(client, game_id):
    """All seats people, answers chosen at random: after every answer, it can be taken back
    exactly when no die was rolled and no seat (nor a spectator) was shown anything that was
    hidden from it before; a refused undo changes nothing, an allowed one gives back the
    state before."""
    game = games()[game_id]
    people = min(game.max_players, max(game.min_players, 3))
    # version²'s dice roll only in battles, which its Resistance type brings soonest (garrisons)
    out = new_game(client, game=game_id, seats=["human"] * people, seed=11, options=UNDO_OPTIONS.get(game_id))
    gid = out["id"]
    toks = {s["seat"]: s["token"] for s in out["seats"]}
    rng = random.Random(game_id)
    refused = allowed = 0
    for _ in range(100):
        seat = client.get(f"/api/games/{gid}").json()["awaiting"][0]
        s = me(client, gid, toks[seat])
        h, fp, hid = live(client, gid).state.state_hash(), live(client, gid).state.dice.fingerprint(), hidden_now(client, gid)
        key = rng.choice(s["pending"][0]["options"])["key"]
        game_final = live(client, gid).game.final
        final = game_final is not None and game_final(live(client, gid).state, seat, key)
        after = answer(client, gid, toks[seat], s, key).json()
        if after["over"]:
            break
        shown = any(hid[p] - items for p, items in hidden_now(client, gid).items())
        rolled = live(client, gid).state.dice.fingerprint() != fp
        assert after["can_undo"] is not (shown or rolled or final), (s["pending"][0]["kind"], shown, rolled, final)
        h_after = live(client, gid).state.state_hash()
        if shown or rolled or final:
            r = undo(client, gid, toks[seat], after["version"])
            assert r.status_code == 422, r.text
            assert ("cannot be taken back by the game's rules" if final else "die was rolled" if rolled
                    else "showed something hidden") in r.json()["detail"]
            assert live(client, gid).state.state_hash() == h_after
            refused += 1
        elif rng.random() < 0.3:
            back = undo(client, gid, toks[seat], after["version"])
            assert back.status_code == 200 and live(client, gid).state.state_hash() == h
            assert answer(client, gid, toks[seat], back.json(), key).json()["view"] == after["view"]
            allowed += 1
    assert refused and allowed, (refused, allowed)


def _draft_until_a_pass(client, gid, toks) -> tuple[dict, dict, int]:
    """Brian Boru, three people: everyone picks, the last seat to pick last, until a pick
    passes the packets on: (the last picker's state before that pick, after it, its seat)."""
    for _ in range(200):
        spectator = client.get(f"/api/games/{gid}").json()
        seat = spectator["awaiting"][0]
        s = me(client, gid, toks[seat])
        after = answer(client, gid, toks[seat], s).json()
        if s["pending"][0]["kind"] != "bb.draft":
            continue
        packet, now = set(s["view"]["packet"]), set(after["view"]["packet"])
        if not now <= packet:  # a packet it had not seen: the packets were passed
            return s, after, seat
        assert after["can_undo"], "a pick that passes nothing on can be taken back"
    pytest.fail("the draft never passed the packets")


def test_the_last_pick_of_a_draft_pass_cannot_be_undone(database, monkeypatch):
    """With three people the last to pick sees the packet passed to it;
    undoing then would let it pick again knowing the next packet.  Also after a restart."""
    from realms.server import app as app_module

    monkeypatch.setattr(app_module, "secret_seed", lambda: 5)
    with TestClient(create_app(database)) as c:
        out = new_game(c, game="brian-boru", seats=["human"] * 3, seed=None)
        gid = out["id"]
        toks = {s["seat"]: s["token"] for s in out["seats"]}
        before, after, seat = _draft_until_a_pass(c, gid, toks)
        assert after["version"] == before["version"] + 1 and not after["can_undo"]
        h = live(c, gid).state.state_hash()
        r = undo(c, gid, toks[seat], after["version"])
        assert r.status_code == 422 and "showed something hidden" in r.json()["detail"]
        assert live(c, gid).state.state_hash() == h and me(c, gid, toks[seat])["view"] == after["view"]
    with TestClient(create_app(database)) as c:
        assert me(c, gid, toks[seat])["can_undo"] is False
        r = undo(c, gid, toks[seat], after["version"])
        assert r.status_code == 422 and "showed something hidden" in r.json()["detail"]
