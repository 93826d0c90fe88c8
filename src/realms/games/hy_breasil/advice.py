"""Battle odds for a player about to decide (the web app's ``odds``; ``Game.advice``).

Before a movement decision (§6.3) or a battle decision (start the battle, stay or
retreat, fight or submit: §6.3.1, §6.3.2, §9.2), a player sees the exact odds of every
battle at stake for its nation, from the odds solver (:mod:`.odds`):

* ``battle`` — the battle being fought, or about to start: its area, both sides' unhurt
  and wounded units, the city; before the battle starts, also the odds if every unit of
  the attacker that can still reach the area joins it (``with_all``);
* ``possible-attack`` — before a move, each area of another nation that the nation's
  units could enter, with as many attackers as can reach it, against its defenders.

Everything comes from the player's view and its own pending decision, nothing else (the
odds cannot tell what the player may not see): units, moved units, races, Religious
fervour, cities from the view, terrain from the printed map.  The odds assume what the
solver assumes by default: each side applies its hits leaving the most units (policy
``greedy``, RULINGS HB-Q201) and nobody retreats.  Battles of more than ``EXACT_UNITS``
a side (beyond a real game's token sets) are played ``MC_RUNS`` times with the game's
own combat code instead; a battle in progress that large is left without odds.
"""

from __future__ import annotations

from functools import lru_cache

from realms.core.decision import Decision

from . import ADVICE_KINDS as KINDS
from .board import DEFAULT_MAP, Board, load_board
from .odds import TABLE_UNITS, Battle, OddsError, OddsResult, monte_carlo_battle, solve_battle
from .tables import TERRAINS, load_tables

#: the largest side solved exactly here (the solver's table size: a look-up once warm)
EXACT_UNITS = TABLE_UNITS
#: Monte Carlo battles for a larger one
MC_RUNS = 200
ASSUMES = "both sides apply hits leaving the most units, and nobody retreats"


def advice(view: dict, decisions: list[Decision]) -> list[dict]:
    """The battles at stake for the nation deciding, with their odds (see the module)."""
    d = next((d for d in decisions if d.kind in KINDS), None)
    if d is None:
        return []
    board = load_board(view["options"]["map"])
    nations = {n["id"]: n for n in view["nations"]}
    info = d.info or {}
    me = info.get("nation")
    out: list[dict] = []
    bt = view.get("battle")
    if bt is not None and me in (bt["attacker"], bt["defender"]):
        joinable = _joinable(view, d, board, nations.get(me), board.index[bt["area"]]) if d.kind == "hb.move" else 0
        out.append(_battle_entry(view, board, nations, bt, me, joinable))
    elif d.kind == "hb.move" and me in nations:
        out.extend(_possible_attacks(view, d, board, nations, nations[me]))
    return out


# --------------------------------------------------------------------------- the battles


def _available(view: dict, nation: dict, board: Board) -> dict[int, int]:
    """Units of ``nation`` that have not moved this phase, by area index."""
    moved = view.get("moved") or {}
    out = {}
    for aid, count in nation["units"].items():
        left = count - moved.get(aid, 0)
        if left > 0:
            out[board.index[aid]] = left
    return out


def _targets(d: Decision, board: Board) -> dict[int, set[int]]:
    """Destination area → the source areas with a move there (``src>dst`` option keys)."""
    out: dict[int, set[int]] = {}
    for key in d.keys:
        if ">" in key:
            src, dst = board.parse_move(key)
            out.setdefault(dst, set()).add(src)
    return out


def _joinable(view: dict, d: Decision, board: Board, nation: dict | None, area: int) -> int:
    if nation is None:
        return 0
    free = _available(view, nation, board)
    return sum(free.get(src, 0) for src in _targets(d, board).get(area, ()))


