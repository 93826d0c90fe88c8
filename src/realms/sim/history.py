"""One game's history as a page: the chronicle turn by turn, a "histomap" of the land
each nation held, and the map at the end of every turn behind a slider.

John Sparks' *Histomap* (1931) draws four thousand years of empires as coloured streams
flowing down the page, each as wide as its share of the world's power.  Here a stream is
what a nation or a player holds, as the game's measure (``Game.history_measure``) says —
Hy Breasil's nations' land, Brian Boru's players' towns, by default each player's score
— a row is a turn (the game's ``turn_word``), and the width is its share of the whole
at the end of that turn; what nobody holds is left blank.

The page is made by replaying a record (:func:`history_html`): a watcher on the state's
events (:func:`realms.sim.stats.watch`) sees the end of every turn and keeps the shares
and a drawing of the map at that moment.  One self-contained HTML file: the SVGs are
inline, the slider is a few lines of script.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from html import escape

from realms.core.engine import GameState
from realms.core.files import parse_json, read_lines
from realms.core.game import Game, HistoryMeasure, Share, UnknownGame, get_game
from realms.core.record import Record, RecordError
from realms.core.stats import Watcher, watch


# =========================================================================== replay


@dataclass
class TurnPicture:
    turn: int
    shares: list[Share]
    total: float
    svg: str | None


@dataclass
class History:
    game: Game
    record: Record
    state: GameState
    turns: list[TurnPicture] = field(default_factory=list)
    measure: HistoryMeasure = field(default_factory=HistoryMeasure)


def measure_of(game: Game) -> HistoryMeasure:
    """A fresh measure for one replay of ``game`` (its own, or each player's score)."""
    if game.history_measure is not None:
        return game.history_measure()
    measure = HistoryMeasure()
    measure.name = f"{game.score_name} scored"
    measure.palette = tuple(game.seat_colours(game.max_players))
    return measure


class _HistoryWatcher(Watcher):
    def __init__(self, game: Game, measure: HistoryMeasure, draw_maps: bool) -> None:
        self.game = game
        self.measure = measure
        self.draw_maps = draw_maps
        self.turns: list[TurnPicture] = []

    def on_event(self, state, e) -> None:
        self.measure.on_event(state, e)

    def on_turn_end(self, state, turn: int) -> None:
        shares, total = self.measure.shares(state)
        svg = None
        if self.draw_maps and self.game.draw is not None:
            svg = self.game.draw(self.measure.snapshot(state, turn), state.options)
        self.turns.append(TurnPicture(turn, shares, total, svg))


def replay_history(record: Record, source: str = "record", draw_maps: bool = True) -> History:
    """Replay ``record`` answer by answer, keeping every turn's shares and map."""
    try:
        game = get_game(record.game)
    except KeyError as exc:
        raise RecordError(f"{source}: {exc}") from None
    watcher = _HistoryWatcher(game, measure_of(game), draw_maps)
    taps: list = []

    def tap_once(state) -> None:  # the new game, before its first answer
        if not taps:
            taps.append(watch(state, watcher))

    state = game.replay(record, source, after_each=tap_once)
    taps[0].close()
    return History(game, record, state, watcher.turns, watcher.measure)


#: what a line of ``games.jsonl`` must hold to be played again
_GAME_LINE = {"game": str, "options": dict, "seed": int, "bots": list, "state_hash": str}


def record_from_games(path: str, seed: int | None) -> Record:
    """The record of one game of a simulation's ``games.jsonl``, played again from its
    seed and bots (the state hash is checked against the line)."""
    lines = []
    for number, text in read_lines(path, error=RecordError):
        if not text.strip():
            continue
        try:
            line = parse_json(text, f"{path}:{number}", RecordError)
        except RecordError:
            continue  # the last line of an interrupted write
        if not isinstance(line, dict) or not _GAME_LINE.items() <= {k: type(line.get(k)) for k in _GAME_LINE}.items():
            raise RecordError(f"{path}:{number}: not a game line of games.jsonl")
        lines.append(line)
    if not lines:
        raise RecordError(f"{path}: no games")
    if seed is None:
        line = lines[0]
    else:
        found = [ln for ln in lines if ln["seed"] == seed]
        if not found:
            raise RecordError(f"{path}: no game with seed {seed} (seeds {lines[0]['seed']}…{lines[-1]['seed']})")
        line = found[0]
    from .runner import run_game

    try:
        game = get_game(line["game"])
    except UnknownGame as exc:
        raise RecordError(f"{path}: {exc}") from None
    state = run_game(game, line["options"], line["seed"], line["bots"])
    if state.state_hash() != line["state_hash"]:
        raise RecordError(f"{path}: seed {line['seed']} does not play the same game here (state hash differs)")
    return state.record()


# =========================================================================== drawing


def order_streams(turns: list[TurnPicture]) -> list[str]:
    """Streams in order of first appearance; a nation split off another sits beside it."""
    order: list[str] = []
    for tp in turns:
        for s in tp.shares:
            if s.key in order:
                continue
            if s.parent is not None and s.parent in order:
                i = order.index(s.parent) + 1
                parents = {x.key: x.parent for t in turns for x in t.shares}
                while i < len(order) and _descends(order[i], s.parent, parents):
                    i += 1
                order.insert(i, s.key)
            else:
                order.append(s.key)
    return order


def _descends(key: str, ancestor: str, parents: dict) -> bool:
    seen = set()
    while key in parents and parents[key] is not None and key not in seen:
        seen.add(key)
        key = parents[key]
        if key == ancestor:
            return True
    return False


def histomap_svg(turns: list[TurnPicture], *, width: int = 560, row: int = 44, measure: str = "land",
                 turn_word: str = "turn") -> str:
    """The stacked streams, top to bottom, one row per turn end, as an SVG element."""
    if not turns:
        return '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"></svg>'
    order = order_streams(turns)
    left_pad, top, right_pad = 58, 26, 46
    inner = width - left_pad - right_pad
    height = top + row * len(turns) + 10
    seen: dict[str, list[Share | None]] = {k: [] for k in order}
    spans: dict[str, list[tuple[float, float]]] = {k: [] for k in order}
    for tp in turns:
        by_key = {s.key: s for s in tp.shares}
        held = sum(s.value for s in tp.shares)
        x = 0.0
        for k in order:
            s = by_key.get(k)
            w = (s.value / held) if s is not None and held else 0.0
            seen[k].append(s)
            spans[k].append((x, x + w))
            x += w
    ys = [top + row * i + row / 2 for i in range(len(turns))]

    def px(v: float) -> float:
        return round(left_pad + v * inner, 1)

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" class="histomap" width="{width}" height="{height}" '
           f'viewBox="0 0 {width} {height}" font-family="Georgia, serif">',
           f'<rect x="{left_pad}" y="{top}" width="{inner}" height="{row * len(turns)}" fill="#f4efe1"/>']
    for i, tp in enumerate(turns):
        y = top + row * i
        label = "setup" if tp.turn == 0 else f"{turn_word} {tp.turn}"
        held = sum(s.value for s in tp.shares)
        of_map = f"{held / tp.total:.0%}" if tp.total else ""
        out.append(f'<g class="hm-row" data-turn="{tp.turn}"><rect class="hm-hit" x="0" y="{y}" width="{width}" '
                   f'height="{row}" fill="transparent"/><text x="{left_pad - 6}" y="{y + row / 2 + 4}" '
                   f'text-anchor="end" font-size="11" fill="#555">{label}</text>'
                   f'<text x="{left_pad + inner + 6}" y="{y + row / 2 + 4}" font-size="10" fill="#777">'
                   f'{of_map}</text></g>')
    for k in order:
        sp = spans[k]
        if not any(b > a for a, b in sp):
            continue
        peak = max(range(len(sp)), key=lambda i: sp[i][1] - sp[i][0])
        s = seen[k][peak]  # as the stream looked at its widest (its owner may change)
        assert s is not None, "the widest turn of a stream holds its share"
        pts_l = [(px(a), y) for (a, _), y in zip(sp, ys)]
        pts_r = [(px(b), y) for (_, b), y in zip(sp, ys)]
        # the stream starts and ends at its row's edge, so a nation grows out of nothing
        first = next(i for i, (a, b) in enumerate(sp) if b > a)
        last = max(i for i, (a, b) in enumerate(sp) if b > a)
        lo = max(first - 1, 0)
        hi = min(last + 1, len(sp) - 1)
        left = [(px(sp[i][0]), ys[i]) for i in range(lo, hi + 1)]
        right = [(px(sp[i][1]), ys[i]) for i in range(lo, hi + 1)]
        if first == 0:
            left.insert(0, (pts_l[0][0], top))
            right.insert(0, (pts_r[0][0], top))
        if last == len(sp) - 1:
            left.append((pts_l[-1][0], top + row * len(turns)))
            right.append((pts_r[-1][0], top + row * len(turns)))
        poly = left + right[::-1]
        share = sp[peak][1] - sp[peak][0]
        title = (f"{s.name}{' (' + s.detail + ')' if s.detail else ''}: at its height {share:.0%} of the "
                 f"{measure} ({turn_word} {turns[peak].turn})")
        out.append(f'<polygon class="hm-stream" data-key="{escape(k)}" fill="{escape(s.colour)}" fill-opacity="0.88" '
                   f'stroke="#fff" stroke-width="0.7" points="{" ".join(f"{x},{round(y, 1)}" for x, y in poly)}">'
                   f"<title>{escape(title)}</title></polygon>")
        w_px = share * inner
        size = min(13.0, w_px / max(len(s.name), 1) * 1.7)
        if size >= 6.5:
            cx = px((sp[peak][0] + sp[peak][1]) / 2)
            cy = ys[peak]
            text_colour = _ink(s.colour)
            out.append(f'<text x="{cx}" y="{round(cy - 1, 1)}" text-anchor="middle" font-size="{size:.1f}" '
                       f'font-weight="bold" fill="{text_colour}" pointer-events="none">{escape(s.name)}</text>')
            if s.detail:
                dsize = min(size * 0.8, w_px / max(len(s.detail), 1) * 1.8)
                if dsize >= 6:
                    out.append(f'<text x="{cx}" y="{round(cy + dsize + 1, 1)}" text-anchor="middle" '
                               f'font-size="{dsize:.1f}" font-style="italic" fill="{text_colour}" '
                               f'pointer-events="none">{escape(s.detail)}</text>')
    out.append(f'<rect id="hm-cursor" x="{left_pad}" y="{top}" width="{inner}" height="{row}" fill="none" '
               f'stroke="#111" stroke-width="2" pointer-events="none"/>')
    out.append(f'<text x="{left_pad}" y="16" font-size="11" fill="#555">share of the {escape(measure)}</text>'
               f'<text x="{width - 2}" y="16" font-size="10" fill="#777" text-anchor="end">of the map</text>')
    out.append("</svg>")
    return "".join(out)


