"""Reading a turn's posts as a game master would (rules post, TURN ORDER; RULINGS BR-Q23,
BR-Q28, BR-Q30): who takes a free colour, each player's orders, and every line that
looks like an order but was not read, with its reason and the closest reading.

Nothing here changes the game: the reading is worked out on a copy, and what
``gm resolve`` needs — the newcomers, the colours left free, the orders — is returned
as a plan, so reading the same posts twice gives the same answer.

- A post whose bold text holds nothing order-like ("**Deira will rise!**") is chatter,
  not a post of orders: it neither counts nor stops a later post from counting.
- "You cannot edit your orders once you've send the post!": a post its writer edited is
  reported and none of its orders count (one edited by someone else is noted); a later post may add orders (the text forbids editing,
  not a second post), but one that changes an order already sent is refused.
- Repeated orders of one post for one state add up (BR-Q23), within the order form's
  limits.
- A newcomer's bold line "Newcomer in Yellow: Kent, King Alfred, Shrewd." takes a free
  colour; a bad one is a problem on its line only, and a colour nobody takes stays free
  ("another *can* take their color") without stopping the turn.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from .orders import GRAIN_KINDS, Order, most_grain
from .kings import name_problem
from .phrases import REST, Names, Unreadable, canonical, fold, king_name_clash, read_lines
from .posts import review_post
from .setup import NOBODY
from .state import NONE

if TYPE_CHECKING:
    from .forum import Post
    from .state import BRState

#: why an order written in a code box does not count: the box shows "[b]" instead of bold
CODED = "in a code box, where [b] shows as written instead of bold: orders must be bolded (rules post, TURN ORDER)"

#: why an order written without bold does not count
NOT_BOLD = "not bold: orders must be bolded (rules post, TURN ORDER)"

#: a newcomer's bold line taking a free colour (BR-Q30): "Newcomer in Green: Kent, King
#: Alfred, Shrewd." (the starting state, the king's name, his positive trait)
NEWCOMER = re.compile(r"^\W*newcomer\s+(?:in|as|for|taking)\s+(?:the\s+)?([a-z]+)(?:\s+colou?r)?\s*[:,\-–]\s*(.+)$",
                      re.IGNORECASE)


@dataclass
class Written:
    """One order as a post wrote it."""

    order: Order
    where: str
    line: int
    text: str
    post: int


@dataclass
class Seat:
    written: list[Written] = field(default_factory=list)
    problems: list[dict] = field(default_factory=list)
    notes: list[dict] = field(default_factory=list)
    posts: list[str] = field(default_factory=list)


def at(post, line: int) -> str:
    """Where a line of a post is: its page and line ("page2.html:341")."""
    return f"{post.source}:{line}" if post.source else f"line {line}"


def problem(where: str, line: int, text: str, reason: str, hint: str | None = None) -> dict:
    out = {"where": where, "line": line, "text": text, "reason": reason}
    if hint:
        out["hint"] = hint
    return out


# -- newcomers ----------------------------------------------------------------------------
def _offer(m: re.Match) -> tuple[str, str, str, str]:
    """(colour, state, king, trait) of a newcomer's line; missing parts empty."""
    parts = [x.strip(" .!") for x in m.group(2).split(",")]
    parts += [""] * (3 - len(parts))
    return m.group(1), parts[0], parts[1], parts[2]


def _choose(key: str, keys: list[str], what: str) -> str:
    for k in keys:
        if fold(k) == fold(key):
            return k
    shown = ", ".join(keys[:20]) + (" …" if len(keys) > 20 else "")
    raise Unreadable(f"{what} {key!r} is not possible (possible: {shown})")


