"""``realms gm``: the game master's assistant for a game played by posts on a forum.

Generic: the game declares its tools (``Game.gm`` → :class:`realms.core.game.GameMaster`);
``new`` names the game, the other commands read it from the folder's ``record.json``.
"""

from __future__ import annotations

import json
import secrets
from pathlib import Path

import click

from realms.core.record import Record, RecordError


class GMFailed(click.ClickException):
    exit_code = 2


def _master(game_id: str):
    from realms.core.game import UnknownGame, get_game

    try:
        game = get_game(game_id)
    except UnknownGame as exc:
        raise GMFailed(str(exc)) from None
    if game.gm is None:
        raise GMFailed(f"{game.name} has no game master's assistant")
    return game.gm()


def _master_of(folder: Path):
    """The assistant of the game kept in ``folder`` (from its record)."""
    path = folder / "record.json"
    if not path.is_file():
        raise GMFailed(f"{path}: no game here (start one with realms gm new GAME {folder})")
    try:
        return _master(Record.load(str(path)).game)
    except RecordError as exc:
        raise GMFailed(str(exc)) from None


def _run(fn, as_json: bool, *args) -> None:
    from realms.core.game import GMError

    try:
        data, text = fn(*args)
    except GMError as exc:
        raise GMFailed(str(exc)) from None
    click.echo(json.dumps(data, ensure_ascii=False, indent=1) if as_json else text)


@click.group("gm")
def gm() -> None:
    """Run a forum game: start it, read the turn's posts, resolve the turn."""


@gm.command("new")
@click.argument("game_id", metavar="GAME")
@click.argument("folder", type=click.Path(file_okay=False, path_type=Path))
@click.option("--player", "players", multiple=True,
              help="One player (repeat it); what it holds is the game's, said when it is missing.")
@click.option("--seed", type=int, default=None, help="Seed of the game's dice (default: a random one, recorded).")
@click.option("--json", "as_json", is_flag=True, help="Print what was set up as JSON.")
def new(game_id, folder, players, seed, as_json) -> None:
    """Start a game of GAME kept in FOLDER (which must not hold a game yet)."""
    master = _master(game_id)
    if not players:
        raise GMFailed(f"give each player as --player {master.player_help}")
    if (folder / "record.json").exists():
        raise GMFailed(f"{folder / 'record.json'}: a game is kept here already")
    folder.mkdir(parents=True, exist_ok=True)
    _run(master.new, as_json, folder, list(players), secrets.randbelow(2**31) if seed is None else seed)


@gm.command("orders")
@click.argument("folder", type=click.Path(file_okay=False, exists=True, path_type=Path))
@click.argument("posts", nargs=-1, required=True, type=click.Path(dir_okay=False, exists=True, path_type=Path))
@click.option("--add", is_flag=True, help="Read POSTS with the pages read before for this turn.")
@click.option("--json", "as_json", is_flag=True, help="Print the orders and problems as JSON.")
def orders(folder, posts, add, as_json) -> None:
    """Read this turn's POSTS (saved forum pages, in order, or text files of posts and
    personal messages): each player's orders and every problem, with its line and
    reason.  Nothing of the game changes until resolve."""
    _run(_master_of(folder).orders, as_json, folder, list(posts), add)


@gm.command("resolve")
@click.argument("folder", type=click.Path(file_okay=False, exists=True, path_type=Path))
@click.option("--image-url", default=None, help="Where the turn's map will be online (the report links it).")
@click.option("--json", "as_json", is_flag=True, help="Print the turn's facts as JSON.")
def resolve(folder, image_url, as_json) -> None:
    """Adjudicate the turn with the orders read, and write its report into FOLDER."""
    _run(_master_of(folder).resolve, as_json, folder, image_url)


@gm.command("alias")
@click.argument("folder", type=click.Path(file_okay=False, exists=True, path_type=Path))
@click.argument("name")
@click.argument("player")
@click.option("--json", "as_json", is_flag=True, help="Print the alias as JSON.")
def alias(folder, name, player, as_json) -> None:
    """Read posts signed NAME as PLAYER's (a forum display name that changed)."""
    master = _master_of(folder)
    if master.alias is None:
        raise GMFailed("this game's assistant keeps no aliases")
    _run(master.alias, as_json, folder, name, player)
