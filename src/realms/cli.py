"""The ``realms`` command: simulate, replay and draw games.

Errors are one line on standard error (``realms: error: …``) with a non-zero exit code.

It starts fast: modules load inside the commands that use them (the web stack only for
``realms serve``), and the subcommands of other modules load when they are run
(:class:`LazyGroup`).  A game's options are its own: commands that take a GAME read its
declared schema (:class:`GameCommand`), so no game's flag is written here.
"""

from __future__ import annotations

import importlib
import json
import sys
from pathlib import Path

import click

from realms.core.options import OptionError, metavar, parse_text, shown
from realms.core.record import Record, RecordError


class CliError(click.ClickException):
    exit_code = 2


class Stopped(click.ClickException):
    """Ctrl-C during a batch run (the finished games are kept)."""

    exit_code = 130


def _game(game_id: str):
    from realms.core.game import UnknownGame, get_game

    try:
        return get_game(game_id)
    except UnknownGame as exc:
        raise CliError(str(exc)) from None


def _map_error():
    """The error class of bad maps and data files (loaded only when a command may meet one)."""
    from realms.core.files import FileError

    return FileError


class LazyGroup(click.Group):
    """A group whose commands from other modules load only when run or listed in help:
    ``lazy`` maps a command name to ``"module:attribute"``."""

    def __init__(self, *args, lazy: dict[str, str] | None = None, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.lazy = dict(lazy or {})

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*super().list_commands(ctx), *self.lazy})

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        if name in self.lazy and name not in self.commands:
            module, _, attr = self.lazy[name].partition(":")
            self.add_command(getattr(importlib.import_module(module), attr), name)
        return super().get_command(ctx, name)


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]},
             lazy={"odds": "realms.cli_odds:odds", "play": "realms.cli_play:play", "gm": "realms.cli_gm:gm",
                   "serve": "realms.server.cli:serve", "sweep": "realms.cli_design:sweep",
                   "compare": "realms.cli_design:compare", "selfplay": "realms.cli_learn:selfplay",
                   "train": "realms.cli_learn:train"})
@click.version_option(package_name="realms")
def cli() -> None:
    """Play, simulate and analyse historical conquest board games."""


@cli.command("games")
def list_games() -> None:
    """List the games realms knows."""
    from realms.core.game import games

    for g in games().values():
        click.echo(f"{g.id:12} {g.name} ({g.min_players}–{g.max_players} players)")


@cli.command("options")
@click.argument("game_id", metavar="GAME")
@click.option("--json", "as_json", is_flag=True, help="Print the schema as JSON (as the web's catalog serves it).")
def options_cmd(game_id, as_json) -> None:
    """List GAME's options: name, type, default, bounds or choices, flag and help, by group.

    Any of them is set with --option NAME=VALUE (play, simulate, tournament, …), or with its flag."""
    game = _game(game_id)
    if as_json:
        click.echo(json.dumps({"game": game.id, "options": [o.to_json() for o in game.schema]}, ensure_ascii=False))
        return
    groups = dict.fromkeys(o.group for o in game.schema)
    for i, group in enumerate(groups):
        click.echo(f"{chr(10) if i else ''}{group}:")
        for o in game.schema:
            if o.group == group:
                default = "none" if o.default is None else json.dumps(o.default, ensure_ascii=False)
                flag = f"  {o.flag}" if o.flag else ""
                click.echo(f"  {o.name:10} {o.type:8} default {default:12} {o.bounds()}{flag}")
                click.echo(f"  {'':10} {o.help}")


# -- a game's options on the command line ---------------------------------------------------
_GAME = "realms.game"
#: the name of a game flag's parameter: the option's name after this prefix
_FLAG = "game_option__"
_OPTION_HELP = "Set any of GAME's options (repeatable); VALUE as its type reads: 3, true, a,b,c, TURN:NAME."
_GAME_EPILOG = "GAME's own options: realms options GAME; its flags: realms {cmd} GAME --help."


