"""``realms odds``: exact battle odds for Hy Breasil (§6.3.1–6.3.2).

Registered on the ``realms`` group by ``cli.py``.  Every error is one line and exits
with code 2.
"""

from __future__ import annotations

import json
import math

import click

ODDS_GAMES = ("hy-breasil",)


class OddsUsageError(click.UsageError):
    """A bad argument: one line (``Error: …``), exit code 2, even when run on its own."""

    def show(self, file=None) -> None:
        click.echo(f"Error: {self.format_message()}", err=True, file=file)


class _OneLineErrors(click.Command):
    """Argument parsing errors (bad choices, bad numbers) as one line too."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        try:
            return super().parse_args(ctx, args)
        except click.UsageError as exc:
            if isinstance(exc, OddsUsageError):
                raise
            raise OddsUsageError(exc.format_message()) from None


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


@click.command("odds", cls=_OneLineErrors, context_settings={"help_option_names": ["-h", "--help"]})
@click.argument("game")
@click.option("--attackers", "-a", type=int, help="Attacking units.")
@click.option("--defenders", "-d", type=int, help="Defending units (armies; a city comes on top).")
@click.option("--terrain", type=click.Choice(["plains", "forest", "hills"]), default="plains", show_default=True,
              help="§6.3.1: the attacker needs 5+ in forest or hills.")
@click.option("--fervour", is_flag=True, help="§6.1 Religious fervour: +1 to the attacker's dice.")
@click.option("--attacker-race", metavar="RACE", help="§9.1: troll +1 in hills, hogman +1 in forest.")
@click.option("--defender-race", metavar="RACE", help="§9.1, as for the attacker.")
@click.option("--city", is_flag=True, help="§9.3.1: the defender has a city in the area.")
@click.option("--policy", type=click.Choice(["greedy", "best"]), default="greedy", show_default=True,
              help="How each side applies its hits (RULINGS HB-Q201).")
@click.option("--attacker-retreat-below", type=int, default=0, metavar="N",
              help="Retreat the attacker's unwounded units once it has fewer than N units (§6.3.2).")
@click.option("--defender-retreat-below", type=int, default=0, metavar="N",
              help="Likewise for the defender.")
@click.option("--method", type=click.Choice(["exact", "monte-carlo"]), default="exact", show_default=True,
              help="Solve exactly, or play battles with the game's combat code.")
@click.option("--runs", type=int, default=10_000, show_default=True, help="Battles for --method monte-carlo.")
@click.option("--seed", type=int, default=0, show_default=True, help="Seed for --method monte-carlo.")
@click.option("--table", type=int, metavar="N", help="The attacker's chance for 1..N against 1..N.")
@click.option("--output", "-o", type=click.Path(dir_okay=False), help="With --table: write a heat map (.png or .svg).")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
def odds(game, attackers, defenders, terrain, fervour, attacker_race, defender_race, city, policy,
         attacker_retreat_below, defender_retreat_below, method, runs, seed, table, output, as_json) -> None:
    """Exact odds of a Hy Breasil battle (§6.3.1–6.3.2).

    \b
      realms odds hy-breasil --attackers 5 --defenders 4 --terrain forest
      realms odds hy-breasil --table 15 -o odds.png
    """
    from realms.games.hy_breasil.odds import OddsError, monte_carlo, odds_table, solve

    if game not in ODDS_GAMES:
        raise OddsUsageError(f"battle odds are only computed for {', '.join(ODDS_GAMES)}, not {game!r}")
    mods = dict(terrain=terrain, fervour=fervour, attacker_race=attacker_race, defender_race=defender_race,
                city=city, policy=policy, attacker_retreat_below=attacker_retreat_below,
                defender_retreat_below=defender_retreat_below)
    try:
        if table is not None:
            if attackers is not None or defenders is not None:
                raise OddsUsageError("--table gives every battle up to N against N: drop --attackers/--defenders")
            if method != "exact":
                raise OddsUsageError("--table is exact only: drop --method monte-carlo")
            if output:
                from realms.games.hy_breasil.odds_chart import write_chart

                try:
                    path = write_chart(output, table, **mods)
                except OSError as exc:
                    raise OddsUsageError(f"{output}: cannot write ({exc.strerror})") from None
                if not as_json:
                    click.echo(f"wrote {path}")
            grid = odds_table(table, **mods)
            if as_json:
                click.echo(json.dumps({"game": game, "table": table, **mods,
                                       "attacker_takes_area": grid.tolist(),
                                       "rows": "attackers 1..N", "columns": "defenders 1..N",
                                       **({"output": str(output)} if output else {})}))
            elif not output:
                click.echo("att\\def " + "".join(f"{d:>6}" for d in range(1, table + 1)))
                for a in range(1, table + 1):
                    click.echo(f"{a:>7} " + "".join(f"{100 * grid[a - 1, d - 1]:6.1f}" for d in range(1, table + 1)))
            return
        if output:
            raise OddsUsageError("-o/--output writes the --table heat map: add --table N")
        if attackers is None or defenders is None:
            raise OddsUsageError("give --attackers and --defenders (or --table N)")
        if method == "exact":
            r = solve(attackers, defenders, **mods)
        else:
            r = monte_carlo(attackers, defenders, runs=runs, seed=seed, **mods)
    except OddsError as exc:
        raise OddsUsageError(str(exc)) from None
    if as_json:
        click.echo(json.dumps(r.to_json()))
    else:
        click.echo("\n".join(_summary(r)))
