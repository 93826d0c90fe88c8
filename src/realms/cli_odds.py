"""``realms odds GAME …``: a game's battle calculator (``Game.calculator``).

Registered on the ``realms`` group by ``cli.py``.  Each game with a calculator is a
subcommand whose options are the arguments the game declares (name, type, help,
default, choices), plus ``--json``; games without one are not listed.  Every error is
one line and exits with code 2.
"""

from __future__ import annotations

import json

import click

from realms.core.game import Argument, Calculator, CalculatorError, games

CONTEXT = {"help_option_names": ["-h", "--help"]}


class OddsUsageError(click.UsageError):
    """A bad argument: one line (``Error: …``), exit code 2, even when run on its own."""

    def show(self, file=None) -> None:
        click.echo(f"Error: {self.format_message()}", err=True, file=file)


def _one_line(exc: click.UsageError) -> OddsUsageError:
    return exc if isinstance(exc, OddsUsageError) else OddsUsageError(exc.format_message())


class _OneLineErrors(click.Command):
    """Argument parsing errors (bad choices, bad numbers) as one line too."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        try:
            return super().parse_args(ctx, args)
        except click.UsageError as exc:
            raise _one_line(exc) from None


def calculators() -> dict[str, Calculator]:
    """The calculator of every game that has one, by game id."""
    return {gid: g.calculator() for gid, g in games().items() if g.calculator is not None}


def _option(arg: Argument) -> click.Option:
    names = [f"--{arg.name.replace('_', '-')}"] + ([arg.short] if arg.short else []) + [arg.name]
    if arg.type is bool:
        return click.Option(names, is_flag=True, default=bool(arg.default), help=arg.help)
    kind: click.ParamType | type
    if arg.choices is not None:
        kind = click.Choice(list(arg.choices))
    elif arg.type == "path":
        kind = click.Path(dir_okay=False)
    else:
        kind = arg.type
    return click.Option(names, type=kind, default=arg.default, metavar=arg.metavar, help=arg.help,
                        show_default=arg.default is not None)


def command_for(game_id: str, calc: Calculator) -> click.Command:
    """The subcommand ``realms odds GAME``: the declared arguments, ``--json``, and
    the result printed as JSON or as text."""
    def run(as_json: bool, **values) -> None:
        try:
            data, text = calc.compute(values)
        except CalculatorError as exc:
            raise OddsUsageError(str(exc)) from None
        click.echo(json.dumps(data) if as_json else text)

    params: list[click.Parameter] = [_option(a) for a in calc.arguments]
    params.append(click.Option(["--json", "as_json"], is_flag=True, help="Print one JSON object."))
    return _OneLineErrors(game_id, params=params, callback=run, help=calc.help, context_settings=CONTEXT,
                          short_help=calc.help.splitlines()[0])


class OddsGroup(click.Group):
    """The games with a calculator, each a subcommand built from its declaration."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(calculators())

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        calc = calculators().get(name)
        return command_for(name, calc) if calc is not None else None

    def resolve_command(self, ctx: click.Context, args: list[str]):
        name = args[0] if args else None
        if name is not None and self.get_command(ctx, name) is None and not name.startswith("-"):
            known = ", ".join(self.list_commands(ctx)) or "none"
            raise OddsUsageError(f"{name!r} has no battle calculator (games with one: {known})")
        return super().resolve_command(ctx, args)

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        if not args:
            known = ", ".join(self.list_commands(ctx)) or "none"
            raise OddsUsageError(f"give a game: realms odds GAME … (games with a battle calculator: {known})")
        try:
            return super().parse_args(ctx, args)
        except click.UsageError as exc:
            raise _one_line(exc) from None


@click.group("odds", cls=OddsGroup, context_settings=CONTEXT)
def odds() -> None:
    """Battle odds: realms odds GAME --help shows what GAME's calculator takes.

    \b
      realms odds hy-breasil --attackers 5 --defenders 4 --terrain forest
      realms odds hy-breasil --table 15 -o odds.png
    """