def _possible_attacks(view: dict, d: Decision, board: Board, nations: dict, me: dict) -> list[dict]:
    areas = view["areas"]
    free = _available(view, me, board)
    out = []
    for dst, srcs in sorted(_targets(d, board).items()):
        held = areas.get(board.ids[dst])
        if held is None or held["nation"] == me["id"]:
            continue
        attackers = sum(free.get(src, 0) for src in srcs)
        if attackers == 0 or held["units"] == 0:
            continue
        dfd = nations.get(held["nation"])
        entry = _entry(view, board, "possible-attack", dst, me, dfd, attackers, 0, held["units"], 0,
                       board.ids[dst] in (view.get("cities") or ()), "attacker")
        out.append(entry)
    return out


def _battle_entry(view: dict, board: Board, nations: dict, bt: dict, me: int, joinable: int) -> dict:
    area = board.index[bt["area"]]
    att, dfd = nations.get(bt["attacker"]), nations.get(bt["defender"])
    au, aw = bt["attacker_units"]["unhurt"], bt["attacker_units"]["wounded"]
    du, dw = bt["defender_units"]["unhurt"], bt["defender_units"]["wounded"]
    side = "attacker" if me == bt["attacker"] else "defender"
    entry = _entry(view, board, "battle", area, att, dfd, au + aw, aw, du + dw, dw, bt.get("city") is not None, side)
    if joinable and side == "attacker":
        more = _entry(view, board, "battle", area, att, dfd, au + aw + joinable, aw, du + dw, dw,
                      bt.get("city") is not None, side)
        entry["joinable"] = joinable
        entry["with_all"] = {k: more[k] for k in ("attackers", "attacker_takes", "defender_holds", "both_fall",
                                                  "expected_attackers_left", "expected_defenders_left", "method")}
        if more["attacker_takes"] is not None:
            entry["text"] += f"; with all {more['attackers']} that can still join: take {_pct(more['attacker_takes'])}"
    return entry


def _entry(view: dict, board: Board, kind: str, area: int, att: dict | None, dfd: dict | None,
           attackers: int, attackers_wounded: int, defenders: int, defenders_wounded: int,
           city: bool, side: str) -> dict:
    races = "races" in (view["options"].get("rules") or ())
    terrain = board.terrain[area]
    fervour = bool(att and att["event_flags"]["religious_fervour"])
    a_race = att.get("race") if (races and att) else None
    d_race = dfd.get("race") if (races and dfd) else None
    city = city and defenders > 0
    if max(attackers, defenders) <= EXACT_UNITS:
        _warm(min(max(view["options"].get("set_size") or 0, attackers, defenders), EXACT_UNITS),
              terrain, fervour, a_race, d_race, city)
    result = _odds(attackers, defenders, attackers_wounded, defenders_wounded, terrain, fervour, a_race, d_race, city)
    entry = {
        "kind": kind,
        "area": board.ids[area],
        "area_name": board.names[area],
        "terrain": terrain,
        "side": side,
        "attacker": _side(att),
        "defender": _side(dfd),
        "attackers": attackers,
        "attackers_wounded": attackers_wounded,
        "defenders": defenders,
        "defenders_wounded": defenders_wounded,
        "city": city,
        "fervour": fervour,
        "attacker_race": a_race,
        "defender_race": d_race,
        "assumes": ASSUMES,
    }
    if result is None:
        entry.update(attacker_takes=None, defender_holds=None, both_fall=None, expected_attackers_left=None,
                     expected_defenders_left=None, method=None)
    else:
        entry.update(
            attacker_takes=result.attacker_takes_area,
            defender_holds=result.defender_holds_area,
            both_fall=result.mutual,
            expected_attackers_left=result.expected_attackers_left,
            expected_defenders_left=result.expected_defenders_left,
            method=result.method,
        )
    entry["text"] = _text(entry)
    return entry


def _side(n: dict | None) -> dict | None:
    return None if n is None else {"nation": n["id"], "name": n["name"], "owner": n["owner"]}


def _pct(p: float) -> str:
    if 0 < p < 0.0005:
        return "<0.1%"
    if 0.9995 < p < 1:
        return ">99.9%"
    return f"{100 * p:.1f}%"


