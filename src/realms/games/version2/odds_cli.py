"""``realms odds version2 …``: version²'s battle calculator (``Game.calculator``).

Exact where it can be (:mod:`.exact`: a Markov chain over the battle's counts, which
needs each side's units to share one experience), assuming both sides fight on at every
retreat offer and the artillery keeps its orders; otherwise, or with ``--method
monte-carlo``, Monte Carlo through the game's own battle steps on a scratch board
(:func:`.odds.monte_carlo`) with the 95% interval of each chance.  The output says which.
"""

from __future__ import annotations

from realms.core.game import Argument, Calculator, CalculatorError

HELP = """Odds of a version² battle (2.3.4), fought by the game's battle code.

\b
  realms odds version2 --attacker 4i,1c,2a --defender 3i --terrain mountains --capitol
"""

ARGUMENTS = (
    Argument("attacker", str, "The attacking army: counts and arms (i, c, a), '+N' for experience: 4i,1c,2a.",
             short="-a", metavar="ARMY"),
    Argument("defender", str, "The defending army, written the same way.", short="-d", metavar="ARMY"),
    Argument("terrain", str, "The attacked field's terrain (2.3.4.4).", default="meadows",
             choices=("ford", "woodland", "meadows", "mountains")),
    Argument("capitol", bool, "The field holds the defender's capitol (and its warehouse)."),
    Argument("warehouse", bool, "The field holds a warehouse."),
    Argument("orders", str, "What both sides' artillery fires at (2.3.4.2).", default="random",
             choices=("random", "artillery", "foot")),
    Argument("defender_orders", str, "What the defender's artillery fires at, if not --orders.",
             choices=("random", "artillery", "foot")),
    Argument("fought", int, "Fight-turns already fought: the odds of a battle under way, before its next "
             "fight-turn (tiredness, fire and the round limit count on from there).", default=0),
    Argument("start", str, "A battle under way: each side's units when it began, ATTACKERS,DEFENDERS "
             "(their morale, 2.3.4.4); default: the armies given.", metavar="A,D"),
    Argument("method", str, "exact (a Markov chain; each side's units of one experience), monte-carlo "
             "(the game's battle code), or auto: exact where it applies.", default="auto",
             choices=("auto", "exact", "monte-carlo")),
    Argument("trials", int, "Battles fought (Monte Carlo).", default=2000),
    Argument("seed", int, "Seed of the first battle's dice.", default=0),
)


#: the choices inside the battle that both methods assume (2.3.4.2)
POLICY = "the defender faces the battle, both sides fight on at every retreat offer, artillery orders {orders}"


def calculator() -> Calculator:
    return Calculator(HELP, ARGUMENTS, compute)


def compute(v: dict) -> tuple[dict, str]:
    """The battle the values describe: its JSON object and its text."""
    from .odds import ArmyError, battle_odds, wilson
    from .battle import ORDERS

    for name in ("attacker", "defender"):
        if not v.get(name):
            raise CalculatorError(f"--{name} is required (e.g. 4i,1c,2a)")
    n = v.get("trials") or 2000
    if not 1 <= n <= 1_000_000:
        raise CalculatorError(f"--trials must be 1..1000000, got {n}")
    for name in ("orders", "defender_orders"):
        if v.get(name) and v[name] not in ORDERS:
            raise CalculatorError(f"--{name.replace('_', '-')} must be one of {', '.join(ORDERS)}")
    fought = v.get("fought") or 0
    if not 0 <= fought < 1000:
        raise CalculatorError(f"--fought must be 0..999, got {fought}")
    begun = None
    if v.get("start"):
        try:
            counts = [int(x) for x in v["start"].split(",")]
        except ValueError:
            counts = []
        if len(counts) != 2 or min(counts) < 0:
            raise CalculatorError(f"--start must be two counts, ATTACKERS,DEFENDERS (e.g. 12,8), got {v['start']!r}")
        begun = (counts[0], counts[1])
    try:
        r = battle_odds(v["attacker"], v["defender"], v.get("terrain") or "meadows",
                        capitol=bool(v.get("capitol")), warehouse=bool(v.get("warehouse")),
                        orders=v.get("orders") or "random", trials=n, seed=v.get("seed") or 0,
                        method=v.get("method") or "auto", defender_orders=v.get("defender_orders"),
                        fought=fought, begun=begun)
    except ArmyError as exc:
        raise CalculatorError(str(exc)) from None
    chances = {"conquest": r["conquest"], "attacker_breaks_off": r["attacker_breaks_off"],
               "attacker_destroyed": r["defender_holds"] - r["attacker_breaks_off"],
               "both_destroyed": r["both_destroyed"]}
    exact = r["exact"]
    out = {"method": "exact" if exact else "monte-carlo", "policy": POLICY.format(orders=v.get("orders") or "random"),
           "chances": chances,
           "attacker_survivors": r["attacker_survivors"], "defender_survivors": r["defender_survivors"],
           "mean_rounds": r["mean_rounds"]}
    if exact:
        out["unresolved"] = r["unresolved"]
    else:
        out.update({"trials": n, "seed": v.get("seed") or 0,
                    "interval_95": {k: list(wilson(p, n)) for k, p in chances.items()}})
    names = {"conquest": "attacker conquers the field", "attacker_breaks_off": "attacker retreats (breaks off)",
             "attacker_destroyed": "attacker destroyed", "both_destroyed": "of which both armies destroyed"}
    lines = [f"{v['attacker']} attack {v['defender']} on {v.get('terrain') or 'meadows'}"
             + (" (capitol)" if v.get("capitol") else " (warehouse)" if v.get("warehouse") else "")]
    if exact:
        lines.append(f"Method: exact, a Markov chain over the battle's counts ({out['policy']}; "
                     f"probability left unresolved {r['unresolved']:.0e}).")
    else:
        lines.append(f"Method: Monte Carlo, {n} battles through the game's battle code (seed {out['seed']}; "
                     f"{out['policy']}); 95% intervals.")
    for k, p in chances.items():
        if exact:
            lines.append(f"  {names[k]:<32} {100 * p:5.1f}%")
        else:
            lo, hi = out["interval_95"][k]
            lines.append(f"  {names[k]:<32} {100 * p:5.1f}%  ({100 * lo:.1f}–{100 * hi:.1f})")
    for side in ("attacker", "defender"):
        s = out[f"{side}_survivors"]
        lines.append(f"  {side} survivors (mean): " + ", ".join(f"{s[a]:.2f} {a}" for a in s))
    lines.append(f"  fight-turns (mean): {r['mean_rounds']:.1f}")
    return out, "\n".join(lines)
