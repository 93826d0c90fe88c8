"""The ``realms`` command: simulate, replay and draw games.

Errors are one line on standard error (``realms: error: …``) with a non-zero exit code.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from realms.core.game import OptionError, UnknownGame, get_game, games, replay as replay_record
from realms.core.mapgraph import MapError
from realms.core.record import Record, RecordError
from realms.sim.runner import run_explained, run_game, summary


class CliError(click.ClickException):
    exit_code = 2


class Stopped(click.ClickException):
    """Ctrl-C during a batch run (the finished games are kept)."""

    exit_code = 130


def _game(game_id: str):
    try:
        return get_game(game_id)
    except UnknownGame as exc:
        raise CliError(str(exc)) from None


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="realms")
def cli() -> None:
    """Play, simulate and analyse historical conquest board games."""


@cli.command("games")
def list_games() -> None:
    """List the games realms knows."""
    for g in games().values():
        click.echo(f"{g.id:12} {g.name} ({g.min_players}–{g.max_players} players)")


def _timeline(values: tuple[str, ...], flag: str) -> list:
    out = []
    for v in values:
        turn, _, name = v.partition(":")
        if not turn.strip().isdigit() or not name.strip():
            raise CliError(f"{flag} {v!r}: expected TURN:NAME, e.g. 3:Dana")
        out.append([int(turn), name.strip()])
    return out


def _options(players, names, turns, vp_target, sets, set_size, map_name, rules=None, variant=None,
             joins=(), leaves=()) -> dict:
    opts: dict = {}
    if rules:
        opts["rules"] = [r.strip() for r in rules.split(",") if r.strip()]
    if variant:
        opts["variant"] = variant
    if joins:
        opts["joins"] = _timeline(joins, "--join")
    if leaves:
        opts["leaves"] = _timeline(leaves, "--leave")
    if names:
        opts["names"] = [n.strip() for n in names.split(",")]
    if players is not None:
        opts["players"] = players
    if turns is not None:
        opts["turns"] = turns
    if vp_target is not None:
        opts["vp_target"] = vp_target
    if sets is not None:
        opts["sets"] = sets
    if set_size is not None:
        opts["set_size"] = set_size
    if map_name is not None:
        opts["map"] = map_name
    return opts


def _print_game(state, as_json: bool, unit: str = "VP", chronicle: list[str] | None = None) -> None:
    _print_line({**summary(state), "chronicle": chronicle if chronicle is not None else state.chronicle()},
                as_json, unit)


def _print_line(line: dict, as_json: bool, unit: str = "VP") -> None:
    """A game's JSON summary line, or its chronicle and final scores."""
    if as_json:
        click.echo(json.dumps({k: v for k, v in line.items() if k not in ("bots", "stats", "chronicle")},
                              ensure_ascii=False))
        return
    for text in line.get("chronicle", []):
        click.echo(text)
    click.echo("")
    click.echo("Final scores:")
    for name, vp in sorted(line["scores"].items(), key=lambda kv: -kv[1]):
        click.echo(f"  {name:12} {vp:4} {unit}")
    if line["winner"]:
        click.echo(f"Winner: {line['winner']}")
    elif line["winners"]:
        click.echo(f"Shared victory: {', '.join(line['winners'])}")


@cli.command()
@click.argument("game_id", metavar="GAME")
@click.option("--players", type=click.IntRange(1, 99), help="Number of players (default 4).")
@click.option("--names", help="Comma-separated player names (sets --players).")
@click.option("--turns", type=click.IntRange(1), help="Game length in turns (§3; default 15).")
@click.option("--vp-target", type=click.IntRange(1), help="Play until a player has this many VP (§3).")
@click.option("--sets", type=click.IntRange(1), help="Number of nation token sets (default 12).")
@click.option("--set-size", type=click.IntRange(1), help="Tokens per set (default 15).")
@click.option("--map", "map_name", help="Map name or path to a map TOML file.")
@click.option("--rules", help="Advanced rules, any of races,submission,abilities (§9).")
@click.option("--variant", type=click.Choice(["continuous", "random-scoring"]), help="§10 or §11 variant.")
@click.option("--join", "joins", multiple=True, metavar="TURN:NAME", help="§10: NAME joins at TURN (repeatable).")
@click.option("--leave", "leaves", multiple=True, metavar="TURN:NAME", help="§10: NAME leaves at TURN (repeatable).")
@click.option("--seed", type=int, default=1, show_default=True, help="Seed of the (first) game.")
@click.option("--bots", default="random", show_default=True, help="Bot name for every seat, or one per seat (a,b,c).")
@click.option("--games", "n_games", type=click.IntRange(1), default=1, show_default=True,
              help="Play this many games with seeds seed, seed+1, …")
@click.option("--record", "record_file", type=click.Path(dir_okay=False, writable=True),
              help="Write the record of the game (single game only).")
@click.option("--json", "as_json", is_flag=True, help="Print a JSON summary (one line per game).")
@click.option("--explain", is_flag=True,
              help="Add to the chronicle why each bot that explains itself (auto) did what it did.")