def king_named(text: str, suggested, names: Names) -> str:
    """The name a player gave his king, as the record keeps it (BR-Q6: "he needs a Name",
    any name): one of the region's list in the list's spelling ("alfred": Alfred), else
    the name as written with "King" and doubled spaces left out ("King Offa": Offa).  A
    name that is empty, too long, not plain text, or that a post could not tell from a
    state or an order's words raises :class:`Unreadable` saying why."""
    text = re.sub(r"^king(?:\s+|$)", "", " ".join(text.split()), flags=re.I)
    for k in suggested:
        if fold(k) == fold(text):
            return k
    why = name_problem(text) or king_name_clash(text, names)
    if why:
        raise Unreadable(why)
    return text


def take_colours(s: "BRState", posts: list["Post"], names_for, rename) -> tuple["BRState", list[dict], list[int], list[dict]]:
    """On a copy of ``s``: the newcomers of ``posts`` in the colours awaiting one, in seat
    order; the colours nobody took; each bad newcomer line as a problem of its line."""
    c = s.clone()
    joined: list[dict] = []
    free: list[int] = []
    problems: list[dict] = []
    names = names_for(c)
    offers = [(post, line, m) for post in posts if names.seat(post.author) is None
              for line, bold in post.bold if (m := NEWCOMER.match(bold))]
    used: set[int] = set()
    while (d := c.first_pending()) is not None and d.kind == "br.newcomer":
        p, colour = d.player, c.colours[d.player]
        taken = None
        for k, (post, line, m) in enumerate(offers):
            if k in used or fold(m.group(1)) != fold(colour):
                continue
            used.add(k)
            try:
                taken = _join(c, p, post, line, m, names_for(c), rename)
                break
            except Unreadable as exc:
                problems.append({**problem(at(post, line), line, m.group(0), str(exc)), "author": post.author})
        if taken is None:
            c.apply(p, NOBODY)
            free.append(p)
            continue
        c = taken[0]
        joined.append(taken[1])
    for k, (post, line, m) in enumerate(offers):
        if k not in used:
            problems.append({**problem(at(post, line), line, m.group(0), f"no colour {m.group(1)!r} is free "
                                       f"this turn"), "author": post.author})
    return c, joined, free, problems


def _join(c: "BRState", p: int, post, line: int, m: re.Match, names: Names, rename):
    colour, state, king, trait = _offer(m)
    d = c.first_pending()
    if d is None:  # take_colours joins a newcomer only while its question is pending
        raise RuntimeError("no newcomer question is pending")
    sid = names.state(state) if state else None
    if sid is None:
        raise Unreadable("no starting state named ('Newcomer in Yellow: Kent, King Alfred, Shrewd.')")
    if sid not in d.keys or sid == NOBODY:
        raise Unreadable(f"{names.labels[sid]} is not independent: a newcomer picks an independent state")
    trial = rename(c, p, post.author)
    trial.apply(p, sid)
    trial.apply(p, _choose(trait, trial.first_pending().keys, "positive trait"))
    if (d := trial.first_pending()) is not None and d.kind == "br.name" and d.player == p:
        trial.apply(p, king_named(king, d.keys, names))
    plan = {"seat": p, "name": post.author, "colour": c.colours[p], "state": sid, "trait": trial.king_traits[p][0],
            "king": trial.king_name[p], "cv": trial.king_cv[p], "where": at(post, line), "line": line}
    return trial, plan


