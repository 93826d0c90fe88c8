"""``realms play GAME``: play in the terminal (see :mod:`realms.tty`)."""

from __future__ import annotations

import click

from realms.cli import _GAME_EPILOG, _OPTION_HELP, GameCommand, _game_options


def _line_up(names: list[str], people: list[int], n: int) -> list[str]:
    """A bot name for every seat from ``--bots``: one name for all, one per seat, or one per
    seat not played by a person, in seat order (the people's seats get a placeholder that
    plays nothing)."""
    if len(names) == 1:
        return names * n
    others = [seat for seat in range(n) if seat not in people]
    if len(names) == len(others) and len(names) != n:
        given = dict(zip(others, names))
        return [given.get(seat, names[0]) for seat in range(n)]
    if len(names) != n:
        raise click.ClickException(f"--bots names {len(names)} bots: give one, one per other seat "
                                   f"({len(others)}) or one per seat ({n})")
    return names


def _parse_clock(text: str | None, players: int):
    """``turn:MINUTES`` or ``bank:MINUTES[+SECONDS]`` as the people's clocks (None: none)."""
    from realms.core.clock import ClockError, ClockSpec, TableClock

    if not text:
        return None
    kind, _, rest = text.partition(":")
    minutes, _, increment = rest.partition("+")
    try:
        body = {"kind": kind, "minutes": float(minutes)}
        if increment:
            body["increment"] = float(increment)
        return TableClock.new(ClockSpec.from_json(body), players)
    except ValueError as exc:
        why = str(exc) if isinstance(exc, ClockError) else "expected turn:MINUTES or bank:MINUTES+SECONDS"
        raise click.ClickException(f"--clock: {why}") from None


@click.command("play", cls=GameCommand, epilog=_GAME_EPILOG.format(cmd="play"))
@click.argument("game_id", metavar="GAME")
@click.option("--seat", "seats", type=int, multiple=True,
              help="A seat you play (from 1; repeat it for friends at one keyboard). Default: seat 1.")
@click.option("--bots", default=None, help="Bots for the other seats: one name, or one per other seat in "
              "order (a,b,c), or one per seat. Default: the game's own bot.")
@click.option("--option", "pairs", multiple=True, metavar="NAME=VALUE", help=_OPTION_HELP)
@click.option("--seed", type=int, default=None, help="Seed of the game (default: random).")
@click.option("--resume", "resume_file", type=click.Path(dir_okay=False, exists=True),
              help="Go on with a game saved with 's FILE' or at 'q'.")
@click.option("--clock", "clock_text", default=None, metavar="turn:MIN|bank:MIN+SEC",
              help="A clock for the people: MIN minutes a turn, or a bank of MIN minutes and SEC seconds a "
                   "decision; the time left is shown at each prompt, and a turn run out is played by the bot.")
@click.option("--save", "autosave", default="realms-play.json", show_default=True,
              help="Where 'q' and the end of the game save the record.")
def play(game_id, seats, bots, pairs, seed, resume_file, clock_text, autosave, **flags) -> None:
    """Play GAME in the terminal against bots, or with friends taking turns at one keyboard.

    At the prompt: a number answers (after a filter, the number listed), N xK answers
    option N K times (several units moved at once), an option's whole label answers it,
    other words filter the options, b shows
    the board again, u undoes your last decision (while nothing has happened since),
    s FILE saves, q (or Ctrl-D, Ctrl-C) saves and quits, h lists these.  A question of
    an amount (how much grain) takes the amount itself."""
    import secrets

    from realms.core.game import OptionError as GameOptionError, UnknownGame, get_game
    from realms.core.record import Record, RecordError
    from realms.core.lineup import make_bots
    from realms.tty import Seat, Terminal

    try:
        game = get_game(game_id)
    except UnknownGame as exc:
        raise click.ClickException(str(exc)) from None
    try:
        if resume_file:
            state = game.replay(Record.load(resume_file), resume_file)
        else:
            options = _game_options(game, flags, pairs)
            state = game.new_game(options, seed if seed is not None else secrets.randbelow(10**9))
    except (RecordError, GameOptionError, OSError, ValueError) as exc:
        raise click.ClickException(str(exc)) from None
    n = len(state.result()["players"])
    people = sorted({s - 1 for s in seats} or {0})
    if any(not 0 <= p < n for p in people):
        raise click.ClickException(f"--seat must be 1..{n} for {n} players")
    spec = _line_up([b.strip() for b in (bots or next(iter(game.bots), "random")).split(",")], people, n)
    try:
        agents = make_bots(game, spec, n, state.seed)
    except GameOptionError as exc:
        raise click.ClickException(str(exc)) from None
    clock = _parse_clock(clock_text, n)
    stand_in = make_bots(game, [next(iter(game.bots), "random")] * n, n, state.seed)[people[0]] if clock else None
    Terminal(game, state, {p: Seat(p) for p in people},
             {i: a for i, a in enumerate(agents) if i not in people}, autosave=autosave,
             clock=clock, stand_in=stand_in).run()