def _ink(colour: str) -> str:
    """Black or white, whichever reads better on ``colour`` (#rrggbb)."""
    try:
        r, g, b = (int(colour[i:i + 2], 16) for i in (1, 3, 5))
    except ValueError:
        return "#000"
    return "#111" if 0.299 * r + 0.587 * g + 0.114 * b > 150 else "#fff"


def _inline(svg: str) -> str:
    """An SVG document as an element to inline in HTML (no XML declaration, fluid width)."""
    if svg.startswith("<?xml"):
        svg = svg[svg.index("?>") + 2:].lstrip()
    head_end = svg.index(">")
    head = svg[:head_end]
    head = re.sub(r'\swidth="[^"]*"', ' width="100%"', head, count=1)
    head = re.sub(r'\sheight="[^"]*"', "", head, count=1)
    return head + svg[head_end:]


CSS = """
body{margin:0;font-family:Georgia,'DejaVu Serif',serif;background:#faf8f2;color:#222}
header{background:#3b2f24;color:#f3ead8;padding:14px 26px}
header h1{margin:0;font-size:24px} header p{margin:4px 0 0;color:#d9ccb4;font-size:14px}
.wrap{display:grid;grid-template-columns:minmax(320px,1fr) minmax(480px,1.25fr);gap:18px;padding:14px 22px}
#chronicle{height:calc(100vh - 110px);overflow-y:auto;position:relative;background:#fff;border:1px solid #ddd3bf;padding:4px 16px}
#chronicle h2{font-size:17px;margin:14px -16px 4px;padding:2px 16px;cursor:pointer;border-bottom:1px solid #e4dccb;
position:sticky;top:0;background:#fff;z-index:1}
#chronicle section.active h2{color:#a33}
#chronicle ol{margin:0;padding-left:18px;font-size:13.5px;line-height:1.45}
#chronicle li.battle{color:#6a3d2a} #chronicle li.fall{color:#a33;font-weight:bold}
#chronicle li.rise{color:#1d5e2f;font-weight:bold} #chronicle li.score{color:#555;font-style:italic}
#side h2{font-size:17px;margin:6px 0}
.hm-row{cursor:pointer} .hm-row:hover .hm-hit{fill:rgba(0,0,0,.04)}
#controls{display:flex;align-items:center;gap:12px;margin:8px 0}
#slider{flex:1} figure.turnmap{margin:0;background:#fff;border:1px solid #ddd3bf}
figure.turnmap[hidden]{display:none}
table{border-collapse:collapse;font-size:13px;margin:6px 0} td,th{border:1px solid #ddd3bf;padding:2px 8px}
"""