# -- orders -------------------------------------------------------------------------------
def read_posts_orders(c: "BRState", posts: list["Post"], names: Names, joined: list[dict]) -> tuple[dict[int, Seat], list[dict]]:
    """Every seat's orders as written, and the posts of strangers; for a player with no
    order at all, the plain lines that would read as orders were they bold."""
    seats: dict[int, Seat] = {p: Seat() for p in range(c.n)}
    strangers: list[dict] = []
    newcomer_lines = {(x["where"], x["line"]) for x in joined}
    unbolded: dict[int, list[dict]] = {}
    for i, post in enumerate(posts):
        p = names.seat(post.author)
        written, problems = _read_lines(post, names, p, newcomer_lines)
        if p is not None and not written and not post.edited and c.alive[p]:
            unbolded.setdefault(p, []).extend(_unbolded(post, names, p))
        if not written and not problems:
            continue                                       # chatter, a slogan: no orders post
        if p is None:
            strangers.append({"author": post.author, "where": post.where, "line": post.line})
            continue
        seat = seats[p]
        if not c.alive[p]:
            seat.problems.append(problem(post.where, post.line, "", f"{c.names[p]} is out of the game"))
            continue
        if post.edited:
            seat.problems.append(problem(post.where, post.line, "", "an edited post: orders cannot be edited "
                                         "once sent, so none of its orders count"))
            continue
        if post.edited_by:
            seat.notes.append(problem(post.where, post.line, "", f"edited by {post.edited_by}, not by its writer: "
                                      "its orders count"))
        seat.posts.append(post.where)
        seat.problems += problems
        seat.written += [Written(o, at(post, line), line, text, i) for o, line, text in written]
    for p, lines in unbolded.items():       # a player with no order at all who forgot the bold
        if not seats[p].written:
            seats[p].problems += lines
    return seats, strangers


def _read_lines(post, names: Names, p: int | None, newcomer_lines) -> tuple[list, list[dict]]:
    written: list[tuple[Order, int, str]] = []
    problems: list[dict] = []
    lines: list[tuple[int, str]] = []
    for line, bold in post.bold:
        if not NEWCOMER.match(bold):
            lines.append((line, bold))
        elif (at(post, line), line) not in newcomer_lines and p is not None:
            problems.append(problem(at(post, line), line, bold, "only someone not in the game can take a free colour"))
    for i, text, got in read_lines([bold for _, bold in lines], names, p):
        line = lines[i][0]
        if isinstance(got, Unreadable):
            problems.append(problem(at(post, line), line, text, str(got), got.hint))
        else:
            written += [(o, line, text) for o in got]
    for line, text in post.coded:
        if any(isinstance(got, Unreadable) or got for _, _, got in read_lines([text], names, p)):
            problems.append(problem(at(post, line), line, text, CODED))
    return written, problems


def _unbolded(post, names: Names, p: int) -> list[dict]:
    """The plain lines of ``post`` that would read as orders were they bold."""
    out = []
    for line, text in post.plain:
        got = [x for _, _, x in read_lines([text], names, p)]
        if any(x for x in got) and not any(isinstance(x, Unreadable) for x in got):
            out.append(problem(at(post, line), line, text, NOT_BOLD))
    return out


def settle(c: "BRState", p: int, seat: Seat, names: Names) -> tuple[list[Order], list[dict]]:
    """``p``'s orders as the game takes them, each read order with its line."""
    items = _resolve_leads(c, p, seat)
    items = [Written(_capital(c, p, w.order), w.where, w.line, w.text, w.post) for w in items]
    items = _rest(c, p, seat, items)
    items = _repeats(c, p, seat, items, names)
    accepted, refused = review_post(c, p, [w.order for w in items])
    bad = {pr.index for pr in refused}
    for pr in refused:
        w = items[pr.index]
        standing = w.order.kind == "trade" and w.order.target.isdigit() and int(w.order.target) in c.partners(p)
        (seat.notes if standing else seat.problems).append(problem(w.where, w.line, w.text, pr.reason))
    taken = [{"kind": w.order.kind, "target": w.order.target, "grain": w.order.grain, "where": w.where,
              "line": w.line, "text": w.text, "reads": canonical(w.order, names)}
             for i, w in enumerate(items) if i not in bad]
    return accepted, taken


