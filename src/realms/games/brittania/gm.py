"""The game master's assistant for a forum game (``realms gm``).

The game is kept in a folder: ``record.json`` (the record: options, seed, every answer;
``realms replay`` replays it), ``aliases.json`` (forum names mapped to seats by ``gm
alias``), ``orders-N.json`` (turn N's reading: the pages read, the newcomers, the orders
taken and every problem, kept for ``resolve``), and after each turn ``turn-N.bbcode``
(the results post, ready to post) and ``turn-N.png`` (the map, drawn with matplotlib).
Reading posts never changes the game; ``resolve`` writes the record, the post and the
map all together or none (``gm_files``).  The dice come from the game's seed, so the
record replays every turn to the same state.
"""

from __future__ import annotations

import json
from pathlib import Path

from realms.core.decision import IllegalAnswer
from realms.core.game import GameMaster, GMError
from realms.core.record import Record, RecordError

from .forum import read_bytes, read_pages
from .gm_files import write_files
from .gm_read import king_named, read_posts_orders, settle, take_colours
from .gm_report import bbcode
from .orders import ORDER_KINDS, Order, submit
from .phrases import Names, Unreadable, compact, fold
from .setup import NOBODY
from .state import BRState

PLAYER_HELP = ("NAME:STATE:KING:TRAIT (the player's forum name, starting state, king's name — any name, "
               "the region's list suggests some —, positive trait)")


def _game():
    from . import GAME

    return GAME


def load(folder: Path) -> BRState:
    path = folder / "record.json"
    try:
        return _game().replay(Record.load(path), str(path))
    except RecordError as exc:
        raise GMError(str(exc)) from None


def save(folder: Path, s: BRState) -> None:
    write_files(folder, {"record.json": lambda path: s.record().save(path)})


def names_of(s: BRState, aliases: dict[str, int] | None = None) -> Names:
    """The names a post of ``s`` may use: every state's name, id and aliases, the players
    with their colours and kings, and the game master's ``aliases`` (``gm alias``); and
    each player's grain and capital at the start of the turn ("half my grain", "defend my
    capital")."""
    states = {}
    for st in s.board.states:
        for name in (st.id, st.name, *st.aliases):
            states[" ".join(fold(name).split())] = st.id
    owner = {st.id: s.owner[st.index] for st in s.board.states if 0 <= s.owner[st.index] < s.n}
    return Names(states, {st.id: st.name for st in s.board.states}, list(s.names), list(s.colours),
                 list(s.king_name), {compact(k): v for k, v in (aliases or {}).items()}, owner,
                 tuple(n for names in s.tables.names.values() for n in names), {p: s.grain[p] for p in range(s.n)},
                 {p: s.board.states[s.capital[p]].id for p in range(s.n) if s.capital[p] >= 0})


# -- new ------------------------------------------------------------------------------------
def _spec(text: str, i: int) -> list[str]:
    parts = [x.strip() for x in text.split(":")]
    if len(parts) != 4 or not all(parts[:2] + parts[3:]):
        raise GMError(f"--player #{i + 1} {text[:60]!r}: expected {PLAYER_HELP}")
    return parts


def _choose(key: str, keys: list[str], what: str, where: str) -> str:
    for k in keys:
        if k.casefold() == key.casefold():
            return k
    shown = ", ".join(keys[:20]) + (" …" if len(keys) > 20 else "")
    raise GMError(f"{where}: {what} {key!r} is not possible (possible: {shown})")


def new(folder: Path, players: list[str], seed: int) -> tuple[dict, str]:
    """A game for the ``--player`` specs, set up as they say (INTRODUCTION, PLAYER KINGS):
    each starting state, king's trait and name answered in seat order."""
    specs = [_spec(x, i) for i, x in enumerate(players)]
    game = _game()
    try:
        s = game.new_game({"names": [x[0] for x in specs]}, seed)
    except ValueError as exc:
        raise GMError(f"--player: {exc}") from None
    names = names_of(s)
    while (d := s.first_pending()) is not None and d.kind not in ORDER_KINDS:
        name, state, king, trait = specs[d.player]
        where = f"--player #{d.player + 1} ({name})"
        if d.kind == "br.start":
            try:
                sid = names.state(state)
            except Unreadable as exc:
                raise GMError(f"{where}: {exc}") from None
            if sid not in d.keys:
                raise GMError(f"{where}: {s.board.state(sid).name} is taken: a player starts in an independent state")
            s.apply(d.player, sid)
        elif d.kind == "br.trait":
            s.apply(d.player, _choose(trait, d.keys, "positive trait", where))
        else:
            try:
                s.apply(d.player, king_named(king, d.keys, names))
            except Unreadable as exc:
                raise GMError(f"{where}: {exc}") from None
    save(folder, s)
    out = {"turn": s.turn, "seed": seed, "players": [
        {"name": n, "colour": s.colours[p], "state": s.board.states[s.capital[p]].id, "king": s.king_name[p],
         "traits": list(s.king_traits[p]), "cv": s.king_cv[p]} for p, n in enumerate(s.names)]}
    text = [f"A game of Brittania in {folder} (seed {seed}); turn {s.turn}'s orders are awaited."]
    text += [f"  {x['name']} ({x['colour']}): {s.sname(s.capital[p])}, King {x['king']} "
             f"({', '.join(x['traits'])}, CV {x['cv']})" for p, x in enumerate(out["players"])]
    return out, "\n".join(text)


