"""The game's story for its page: the whole chronicle with what the page draws from it
(battles, moves), a battle's exact odds, the scores turn by turn of a finished game, and a
rematch.

- ``GET /api/games/{id}/events?since=N`` → ``{events: [{n, kind, turn, text, battle?,
  marks?}], total, version}``: the events the asking seat may read (``Event.seen_by``),
  numbered among those alone (a seat learns nothing from the numbering about lines it
  may not read), from the ``N``-th on.  An event gives its ``battle`` and ``marks`` (the
  ``Event`` docstring) and nothing else of its data: what a game keeps there for itself
  stays on the server.
- ``GET /api/games/{id}/odds?event=N`` → the game's ``calculator`` run on the ``odds``
  of event ``N``'s battle: ``{odds: {outcome: probability}, text}``; 404 when the event
  carries none or the game has no calculator; 422 when the calculator refuses them.
- ``GET /api/games/{id}/scores`` (finished games) → ``{word, turns: [{turn, scores}]}``:
  each seat's score (the result's) as each turn began, and at the end (the results
  panel's chart).
- ``POST /api/games/{id}/rematch`` (a seat's token) → 201 ``{id, seat, token}``: a new
  game of the same game, options and seats (bots by the same names) with a new seed,
  made once per finished game in this process: each seat that asks gets its own seat of
  it (the same number), and no other seat's token.
"""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi import FastAPI, Header, HTTPException, Query

from realms.core.game import CalculatorError

#: the events one request returns at most (a page asks again from where it stopped)
PAGE = 5000
#: the values of the battles whose odds were asked, by game: their answers
_ODDS: dict[tuple, dict] = {}
ODDS_KEPT = 2000


def seen_events(state: Any, seat: int | None) -> list:
    """The events ``seat`` may read now, in order (all once the game is over)."""
    return state.events_for(seat)


def event_json(n: int, e: Any) -> dict:
    out = {"n": n, "kind": e.kind, "turn": e.turn, "text": e.text}
    for key in ("marks", "seats"):
        if key in e.data:
            out[key] = e.data[key]
    if isinstance(e.data.get("battle"), dict):  # a game's own number of that name is no battle
        out["battle"] = e.data["battle"]
    return out


def _values(calculator: Any, given: dict) -> dict:
    """A calculator's values: its defaults, then ``given`` (by argument name only)."""
    values = {a.name: (bool(a.default) if a.type is bool else a.default) for a in calculator.arguments}
    for k, v in given.items():
        if k not in values:
            raise CalculatorError(f"{k}: not an argument of the calculator")
        values[k] = v
    return values


def _probabilities(data: dict) -> dict:
    """The outcomes of a calculator's JSON answer as {name: probability}: its ``chances``,
    or its top-level numbers in 0..1 named for an outcome (wins, takes, holds …)."""
    if isinstance(data.get("chances"), dict):
        return {k.replace("_", " "): v for k, v in data["chances"].items() if isinstance(v, (int, float))}
    words = ("wins", "takes", "holds", "mutual", "retreats")
    return {k.replace("_", " "): v for k, v in data.items()
            if isinstance(v, float) and 0 <= v <= 1 and any(w in k for w in words)}