def _resolve_leads(c: "BRState", p: int, seat: Seat) -> list[Written]:
    """A lead written without its kind ("King leads in Kent") leads the post's attack on
    that state, else its defence; one naming no state ("Hywel leads.", "Hywel will lead
    the attack") the attack or defence (of its kind, if said) written just before it."""
    out = []
    for i, w in enumerate(seat.written):
        kind, _, state = w.order.target.partition(":")
        if w.order.kind == "lead" and state == "?":
            before = [x.order for x in seat.written[:i] if x.order.kind in ("conquer", "defend")
                      and kind in ("?", x.order.kind)]
            if before:
                kind, state = before[-1].kind, before[-1].target
        if w.order.kind == "lead" and kind == "?":
            ordered = {x.order.kind for x in seat.written if x.order.target == state}
            kind = "conquer" if "conquer" in ordered else "defend"
        if w.order.kind == "lead":
            w = Written(Order("lead", f"{kind}:{state}"), w.where, w.line, w.text, w.post)
        out.append(w)
    return out


def _rest(c: "BRState", p: int, seat: Seat, items: list[Written]) -> list[Written]:
    """An order for "the rest" of the grain ("… and the rest I invest in Mercia") given
    what the player's other orders of the turn leave of his grain; refused when they leave
    nothing, and when a second order also asks for the rest."""
    spent = sum(w.order.grain for w in items if w.order.grain != REST)
    out: list[Written] = []
    given = None
    for w in items:
        if w.order.grain != REST:
            out.append(w)
            continue
        left = c.grain[p] - spent
        if given is not None:
            seat.problems.append(problem(w.where, w.line, w.text, f"the rest of the grain went already to line "
                                         f"{given.line}"))
        elif left <= 0:
            seat.problems.append(problem(w.where, w.line, w.text, f"the other orders leave no grain for the rest "
                                         f"(they spend {spent} of {c.grain[p]})"))
        else:
            given = w
            out.append(Written(Order(w.order.kind, w.order.target, left), w.where, w.line, w.text, w.post))
    return out


def _capital(c: "BRState", p: int, o: Order) -> Order:
    """A capital order as the player's position makes it: free when his capital was
    captured ("you can declare a new one for free"), else a move for 20."""
    if o.kind != "capital":
        return o
    return Order("capital", o.target, 0 if c.capital[p] == NONE else c.tables.n["capital_move"])


def _repeats(c: "BRState", p: int, seat: Seat, items: list[Written], names: Names) -> list[Written]:
    """Repeated grain orders of one post for one state added up (BR-Q23), at most what
    the order form allows; an order of a later post for what an earlier post ordered is
    an edit, refused, unless it is the same order again (a post repeated: taken once)."""
    out: list[Written] = []
    first: dict[tuple[str, str], int] = {}
    for w in items:
        key = (w.order.kind, w.order.target)
        if key not in first:
            first[key] = len(out)
            out.append(w)
            continue
        before = out[first[key]]
        if before.post != w.post and before.order == w.order:
            seat.notes.append(problem(w.where, w.line, w.text, f"sent already as written ({before.where}, line "
                                      f"{before.line}); taken once"))
            continue
        if before.post != w.post:
            seat.problems.append(problem(w.where, w.line, w.text, f"{canonical(before.order, names)!r} was sent "
                                         f"already ({before.where}, line {before.line}): orders cannot be changed"))
            continue
        if w.order.kind not in GRAIN_KINDS:
            seat.notes.append(problem(w.where, w.line, w.text, "said twice; taken once"))
            continue
        total = before.order.grain + w.order.grain
        cap = _most(c, p, w.order)
        grain = min(total, cap)
        out[first[key]] = Written(Order(w.order.kind, w.order.target, grain), before.where, before.line,
                                  f"{before.text} + {w.text}", before.post)
        note = f"added to line {before.line}: {grain} grain in all"
        seat.notes.append(problem(w.where, w.line, w.text, note + (f" (at most {cap}; {total} written)"
                                                                     if total > cap else "")))
    return out


def _most(c: "BRState", p: int, o: Order) -> int:
    """The most grain one order may spend: 30 to attack or defend, the sea preparation
    included (BR-Q12); an investment is checked by the order form."""
    return 10 ** 6 if o.kind == "invest" else most_grain(c)
