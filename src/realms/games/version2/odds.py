"""Battle odds by Monte Carlo through the game's own battle code (2.3.4).

A battle of given armies on a given ground is set up on a scratch state and fought
by the battle steps themselves, both sides fighting on at every retreat offer and the
artillery firing at random targets (or as ordered), each trial with its own seeded dice.
The result gives the chances of conquest, of the attacker's break-off and of mutual
destruction, the mean survivors per arm and the 95% (Wilson) interval of the conquest
chance.  The modifiers' table in RULINGS.md (V2-Q28) is computed with it.

>>> r = battle_odds("3i", "1i", trials=200, seed=1)
>>> r["conquest"] > 0.8
True
"""

from __future__ import annotations

import math
from functools import lru_cache

from realms.core.dice import Dice

from .board import NOBODY, TERRAIN_CODE, default_board
from .rules import ARM_LETTER, ARMS, Rules


class ArmyError(ValueError):
    """An army written wrongly (``4i,1c,2a``); names the part."""


def parse_army(text: str, where: str = "army") -> list[tuple]:
    """``"4i,1c,2a"`` (optionally ``i+2`` for experience 2: ``3i+2``) as unit records."""
    units: list[tuple] = []
    for part in (p.strip() for p in text.split(",") if p.strip()):
        body, _, exp = part.partition("+")
        if not body or body[-1] not in ARM_LETTER or not (body[:-1] or "1").isdigit():
            raise ArmyError(f"{where}: {part!r} is not a count and an arm (i, c, a), e.g. 4i")
        if exp and not exp.isdigit():
            raise ArmyError(f"{where}: {part!r}: experience after '+' must be a whole number")
        units += [(ARM_LETTER.index(body[-1]), 1, int(exp or 0))] * int(body[:-1] or 1)
    if not units:
        raise ArmyError(f"{where}: no units")
    return sorted(units)


@lru_cache(maxsize=None)
def _fields(terrain: str) -> tuple[int, int]:
    b = default_board(2)
    code = TERRAIN_CODE[terrain]
    for t in range(b.size):
        if b.terrain[t] == code:
            for a in b.adj[t]:
                if b.terrain[a] >= 2:
                    return a, t
    raise ArmyError(f"no {terrain} field next to land on the reference board")


def _scratch(rules: Rules | None):
    from . import GAME

    s = GAME.new_game({"players": 2}, 0)
    size = s.board.size
    s.owner = [NOBODY] * size
    s.capitol = [NOBODY] * size
    s.warehouse = [0] * size
    s.units = [[] for _ in range(size)]
    s.missions = [("none",)] * 2
    s._moves = {}
    s._own = {}
    s.restart()
    if rules is not None:
        s.rules = rules
    return s


METHODS = ("auto", "exact", "monte-carlo")


def battle_odds(attacker: str | list, defender: str | list, terrain: str = "meadows", *,
                capitol: bool = False, warehouse: bool = False, orders: str = "random",
                trials: int = 2000, seed: int = 0, rules: Rules | None = None, method: str = "auto",
                defender_orders: str | None = None, fought: int = 0, begun: tuple[int, int] | None = None) -> dict:
    """The odds of ``attacker`` against ``defender`` on ``terrain``: ``exact`` by the
    Markov chain of :mod:`.exact` (where each side's units share one experience), or
    ``monte-carlo`` through the game's battle steps (:func:`monte_carlo`); ``auto`` takes
    the chain where it applies.  The result's ``method`` says which was used.  A battle
    under way: ``fought`` fight-turns fought, each side ``begun`` units strong at its start
    (its morale, 2.3.4.4); ``defender_orders``: the defender's artillery orders, if not
    ``orders``."""
    if terrain not in TERRAIN_CODE or terrain == "sea":
        raise ArmyError(f"terrain must be one of {', '.join(t for t in TERRAIN_CODE if t != 'sea')}, got {terrain!r}")
    if method not in METHODS:
        raise ArmyError(f"method must be one of {', '.join(METHODS)}, got {method!r}")
    att = parse_army(attacker, "attacker") if isinstance(attacker, str) else sorted(attacker)
    dfd = parse_army(defender, "defender") if isinstance(defender, str) else sorted(defender)
    if method != "monte-carlo":
        from .exact import NotExact, exact_odds

        try:
            return exact_odds(att, dfd, terrain, capitol=capitol, warehouse=warehouse, orders=orders, rules=rules,
                              defender_orders=defender_orders, fought=fought, begun=begun)
        except NotExact as exc:
            if method == "exact":
                raise ArmyError(f"no exact odds: {exc}") from None
    return monte_carlo(att, dfd, terrain, capitol=capitol, warehouse=warehouse, orders=orders, trials=trials,
                       seed=seed, rules=rules, defender_orders=defender_orders, fought=fought, begun=begun)


