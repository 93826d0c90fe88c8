"""What a player should know before answering (the Game's ``advice`` hook): the odds of
the battle at stake, from his view alone, by :func:`.odds.battle_odds`: exact where each
side's units share one experience (:mod:`.exact`), otherwise Monte Carlo through the
game's battle steps, 400 battles, seeded so the same position gives the same figures.  Before starting an attack (with the units picked so far), when deciding to
face an attack or retreat, and at a retreat offer (the battle as it stands, fought
afresh)."""

from __future__ import annotations

from realms.core.decision import Decision

from . import ADVICE_KINDS
from .board import NOBODY, TERRAINS, load_board
from .odds import battle_odds
from .state import describe_units

TRIALS = 400

def _odds(view: dict, attackers: list, defenders: list, t: int) -> dict:
    board = load_board(view["map"])
    owner = view["owner"][t]
    capitol = owner != NOBODY and view["capitol"][t] == owner
    return battle_odds([tuple(u[:3]) for u in attackers], [tuple(u[:3]) for u in defenders],
                       TERRAINS[board.terrain[t]], capitol=capitol, warehouse=bool(view["warehouse"][t]),
                       trials=TRIALS, seed=t)


def _line(kind: str, what: str, r: dict) -> dict:
    lo, hi = r["conquest_95"]
    interval = "" if r["exact"] else f" (95%: {100 * lo:.0f}–{100 * hi:.0f}%)"
    text = (f"{what}: conquest {100 * r['conquest']:.0f}%{interval}, "
            f"the defender holds {100 * r['defender_holds']:.0f}% — {r['method']}.")
    return {"kind": kind, "text": text, "conquest": r["conquest"], "interval": [lo, hi],
            "attacker_survivors": r["attacker_survivors"], "defender_survivors": r["defender_survivors"]}


def advice(view: dict, decisions: list[Decision]) -> list[dict]:
    out: list[dict] = []
    for d in decisions:
        if d.kind not in ADVICE_KINDS:
            continue
        if d.kind == "v2.attack-units" and view.get("pick") and view["pick"]["units"]:
            t = view["pick"]["target"]
            att = [u for _, u in view["pick"]["units"]]
            dfd = view["units"][t]
            if dfd:
                out.append(_line("odds", f"{describe_units(att)} against {describe_units(dfd)}",
                                 _odds(view, att, dfd, t)))
            else:
                out.append({"kind": "odds", "text": "The field is undefended: a conquest without a fight (2.3.4.1).",
                            "conquest": 1.0})
        elif d.kind in ("v2.defend", "v2.offer") and view.get("battle"):
            b = view["battle"]
            out.append(_line("odds", f"{describe_units(b['attackers'])} against {describe_units(b['defenders'])}"
                             + (" (as it stands, fought afresh)" if d.kind == "v2.offer" else ""),
                             _odds(view, b["attackers"], b["defenders"], b["target"])))
    return out