# -- aliases ------------------------------------------------------------------------------
def aliases(folder: Path) -> dict[str, int]:
    """The forum names the game master mapped to seats (``gm alias``): ``aliases.json``."""
    path = folder / "aliases.json"
    if not path.is_file():
        return {}
    try:
        got = json.loads(read_bytes(path, 1024 * 1024))
        return {str(k): int(v) for k, v in got.items()}
    except (ValueError, AttributeError, TypeError) as exc:
        raise GMError(f"{path}: not an aliases file ({exc})") from None


def alias(folder: Path, name: str, player: str) -> tuple[dict, str]:
    """Posts signed ``name`` are ``player``'s from now on (a forum display name changed)."""
    s = load(folder)
    known = aliases(folder)
    try:
        p = names_of(s, known).player(player)
    except Unreadable as exc:
        raise GMError(f"gm alias: {exc}") from None
    if not name.strip():
        raise GMError("gm alias: an empty forum name")
    known[name.strip()] = p
    write_files(folder, {"aliases.json": json.dumps(known, indent=1, ensure_ascii=False) + "\n"})
    return {"alias": name.strip(), "player": s.names[p]}, f"Posts by {name.strip()} are {s.names[p]}'s."


# -- orders ---------------------------------------------------------------------------------
def _rename(s: BRState, p: int, name: str) -> BRState:
    """The game with seat ``p`` under the newcomer's ``name``: the record's names change and
    it replays to the same position (names are labels, outside the state's hash)."""
    record = s.record()
    record.options = {**record.options, "names": [name if q == p else n for q, n in enumerate(s.names)]}
    return _game().replay(record)


def _pages(folder: Path, turn: int, pages: list[Path], add: bool) -> list[Path]:
    before: list[Path] = []
    kept = folder / f"orders-{turn}.json"
    if add and kept.is_file():
        try:
            before = [Path(x) for x in json.loads(read_bytes(kept)).get("pages", [])]
        except (ValueError, AttributeError) as exc:
            raise GMError(f"{kept}: not an orders file ({exc})") from None
    out: list[Path] = []
    for path in (*before, *pages):
        if path.resolve() not in {x.resolve() for x in out}:
            out.append(path)
    return out


def orders(folder: Path, pages: list[Path] | Path, add: bool = False) -> tuple[dict, str]:
    """Each player's orders read from the ``pages`` of the turn's thread (and personal
    messages), every problem with its line, reason and closest reading; ``add``: with the
    pages read for this turn before.  The game is not changed: the reading is kept in
    ``orders-N.json`` for ``resolve`` (reading again gives the same answer)."""
    pages = [pages] if isinstance(pages, Path) else list(pages)
    s = load(folder)
    if s.first_pending() is None:
        raise GMError(f"{folder}: no orders are awaited (the game is over)")
    turn = s.turn
    pages = _pages(folder, turn, pages, add)
    posts = read_pages(pages)
    known = aliases(folder)
    c, joined, free, newcomer_problems = take_colours(s, posts, lambda x: names_of(x, known), _rename)
    names = names_of(c, known)
    seats, strangers = read_posts_orders(c, posts, names, joined)
    out: dict = {"turn": turn, "pages": [str(x) for x in pages], "players": {}, "strangers": strangers,
                 "newcomers": joined, "free": [c.colours[p] for p in free], "newcomer_problems": newcomer_problems}
    plan: dict[str, list] = {}
    for p, seat in seats.items():
        accepted, taken = settle(c, p, seat, names) if c.alive[p] else ([], [])
        plan[str(p)] = [[o.kind, o.target, o.grain] for o in accepted]
        out["players"][c.names[p]] = {"orders": taken, "problems": sorted(seat.problems, key=_place),
                                      "notes": seat.notes, "posts": seat.posts}
    kept = {"turn": turn, "answers": len(s.answers), "pages": [str(x.resolve()) for x in pages],
            "newcomers": joined, "free": free, "orders": plan, "reading": out}
    write_files(folder, {f"orders-{turn}.json": json.dumps(kept, indent=1, ensure_ascii=False) + "\n"})
    return out, orders_text(out)


def _place(x: dict) -> tuple:
    return (x["where"].rpartition(":")[0], x["line"])