SCRIPT = r"""
(function(){
const slider=document.getElementById('slider');
const turns=JSON.parse(document.getElementById('turns').textContent);
const row=%ROW%, top0=26;
function show(t,scroll){
  const i=turns.indexOf(t); if(i<0) return;
  slider.value=i;
  document.querySelectorAll('figure.turnmap').forEach(f=>f.hidden=(+f.dataset.turn!==t));
  document.getElementById('turn-label').textContent=t===0?'setup':'%TURN% '+t;
  document.getElementById('hm-cursor').setAttribute('y', top0+row*i);
  document.querySelectorAll('#chronicle section').forEach(s=>s.classList.toggle('active', +s.dataset.turn===t));
  if(scroll){const s=document.querySelector('#chronicle section[data-turn="'+t+'"]'); if(s){const c=document.getElementById('chronicle'); c.scrollTop=s.offsetTop;}}
}
slider.addEventListener('input',()=>show(turns[+slider.value],true));
document.querySelectorAll('.hm-row').forEach(g=>g.addEventListener('click',()=>show(+g.dataset.turn,true)));
document.querySelectorAll('#chronicle h2').forEach(h=>h.addEventListener('click',()=>show(+h.parentNode.dataset.turn,false)));
const m=location.hash.match(/turn=(\d+)/);
show(m&&turns.includes(+m[1])?+m[1]:turns[turns.length-1],!!m);
slider.addEventListener('change',()=>history.replaceState(null,'','#turn='+turns[+slider.value]));
})();
"""


