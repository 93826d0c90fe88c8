"""``realms map generate GAME … -o FILE``: a game's map generator (``Game.map_generator``).

Registered under ``realms map`` by ``cli.py``.  Each game with a generator is a
subcommand whose options are the arguments the game declares (as ``realms odds`` builds
a calculator's), plus ``-o/--output``; games without one are not listed.  Every error is
one line and exits with code 2.
"""

from __future__ import annotations

from pathlib import Path

import click

from realms.cli_odds import CONTEXT, OddsUsageError, _OneLineErrors, _one_line, _option
from realms.core.game import CalculatorError, MapGenerator, games


def generators() -> dict[str, MapGenerator]:
    """The map generator of every game that has one, by game id."""
    return {gid: g.map_generator() for gid, g in games().items() if g.map_generator is not None}


def command_for(game_id: str, gen: MapGenerator) -> click.Command:
    def run(output: str, **values) -> None:
        try:
            text, summary = gen.generate(values)
        except CalculatorError as exc:
            raise OddsUsageError(str(exc)) from None
        try:
            Path(output).write_text(text, encoding="utf-8")
        except OSError as exc:
            raise OddsUsageError(f"{output}: cannot write ({exc.strerror})") from None
        click.echo(f"wrote {output}: {summary}")

    params: list[click.Parameter] = [_option(a) for a in gen.arguments]
    params.append(click.Option(["-o", "--output"], type=click.Path(dir_okay=False), required=True,
                               help="The map file (TOML) to write."))
    return _OneLineErrors(game_id, params=params, callback=run, help=gen.help, context_settings=CONTEXT,
                          short_help=gen.help.split(";")[0])


class GenerateGroup(click.Group):
    """The games with a map generator, each a subcommand built from its declaration."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(generators())

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        gen = generators().get(name)
        return command_for(name, gen) if gen is not None else None

    def resolve_command(self, ctx: click.Context, args: list[str]):
        name = args[0] if args else None
        if name is not None and self.get_command(ctx, name) is None and not name.startswith("-"):
            known = ", ".join(self.list_commands(ctx)) or "none"
            raise OddsUsageError(f"{name!r} has no map generator (games with one: {known})")
        return super().resolve_command(ctx, args)

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        if not args:
            known = ", ".join(self.list_commands(ctx)) or "none"
            raise OddsUsageError(f"give a game: realms map generate GAME … (games with a map generator: {known})")
        try:
            return super().parse_args(ctx, args)
        except click.UsageError as exc:
            raise _one_line(exc) from None


@click.group("generate", cls=GenerateGroup, context_settings=CONTEXT)
def generate() -> None:
    """A new map: realms map generate GAME --help shows what GAME's generator takes.

    \b
      realms map generate hy-breasil --areas 50 --seas 8 --seed 3 -o my-map.toml
      realms simulate hy-breasil --option map=my-map.toml
    """