@click.option("--workers", type=click.IntRange(1), help="Play the games in this many processes (progress bar).")
@click.option("--report", "report_dir", type=click.Path(file_okay=False),
              help="Write a report folder: summary.json, games.jsonl, index.html and charts.")
@click.option("--resume", is_flag=True, help="Continue the interrupted run in --report's folder.")
@click.option("--cluster", metavar="URL", help="Run on a Dask cluster (tcp://host:8786) instead of local processes.")
def simulate(game_id, players, names, turns, vp_target, sets, set_size, map_name, rules, variant,
             joins, leaves, seed, bots, n_games, record_file, as_json, explain, workers, report_dir, resume,
             cluster) -> None:
    """Play GAME with bots and print its chronicle and scores.

    With --report DIR (or --workers, --cluster) the games run in parallel; each is the
    game of its seed whatever the workers.  Ctrl-C keeps the games finished so far in
    DIR/games.jsonl; --resume plays the rest."""
    game = _game(game_id)
    if record_file and n_games > 1:
        raise CliError("--record writes a single game; drop --games or --record")
    opts = _options(players, names, turns, vp_target, sets, set_size, map_name, rules, variant, joins, leaves)
    spec = [b.strip() for b in bots.split(",")]
    if resume and not report_dir:
        raise CliError("--resume continues a --report folder; give --report DIR")
    if explain and (as_json or report_dir or workers or cluster):
        raise CliError("--explain adds to the printed chronicle; drop --json/--report/--workers/--cluster")
    if report_dir or workers or cluster:
        if record_file:
            raise CliError("--record writes a single game; drop --record or --report/--workers/--cluster")
        _simulate_batch(game, opts, spec, seed, n_games, as_json, workers, report_dir, resume, cluster)
        return
    for i in range(n_games):
        chronicle = None
        try:
            if explain:
                state, chronicle = run_explained(game, opts, seed + i, spec)
            else:
                state = run_game(game, opts, seed + i, spec)
        except (OptionError, MapError) as exc:
            raise CliError(str(exc)) from None
        if record_file:
            try:
                state.record().save(record_file)
            except OSError as exc:
                raise CliError(f"{record_file}: cannot write ({exc.strerror})") from None
        if n_games > 1 and not as_json:
            click.echo(f"=== game {i + 1} (seed {seed + i}) ===")
        _print_game(state, as_json, game.score_name, chronicle)


def _simulate_batch(game, opts, spec, seed, n_games, as_json, workers, report_dir, resume, cluster) -> None:
    """simulate with --report/--workers/--cluster: realms.sim.batch, then the report."""
    from realms.sim.batch import Interrupted, RunInfo, Simulation, SimulationError, default_workers, run

    sim = Simulation(game.id, opts, tuple(spec), seed, n_games)
    workers = workers or (default_workers() if report_dir and not cluster else 1)
    info = RunInfo()
    try:
        lines = run(sim, workers=workers, out=report_dir, resume=resume, cluster=cluster,
                    progress=sys.stderr.isatty(), chronicle=not report_dir and not as_json, info=info)
    except (OptionError, MapError, SimulationError) as exc:
        raise CliError(str(exc)) from None
    except Interrupted as exc:
        where = f"; they are kept in {Path(report_dir) / 'games.jsonl'}: run the same command with --resume " \
                "to finish" if report_dir else ""
        raise Stopped(f"interrupted after {exc.done} of {exc.total} games{where}") from None
    if not report_dir:
        for i, line in enumerate(lines):
            if n_games > 1 and not as_json:
                click.echo(f"=== game {i + 1} (seed {line['seed']}) ===")
            _print_line(line, as_json, game.score_name)
        return
    from realms.sim.report import write_report

    simulation = {"game": game.id, "game_name": game.name, "score_name": game.score_name,
                  "options": lines[0]["options"] if lines else opts, "bots": spec, "seed": seed, "games": n_games}
    write_report(report_dir, lines, simulation, info.to_json())
    click.echo(f"{len(lines)} games of {game.name} ({info.played} played in {info.seconds:.1f} s, "
               f"{info.games_per_second:.1f} games/s, {info.cluster or f'{workers} worker(s)'}"
               f"{f', {info.resumed} kept from before' if info.resumed else ''})")
    for name in ("index.html", "summary.json", "games.jsonl"):
        click.echo(f"wrote {Path(report_dir) / name}")


