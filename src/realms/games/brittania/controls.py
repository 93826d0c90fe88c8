"""The web page's order form (``Game.controls``, the generic ``"orders"`` kind): a player
writes his whole post on the page — his states, his grain, the orders listed with what
they spend — and the page sends it as the answers it stands for (rules post, TURN ORDER;
RULINGS BR-Q11, BR-Q12, BR-Q23).

The ``br.order`` decision stays one order at a time; the form describes, from the
player's own view, every order he may write this turn: what each spends (an ``amount``
answered to the ``br.grain`` decision asked next, or a fixed ``cost``), the orders of
which only one may be written (``once``: one capital move, one led order) and those that
need another written first (``requires``: the king leads an order of the post).  Since a
player's options depend only on the position at the start of the turn and his own
orders (``orders.py``), the form can check the post as the engine will.
"""

from __future__ import annotations

from realms.core.decision import Decision

from .board import load_board
from .economy import invest_rate, room_for
from .orders import launch_masks, sea_preparation
from .tables import load_tables

#: the headings of the form's list of orders, in order
GROUPS = {"conquer": "Conquer", "defend": "Defend", "invest": "Invest", "capital": "Move the capital",
          "trade": "Trade routes", "cancel": "Trade routes", "lead": "The king leads"}


def controls(view: dict, decision: Decision) -> dict:
    """The order form of ``decision`` (a ``br.order``) for its player's view; nothing for
    the other decisions (the grain of an order begun elsewhere, a new capital), which the
    page asks as they are."""
    me = view.get("you")
    if decision.kind != "br.order" or me is None:
        return {}
    b, t = load_board(), load_tables()
    pl = view["players"][me]
    traits = pl["king"]["traits"]
    owner = [-1 if view["states"][st.id]["owner"] is None else view["states"][st.id]["owner"] for st in b.states]
    output = [view["states"][st.id]["output"] for st in b.states]
    land, _ = launch_masks(b, owner, output, me)
    sea = sea_preparation(t, traits)
    cap = t.n["max_order"]
    items: dict[str, dict] = {}
    for key in decision.keys:
        kind, _, rest = key.partition(":")
        if kind == "done":
            continue
        item: dict = {"label": decision.label(key), "group": GROUPS[kind]}
        if kind == "conquer":
            prep = 0 if land >> b.index[rest] & 1 else sea
            item["amount"] = {"min": prep + 1, "max": cap, "step": 1}
        elif kind == "defend":
            item["amount"] = {"min": 1, "max": cap, "step": 1}
        elif kind == "invest":
            rate = invest_rate(t, traits, rest == pl["capital"])
            item["amount"] = {"min": rate, "max": room_for(t, output[b.index[rest]]) * rate + rate - 1, "step": 1}
        elif kind == "capital":
            item.update(cost=t.n["capital_move"], once="capital")
        elif kind == "lead":
            item["once"] = "lead"
        items[key] = item
    if view.get("lead") is None and t.may_lead(traits):
        for key in list(items):
            if key.startswith(("conquer:", "defend:")) and f"lead:{key}" not in items:
                items[f"lead:{key}"] = {"label": decision.label(f"lead:{key}"), "group": GROUPS["lead"],
                                        "once": "lead", "requires": key}
    return {"orders": {"form": f"turn {view['turn']}", "budget": view["grain_left"], "unit": "grain",
                       "send": "done", "send_label": decision.label("done"), "amount_kind": "br.grain",
                       "items": items}}
