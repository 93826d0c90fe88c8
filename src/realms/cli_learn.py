"""``realms selfplay`` and ``realms train``: positions from bots' games, and a game's
learned evaluation fitted to them (registered on the ``realms`` group by ``cli.py``).

    realms selfplay hy-breasil --games 400 --bots auto --out runs/hb --workers 2
    realms train hy-breasil --data runs/hb --seed 1
    realms train hy-breasil --data runs/hb --install   # ship it: the game's data/value.json
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from realms.cli import _GAME_EPILOG, _OPTION_HELP, CliError, GameCommand, Stopped, _game, _game_options
from realms.core.options import OptionError


@click.command("selfplay", cls=GameCommand, epilog=_GAME_EPILOG.format(cmd="selfplay"))
@click.argument("game_id", metavar="GAME")
@click.option("--option", "settings", multiple=True, metavar="NAME=VALUE", help=_OPTION_HELP)
@click.option("--games", "n_games", type=click.IntRange(1), default=100, show_default=True)
@click.option("--bots", default=None, help="Bot for every seat, or one per seat (default: the game's first bot).")
@click.option("--out", "out_dir", type=click.Path(file_okay=False), required=True,
              help="Folder for positions.jsonl.")
@click.option("--seed", type=int, default=1, show_default=True, help="Seed of the first game.")
@click.option("--every", type=click.IntRange(1), default=8, show_default=True,
              help="Record about one decision (or turn end, --at turn-ends) in this many.")
@click.option("--at", type=click.Choice(["decisions", "turn-ends"]), default="decisions", show_default=True,
              help="Record positions at decisions, or where a turn ends (where ismcts:horizon=turn scores).")
@click.option("--workers", type=click.IntRange(1), default=1, show_default=True, help="Processes playing.")
@click.option("--resume", is_flag=True, help="Keep the games already in --out and play the rest.")
def selfplay(game_id, settings, n_games, bots, out_dir, seed, every, at, workers, resume, **flags) -> None:
    """Play GAME with bots and record positions as the deciding seat sees them (the
    game's features of its view), each with the game's outcome, for realms train."""
    from realms.sim import selfplay as sp
    from realms.sim.batch import Interrupted, SimulationError

    game = _game(game_id)
    opts = _game_options(game, flags, settings)
    spec = tuple(b.strip() for b in (bots or next(iter(game.bots), "random")).split(",") if b.strip())
    run = sp.SelfPlay(game.id, opts, spec, seed, n_games, every, at)
    try:
        lines = sp.run(run, out_dir, workers=workers, resume=resume, progress=sys.stderr.isatty())
    except (OptionError, SimulationError) as exc:
        raise CliError(str(exc)) from None
    except Interrupted as exc:
        raise Stopped(f"interrupted after {exc.done} of {exc.total} games; they are kept in "
                      f"{Path(out_dir) / sp.FILE}: run the same command with --resume to finish") from None
    s = sp.summary(lines)
    click.echo(f"{s['games']} games, {s['positions']} positions of {len(s['features'])} features "
               f"in {Path(out_dir) / sp.FILE}")


@click.command("train")
@click.argument("game_id", metavar="GAME")
@click.option("--data", "data_dir", type=click.Path(file_okay=False), required=True,
              help="A realms selfplay folder (positions.jsonl).")
@click.option("--seed", type=int, default=0, show_default=True, help="Seed of the split and the initial weights.")
@click.option("--hidden", type=int, default=16, show_default=True, help="Hidden units of the network tried (0: linear only).")
@click.option("--steps", type=int, default=600, show_default=True, help="Adam steps per model.")
@click.option("--out", "out_file", type=click.Path(dir_okay=False), help="Model file (default: DATA/value.json).")
@click.option("--install", is_flag=True, help="Write the model into the game's package (data/value.json), "
              "where ismcts:value=learned finds it.")
@click.option("--json", "as_json", is_flag=True, help="Print the whole report as JSON.")
def train(game_id, data_dir, seed, hidden, steps, out_file, install, as_json) -> None:
    """Fit GAME's learned evaluation to the positions in DATA and report, on games held
    out, its Brier score and calibration against the game's hand-written evaluation."""
    from realms.search.train import TrainError, read_lines
    from realms.search.train import train as fit
    from realms.search.value import shipped_path

    game = _game(game_id)
    if game.features is None:
        raise CliError(f"{game.id} declares no features (Game.features): it has no learned evaluation")
    if out_file and install:
        raise CliError("--out and --install: give one")
    try:
        model, report = fit(game, read_lines(data_dir, game), seed=seed, hidden=hidden, steps=steps)
    except (TrainError, OptionError) as exc:
        raise CliError(str(exc)) from None
    path = shipped_path(game) if install else Path(out_file or Path(data_dir) / "value.json")
    model.save(path)
    report["model_file"] = str(path)
    if as_json:
        click.echo(json.dumps(report))
        return
    g, pos = report["games"], report["positions"]
    click.echo(f"{game.name}: {g['fit']} games to fit, {g['choose']} to choose, {g['held_out']} held out "
               f"({pos['held_out_won']} held-out positions of won games)")
    click.echo("  model: " + ", ".join(f"{h} {c['model']}" for h, c in report["chosen"].items()))
    click.echo(f"  {'held out':14} {'Brier':>7} {'log loss':>9} {'ECE':>7}")
    for name, s in report["held_out"].items():
        click.echo(f"  {name:14} {s['brier']:7.4f} {s['log_loss']:9.4f} {s['ece']:7.4f}")
    click.echo(f"  score shares, squared error: learned {report['score_head_mse']:.5f}, "
               f"hand-written {report['hand_written_score_mse']:.5f}")
    click.echo("  calibration (learned): " + "  ".join(
        f"{c['bin']}: {c['observed']:.2f} of {c['n']}" for c in report["held_out"]["learned"]["calibration"]))
    click.echo(f"wrote {path}")