def install(app: FastAPI, server: Any, token_of: Any, create: Any) -> None:
    """Add the routes above to ``app``; ``token_of`` reads a seat's token from the
    Authorization header, ``create(body)`` makes a new game as ``POST /api/games`` does:
    (the game, its people's tokens by seat)."""

    @app.get("/api/games/{game_id}/events")
    async def events(game_id: str, since: int = Query(default=0, ge=0),
                     authorization: str | None = Header(default=None)) -> dict:
        """The chronicle the seat may read, from its ``since``-th line, with each line's
        battle and board marks."""
        live = await server.get(game_id)
        seat = live.seat_of(token_of(authorization))
        seen = seen_events(live.state, seat)
        part = seen[since:since + PAGE]
        return {"events": [event_json(since + i, e) for i, e in enumerate(part)], "total": len(seen),
                "version": live.version}

    @app.get("/api/games/{game_id}/odds", responses={404: {"description": "no odds for that event"},
                                                      422: {"description": "the calculator refused them"}})
    async def odds(game_id: str, event: int = Query(ge=0),
                   authorization: str | None = Header(default=None)) -> dict:
        """The exact odds of an event's battle, before its next round, by the game's
        calculator (``realms odds``)."""
        live = await server.get(game_id)
        seat = live.seat_of(token_of(authorization))
        seen = seen_events(live.state, seat)
        if event >= len(seen) or not isinstance(seen[event].data.get("battle"), dict) \
                or "odds" not in seen[event].data["battle"]:
            raise HTTPException(404, f"event {event} has no battle odds")
        if live.game.calculator is None:
            raise HTTPException(404, f"{live.game.name} has no battle calculator")
        given = seen[event].data["battle"]["odds"]
        key = (live.game.id, tuple(sorted(given.items())))
        if key not in _ODDS:
            calculator = live.game.calculator()
            try:
                data, text = await asyncio.to_thread(calculator.compute, _values(calculator, given))
            except CalculatorError as exc:
                raise HTTPException(422, f"the calculator refused the battle: {exc}") from None
            if len(_ODDS) >= ODDS_KEPT:
                _ODDS.clear()
            _ODDS[key] = {"odds": _probabilities(data), "method": data.get("method"), "text": text}
        return {"event": event, **_ODDS[key]}

    @app.get("/api/games/{game_id}/scores")
    async def scores(game_id: str) -> dict:
        """A finished (or ended) game's scores as each turn began and at its end: each
        player's path."""
        live = await server.get(game_id)
        state = live.state
        if not live.done:
            raise HTTPException(403, "the scores by turn are shown once the game is over")
        if getattr(live, "score_path", None) is None:
            live.score_path = await asyncio.to_thread(_score_path, live.game, state)
        return {"word": live.game.turn_word, "turns": live.score_path}

    @app.post("/api/games/{game_id}/rematch", status_code=201)
    async def rematch(game_id: str, authorization: str | None = Header(default=None)) -> dict:
        """The same game again: options and seats as they were, a new seed, new links."""
        live = await server.get(game_id)
        seat = live.seat_of(token_of(authorization))
        if seat is None:
            raise HTTPException(403, "a rematch is asked by a seat of the game: send its token")
        if not live.done:
            raise HTTPException(403, "the game is still going on")
        async with live.lock:
            again = getattr(live, "rematch", None)
            if again is None:
                table = getattr(live, "table", None)  # its clock and talk (host.py)
                body = {"game": live.game.id, "options": dict(live.row.options), "seed": None,
                        "seats": [s["kind"] for s in live.row.seats], "table": table.settings if table else None}
                made, tokens = await create(body)
                again = live.rematch = {"id": made.row.id, "tokens": [tokens.get(i) for i in range(len(made.row.seats))]}
        return {"id": again["id"], "seat": seat, "token": again["tokens"][seat]}


def status(live: Any) -> str:
    """A game's status for the lobby: over, or whose decision it awaits, and the
    decisions made so far (nothing a spectator may not see)."""
    state = live.state
    if state.is_over():
        return f"over after {len(state.answers)} decisions"
    if live.ended:
        return f"ended by its host after {len(state.answers)} decisions"
    waiting = sorted({d.player for d in state.pending()})
    people = [p for p in waiting if p not in live.agents]
    who = f"awaiting seat {', '.join(str(p + 1) for p in people)}" if people else "the bots are playing"
    return f"{who}, {len(state.answers)} decisions made"


def _scores(state: Any) -> list[float]:
    """Each seat's score as the game's result counts it (the final table's)."""
    res = state.result()
    return [float(res["scores"].get(name) or 0) for name in res["players"]]


def _score_path(game: Any, state: Any) -> list[dict]:
    """Each seat's score (the result's, as in the final table) as each turn began, and at
    the end.  Turns that begin after the same answer (a turn with no decision in it) each
    get their point, so that no turn is missing from the chart."""
    record = state.record()
    at: dict[int, list] = {}
    for t, n in game.turn_starts(record):
        at.setdefault(n, []).append(t)
    out: list[dict] = []

    def after_each(s: Any) -> None:
        scores = _scores(s) if len(s.answers) in at else None
        for t in at.pop(len(s.answers), []):
            out.append({"turn": t, "scores": scores})

    game.replay(record, after_each=after_each)
    out.append({"turn": "end", "scores": _scores(state)})
    return out
