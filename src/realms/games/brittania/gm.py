"""The game master's assistant for a forum game (issue 16 part 4; ``realms gm``).

The game is kept in a folder: ``record.json`` (the record: options, seed, every answer;
``realms replay`` replays it), ``orders-N.json`` (the orders read from turn N's posts,
kept for ``resolve``), and after each turn ``turn-N.bbcode`` (the report, ready to post)
and ``turn-N.png`` (the map, drawn with matplotlib).  The dice come from the game's seed,
so the record replays every turn to the same state.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from realms.core.decision import IllegalAnswer
from realms.core.game import GameMaster, GMError
from realms.core.record import Record, RecordError

from .forum import read_posts
from .orders import ORDER_KINDS, Order, submit
from .phrases import Names, Unreadable, compact, fold, read_order
from .posts import review_post
from .state import BRState

PLAYER_HELP = "NAME:STATE:KING:TRAIT (the player's forum name, starting state, king's name, positive trait)"


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
    s.record().save(folder / "record.json")


def names_of(s: BRState, aliases: dict[str, int] | None = None) -> Names:
    """The names a post of ``s`` may use: every state's name, id and aliases, the players
    with their colours and kings, and the game master's ``aliases`` (``gm alias``)."""
    states = {}
    for st in s.board.states:
        for name in (st.id, st.name, *st.aliases):
            states[" ".join(fold(name).split())] = st.id
    owner = {st.id: s.owner[st.index] for st in s.board.states if 0 <= s.owner[st.index] < s.n}
    return Names(states, {st.id: st.name for st in s.board.states}, list(s.names), list(s.colours),
                 list(s.king_name), {compact(k): v for k, v in (aliases or {}).items()}, owner,
                 tuple(n for names in s.tables.names.values() for n in names))


# -- new ------------------------------------------------------------------------------------
def _spec(text: str, i: int) -> list[str]:
    parts = [x.strip() for x in text.split(":")]
    if len(parts) != 4 or not all(parts):
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
            s.apply(d.player, _choose(king, d.keys, "king's name (from the region's list)", where))
    save(folder, s)
    out = {"turn": s.turn, "seed": seed, "players": [
        {"name": n, "colour": s.colours[p], "state": s.board.states[s.capital[p]].id, "king": s.king_name[p],
         "traits": list(s.king_traits[p]), "cv": s.king_cv[p]} for p, n in enumerate(s.names)]}
    text = [f"A game of Brittania in {folder} (seed {seed}); turn {s.turn}'s orders are awaited."]
    text += [f"  {x['name']} ({x['colour']}): {s.sname(s.capital[p])}, King {x['king']} "
             f"({', '.join(x['traits'])}, CV {x['cv']})" for p, x in enumerate(out["players"])]
    return out, "\n".join(text)


# -- newcomers ------------------------------------------------------------------------------
#: a newcomer's bold line taking a free colour (BR-Q30): "Newcomer in Green: Kent, King
#: Alfred, Shrewd." (the starting state, the king's name, his positive trait)
NEWCOMER = re.compile(r"^\s*newcomer\s+(?:in|as)\s+([a-z]+)\s*:\s*([^,]+?)\s*,\s*(?:king\s+)?([^,]+?)\s*,"
                      r"\s*([a-z]+)\s*[.!]?\s*$", re.IGNORECASE)


def _awaited_colours(s: BRState) -> list[str]:
    return [s.colours[d.player] for d in s.pending() if d.kind == "br.newcomer"]


def _newcomer_lines(posts, s: BRState) -> list[tuple[object, int, re.Match]]:
    """Every bold newcomer line of a post by someone not in the game: (post, line, match)."""
    players = {n.casefold() for n in s.names}
    return [(post, line, m) for post in posts if post.author.casefold() not in players
            for line, bold in post.bold if (m := NEWCOMER.match(bold))]


def _rename(s: BRState, p: int, name: str) -> BRState:
    """The game with seat ``p`` under the newcomer's ``name``: the record's names change and
    it replays to the same position (names are labels, outside the state's hash)."""
    record = s.record()
    record.options = {**record.options, "names": [name if q == p else n for q, n in enumerate(s.names)]}
    return _game().replay(record)


