"""A table's change handed to the game's owner (server/host.py ``Tables.hand`` and
``Tables.apply``, server/tabledb.py ``table_actions``), on one process: the owner's side
is driven by hand (the change stored as another process would, then applied), and the
asker's by a process told it does not own the game.  The processes' own exchange, over
PostgreSQL's notifications, is tests/server/test_processes.py's."""

from __future__ import annotations

from realms.server import host, tabledb

from .conftest import bearer, settled
from .test_deadlines import Clock
from .test_table import app_client, create, look, table


def _game(client) -> tuple[str, str, int]:
    """A two-person game with an hour a turn, its first turn begun: (id, host token, seat awaited)."""
    made = create(client, table={"clock": {"kind": "turn", "minutes": 60}})
    look(client, made["id"])
    return made["id"], made["host"], settled(client, made["id"])["awaiting"][0]


def _apply(client, gid: str, action_id: str) -> None:
    client.portal.call(client.app.state.tables.apply, gid, action_id)


def test_a_change_handed_over_is_applied_once_and_its_outcome_kept_for_its_asker(database):
    """The owner claims a handed change before applying it: applied twice (a notification
    heard twice), an extension of 30 minutes is made once; a refusal is kept as the owner
    made it (status and reason), with nothing changed."""
    with app_client(database, Clock()) as client:
        gid, _, seat = _game(client)
        store = client.app.state.tables.server.store
        tabledb.ask_action(store, "ext", gid, {"kind": "act", "action": "extend", "minutes": 30})
        assert tabledb.action_outcome(store, "ext") == (None, None)
        _apply(client, gid, "ext")
        _apply(client, gid, "ext")
        assert tabledb.action_outcome(store, "ext") == (200, None)
        assert table(client, gid)["clock"]["seats"][seat]["left"] == 5400.0
        tabledb.ask_action(store, "bad", gid, {"kind": "act", "action": "extend", "minutes": None})
        _apply(client, gid, "bad")
        status, detail = tabledb.action_outcome(store, "bad")
        assert status == 422 and detail.startswith("minutes:"), detail
        assert table(client, gid)["clock"]["seats"][seat]["left"] == 5400.0


def test_a_change_no_owner_takes_is_withdrawn_and_refused_with_nothing_changed(database, monkeypatch):
    """Through a process that does not own the game, with no owner to take the pause:
    503 once ``HAND_SECONDS`` passed (made 0 here: the outcome is read once), the change
    deleted before anyone claimed it (an owner hearing of it late finds nothing to claim)."""
    monkeypatch.setattr(host, "HAND_SECONDS", 0.0)
    monkeypatch.setattr(host, "HAND_LOOK", 0.01)
    with app_client(database, Clock()) as client:
        gid, host_token, _ = _game(client)
        tables = client.app.state.tables
        monkeypatch.setattr(tables, "elsewhere", lambda live: True)
        r = client.post(f"/api/games/{gid}/host", headers=bearer(host_token), json={"action": "pause"})
        assert r.status_code == 503 and "nothing was changed" in r.json()["detail"], r.text
        with tables.server.store.engine.connect() as conn:
            assert conn.execute(tabledb.actions_table.select()).all() == []
        monkeypatch.setattr(tables, "elsewhere", lambda live: False)
        assert table(client, gid)["clock"]["paused"] is False


def test_the_owners_watcher_applies_a_change_whose_notification_it_missed(database, monkeypatch):
    """A change handed over whose notification never reached the owner (no cluster here to
    carry it): the owner's next look claims and applies it, and only once."""
    from types import SimpleNamespace

    with app_client(database, Clock()) as client:
        gid, _, _ = _game(client)
        tables = client.app.state.tables
        store = tables.server.store
        tabledb.ask_action(store, "missed", gid, {"kind": "act", "action": "pause"})
        monkeypatch.setattr(tables.server, "cluster", SimpleNamespace(owns=lambda game_id: game_id == gid))
        look(client)
        look(client)
        assert tabledb.action_outcome(store, "missed") == (200, None)
        assert tabledb.unclaimed_actions(store) == []
        monkeypatch.setattr(tables.server, "cluster", None)
        assert table(client, gid)["clock"]["paused"] is True


def test_a_seats_notice_addresses_handed_over_are_the_owners_to_store(database):
    """A seat's notice addresses set through another process (checked there) are stored by
    the owner as given, and its refusal to take a seat back that no bot holds comes back
    as it made it."""
    with app_client(database, Clock()) as client:
        made = create(client, table={"clock": {"kind": "turn", "minutes": 60}})
        gid, tok = made["id"], made["seats"][1]["token"]
        store = client.app.state.tables.server.store
        subs = {"webhook": "https://hooks.example/seat-1", "email": None}
        tabledb.ask_action(store, "subs", gid, {"kind": "notices", "seat": 1, "subs": subs})
        _apply(client, gid, "subs")
        assert tabledb.action_outcome(store, "subs") == (200, None)
        assert table(client, gid, tok)["notices"] == subs
        tabledb.ask_action(store, "back", gid, {"kind": "back", "seat": 1, "by": "button"})
        _apply(client, gid, "back")
        assert tabledb.action_outcome(store, "back") == (409, "no bot plays seat 2")
