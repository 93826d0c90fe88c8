"""Battle odds in the state payload: the seat about to move or fight gets
``odds``, the exact odds of each battle at stake for its nation, from the game's advice
hook; spectators and seats with nothing to decide get none."""

from __future__ import annotations

from types import SimpleNamespace

from realms.core.game import get_game
from realms.games.hy_breasil.odds import solve
from realms.server.app import Live

from .conftest import advised_now, bearer, new_game


def me(client, gid, tok) -> dict:
    """The seat's state with its odds (once the game is set up in the odds' worker)."""
    return advised_now(client, gid, tok)


def attack_key(state: dict) -> str | None:
    return next((o["key"] for o in state["pending"][0]["options"] if "(attack the" in o["label"]), None)


def test_odds_come_with_the_decision_that_risks_a_battle(client):
    out = new_game(client, seats=["human", "human"], seed=7, options={"turns": 3})
    gid = out["id"]
    toks = {s["seat"]: s["token"] for s in out["seats"]}
    server_state = lambda: client.app.state.server.live[gid].state  # noqa: E731
    offered = started = None
    for _ in range(300):
        spectator = client.get(f"/api/games/{gid}").json()
        if spectator["over"]:
            break
        assert spectator["odds"] == []
        seat = spectator["awaiting"][0]
        s = me(client, gid, toks[seat])
        idle = me(client, gid, toks[1 - seat])
        assert idle["pending"] == [] and idle["odds"] == []
        key = attack_key(s) if s["pending"][0]["kind"] == "hb.move" else None
        if key and offered is None:
            offered = s
        if s["view"]["battle"] and "fight" in [o["key"] for o in s["pending"][0]["options"]]:
            started = s
            break
        key = key or s["pending"][0]["options"][0]["key"]
        assert client.post(f"/api/games/{gid}/answers", headers=bearer(toks[seat]),
                           json={"key": key, "version": s["version"]}).status_code == 200
    assert offered is not None and started is not None, "no attack was offered and begun"
    # before the attack: each enemy area the moving nation can reach, with its odds
    entry = next(o for o in offered["odds"] if o["kind"] == "possible-attack")
    r = solve(entry["attackers"], entry["defenders"], terrain=entry["terrain"], city=entry["city"],
              fervour=entry["fervour"])
    assert entry["attacker_takes"] == r.attacker_takes_area
    assert entry["text"].startswith(f"Attack on {entry['area_name']}")
    # the battle begun: its numbers are the state's
    bt = started["view"]["battle"]
    [entry] = started["odds"]
    assert entry["kind"] == "battle" and entry["area"] == bt["area"] and entry["side"] == "attacker"
    assert entry["attackers"] == bt["attacker_units"]["unhurt"] == server_state().battle[3]
    assert entry["defenders"] == bt["defender_units"]["unhurt"]
    r = solve(entry["attackers"], entry["defenders"], terrain=entry["terrain"], city=entry["city"],
              fervour=entry["fervour"])
    assert abs(entry["attacker_takes"] - r.attacker_takes_area) < 1e-12
    assert abs(entry["expected_defenders_left"] - r.expected_defenders_left) < 1e-12


def test_no_odds_in_a_game_without_an_advice_hook(client):
    out = new_game(client, game="brian-boru", seats=["human", "greedy", "random"])
    s = me(client, out["id"], out["seats"][0]["token"])
    assert s["pending"] and s["odds"] == []


def test_no_trip_to_the_odds_worker_for_a_decision_the_game_never_advises_on(client, monkeypatch):
    """A person's answer waits for the odds only where the game can show some
    (``Game.advice_kinds``): Hy Breasil's set-up and other picks ask the worker nothing."""
    from realms.games.hy_breasil import ADVICE_KINDS

    odds = client.app.state.server.heavy.odds
    asked: list[int] = []
    real_run = odds.run

    async def counted(key, *args, **kw):
        if key[0] == "advice":
            asked.append(key[3])
        return await real_run(key, *args, **kw)

    monkeypatch.setattr(odds, "run", counted)
    out = new_game(client, seats=["human", "human"], seed=7, options={"turns": 2})
    gid = out["id"]
    toks = {s["seat"]: s["token"] for s in out["seats"]}
    kinds_at: dict[int, str] = {}
    for _ in range(120):
        spectator = client.get(f"/api/games/{gid}").json()
        if spectator["over"]:
            break
        seat = spectator["awaiting"][0]
        s = me(client, gid, toks[seat])
        kinds_at[s["version"]] = s["pending"][0]["kind"]
        assert client.post(f"/api/games/{gid}/answers", headers=bearer(toks[seat]),
                           json={"key": s["pending"][0]["options"][0]["key"], "version": s["version"]}).status_code == 200
    unadvised = {v for v, kind in kinds_at.items() if kind not in ADVICE_KINDS}
    advised = set(kinds_at) - unadvised
    assert unadvised and advised, f"the game asked only {set(kinds_at.values())}"
    assert not unadvised & set(asked), "the worker was asked for decisions the game never advises on"
    assert advised <= set(asked), "a decision the game advises on went without its odds"


def test_a_states_view_is_made_once_a_seat_and_made_again_for_the_next_state():
    """The odds' job and the payload share the view of the state now (``Live.view``)."""
    game = get_game("hy-breasil")
    state = game.new_game({}, 7)
    live = Live(row=SimpleNamespace(id="g", seats=[{"kind": "human"}, {"kind": "auto"}]), game=game,
                state=state, agents={})
    first = live.view(0)
    assert live.view(0) is first and first == state.view(0) and live.view(None) == state.view(None)
    d = state.pending()[0]
    after = state.clone()
    after.apply(d.player, d.keys[0])
    live.state = after
    assert live.view(0) is not first and live.view(0) == after.view(0)