def take_colours(folder: Path, s: BRState, posts) -> tuple[BRState, list[dict]]:
    """The newcomers of ``posts`` set up in the colours awaiting one, in seat order (BR-Q30:
    "another can take their color, pick an independent State"); each seat takes its
    newcomer's forum name.  The record is saved when one joined; a colour nobody posted
    for keeps the turn waiting (:class:`GMError` says how to post)."""
    joined: list[dict] = []
    offers = _newcomer_lines(posts, s)
    while (d := s.first_pending()) is not None and d.kind == "br.newcomer":
        p, colour = d.player, s.colours[d.player]
        mine = [(post, line, m) for post, line, m in offers if m.group(1).casefold() == colour.casefold()]
        if not mine:
            raise GMError(f"turn {s.turn}: the {colour} colour awaits a newcomer; he posts, in bold, "
                          f"'Newcomer in {colour}: STATE, King NAME, TRAIT.' "
                          f"(awaited: {', '.join(_awaited_colours(s))})")
        post, line, m = mine[0]
        where = f"line {line}: newcomer {post.author} in {colour}"
        state, king, trait = m.group(2), m.group(3), m.group(4)
        try:
            sid = names_of(s).state(state)
        except Unreadable as exc:
            raise GMError(f"{where}: {exc}") from None
        if sid not in d.keys:
            raise GMError(f"{where}: {s.board.state(sid).name} is not independent: "
                          "a newcomer picks an independent state")
        s = _rename(s, p, post.author)
        s.apply(p, sid)
        s.apply(p, _choose(trait, s.first_pending().keys, "positive trait", where))
        if (d := s.first_pending()) is not None and d.kind == "br.name" and d.player == p:
            s.apply(p, _choose(king, d.keys, "king's name (from the region's list)", where))
        offers = [o for o in offers if o[0] is not post]
        joined.append({"name": post.author, "colour": colour, "state": sid, "king": s.king_name[p],
                       "traits": list(s.king_traits[p]), "cv": s.king_cv[p], "line": line})
    if joined:
        save(folder, s)
    return s, joined


# -- orders ---------------------------------------------------------------------------------
SENTENCE = re.compile(r"(?<=[.!;])\s+")


def _order_json(s: BRState, o: Order, line: int, text: str) -> dict:
    out = {"kind": o.kind, "state": o.target, "grain": o.grain, "line": line, "text": text}
    if o.kind in ("trade", "cancel"):
        out["state"], out["with"] = None, s.names[int(o.target)]
    elif o.kind == "lead":
        out["order"], _, out["state"] = o.target.partition(":")
    return out


def _read_post(s: BRState, p: int, post, names: Names, entry: dict, newcomer: bool) -> list[Order]:
    """The orders of ``p``'s post the game takes; every other sentence is a problem (a
    ``newcomer``'s line taking his colour was read by :func:`take_colours`)."""
    read: list[tuple[int, str, Order]] = []
    for line, bold in post.bold:
        if NEWCOMER.match(bold):
            if not newcomer:
                entry["problems"].append({"line": line, "text": bold, "reason": "only someone not in the game "
                                          "can take a free colour"})
            continue
        for text in (t for t in SENTENCE.split(bold) if t.strip()):
            try:
                read.append((line, text, read_order(text, names)))
            except Unreadable as exc:
                entry["problems"].append({"line": line, "text": text, "reason": str(exc)})
    accepted, problems = review_post(s, p, [o for _, _, o in read])
    refused = {pr.index for pr in problems}
    for pr in problems:
        line, text, _ = read[pr.index]
        entry["problems"].append({"line": line, "text": text, "reason": pr.reason})
    entry["orders"] = [_order_json(s, o, line, text) for i, (line, text, o) in enumerate(read) if i not in refused]
    entry["problems"].sort(key=lambda x: x["line"])
    return accepted


def orders(folder: Path, posts_path: Path) -> tuple[dict, str]:
    """Each player's orders read from ``posts_path`` and every problem (RULINGS BR-Q28):
    the first post of a player counts, unless edited; later posts, edited posts and posts
    by strangers are reported.  The orders taken are kept in ``orders-N.json``.  A colour
    awaiting a newcomer is taken first, from his post (:func:`take_colours`)."""
    s = load(folder)
    posts = read_posts(posts_path)
    s, joined = take_colours(folder, s, posts)
    if s.first_pending() is None or s.first_pending().kind not in ORDER_KINDS:
        raise GMError(f"{folder}: no orders are awaited (the game is over)")
    names = names_of(s)
    seats = {n.casefold(): p for p, n in enumerate(s.names)}
    out: dict = {"turn": s.turn, "players": {n: {"orders": [], "problems": []} for n in s.names}, "strangers": [],
                 "newcomers": joined}
    first: dict[int, int] = {}
    kept: dict[str, list] = {}
    for post in posts:
        p = seats.get(post.author.casefold())
        if p is None:
            out["strangers"].append({"author": post.author, "line": post.line})
            continue
        entry = out["players"][s.names[p]]
        if not s.alive[p]:
            entry["problems"].append({"line": post.line, "text": "", "reason": f"{s.names[p]} is out of the game"})
            continue
        if p in first:
            entry["problems"].append({"line": post.line, "text": "",
                                      "reason": f"a second post: only the first (line {first[p]}) counts"})
            continue
        first[p] = post.line
        if post.edited:
            entry["problems"].append({"line": post.line, "text": "", "reason": "an edited post: orders cannot be "
                                      "edited once sent, so none of its orders count"})
            continue
        newcomer = any(x["name"] == s.names[p] for x in joined)
        kept[str(p)] = [[o.kind, o.target, o.grain] for o in _read_post(s, p, post, names, entry, newcomer)]
    (folder / f"orders-{s.turn}.json").write_text(json.dumps({"turn": s.turn, "orders": kept}, indent=1) + "\n")
    return out, _orders_text(out)