def render_html(h: History, source: str = "") -> str:
    game, state = h.game, h.state
    res = state.result()
    unit = game.score_name
    by_turn: dict[int, list] = {}
    for e in state.events:
        by_turn.setdefault(e.turn, []).append(e)
    turn_word = game.turn_word.capitalize()
    classes = h.measure.event_classes
    measure = h.measure.name
    chron = []
    for t in sorted(by_turn):
        items = "".join(f'<li class="{classes.get(e.kind, "")}">{escape(e.text)}</li>'
                        for e in by_turn[t] if e.kind not in h.measure.marker_kinds)
        title = "Setup" if t == 0 else f"{turn_word} {t}"
        chron.append(f'<section data-turn="{t}"><h2>{title}</h2><ol>{items}</ol></section>')
    winners = res.get("winners") or []
    scores = sorted(res["scores"].items(), key=lambda kv: -kv[1])
    score_rows = "".join(f"<tr><td>{escape(n)}</td><td>{v}</td></tr>" for n, v in scores)
    row = 44 if len(h.turns) <= 20 else 26
    hm = histomap_svg(h.turns, row=row, measure=measure, turn_word=turn_word.lower())
    maps = "".join(f'<figure class="turnmap" data-turn="{tp.turn}" hidden>{_inline(tp.svg)}</figure>'
                   for tp in h.turns if tp.svg is not None)
    from .report import options_text

    opts = options_text(h.record.options)
    turns_json = json.dumps([tp.turn for tp in h.turns])
    subtitle = (f"seed {h.record.seed} · {len(h.record.answers)} decisions · {escape(opts)}"
                + (f" · {escape(source)}" if source else ""))
    result = (f"{escape(' and '.join(winners))} {'wins' if len(winners) == 1 else 'share the victory'}"
              if winners else "unfinished")
    return (
        f"<!doctype html><html lang=en><head><meta charset=utf-8><title>{escape(game.name)} — history</title>"
        f"<style>{CSS}</style></head><body>"
        f"<header><h1>{escape(game.name)}: the history of one game — {result}</h1><p>{subtitle}</p></header>"
        f'<div class="wrap"><div id="chronicle">{"".join(chron)}'
        f"<h2>Final {escape(unit)}</h2><table>{score_rows}</table></div>"
        f'<div id="side"><h2>Histomap — {escape(measure)} by {turn_word.lower()}</h2>{hm}'
        f'<div id="controls"><strong>The map at the end of <span id="turn-label"></span></strong>'
        f'<input id="slider" type="range" min="0" max="{max(len(h.turns) - 1, 0)}" step="1"></div>'
        f'<div id="maps">{maps}</div></div></div>'
        f'<script type="application/json" id="turns">{turns_json}</script>'
        f"<script>{SCRIPT.replace('%ROW%', str(row)).replace('%TURN%', turn_word.lower())}</script></body></html>\n"
    )


def history_html(record: Record, source: str = "record") -> str:
    """The history page of the game ``record`` holds."""
    return render_html(replay_history(record, source), source)
