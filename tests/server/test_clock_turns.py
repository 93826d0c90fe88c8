"""A table's clock (server/host.py, core/clock.py) against bots that answer at once: a
person's turn that ran out, or that they ended, begins anew when the bots hand the turn
back before the watcher's next look, so each of their turns has its whole time."""

from __future__ import annotations

from .conftest import bearer, settled
from .test_seat_back import dealt  # noqa: F401 (one deal for every run)
from .test_deadlines import Clock
from .test_table import app_client, create, look, table


def test_a_silent_person_against_a_bot_misses_turn_after_turn_until_the_bot_takes_the_seat(database):
    """The person never answers: their turn runs out, the bot answers its own at once, and
    the person's next turn has its hour again; at the second miss the bot takes the seat."""
    clock = Clock()
    with app_client(database, clock) as client:
        made = create(client, seats=("human", "random"), table={"clock": {"kind": "turn", "minutes": 60, "misses": 2}})
        gid = made["id"]
        look(client, gid)
        assert table(client, gid)["clock"]["seats"][0]["left"] == 3600.0
        clock.now += 3600
        look(client, gid)
        st = settled(client, gid)
        assert st["awaiting"] == [0] and st["version"] > 0
        look(client, gid)
        t = table(client, gid)
        assert t["clock"]["seats"][0]["misses"] == 1 and t["clock"]["seats"][0]["left"] == 3600.0, t["clock"]
        clock.now += 3600
        look(client, gid)
        assert "0" in table(client, gid)["bots"]


def test_a_person_who_answers_late_against_a_bot_has_a_whole_turn_next(database):
    """The person answers in the turn's last minutes; the bot answers at once, before the
    watcher looks again: the person's next turn has its whole hour, not the minutes left."""
    clock = Clock()
    with app_client(database, clock) as client:
        made = create(client, seats=("human", "random"), table={"clock": {"kind": "turn", "minutes": 60, "misses": 2}})
        gid, tok = made["id"], made["seats"][0]["token"]
        look(client, gid)
        clock.now += 3590
        mine = settled(client, gid, tok)
        r = client.post(f"/api/games/{gid}/answers", headers=bearer(tok),
                        json={"key": mine["pending"][0]["options"][0]["key"], "version": mine["version"]})
        assert r.status_code == 200, r.text
        assert not r.json()["pending"], "one answer is the seat's whole turn here"
        st = settled(client, gid, tok)
        assert st["awaiting"] == [0] and st["version"] > r.json()["version"]
        look(client, gid)
        t = table(client, gid)
        assert t["clock"]["seats"][0]["left"] == 3600.0 and t["clock"]["seats"][0]["misses"] == 0, t["clock"]


def test_an_answer_taken_back_gives_back_the_turn_as_it_was_not_a_new_one(database):
    """A person ends their turn with an answer and takes it back: their turn goes on from
    when it began (the time spent is spent, a bank gains no increment), so an answer and
    its undo do not renew a deadline."""
    for spec in ({"kind": "turn", "minutes": 60}, {"kind": "bank", "minutes": 60, "increment": 600}):
        clock = Clock()
        with app_client(database, clock) as client:
            made = create(client, table={"clock": spec})
            gid, tokens = made["id"], [s["token"] for s in made["seats"]]
            look(client, gid)
            seat = settled(client, gid)["awaiting"][0]
            clock.now += 3000
            mine = settled(client, gid, tokens[seat])
            r = client.post(f"/api/games/{gid}/answers", headers=bearer(tokens[seat]),
                            json={"key": mine["pending"][0]["options"][0]["key"], "version": mine["version"]})
            assert r.status_code == 200 and r.json()["can_undo"] and seat not in r.json()["awaiting"], r.text
            look(client, gid)
            assert table(client, gid)["clock"]["seats"][seat]["left"] is None    # the turn ended
            u = client.post(f"/api/games/{gid}/undo", headers=bearer(tokens[seat]), json={"version": r.json()["version"]})
            assert u.status_code == 200 and seat in u.json()["awaiting"], u.text
            look(client, gid)
            assert table(client, gid)["clock"]["seats"][seat]["left"] == 600.0, (spec, table(client, gid)["clock"])
