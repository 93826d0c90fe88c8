"""``realms odds hy-breasil …``: Hy Breasil's battle calculator (``Game.calculator``), the
exact odds of a battle (§6.3.1–6.3.2) or a table of them, as JSON and as text.

The arguments are declared here; ``realms.cli_odds`` turns them into options.  The
solver (``odds.py``, numpy) and the heat map (``odds_chart.py``, matplotlib) are
imported only when a battle is computed.
"""

from __future__ import annotations

import math

from realms.core.game import Argument, Calculator, CalculatorError

HELP = """Exact odds of a Hy Breasil battle (§6.3.1–6.3.2).

\b
  realms odds hy-breasil --attackers 5 --defenders 4 --terrain forest
  realms odds hy-breasil --table 15 -o odds.png
"""

ARGUMENTS = (
    Argument("attackers", int, "Attacking units.", short="-a"),
    Argument("defenders", int, "Defending units (armies; a city comes on top).", short="-d"),
    Argument("attackers_wounded", int, "Of the attackers, how many are wounded (a battle in progress, §6.3.1).",
             default=0, metavar="N"),
    Argument("defenders_wounded", int, "Of the defenders, how many are wounded.", default=0, metavar="N"),
    Argument("terrain", str, "§6.3.1: the attacker needs 5+ in forest or hills.", default="plains",
             choices=("plains", "forest", "hills")),
    Argument("fervour", bool, "§6.1 Religious fervour: +1 to the attacker's dice."),
    Argument("attacker_race", str, "§9.1: troll +1 in hills, hogman +1 in forest.", metavar="RACE"),
    Argument("defender_race", str, "§9.1, as for the attacker.", metavar="RACE"),
    Argument("city", bool, "§9.3.1: the defender has a city in the area."),
    Argument("policy", str, "How each side applies its hits (RULINGS HB-Q201).", default="greedy",
             choices=("greedy", "best")),
    Argument("attacker_retreat_below", int,
             "Retreat the attacker's unwounded units once it has fewer than N units (§6.3.2).", default=0,
             metavar="N"),
    Argument("defender_retreat_below", int, "Likewise for the defender.", default=0, metavar="N"),
    Argument("method", str, "Solve exactly, or play battles with the game's combat code.", default="exact",
             choices=("exact", "monte-carlo")),
    Argument("runs", int, "Battles for --method monte-carlo.", default=10_000),
    Argument("seed", int, "Seed for --method monte-carlo.", default=0),
    Argument("table", int, "The attacker's chance for 1..N against 1..N.", metavar="N"),
    Argument("output", "path", "With --table: write a heat map (.png or .svg).", short="-o"),
)

#: the arguments that describe the battle, passed to the solver as they are
MODIFIERS = ("terrain", "fervour", "attacker_race", "defender_race", "city", "policy",
             "attacker_retreat_below", "defender_retreat_below")


def calculator() -> Calculator:
    return Calculator(HELP, ARGUMENTS, compute)


def compute(values: dict) -> tuple[dict, str]:
    """The battle (or ``--table``) the values describe: its JSON object and its text."""
    from .odds import OddsError

    try:
        return _compute(values)
    except OddsError as exc:
        raise CalculatorError(str(exc)) from None