def _text(e: dict) -> str:
    mods = [e["terrain"]]
    if e["city"]:
        mods.append("city")
    if e["fervour"]:
        mods.append("religious fervour")
    if e["attacker_race"]:
        mods.append(f"{e['attacker_race']} attackers")
    if e["defender_race"]:
        mods.append(f"{e['defender_race']} defenders")
    where = f"{e['area_name']} ({', '.join(mods)})"
    a = f"{e['attackers']}" + (f" ({e['attackers_wounded']} wounded)" if e["attackers_wounded"] else "")
    d = f"{e['defenders']}" + (f" ({e['defenders_wounded']} wounded)" if e["defenders_wounded"] else "")
    if e["kind"] == "possible-attack":
        head = f"Attack on {where} with up to {a} v {d}"
    elif e["side"] == "attacker":
        head = f"Attack on {where}: {a} v {d}"
    else:
        head = f"Defence of {where}: {d} v {a} attackers"
    if e["attacker_takes"] is None:
        return f"{head} — too large to solve here"
    if e["side"] == "attacker":
        first, rest = ("take", e["attacker_takes"]), [("hold", e["defender_holds"])]
    else:
        first, rest = ("hold", e["defender_holds"]), [("they take", e["attacker_takes"])]
    # the outcomes under 0.1% are left out: "take >99.9%", not "…, hold <0.1%, both fall <0.1%"
    odds = ", ".join(f"{w} {_pct(p)}" for w, p in [first, *rest, ("both fall", e["both_fall"])]
                     if (w, p) == first or p >= 0.0005)
    how = "" if e["method"] == "exact" else f" (Monte Carlo, {MC_RUNS} battles)"
    return (f"{head} — {odds}; expected survivors "
            f"{e['expected_attackers_left']:.1f} attackers, {e['expected_defenders_left']:.1f} defenders{how}")


# --------------------------------------------------------------------------- the solver


def warm() -> None:
    """Solve, once, the tables of the base game's battles (every terrain, with and without
    Religious fervour, at the default token set size), and load the bundled board: a
    server calls this at start-up so that its first games do not wait ~100 ms for them
    inside a request (races, cities and other set sizes warm on first use)."""
    load_board(DEFAULT_MAP)
    size = min(load_tables().default_set_size, EXACT_UNITS)
    for terrain in TERRAINS:
        for fervour in (False, True):
            _warm(size, terrain, fervour, None, None, False)


@lru_cache(maxsize=256)
def _warm(size: int, terrain: str, fervour: bool, attacker_race: str | None, defender_race: str | None,
          city: bool) -> None:
    """Solve ``size`` against ``size`` once for these modifiers: the solver's table then
    holds every smaller battle too, so that the battles of a game are look-ups instead of
    one table rebuilt larger and larger (``size``: the game's token set, at most
    ``EXACT_UNITS``)."""
    if size > 0:
        try:
            solve_battle(Battle(size, size, terrain, fervour, attacker_race, defender_race, city))
        except OddsError:
            pass


@lru_cache(maxsize=4096)
def _odds(attackers: int, defenders: int, attackers_wounded: int, defenders_wounded: int, terrain: str,
          fervour: bool, attacker_race: str | None, defender_race: str | None, city: bool) -> OddsResult | None:
    """The solver's answer for one battle (cached: the same few battles are asked for again
    at every payload of a movement phase)."""
    if attackers == 0 or defenders == 0:
        return None
    try:
        battle = Battle(attackers, defenders, terrain, fervour, attacker_race, defender_race, city,
                        attackers_wounded=attackers_wounded, defenders_wounded=defenders_wounded)
        if max(attackers, defenders) <= EXACT_UNITS:
            return solve_battle(battle)
        if attackers_wounded or defenders_wounded:
            return None
        return monte_carlo_battle(battle, runs=MC_RUNS, seed=0)
    except OddsError:
        return None