class GameCommand(click.Command):
    """A command whose first argument is a game: the flags the game declares (``--turns``)
    join the command's own once the game is known, and ``--option NAME=VALUE`` sets any of
    its options.  ``realms CMD GAME --help`` lists them."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        game_id = self._game_argument(args)
        if game_id is not None:
            ctx.meta[_GAME] = _game(game_id)
        try:
            return super().parse_args(ctx, args)
        except click.NoSuchOption as exc:
            game = ctx.meta.get(_GAME)
            hint = f" ({game.id}'s options: {', '.join(o.name for o in game.schema)}; " \
                   f"see realms options {game.id})" if game else ""
            raise CliError(f"no such option: {shown(exc.option_name)[1:-1]}{hint}") from None

    def get_params(self, ctx: click.Context) -> list[click.Parameter]:
        params = super().get_params(ctx)
        game = ctx.meta.get(_GAME)
        if game is None:
            return params
        help_option = self.get_help_option(ctx)
        own = [p for p in params if p is not help_option]
        taken = {flag for p in own for flag in p.opts}
        flags = []
        for o in game.schema:
            if o.flag is None:
                continue
            if o.flag in taken:
                raise CliError(f"{game.id}: option {o.name!r} declares the flag {o.flag}, "
                               f"which realms {self.name} has for itself")
            bounds = o.bounds()
            default = "" if o.default is None or o.default == [] else f"; default {json.dumps(o.default)}"
            flags.append(click.Option([o.flag, _FLAG + o.name], metavar=metavar(o), multiple=o.type == "timeline",
                                      help=f"{o.help} [{bounds}{default}]" if bounds or default else o.help))
        return [*own, *flags, *([help_option] if help_option is not None else [])]

    def format_epilog(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """The epilog, and once the game is known the bots it may be played by."""
        super().format_epilog(ctx, formatter)
        game = ctx.meta.get(_GAME)
        if game is not None:
            from realms.core.lineup import bot_names

            formatter.write_paragraph()
            with formatter.indentation():
                formatter.write_text(f"{game.id}'s bots (--bots): {', '.join(bot_names(game))}.")

    def _game_argument(self, args: list[str]) -> str | None:
        """The GAME among ``args``: the first word that is no flag nor a flag's value (every
        game flag takes a value)."""
        own = {flag for p in self.params for flag in p.opts}
        takes_value = {flag for p in self.params if isinstance(p, click.Option) and not p.is_flag
                       for flag in p.opts}
        i = 0
        while i < len(args):
            arg = args[i]
            if arg == "--":
                return args[i + 1] if i + 1 < len(args) else None
            if not arg.startswith("-") or arg == "-":
                return arg
            if "=" not in arg and (arg in takes_value or (arg.startswith("--") and arg not in own)):
                i += 1
            i += 1
        return None


def game_command(group: click.Group, name: str, **kwargs):
    """``@game_command(cli, "simulate")``: a :class:`GameCommand` taking GAME and ``--option``."""
    def decorate(f):
        f = click.option("--option", "settings", multiple=True, metavar="NAME=VALUE", help=_OPTION_HELP)(f)
        f = click.argument("game_id", metavar="GAME")(f)
        return group.command(name, cls=GameCommand, epilog=_GAME_EPILOG.format(cmd=name), **kwargs)(f)
    return decorate


def _game_options(game, flags: dict, settings: tuple[str, ...]) -> dict:
    """The options set on the command line: the game's flags, then ``--option NAME=VALUE``
    (an option given both ways is an error); each value read by the option's type."""
    by_name = {o.name: o for o in game.schema}
    opts: dict = {}
    for key, value in flags.items():
        if not key.startswith(_FLAG) or value is None or value == ():
            continue
        o = by_name[key[len(_FLAG):]]
        texts = value if isinstance(value, tuple) else (value,)
        parsed = [_read(o, text, o.flag) for text in texts]
        opts[o.name] = [entry for p in parsed for entry in p] if o.type == "timeline" else parsed[-1]
    for setting in settings:
        name, eq, text = setting.partition("=")
        name = name.strip().replace("-", "_")
        if not eq or not name:
            raise CliError(f"--option {shown(setting)}: expected NAME=VALUE, e.g. turns=10")
        if name in opts:
            raise CliError(f"option {shown(name)} is given twice")
        o = by_name.get(name)
        opts[name] = _read(o, text, f"--option {name}") if o is not None else text
    return opts


def _read(o, text: str, where: str):
    try:
        return parse_text(o, text)
    except OptionError as exc:
        raise CliError(f"{where}: {exc}") from None


def _print_game(state, as_json: bool, unit: str = "VP", chronicle: list[str] | None = None) -> None:
    from realms.sim.runner import summary

    _print_line({**summary(state), "chronicle": chronicle if chronicle is not None else state.chronicle()},
                as_json, unit)


