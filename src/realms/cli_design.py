"""``realms sweep`` and ``realms compare``: knobs played in a grid and reports side by side
(:mod:`realms.sim.compare`)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from realms.cli import CliError, _game, _game_options, _map_error, _read, _write, game_command
from realms.core.options import OptionError


@click.group()
def _commands() -> None:
    """Holder of the commands below (each is registered with ``realms`` lazily)."""


def _axes(game, settings: tuple[str, ...]) -> list[tuple[str, list]]:
    """``--option NAME=V1,V2`` as ``[(NAME, [value, …])]``; each value read by the option's
    type, a list option's items joined by ``+`` (``rules=,races+abilities``: none, then
    both)."""
    by_name = {o.name: o for o in game.schema}
    axes = []
    for setting in settings:
        name, eq, text = setting.partition("=")
        name = name.strip().replace("-", "_")
        if not eq or name not in by_name:
            known = ", ".join(by_name)
            raise CliError(f"--option {setting!r}: expected NAME=V1,V2,… with NAME one of {game.id}'s options ({known})")
        o = by_name[name]
        values = [_read(o, v.replace("+", ","), f"--option {name}") for v in text.split(",")]
        axes.append((name, values))
    if not axes:
        raise CliError("give at least one --option NAME=V1,V2 to sweep")
    return axes


@game_command(_commands, "sweep")
@click.option("--bots", default="random", show_default=True, help="Bot name for every seat, or one per seat.")
@click.option("--games", "n_games", type=click.IntRange(1), default=100, show_default=True, help="Games a cell.")
@click.option("--seed", type=int, default=1, show_default=True, help="Seed of each cell's first game.")
@click.option("--workers", type=click.IntRange(1), default=1, show_default=True)
@click.option("-o", "--out", "out_dir", type=click.Path(file_okay=False), required=True,
              help="Folder for the cells' reports and the comparison page (index.html).")
def sweep(game_id, settings, bots, n_games, seed, workers, out_dir, **flags) -> None:
    """Play GAME at every combination of the --option values (turns=10,15,20 rules=,races),
    the same seeds in every cell, and write one page comparing them (DIR/index.html).

    Each --option NAME=V1,V2 is a knob; a list option's items are joined by + (rules=,races+abilities).
    GAME's flags (--players 3) set what stays fixed."""
    from realms.sim.batch import SimulationError
    from realms.sim.compare import sweep as run_sweep

    game = _game(game_id)
    base = _game_options(game, flags, ())
    axes = _axes(game, settings)
    spec = tuple(b.strip() for b in bots.split(","))

    def told(label, info) -> None:
        click.echo(f"{label}: {info.played} games in {info.seconds:.1f} s")

    try:
        comparison = run_sweep(game, base, axes, spec, seed, n_games, out_dir, workers, sys.stderr.isatty(), told)
    except (OptionError, _map_error(), SimulationError) as exc:
        raise CliError(str(exc)) from None
    marked = sum(1 for row in comparison["metrics"] for d in row["diffs"] if d and d["significant"])
    click.echo(f"{len(comparison['reports'])} cells; {marked} differences from the first cell at p < 0.05")
    click.echo(f"wrote {Path(out_dir) / 'index.html'}")


@_commands.command("compare")
@click.argument("folders", nargs=-1, required=True, type=click.Path(file_okay=False))
@click.option("-o", "--output", type=click.Path(dir_okay=False), required=True, help="HTML file to write.")
@click.option("--json", "as_json", is_flag=True, help="Also print the comparison as JSON.")
def compare(folders, output, as_json) -> None:
    """Put simulation reports (folders of realms simulate --report) side by side: each metric
    with its interval, and for reports of one game each difference from the first with its
    interval and test, marked where p < 0.05.  Reports of different games: their common
    metrics together."""
    from realms.sim.compare import CompareError, compare as compare_reports, load, render

    try:
        comparison = compare_reports([load(f) for f in folders])
    except CompareError as exc:
        raise CliError(str(exc)) from None
    games = {r["game"] for r in comparison["reports"]}
    title = f"{len(folders)} reports of {', '.join(sorted(games))} compared"
    if as_json:
        click.echo(json.dumps(comparison, ensure_ascii=False))
    _write(output, render(comparison, title))
