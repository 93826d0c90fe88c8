"""Writing orders (rules post, TURN ORDER; RULINGS BR-Q11, BR-Q22, BR-Q23, BR-Q27, BR-Q29).

"The turns of all Players are SIMULTANEOUS": every player writes his orders at the same
time, hidden from the others until the turn resolves.  A post of orders is built from
finite decisions, one pending decision per player writing (several pending decisions at
once); a player's next decision is asked as soon as he has answered the last, so nobody
waits for another to write, and the turn resolves when the last player has answered
``done``.  A player's decisions depend only on the position at the start of the turn and
his own orders, never on another's.

- ``br.order``: the next order, or ``done``.  Keys: ``conquer:<state>``,
  ``defend:<state>``, ``invest:<state>``, ``capital:<state>`` (move the capital, 20
  grain), ``trade:<seat>``, ``cancel:<seat>``, ``lead:conquer:<state>`` /
  ``lead:defend:<state>`` (the king leads that order), ``done``.
- ``br.grain``: the grain for the conquest, defence or investment just chosen (keys are
  the grain spent: for a sea attack the 5 of preparation included; for an investment
  whole multiples of its cost).
- ``br.capital``: a new capital, for free, when the old one was captured.

Orders never spend more grain than the player has (BR-Q11) and never more than 30 on
one attack or defence, its sea preparation included (BR-Q12); each state takes one order of each kind from a player
(BR-Q23).  :class:`Order` is the same orders as plain data — what a forum post says —
and :func:`submit` enters them, so a post parser produces :class:`Order` lists.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from realms.core.decision import Decision, IllegalAnswer

from .economy import invest_cost, invest_room
from .setup import NOBODY
from .state import NONE
from .steps import STEPS

if TYPE_CHECKING:
    from .state import BRState

SECTION = "TURN ORDER"
ORDER_KINDS = frozenset({"br.order", "br.grain", "br.capital"})
GRAIN_KINDS = ("conquer", "defend", "invest")


@dataclass(frozen=True)
class Order:
    """One written order: ``kind`` is conquer, defend, invest, capital, trade, cancel or
    lead; ``target`` a state id (a seat number for trade and cancel; for lead, the led
    order as ``conquer:<state>`` or ``defend:<state>``); ``grain`` what it spends."""

    kind: str
    target: str
    grain: int = 0


def conquer_targets(s: "BRState", p: int, masks: list[int] | None = None) -> dict[int, int]:
    """The states ``p`` may attack, each with its sea preparation (0 or 5).

    "You can only Conquer States adjacent to the ones you control (or across Seas)": from
    a state ``p`` held at the start of the turn and not devastated ("it is not possible to
    launch attacks from Devastated States"), across at most one sea (BR-Q24); never a
    trade partner's state ("prevents the two Players from attacking each other").  The 5
    of preparation are waived for a Sailor king, or when ``p`` holds a non-devastated
    state on land next to the target (BR-Q24).  ``masks``: :meth:`BRState.masks`, if the
    caller has them.
    """
    if masks is None:
        masks = s.masks()
    land, sea = launch_masks(s.board, s.owner, s.output, p)
    banned = masks[p]
    for q in s.partners(p):
        banned |= masks[q]
    prep = sea_preparation(s.tables, s.king_traits[p])
    out = {}
    reach = (land | sea) & ~banned
    while reach:
        low = reach & -reach
        x = low.bit_length() - 1
        out[x] = 0 if land & low else prep
        reach ^= low
    return out


def launch_masks(board, owner: list[int], output: list[int], p: int) -> tuple[int, int]:
    """The states ``p`` reaches from its non-devastated states, as bitmasks: by land, and
    across one sea (BR-Q24)."""
    land = sea = 0
    for x, o in enumerate(owner):
        if o == p and output[x] > 0:
            land |= board.adj_mask[x]
            sea |= board.across_mask[x]
    return land, sea


def sea_preparation(tables, traits) -> int:
    """The grain an attack across a sea spends on preparations: 5, none for a Sailor king."""
    return 0 if tables.has(traits, "sea_free") else tables.n["sea_preparation"]


def order_keys(s: "BRState", p: int) -> list[str]:
    """The keys of ``p``'s next ``br.order``: asked at every order written, and for every
    seat still writing at each determinization of a search (``BRState.redeal_hidden``),
    so the orders written and the players' states are read once."""
    b = s.board
    n = s.tables.n
    left = s.grain_left(p)
    written = {(k, t) for k, t, _ in s.orders[p]}
    masks = s.masks()
    keys = ["done"]
    for x, prep in conquer_targets(s, p, masks).items():
        if left > prep and ("conquer", x) not in written:
            keys.append(f"conquer:{b.states[x].id}")
    held = s.held(p)
    if left > 0:
        keys += [f"defend:{b.states[x].id}" for x in held if ("defend", x) not in written]
    keys += [f"invest:{b.states[x].id}" for x in held
             if ("invest", x) not in written and invest_room(s, x) and left >= invest_cost(s, p, x)]
    if s.capital[p] != NONE and left >= n["capital_move"] and not any(k == "capital" for k, _, _ in s.orders[p]):
        keys += [f"capital:{b.states[x].id}" for x in held if x != s.capital[p]]
    partners = s.partners(p)
    near = s.reach(masks[p])
    for q in range(s.n):
        if q == p or not s.alive[q]:
            continue
        if q in partners:
            if ("cancel", q) not in written:
                keys.append(f"cancel:{q}")
        elif near & masks[q] and ("trade", q) not in written:
            keys.append(f"trade:{q}")
    if s.lead[p] is None and s.may_lead(p):
        keys += [f"lead:{k}:{b.states[t].id}" for k, t, _ in s.orders[p] if k in ("conquer", "defend")]
    return keys


def grain_keys(s: "BRState", p: int, kind: str, target: int) -> list[str]:
    """The grain ``p`` may put on the ``kind`` order for ``target`` just chosen.

    An attack or defence: at most 30 dedicated, the sea preparation counted in it ("The
    maximum of Grain you can dedicate to a single Attack ... is 30", BR-Q12), more than
    the preparation.  An investment: any amount buying at least one point; each full
    rate buys a point and the rest buys nothing (BR-Q13: "For each 5 Grain Invested"),
    up to the state's room for points plus a rest below the rate."""
    left = s.grain_left(p)
    if kind == "invest":
        cost = invest_cost(s, p, target)
        return [str(g) for g in range(cost, min(invest_room(s, target) * cost + cost - 1, left) + 1)]
    prep = conquer_targets(s, p)[target] if kind == "conquer" else 0
    return [str(g) for g in range(prep + 1, min(most_grain(s), left) + 1)]


def most_grain(s: "BRState") -> int:
    """The most grain one attack or defence may dedicate, preparations included (BR-Q12)."""
    return s.tables.n["max_order"]


def _label(s: "BRState", p: int):
    def label(key: str) -> str:
        kind, _, rest = key.partition(":")
        if kind == "done":
            return "Send the orders"
        if kind in ("trade", "cancel"):
            return f"{'Establish' if kind == 'trade' else 'Cancel'} a trade route with {s.names[int(rest)]}"
        if kind == "lead":
            what, _, sid = rest.partition(":")
            return f"King {s.king_name[p]} leads the {'attack on' if what == 'conquer' else 'defence of'} {s.board.state(sid).name}"
        verb = {"conquer": "Conquer", "defend": "Defend", "invest": "Invest in", "capital": "Move the capital to"}[kind]
        return f"{verb} {s.board.state(rest).name}"
    return label


def next_decision(s: "BRState", p: int) -> Decision:
    """``p``'s next decision while he writes (a single option is the engine's to apply)."""
    if s.capital[p] == NONE and not any(k == "capital" for k, _, _ in s.orders[p]):
        return Decision(p, "br.capital", [s.board.states[x].id for x in s.held(p)],
                        f"{s.names[p]}: your capital was captured; declare a new one (free).",
                        "STATES, KINGDOMS", lambda k: s.board.state(k).name, info={"turn": s.turn})
    picking = s.picking[p]
    if picking is not None:
        kind, target = picking
        return Decision(p, "br.grain", grain_keys(s, p, kind, target),
                        f"{s.names[p]}: how much grain to {kind} {s.sname(target)}? ({s.grain_left(p)} left)",
                        "CONQUESTS, DEFENSE" if kind != "invest" else "GRAIN AND INVESTMENTS",
                        info={"turn": s.turn, "order": kind, "target": s.board.states[target].id,
                              "preparation": conquer_targets(s, p)[target] if kind == "conquer" else 0})
    return Decision(p, "br.order", order_keys(s, p),
                    f"{s.names[p]}: your next order for turn {s.turn} ({s.grain_left(p)} grain left).",
                    SECTION, _label(s, p), info={"turn": s.turn})


def no_answer(decision: Decision) -> tuple[int, str] | None:
    """What a player who has not sent his orders when the turn's deadline passes answers
    (web app, option ``deadline_minutes``; RULINGS BR-Q102): the orders he wrote stand and
    he sends them (``done``); an order's grain not yet chosen is the least; a captured
    capital is declared again in the first of his states.  A player who wrote none gives
    no orders.  The round is the turn.  A free colour nobody took by the deadline of the
    turn's newcomer questions (a round of their own, before the orders') stays free
    (``nobody``, BR-Q30)."""
    if decision.kind == "br.newcomer":
        return (decision.info or {})["round"], NOBODY
    if decision.kind not in ORDER_KINDS:
        return None
    return (decision.info or {})["turn"], "done" if decision.kind == "br.order" else decision.keys[0]


def order_line(o: dict) -> str:
    """One order of :meth:`BRState.order_json` in words: "10 grain to conquer kent", "a
    trade route with Bob"."""
    kind, target = o["kind"], o["target"]
    if kind in GRAIN_KINDS:
        return f"{o['grain']} grain to {'invest in' if kind == 'invest' else kind} {target}"
    if kind == "capital":
        return f"{o['grain']} grain to move the capital to {target}" if o["grain"] else f"a new capital in {target}"
    return f"a trade route with {target}" if kind == "trade" else f"cancel the trade route with {target}"


def orders_text(s: "BRState", p: int) -> str:
    """``p``'s orders this turn in words, states as the map writes them, the led order
    last: "10 grain to conquer Kent; King Alfred leads the attack on Kent" ("nothing"
    for none)."""
    words = []
    for kind, target, grain in s.orders[p]:
        if kind in GRAIN_KINDS:
            words.append(f"{grain} grain to {'invest in' if kind == 'invest' else kind} {s.sname(target)}")
        elif kind == "capital":
            words.append(f"{grain} grain to move the capital to {s.sname(target)}" if grain
                         else f"a new capital in {s.sname(target)}")
        else:
            words.append(f"{'a' if kind == 'trade' else 'cancel the'} trade route with {s.names[target]}")
    text = "; ".join(words) or "nothing"
    lead = s.lead[p]
    if lead:
        what, target = lead
        text += f"; King {s.king_name[p]} leads the {'attack on' if what == 'conquer' else 'defence of'} {s.sname(target)}"
    return text


def take(s: "BRState", p: int, kind: str, key: str) -> None:
    """Write down ``p``'s answer ``key`` to his ``kind`` decision."""
    b = s.board
    if kind == "br.capital":
        s.orders[p].append(("capital", b.index[key], 0))
    elif kind == "br.grain":
        picking = s.picking[p]
        if picking is None:
            raise IllegalAnswer(f"brittania: {s.names[p]} is choosing no order's grain")
        what, target = picking
        s.orders[p].append((what, target, int(key)))
        s.picking[p] = None
    elif key == "done":
        s.done[p] = True
        s.log("sent", f"{s.names[p]} has sent the orders for turn {s.turn}.", player=p)
        s.log("own_orders", f"{s.names[p]}'s orders for turn {s.turn}: {orders_text(s, p)}.", (p,), player=p,
              seats=[p])
    else:
        what, _, rest = key.partition(":")
        if what in GRAIN_KINDS:
            s.picking[p] = (what, b.index[rest])
        elif what == "capital":
            s.orders[p].append(("capital", b.index[rest], s.tables.n["capital_move"]))
        elif what in ("trade", "cancel"):
            s.orders[p].append((what, int(rest), 0))
        else:
            led, _, sid = rest.partition(":")
            s.lead[p] = (led, b.index[sid])


@STEPS.step("orders_open")
def orders_open(s: "BRState") -> None:
    s.phase = "orders"
    s.orders_from = len(s.answers)
    for p in range(s.n):
        s.orders[p] = []
        s.picking[p] = None
        s.lead[p] = None
        s.done[p] = not s.alive[p]


@STEPS.step("orders")
def orders(s: "BRState") -> list[Decision] | None:
    """Every player still writing is asked his next decision at the same time; the step
    runs again whenever no decision is pending, and passes once everyone is done."""
    asks = [next_decision(s, p) for p in range(s.n) if not s.done[p]]
    if not asks:
        return None
    s.then(("orders",))
    return asks


@STEPS.on_answer("orders")
def orders_answer(s: "BRState", player: int, key: str) -> None:
    """Write the answer down; while others are still writing, ask ``player``'s next
    decision at once beside theirs (``ask_also``); with nobody else pending, the
    ``orders`` step runs again and asks it."""
    if s.capital[player] == NONE and not any(k == "capital" for k, _, _ in s.orders[player]):
        take(s, player, "br.capital", key)
    elif s.picking[player] is not None:
        take(s, player, "br.grain", key)
    else:
        take(s, player, "br.order", key)
    if not s.done[player] and s.first_pending() is not None:
        s.ask_also(next_decision(s, player))


def order_items(orders: list[Order]) -> list[tuple[str, str]]:
    """The ``(decision kind, key)`` answers that write ``orders``, ending with done."""
    items: list[tuple[str, str]] = []
    for o in orders:
        if o.kind in GRAIN_KINDS:
            items += [("br.order", f"{o.kind}:{o.target}"), ("br.grain", str(o.grain))]
        elif o.kind == "capital":
            items.append(("br.capital", o.target) if o.grain == 0 else ("br.order", f"capital:{o.target}"))
        elif o.kind in ("trade", "cancel", "lead"):
            items.append(("br.order", f"{o.kind}:{o.target}"))
        else:
            raise IllegalAnswer(f"brittania: unknown order kind {o.kind!r}")
    items.append(("br.order", "done"))
    return items


def write(c: "BRState", p: int, items: list[tuple[str, str]]) -> None:
    """Answer ``p``'s order form with ``items`` on ``c``, a copy, through the engine (which
    applies the decisions with a single option itself: a grain amount it applied is
    checked, not answered); :class:`IllegalAnswer` names the refused key."""
    for kind, key in items:
        d = c.first_pending((p,))
        if d is None and key == "done":
            return
        if d is None:
            raise IllegalAnswer(f"brittania: {c.names[p]}: {key!r} is not possible "
                                "(the orders before it leave no such option)")
        if kind == "br.grain" and d.kind != "br.grain":
            last = c.orders[p][-1]
            if str(last[2]) != key:
                raise IllegalAnswer(f"brittania: {c.names[p]}: {key!r} is not an option of br.grain "
                                    f"(only {last[2]} is possible)")
            continue
        if kind != d.kind or key not in d.keys:
            raise IllegalAnswer(f"brittania: {c.names[p]}: {key!r} is not an option of {d.kind}")
        c.apply(p, key)


def check_post(s: "BRState", p: int, orders: list[Order]) -> None:
    """Raise :class:`IllegalAnswer` naming the first of ``p``'s ``orders`` the order form
    would refuse this turn, trying them on a copy (a player's decisions depend only on
    the position and his own orders, so each post is checked alone)."""
    write(s.clone(), p, order_items(orders))


def submit(s: "BRState", posts: dict[int, list[Order]]) -> None:
    """Enter every player's orders for this turn (a player left out gives none) and let
    the turn resolve.  All or nothing: every post is checked first (:func:`check_post`),
    and a refused order raises :class:`IllegalAnswer` naming the player and the order,
    with ``s`` unchanged."""
    for d in s.pending():
        if d.kind not in ORDER_KINDS:
            raise IllegalAnswer(f"brittania: orders are not being written now ({d.kind} is asked)")
    for p in range(s.n):
        if not s.done[p]:
            check_post(s, p, posts.get(p, []))
    queues = {p: order_items(posts.get(p, [])) for p in range(s.n)}
    turn = s.turn
    while s.turn == turn and not s.over:
        asked = [d for d in s.pending() if d.kind in ORDER_KINDS]
        if not asked:
            break
        for d in asked:
            q = queues[d.player]
            while q[0][0] == "br.grain" and d.kind != "br.grain":
                q.pop(0)
            s.apply(d.player, q.pop(0)[1])