def _compute(v: dict) -> tuple[dict, str]:
    from .odds import monte_carlo, odds_table, solve, solve_position

    mods = {k: v[k] for k in MODIFIERS}
    table, output = v["table"], v["output"]
    if table is not None:
        if v["attackers"] is not None or v["defenders"] is not None:
            raise CalculatorError("--table gives every battle up to N against N: drop --attackers/--defenders")
        if v["method"] != "exact":
            raise CalculatorError("--table is exact only: drop --method monte-carlo")
        text = None
        if output:
            from .odds_chart import write_chart

            try:
                text = f"wrote {write_chart(output, table, **mods)}"
            except OSError as exc:
                raise CalculatorError(f"{output}: cannot write ({exc.strerror})") from None
        grid = odds_table(table, **mods)
        from . import GAME

        data = {"game": GAME.id, "table": table, **mods, "attacker_takes_area": grid.tolist(),
                "rows": "attackers 1..N", "columns": "defenders 1..N", **({"output": str(output)} if output else {})}
        if text is None:
            text = "\n".join(["att\\def " + "".join(f"{d:>6}" for d in range(1, table + 1))]
                             + [f"{a:>7} " + "".join(f"{100 * grid[a - 1, d - 1]:6.1f}" for d in range(1, table + 1))
                                for a in range(1, table + 1)])
        return data, text
    if output:
        raise CalculatorError("-o/--output writes the --table heat map: add --table N")
    if v["attackers"] is None or v["defenders"] is None:
        raise CalculatorError("give --attackers and --defenders (or --table N)")
    wounded = v.get("attackers_wounded") or 0, v.get("defenders_wounded") or 0
    if not 0 <= wounded[0] <= v["attackers"] or not 0 <= wounded[1] <= v["defenders"]:
        raise CalculatorError("--attackers-wounded/--defenders-wounded: from 0 to the side's units")
    if v["method"] == "exact" and any(wounded):
        r = solve_position(v["attackers"] - wounded[0], wounded[0], v["defenders"] - wounded[1], wounded[1], **mods)
    elif v["method"] == "exact":
        r = solve(v["attackers"], v["defenders"], **mods)
    elif any(wounded):
        raise CalculatorError("wounded units are solved exactly only: drop --method monte-carlo")
    else:
        r = monte_carlo(v["attackers"], v["defenders"], runs=v["runs"], seed=v["seed"], **mods)
    return r.to_json(), "\n".join(_summary(r))


def _pct(p: float) -> str:
    if p == 0:
        return "0%"
    if p < 0.0001:
        return "<0.01%"
    if p > 0.9999 and p < 1:
        return ">99.99%"
    return f"{100 * p:.2f}%"


def _summary(r) -> list[str]:
    b = r.battle
    mods = [b.terrain]
    if b.fervour:
        mods.append("religious fervour")
    if b.attacker_race:
        mods.append(f"attacker {b.attacker_race}")
    if b.defender_race:
        mods.append(f"defender {b.defender_race}")
    if b.city:
        mods.append("defending city")
    if b.attacker_retreat_below:
        mods.append(f"attacker retreats below {b.attacker_retreat_below}")
    if b.defender_retreat_below:
        mods.append(f"defender retreats below {b.defender_retreat_below}")
    mods.append(f"policy {b.policy}")
    if r.method == "exact":
        how = "exact"
    else:
        half = 1.96 * math.sqrt(max(r.attacker_takes_area * (1 - r.attacker_takes_area), 0.25 / r.runs) / r.runs)
        how = f"Monte Carlo with the game's combat code: {r.runs} battles, seed {r.seed}, ±{100 * half:.2f} pp at 95%"
    lines = [
        f"Hy Breasil: {b.attackers} attackers against {b.defenders} defenders ({', '.join(mods)})",
        f"  {how}",
    ]
    ch = r.hit_chances
    if ch is not None:
        extra = f", city {100 * ch.city:.0f}%" if b.city else ""
        lines.append(f"  a die hits: attacker {100 * ch.attacker:.0f}%, defender {100 * ch.defender:.0f}%{extra}")
    rows = [("attacker wins", r.attacker_wins), ("defender wins", r.defender_wins),
            ("both sides wiped out", r.mutual)]
    if b.attacker_retreat_below or r.attacker_retreats:
        rows.append(("attacker retreats", r.attacker_retreats))
    if b.defender_retreat_below or r.defender_retreats:
        rows.append(("defender retreats", r.defender_retreats))
    lines.append("")
    lines += [f"  {name:24} {_pct(p):>8}" for name, p in rows]
    lines.append(f"  {'attacker takes the area':24} {_pct(r.attacker_takes_area):>8}")
    if b.city:
        lines.append(f"  {'... and the city intact':24} {_pct(r.city_captured):>8}")
    lines.append("")
    lines.append(f"  expected survivors: {r.expected_attackers_left:.2f} attackers, "
                 f"{r.expected_defenders_left:.2f} defenders; expected rounds {r.expected_rounds:.2f}")
    lines.append("")
    lines.append("  survivors (retreated units included)   units  attackers  defenders")
    att, dfd = r.attackers_left, r.defenders_left
    for k in range(max(len(att), len(dfd))):
        pa = att[k] if k < len(att) else 0.0
        pd = dfd[k] if k < len(dfd) else 0.0
        if pa < 0.0005 and pd < 0.0005:
            continue
        lines.append(f"  {'':38} {k:5}  {_pct(pa):>9}  {_pct(pd):>9}")
    return lines
