"""What a player reads beside the map (``Game.panels``) and the position as text for the
terminal (``Game.describe``, ``realms play``), each from the viewer's view alone: his own
orders this turn and his grain (TURN ORDER, GRAIN AND INVESTMENTS), never another's."""

from __future__ import annotations

from .board import load_board
from .orders import order_line


def panels(view: dict) -> list[dict]:
    """The viewer's grain and his orders written so far this turn; nothing for a
    spectator."""
    me = view.get("you")
    if me is None:
        return []
    grain = view["players"][me]["grain"]
    left = view.get("grain_left", grain)
    orders = [order_line({**o, "target": _name(o["target"])}) for o in view.get("orders", [])]
    if view.get("lead"):
        what, target = view["lead"]
        orders.append(f"the king leads the {'attack on' if what == 'conquer' else 'defence of'} {_name(target)}")
    return [
        {"title": "Grain", "items": [f"{grain} in store", f"{grain - left} in this turn's orders", f"{left} left"]},
        {"title": f"Your orders for turn {view['turn']}", "items": orders or ["none yet"]},
    ]


def _name(key: str) -> str:
    """A state as the map writes it ("Kent" for ``kent``); a player's name (a trade
    route's target) as it is."""
    board = load_board()
    return board.state(key).name if key in board.index else key


def _player_line(p: int, pl: dict, me: int | None) -> str:
    if not pl["alive"]:
        return f"  {pl['name']} ({pl['colour']}): out of the game"
    king = pl["king"]
    titles = ", ".join(x for x in (("Kingdom" if pl["kingdom"] else ""),
                                  (f"High King of {pl['title'].title()}" if pl["title"] else "")) if x)
    trades = f"; trade with {', '.join(pl['trades'])}" if pl["trades"] else ""
    mark = "*" if p == me else " "
    sent = "sent" if pl["sent"] else "writing"
    return (f"{mark} {pl['name']} ({pl['colour']}): {pl['grain']} grain, {pl['states']} states, "
            f"capital {_name(pl['capital']) if pl['capital'] else 'none'}, King {king['name'] or '-'} (CV {king['cv']}"
            f"{', ' + ', '.join(king['traits']) if king['traits'] else ''})"
            f"{'; ' + titles if titles else ''}{trades}; orders {sent}")


def describe(view: dict) -> list[str]:
    """The turn, every player's public standing and the viewer's own states with their
    output (0: devastated); his grain and orders are his panels, which the terminal prints
    after these lines."""
    me = view.get("you")
    lines = [f"Turn {view['turn']} of {view['last_turn']} ({view['phase']})"]
    lines += [_player_line(p, pl, me) for p, pl in enumerate(view["players"])]
    if view["over"]:
        lines.append("Winners: " + (", ".join(view["winners"]) or "none"))
    if me is None:
        return lines
    held = sorted((sid, st["output"]) for sid, st in view["states"].items() if st["owner"] == me)
    lines.append("Your states: " + (", ".join(f"{_name(sid)} {out}" for sid, out in held) or "none"))
    return lines