def wilson(p: float, n: int) -> tuple[float, float]:
    """Wilson's 95% interval of a chance ``p`` seen in ``n`` trials (its ends exact at 0
    and 1, where rounding would leave them a hair inside)."""
    z = 1.96
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (0.0 if p <= 0 else max(0.0, centre - half)), (1.0 if p >= 1 else min(1.0, centre + half))


def monte_carlo(att: list, dfd: list, terrain: str, *, capitol: bool = False, warehouse: bool = False,
                orders: str = "random", trials: int = 2000, seed: int = 0, rules: Rules | None = None,
                defender_orders: str | None = None, fought: int = 0, begun: tuple[int, int] | None = None) -> dict:
    """``trials`` battles of the unit lists ``att`` and ``dfd`` fought by the game's battle
    steps on a scratch board, both sides fighting on (see the module)."""
    a, t = _fields(terrain)
    base = _scratch(rules)
    base.owner[a], base.owner[t] = 0, 1
    if capitol:
        base.capitol[t] = 1
        base.warehouse[t] = 1
    elif warehouse:
        base.warehouse[t] = 1
    wins = breaks = void = rounds = 0
    survivors = [[0.0] * 3, [0.0] * 3]
    for i in range(trials):
        s = base.clone()
        s.dice = Dice(seed * 1_000_003 + i)
        s.battle = {"target": t, "att": 0, "dfd": 1, "side": [[(*u, a) for u in att], [(*u, t) for u in dfd]],
                    "round": fought, "orders": [orders, defender_orders or orders], "retreat": [0, 0],
                    "start": list(begun) if begun else [len(att), len(dfd)],
                    "dest": NOBODY, "fought": 0}
        s.restart(("round",))
        while (d := s.first_pending()) is not None:
            s.apply(d.player, "fight")
        rounds += next((e.data["rounds"] for e in reversed(s.events) if "rounds" in e.data), 0)
        if s.owner[t] == 0:
            wins += 1
        elif s.units[a]:
            breaks += 1
        elif not s.units[t]:
            void += 1
        for side, f in ((0, t if s.owner[t] == 0 else a), (1, t)):
            if side == 1 and s.owner[t] != 1:
                continue
            for u in s.units[f]:
                survivors[side][u[0]] += 1
    p = wins / trials
    return {
        "method": f"Monte Carlo, {trials} battles through the game's battle steps",
        "exact": False,
        "conquest": p, "conquest_95": list(wilson(p, trials)),
        "attacker_breaks_off": breaks / trials, "both_destroyed": void / trials,
        "defender_holds": 1 - p,
        "attacker_survivors": {ARMS[k]: survivors[0][k] / trials for k in range(3)},
        "defender_survivors": {ARMS[k]: survivors[1][k] / trials for k in range(3)},
        "mean_rounds": rounds / trials,
    }