def orders_text(out: dict) -> str:
    """The reading for the game master: each player's orders and problems by line."""
    lines = [f"Turn {out['turn']}: orders read from {', '.join(Path(x).name for x in out['pages'])}"]
    lines += [f"Newcomer {x['name']} takes the {x['colour']} colour in {x['state']}, King {x['king']} "
              f"({x['trait']}, CV {x['cv']}) ({x['where']})" for x in out["newcomers"]]
    lines += [f"The {c} colour stays free this turn (no newcomer posted)" for c in out["free"]]
    lines += [f"  {x['where']}: PROBLEM {x['text']!r} by {x['author']}: {x['reason']}" for x in out["newcomer_problems"]]
    for name, entry in out["players"].items():
        lines.append(f"{name}:" + ("" if entry["orders"] or entry["problems"] else " no orders"))
        said = [((o["where"], o["line"]), f"  {o['where']}: {o['reads']}") for o in entry["orders"]]
        for x in entry["problems"]:
            text = f"  {x['where']}: PROBLEM {x['text']!r}: {x['reason']}" if x["text"] else \
                f"  {x['where']}: PROBLEM: {x['reason']}"
            said.append(((x["where"], x["line"]), text + (f" (did you mean {x['hint']!r}?)" if x.get("hint") else "")))
        said += [((x["where"], x["line"]), f"  {x['where']}: note {x['text']!r}: {x['reason']}") for x in entry["notes"]]
        lines += [text for _, text in sorted(said, key=lambda lt: (_place({"where": lt[0][0], "line": lt[0][1]})))]
    for x in out["strangers"]:
        lines.append(f"Post by {x['author']} ({x['where']}): not a player of the game")
    return "\n".join(lines)


# -- resolve --------------------------------------------------------------------------------
def _kept(folder: Path, s: BRState) -> dict:
    path = folder / f"orders-{s.turn}.json"
    if not path.is_file():
        raise GMError(f"{path}: no orders read for turn {s.turn} (run realms gm orders {folder} POSTS first)")
    try:
        kept = json.loads(read_bytes(path))
        kept["orders"] = {int(p): [Order(k, t, int(g)) for k, t, g in lst] for p, lst in kept["orders"].items()}
    except (ValueError, KeyError, TypeError, AttributeError) as exc:
        raise GMError(f"{path}: not an orders file ({exc})") from None
    if kept.get("answers") != len(s.answers):
        raise GMError(f"{path}: read for another position of the game; read the posts again")
    return kept


def _newcomers(s: BRState, kept: dict) -> BRState:
    """The newcomers of the reading set up, the colours nobody took left free."""
    joined = {x["seat"]: x for x in kept.get("newcomers", [])}
    while (d := s.first_pending()) is not None and d.kind == "br.newcomer":
        x = joined.get(d.player)
        if x is None:
            s.apply(d.player, NOBODY)
            continue
        s = _rename(s, d.player, x["name"])
        s.apply(d.player, x["state"])
        s.apply(d.player, x["trait"])
        if (d := s.first_pending()) is not None and d.kind == "br.name":
            s.apply(d.player, x["king"])
    return s


def resolve(folder: Path, image_url: str | None = None) -> tuple[dict, str]:
    """Turn N adjudicated with the reading kept in ``orders-N.json`` (a player without
    any gives none); ``record.json``, ``turn-N.bbcode`` and ``turn-N.png`` written all
    together or none (a failure leaves the turn to resolve again)."""
    s = load(folder)
    turn = s.turn
    kept = _kept(folder, s)
    logged = len(s.events)
    try:
        s = _newcomers(s, kept)
        submit(s, kept["orders"])
    except (IllegalAnswer, KeyError, ValueError) as exc:
        raise GMError(f"{folder / f'orders-{turn}.json'}: {exc}") from None
    events = s.events[logged:]
    report = bbcode(s, turn, events, kept.get("reading"), image_url or f"turn-{turn}.png")

    def png(path: Path) -> None:
        from .draw import draw_png

        draw_png(s, path, f"After turn {turn}", [e.data for e in events if e.kind == "battle"])

    write_files(folder, {f"turn-{turn}.png": png, f"turn-{turn}.bbcode": report,
                         "record.json": lambda path: s.record().save(path)})
    out = {
        "turn": turn,
        "events": [e.to_json() for e in events if e.turn == turn and e.audience is None],
        "players": [{"name": n, "alive": s.alive[p], "grain": s.grain[p], "states": len(s.held(p)),
                     "kingdom": s.kingdom[p], "title": s.title[p] or None,
                     "king": {"name": s.king_name[p], "cv": s.king_cv[p], "traits": list(s.king_traits[p])}}
                    for p, n in enumerate(s.names)],
        "over": s.over, "winners": [s.names[p] for p in s.winners],
        "report": str(folder / f"turn-{turn}.bbcode"), "map": str(folder / f"turn-{turn}.png"),
    }
    return out, report


MASTER = GameMaster(player_help=PLAYER_HELP, new=new, orders=orders, resolve=resolve, alias=alias)

__all__ = ["MASTER"]