def _orders_text(out: dict) -> str:
    lines = [f"Turn {out['turn']}: orders read"]
    lines += [f"Newcomer {x['name']} takes the {x['colour']} colour in {x['state']}, King {x['king']} "
              f"({', '.join(x['traits'])}, CV {x['cv']}) (line {x['line']})" for x in out["newcomers"]]
    for name, entry in out["players"].items():
        lines.append(f"{name}:" + ("" if entry["orders"] or entry["problems"] else " no orders"))
        said = [(o["line"], f"  line {o['line']}: {o['text']}") for o in entry["orders"]]
        said += [(x["line"], f"  line {x['line']}: PROBLEM {x['text']!r}: {x['reason']}" if x["text"] else
                  f"  line {x['line']}: PROBLEM: {x['reason']}") for x in entry["problems"]]
        lines += [text for _, text in sorted(said, key=lambda lt: lt[0])]
    for x in out["strangers"]:
        lines.append(f"Post by {x['author']} (line {x['line']}): not a player of the game")
    return "\n".join(lines)


# -- resolve --------------------------------------------------------------------------------
SECTIONS = (
    ("Orders", {"orders"}), ("Battles", {"battle", "draw"}),
    ("Conquests", {"conquest", "capital-captured", "devastated"}), ("Capitals", {"capital"}),
    ("Investments", {"invest", "invest-lost"}), ("Kings", {"king", "king-death", "king-home", "death-toss"}),
    ("Trade routes", {"trade", "trade-cancelled", "trade-lapsed", "trade-refused"}),
    ("Kingdoms and titles", {"kingdom", "title", "title-lost", "empire", "economic-victory"}),
    ("Eliminated", {"eliminated"}),
)


def resolve(folder: Path) -> tuple[dict, str]:
    """Turn N adjudicated with the orders of ``orders-N.json`` (a player without any gives
    none), the record saved, ``turn-N.bbcode`` and ``turn-N.png`` written."""
    s = load(folder)
    turn = s.turn
    path = folder / f"orders-{turn}.json"
    if not path.is_file():
        raise GMError(f"{path}: no orders read for turn {turn} (run realms gm orders {folder} POSTS first)")
    try:
        kept = json.loads(path.read_text())["orders"]
        posts = {int(p): [Order(k, t, int(g)) for k, t, g in lst] for p, lst in kept.items()}
    except (ValueError, KeyError, TypeError) as exc:
        raise GMError(f"{path}: not an orders file ({exc})") from None
    logged = len(s.events)
    try:
        submit(s, posts)
    except IllegalAnswer as exc:
        raise GMError(f"{path}: {exc}") from None
    save(folder, s)
    events = s.events[logged:]
    report = bbcode(s, turn, events)
    (folder / f"turn-{turn}.bbcode").write_text(report)
    from .draw import draw_png

    draw_png(s, folder / f"turn-{turn}.png", f"After turn {turn}")
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


def bbcode(s: BRState, turn: int, events: list) -> str:
    """The turn report as forum codes: each kind of fact under its heading, then every
    player's grain and states for the next turn (or the winners)."""
    this = [e for e in events if e.turn == turn and e.audience is None]
    out = [f"[size=14pt][b]Turn {turn} results[/b][/size]", ""]
    for title, kinds in SECTIONS:
        lines = [e.text for e in this if e.kind in kinds]
        if lines:
            out += [f"[b]{title}[/b]", "[list]", *(f"[li]{x}[/li]" for x in lines), "[/list]", ""]
    if s.over:
        out.append(f"[b]The game is over: {', '.join(s.names[p] for p in s.winners) or 'nobody'} "
                   f"won ({s.victory}).[/b]")
    else:
        out.append(f"[b]Grain for turn {s.turn}[/b] (after income)")
    out.append("[table]")
    out.append("[tr][td][b]Player[/b][/td][td][b]Grain[/b][/td][td][b]States[/b][/td][td][b]King[/b][/td][/tr]")
    for p, name in enumerate(s.names):
        king = f"{s.king_name[p]} (CV {s.king_cv[p]}; {', '.join(s.king_traits[p])})" if s.alive[p] else "-"
        out.append(f"[tr][td][color={s.tables.colour_hex[s.colours[p]]}]{name}[/color][/td][td]{s.grain[p]}[/td]"
                   f"[td]{len(s.held(p))}[/td][td]{king}[/td][/tr]")
    out.append("[/table]")
    out.append(f"[img]turn-{turn}.png[/img]")
    return "\n".join(out) + "\n"


MASTER = GameMaster(player_help=PLAYER_HELP, new=new, orders=orders, resolve=resolve)

__all__ = ["MASTER"]