def _print_line(line: dict, as_json: bool, unit: str = "VP") -> None:
    """A game's JSON summary line, or its chronicle and final scores."""
    if as_json:
        click.echo(json.dumps({k: v for k, v in line.items() if k not in ("bots", "stats", "turn_scores", "design", "chronicle")},
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


@game_command(cli, "simulate")
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
def simulate(game_id, settings, seed, bots, n_games, record_file, as_json, explain, workers, report_dir, resume,
             cluster, **flags) -> None:
    """Play GAME with bots and print its chronicle and scores.

    With --report DIR (or --workers, --cluster) the games run in parallel; each is the
    game of its seed whatever the workers.  Ctrl-C keeps the games finished so far in
    DIR/games.jsonl; --resume plays the rest."""
    from realms.sim.runner import run_explained, run_game

    game = _game(game_id)
    if record_file and n_games > 1:
        raise CliError("--record writes a single game; drop --games or --record")
    opts = _game_options(game, flags, settings)
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
        except (OptionError, _map_error()) as exc:
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
    except (OptionError, _map_error(), SimulationError) as exc:
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


@game_command(cli, "tournament")
@click.option("--bots", default="random", show_default=True, help="Bots to compare, comma-separated (e.g. greedy,random).")
@click.option("--games", "n_games", type=click.IntRange(1), default=100, show_default=True)
@click.option("--seed", type=int, default=1, show_default=True)
@click.option("--json", "as_json", is_flag=True, help="Print the standings as JSON.")
@click.option("--workers", type=click.IntRange(1), help="Play the games in this many processes (progress bar).")
@click.option("--report", "report_dir", type=click.Path(file_okay=False),
              help="Also write a report folder, as simulate --report does.")
def tournament_cmd(game_id, settings, bots, n_games, seed, as_json, workers, report_dir, **flags) -> None:
    """Play GAME many times at its player count (--players; default the game's), the bots
    listed filling the seats (the last one the rest: auto,random at four seats is one auto
    against three random), the line-up moving one seat a game; rank the bots by win share."""
    from realms.sim import batch

    game = _game(game_id)
    opts = _game_options(game, flags, settings)
    spec = [b.strip() for b in bots.split(",") if b.strip()]
    sim = batch.Simulation(game.id, opts, tuple(spec), seed, n_games, rotate=True)
    info = batch.RunInfo()
    try:
        lines = batch.run(sim, workers=workers or 1, out=report_dir, progress=sys.stderr.isatty(), info=info)
    except (OptionError, _map_error(), batch.SimulationError) as exc:
        raise CliError(str(exc)) from None
    except batch.Interrupted as exc:
        raise Stopped(f"interrupted after {exc.done} of {exc.total} games") from None
    standings = batch.standings(spec, lines)
    players = len(lines[0]["players"]) if lines else 0
    if report_dir:
        from realms.sim.report import write_report

        write_report(report_dir, lines, {"game": game.id, "game_name": game.name, "options": lines[0]["options"],
                                         "bots": spec, "seed": seed, "games": n_games, "rotated": True},
                     info.to_json())
    if as_json:
        click.echo(json.dumps({"game": game.id, "games": n_games, "players": players, "seed": seed,
                               "bots": {s.bot: s.to_json() for s in standings}}))
        return
    click.echo(f"{game.name}: {n_games} games of {players} players, seats rotated")
    click.echo(f"  {'bot':10} {'seats':>6} {'wins':>8} {'share':>7}  95% interval   mean {game.score_name}")
    for st in sorted(standings, key=lambda s: -s.share):
        lo, hi = st.interval()
        click.echo(f"  {st.bot:10} {st.games:6} {st.wins:8.1f} {st.share:7.1%}  {lo:5.1%}–{hi:5.1%}  "
                   f"{st.score_total / st.games:8.1f}")
    if report_dir:
        click.echo(f"wrote {Path(report_dir) / 'index.html'}")


@cli.command()
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--json", "as_json", is_flag=True, help="Print the JSON summary, as simulate does.")
def replay(file, as_json) -> None:
    """Replay a record FILE and print its chronicle, scores and state hash (or --json summary)."""
    from realms.core.game import get_game, replay as replay_record

    try:
        state = replay_record(Record.load(file), file)
    except (RecordError, _map_error()) as exc:
        raise CliError(str(exc)) from None
    _print_game(state, as_json, get_game(state.GAME_ID).score_name)
    if not as_json:
        click.echo(f"State hash: {state.state_hash()}")


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
    except (RecordError, _map_error(), OptionError) as exc:
        raise CliError(str(exc)) from None
    _write(output, html)


def _write(output: str, text: str) -> None:
    """Write a page or picture the user asked for, or fail naming the file and why."""
    try:
        Path(output).write_text(text, encoding="utf-8")
    except OSError as exc:
        raise CliError(f"{output}: cannot write ({exc.strerror})") from None
    click.echo(f"wrote {output}")


@cli.group("map", cls=LazyGroup, lazy={"generate": "realms.cli_map:generate"})
def map_group() -> None:
    """Maps and boards."""


@game_command(map_group, "show")
@click.option("-o", "--output", type=click.Path(dir_okay=False), required=True, help="SVG file to write.")
def map_show(game_id, settings, output, **flags) -> None:
    """Draw GAME's map (or board) as SVG, as its options (e.g. a map) make it."""
    game = _game(game_id)
    if game.draw is None:
        raise CliError(f"{game_id} has no drawing")
    try:
        svg = game.draw(None, game.normalize_options(_game_options(game, flags, settings)))
    except (OptionError, _map_error()) as exc:
        raise CliError(str(exc)) from None
    _write(output, svg)


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