@cli.command("tournament")
@click.argument("game_id", metavar="GAME")
@click.option("--bots", default="random", show_default=True, help="Bots to compare, comma-separated (e.g. greedy,random).")
@click.option("--players", type=click.IntRange(1, 99), help="Seats per game (default: the game's default).")
@click.option("--games", "n_games", type=click.IntRange(1), default=100, show_default=True)
@click.option("--seed", type=int, default=1, show_default=True)
@click.option("--rules", help="Advanced rules (hy-breasil), comma-separated.")
@click.option("--turns", type=click.IntRange(1), help="Game length in turns (hy-breasil).")
@click.option("--json", "as_json", is_flag=True, help="Print the standings as JSON.")
@click.option("--workers", type=click.IntRange(1), help="Play the games in this many processes (progress bar).")
def tournament_cmd(game_id, bots, players, n_games, seed, rules, turns, as_json, workers) -> None:
    """Play GAME many times, rotating the bots round the seats, and rank them by win share."""
    from realms.sim.tournament import tournament

    game = _game(game_id)
    opts = _options(players, None, turns, None, None, None, None, rules)
    spec = [b.strip() for b in bots.split(",") if b.strip()]
    try:
        if workers:
            from realms.sim import batch

            try:
                standings = batch.tournament(game.id, opts, spec, n_games, seed, workers=workers,
                                             progress=sys.stderr.isatty())
            except batch.Interrupted as exc:
                raise Stopped(f"interrupted after {exc.done} of {exc.total} games") from None
        else:
            standings = tournament(game, opts, spec, n_games, seed)
    except (OptionError, MapError) as exc:
        raise CliError(str(exc)) from None
    if as_json:
        click.echo(json.dumps({"game": game.id, "games": n_games, "seed": seed,
                               "bots": {s.bot: s.to_json() for s in standings}}))
        return
    click.echo(f"{game.name}: {n_games} games, seats rotated")
    click.echo(f"  {'bot':10} {'seats':>6} {'wins':>8} {'share':>7}  95% interval   mean {game.score_name}")
    for st in sorted(standings, key=lambda s: -s.share):
        lo, hi = st.interval()
        click.echo(f"  {st.bot:10} {st.games:6} {st.wins:8.1f} {st.share:7.1%}  {lo:5.1%}–{hi:5.1%}  "
                   f"{st.score_total / st.games:8.1f}")


@cli.command()
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--json", "as_json", is_flag=True, help="Print the JSON summary, as simulate does.")
def replay(file, as_json) -> None:
    """Replay a record FILE and print its chronicle (or --json summary)."""
    try:
        state = replay_record(Record.load(file), file)
    except (RecordError, MapError) as exc:
        raise CliError(str(exc)) from None
    _print_game(state, as_json, get_game(state.GAME_ID).score_name)


@cli.command("history")
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("-o", "--output", type=click.Path(dir_okay=False), required=True, help="HTML file to write.")
@click.option("--seed", type=int, help="FILE a games.jsonl: the game of this seed (default: the first).")
def history_cmd(file, output, seed) -> None:
    """Write the history of one game as a page: the chronicle turn by turn, a histomap of
    the land each nation held, and the map at the end of every turn (a slider).

    FILE is a record (realms simulate --record) or a report's games.jsonl, whose game is
    played again from its seed and bots."""
    from realms.sim.history import history_html, record_from_games

    try:
        if file.endswith(".jsonl"):
            record = record_from_games(file, seed)
        else:
            record = Record.load(file)
        html = history_html(record, file)
    except (RecordError, MapError, OptionError) as exc:
        raise CliError(str(exc)) from None
    _write(output, html)


def _write(output: str, text: str) -> None:
    """Write a page or picture the user asked for, or fail naming the file and why."""
    try:
        Path(output).write_text(text, encoding="utf-8")
    except OSError as exc:
        raise CliError(f"{output}: cannot write ({exc.strerror})") from None
    click.echo(f"wrote {output}")


@cli.group("map")
def map_group() -> None:
    """Maps and boards."""


@map_group.command("show")
@click.argument("game_id", metavar="GAME")
@click.option("--map", "map_name", help="Map name or path to a map TOML file.")
@click.option("-o", "--output", type=click.Path(dir_okay=False), required=True, help="SVG file to write.")
def map_show(game_id, map_name, output) -> None:
    """Draw GAME's map (or board) as SVG."""
    game = _game(game_id)
    if game.draw is None:
        raise CliError(f"{game_id} has no drawing")
    options = {"map": map_name} if map_name else {}
    try:
        svg = game.draw(None, options)
    except MapError as exc:
        raise CliError(str(exc)) from None
    _write(output, svg)


from realms.cli_odds import odds  # noqa: E402
from realms.server.cli import serve  # noqa: E402

cli.add_command(odds)
cli.add_command(serve)


def main(argv: list[str] | None = None) -> int:
    """Run the command with one-line errors."""
    try:
        cli.main(args=argv, prog_name="realms", standalone_mode=False)
    except click.exceptions.Abort:
        click.echo("realms: aborted", err=True)
        return 130
    except Stopped as exc:
        click.echo(f"realms: {exc.format_message()}", err=True)
        return exc.exit_code
    except click.ClickException as exc:
        click.echo(f"realms: error: {exc.format_message()}", err=True)
        return exc.exit_code
    return 0


if __name__ == "__main__":
    sys.exit(main())


def run() -> None:
    """Console-script entry point."""
    sys.exit(main())
