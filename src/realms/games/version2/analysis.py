"""version² through the analysis hooks: what a seat would be ranked by now, the search
bot's evaluation, the statistics a simulation keeps, the report's section and the
history page's measure (fields held, V2-Q35's ranking)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from realms.core.game import HistoryMeasure, ReportSection, Share
from realms.core.stats import Watcher

from .steps import GAME_ID

if TYPE_CHECKING:
    from .state import V2State

def scores_now(s: "V2State") -> list[float]:
    """Fields held (V2-Q35: who holds most at the turn limit wins), production breaking
    ties (a tenth of a point per 100 production, so it never outweighs a field)."""
    return [s.field_count(p) + s.production(p) / 1000 for p in range(s.n)]


def evaluate(s: "V2State") -> list[float]:
    """Each seat's share of the fields, production and army, a mission fulfilled counting
    as the win itself (2.4); a finished game its returns."""
    from .missions import fulfilled

    if s.over:
        return s.returns()
    raw = []
    for p in range(s.n):
        if not s.alive[p]:
            raw.append(0.0)
        elif s.turn >= s.rules.first_turn and fulfilled(s, p):
            return [1.0 if q == p else 0.0 for q in range(s.n)]
        else:
            raw.append(s.field_count(p) + s.production(p) / 2 + s.army_size(p) / 2)
    total = sum(raw)
    return [r / total for r in raw] if total else [1 / s.n] * s.n


def factions(s: "V2State") -> list[dict]:
    """What each seat was dealt (``Game.factions``): its mission's kind (2.4.1) and its
    starting field, where its capitol stands at the first turn end (2.2); it survives
    while it is alive (V2-Q34)."""
    out = []
    for p in range(s.n):
        home = next((f for f, owner in enumerate(s.capitol) if owner == p), None)
        out.append({"mission": s.missions[p][0], "starting field": home, "survives": s.alive[p]})
    return out


def usage(event) -> str | list[str] | None:
    """The rule an event shows used (``Game.usage``; ``None``: every name)."""
    names = {"recruit": "recruit", "build": "warehouse built", "capitol-falls": "capitol taken",
             "conquest": "conquest", "eliminated": "player eliminated"}
    return list(names.values()) if event is None else names.get(event.kind)


class Version2Watcher(Watcher):
    """Battles fought and won, conquests, recruits, and how the game ended."""

    kind = GAME_ID

    def __init__(self) -> None:
        self.counts = {"attack": 0, "conquest": 0, "battle-won": 0, "battle-lost": 0, "recruit": 0,
                       "build": 0, "capitol-falls": 0, "eliminated": 0}
        self.end = ""

    def on_event(self, state, event) -> None:
        if event.kind in self.counts:
            self.counts[event.kind] += 1
        elif event.kind == "game-over":
            self.end = event.data.get("reason", "")

    def data(self) -> dict:
        return {"kind": self.kind, "counts": dict(self.counts), "end": self.end}


def _endings(lines: list[dict]) -> dict | None:
    ends: dict[str, int] = {}
    battles = 0
    for line in lines:
        st = line.get("stats") or {}
        if st.get("kind") != GAME_ID:
            continue
        ends[st["end"] or "unfinished"] = ends.get(st["end"] or "unfinished", 0) + 1
        battles += st["counts"]["attack"]
    if not ends:
        return None
    n = sum(ends.values())
    return {"games": n, "endings": ends, "attacks_per_game": battles / n}


def _endings_html(fig: dict, img: str) -> str:
    names = {"mission": "a mission fulfilled (2.4)", "last": "one player left (V2-Q34)",
             "limit": "the turn limit (V2-Q35)"}
    rows = "".join(f"<tr><td>{names.get(k, k)}</td><td>{v}</td><td>{100 * v / fig['games']:.0f}%</td></tr>"
                   for k, v in sorted(fig["endings"].items()))
    return (f"<h2>How games end</h2><table><tr><th>end</th><th>games</th><th>share</th></tr>{rows}</table>"
            f"<p>{fig['attacks_per_game']:.1f} attacks a game.</p>")


def sections() -> tuple:
    return (ReportSection("version2-endings", _endings, _endings_html),)


class FieldsHeld(HistoryMeasure):
    """Each player's fields at every turn end, out of every passable field."""

    name = "fields held"
    event_classes = {"attack": "battle", "battle-won": "battle", "battle-lost": "battle", "conquest": "battle",
                     "capitol-falls": "fall", "eliminated": "fall", "game-over": "score"}
    marker_kinds = frozenset({"turn"})

    def shares(self, state) -> tuple[list[Share], float]:
        from realms.core.game import get_game

        colours = get_game(GAME_ID).seat_colours(state.n)
        out = [Share(f"p{p}", name, "", colours[p], state.field_count(p))
               for p, name in enumerate(state.names)]
        return [x for x in out if x.value], len(state.board.passable)