#: Reference battles for RULINGS.md (V2-Q28): name, attacker, defender, terrain, extras,
#: and the modifiers switched off for the comparison.
REFERENCE: tuple[tuple[str, str, str, str, dict, tuple[str, ...]], ...] = (
    ("6 v 6 infantry, meadows", "6i", "6i", "meadows", {}, ()),
    ("6 v 6 infantry, woodland", "6i", "6i", "woodland", {}, ("terrain",)),
    ("6 v 6 infantry, mountains", "6i", "6i", "mountains", {}, ("terrain",)),
    ("6 v 6 infantry, ford", "6i", "6i", "ford", {}, ("terrain",)),
    ("6 v 6 infantry, a warehouse", "6i", "6i", "meadows", {"warehouse": True}, ("building",)),
    ("6 v 6 infantry, a capitol", "6i", "6i", "meadows", {"capitol": True}, ("capitol",)),
    ("9 v 6 infantry (majority)", "9i", "6i", "meadows", {}, ("majority", "minority")),
    ("9 v 3 infantry", "9i", "3i", "meadows", {}, ()),
    ("4 v 12 infantry (desperation)", "4i", "12i", "meadows", {}, ("desperation",)),
    ("6 (experience 1) v 6 infantry (morale)", "6i+1", "6i", "meadows", {}, ("morale_loss",)),
    ("6 veterans (3) v 6 infantry", "6i+3", "6i", "meadows", {}, ("experience", "superior")),
    ("6 v 6 infantry, once each", "6i+1", "6i", "meadows", {}, ("experience",)),
    ("4i 2a v 4i 2a", "4i,2a", "4i,2a", "meadows", {}, ()),
    ("4i 3a v 8i (artillery fire at foot troops)", "4i,3a", "8i", "meadows", {"orders": "foot"}, ()),
    ("12 v 12 infantry, mountains (tiredness)", "12i", "12i", "mountains", {}, ("tiredness_per_round",)),
)


def without(rules: Rules, names: tuple[str, ...]) -> Rules:
    """``rules`` with the named modifiers set to 0 (``terrain``, ``experience``: the tables)."""
    import dataclasses

    mod = dict(rules.mod)
    terrain_mod, experience = rules.terrain_mod, rules.experience
    for n in names:
        if n == "terrain":
            terrain_mod = (0,) * len(terrain_mod)
        elif n == "experience":
            experience = (0,) * len(experience)
        else:
            mod[n] = 0
    return dataclasses.replace(rules, mod=mod, terrain_mod=terrain_mod, experience=experience)


def reference_table(trials: int = 4000, seed: int = 0) -> list[dict]:
    """Each reference battle with the rules as they are and with its modifiers off (exact
    where the armies allow, :func:`battle_odds`)."""
    from .rules import load_rules

    rules = load_rules()
    out = []
    for name, att, dfd, terrain, extra, off in REFERENCE:
        row: dict[str, object] = {"battle": name, "off": off}
        for label, r in (("with", rules), ("without", without(rules, off) if off else None)):
            if r is None:
                continue
            res = battle_odds(att, dfd, terrain, trials=trials, seed=seed, rules=r, **extra)
            row[label] = res
        out.append(row)
    return out


def markdown_table(rows: list[dict]) -> str:
    lines = ["| battle | conquest | 95% | attacker left | defender left | rounds "
             "| modifiers off | conquest | attacker left | defender left |",
             "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |"]
    for row in rows:
        w = row["with"]
        lo, hi = w["conquest_95"]
        left_a = sum(w["attacker_survivors"].values())
        left_d = sum(w["defender_survivors"].values())
        off = ", ".join(row["off"]) or "–"
        if "without" in row:
            o = row["without"]
            wo = (f"{100 * o['conquest']:.1f}% | {sum(o['attacker_survivors'].values()):.2f} | "
                  f"{sum(o['defender_survivors'].values()):.2f}")
        else:
            wo = "– | – | –"
        band = "exact" if w["exact"] else f"{100 * lo:.1f}–{100 * hi:.1f}"
        lines.append(f"| {row['battle']} | {100 * w['conquest']:.1f}% | {band} | "
                     f"{left_a:.2f} | {left_d:.2f} | {w['mean_rounds']:.1f} | {off} | {wo} |")
    return "\n".join(lines)
