"""Render a :class:`~realms.core.mapgraph.MapGraph` as a standalone SVG document.

Standard library only.  Every area becomes one ``<polygon id="area-<id>">``
(class ``land`` or ``sea``) with a ``<title>`` tooltip; names (and optional
per-area labels such as unit counts) are drawn on top of all areas.
"""

from __future__ import annotations

from xml.sax.saxutils import escape, quoteattr

from .mapgraph import MapGraph

__all__ = ["render_svg"]

_FALLBACK_COLOUR = "#cccccc"
_OUTLINE = "#333333"


def _num(v: float) -> str:
    s = f"{v:.2f}".rstrip("0").rstrip(".")
    return "0" if s in ("-0", "") else s


def _text(x: float, y: float, content: str, *, size: float, cls: str,
          weight: str = "normal", fill: str = "#111111", anchor: str = "middle") -> str:
    return (f'<text class="{cls}" x="{_num(x)}" y="{_num(y)}" font-size="{_num(size)}" '
            f'font-weight="{weight}" text-anchor="{anchor}" fill="{fill}">{escape(content)}</text>')


def _split_name(name: str, limit: int = 10) -> list[str]:
    """Break a long name into two lines at the space nearest its middle."""
    if len(name) <= limit or " " not in name:
        return [name]
    mid = len(name) / 2
    cut = min((i for i, c in enumerate(name) if c == " "), key=lambda i: abs(i - mid))
    return [name[:cut], name[cut + 1:]]


def render_svg(graph: MapGraph, *, terrain_colours: dict[str, str], sea_colour: str = "#9cc3e6",
               inland_colour: str = "#7fb2dd", fills: dict[int, str] | None = None,
               labels: dict[int, str] | None = None, title: str | None = None,
               legend: dict[str, str] | None = None, seats: dict[int, int] | None = None,
               slots: bool = False) -> str:
    """Return an SVG document (``viewBox="0 0 width height"``) showing the map.

    ``fills`` overrides the fill colour of individual areas (by index), e.g. with
    a nation's colour; ``labels`` adds a short text (e.g. a unit count) under the
    area name; ``legend`` maps captions to colours, drawn as swatches; ``seats`` names the
    seat whose colour an area is filled in (``data-seat``, an index into ``Game.palette``),
    so that a page may draw it in another palette.  ``slots``: every land area gets its
    label's place, an empty ``<text id="units-<id>">`` where it has no label, for a
    position to fill in (``core.position``); the title is ``#map-title``.
    """
    fills = fills or {}
    labels = labels or {}
    seats = seats or {}
    w, h = graph.width, graph.height
    scale = max(min(w, h) / 800.0, 0.25)
    name_size = 10.5 * scale
    label_size = 12.5 * scale

    out: list[str] = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        (f'<svg xmlns="http://www.w3.org/2000/svg" version="1.1" '
         f'width="{_num(w)}" height="{_num(h)}" viewBox="0 0 {_num(w)} {_num(h)}" '
         f'font-family="Georgia, \'DejaVu Serif\', serif">'),
        "<style>"
        "text{pointer-events:none}.sea-name{font-style:italic}"
        "</style>",
        f'<rect x="0" y="0" width="{_num(w)}" height="{_num(h)}" fill={quoteattr(sea_colour)}/>',
        '<g id="areas" stroke="#333333" stroke-width="0.8" stroke-linejoin="round">',
    ]
    for a in graph.areas:
        if a.index in fills:
            colour = fills[a.index]
        elif a.kind == "sea":
            colour = inland_colour if a.inland else sea_colour
        else:
            colour = terrain_colours.get(a.terrain or "", _FALLBACK_COLOUR)
        points = " ".join(f"{_num(x)},{_num(y)}" for x, y in a.polygon)
        if a.kind == "land":
            tip = f"{a.name} ({a.terrain})"
        else:
            tip = f"{a.name} ({'inland sea' if a.inland else 'sea'})"
        if a.index in labels:
            tip += f": {labels[a.index]}"
        extra = f' data-terrain={quoteattr(a.terrain)}' if a.terrain else ""
        if a.inland:
            extra += ' data-inland="true"'
        if a.index in seats:
            extra += f' data-seat="{seats[a.index]}"'
        out.append(
            f'<polygon id={quoteattr("area-" + a.id)} class="{a.kind}"{extra} '
            f'fill={quoteattr(colour)} points="{points}"><title>{escape(tip)}</title></polygon>'
        )
    out.append("</g>")

    out.append('<g id="labels">')
    for a in graph.areas:
        x, y = a.label
        label = labels.get(a.index)
        slot = slots and a.kind == "land"
        lines = _split_name(a.name) if a.kind == "land" else [a.name]
        line_h = name_size * 1.05
        block = line_h * len(lines) + (label_size * 1.05 if label or slot else 0.0)
        top = y - block / 2  # top of the text block, centred on the label point
        cls = "sea-name" if a.kind == "sea" else "area-name"
        fill = "#1d3f66" if a.kind == "sea" and a.index not in fills else "#111111"
        first_y = top + line_h * 0.8
        if len(lines) == 1:
            out.append(_text(x, first_y, a.name, size=name_size, cls=cls, fill=fill))
        else:  # one <text> element per name, broken into <tspan> lines
            spans = "".join(f'<tspan x="{_num(x)}" dy="{_num(0 if k == 0 else line_h)}">'
                            f"{escape(line)}</tspan>" for k, line in enumerate(lines))
            out.append(f'<text class="{cls}" x="{_num(x)}" y="{_num(first_y)}" '
                       f'font-size="{_num(name_size)}" font-weight="normal" text-anchor="middle" '
                       f'fill="{fill}">{spans}</text>')
        if slot:
            out.append(_text(x, top + line_h * len(lines) + label_size * 0.85, str(label or ""),
                             size=label_size, cls="area-label", weight="bold").replace(
                                 "<text ", f'<text id={quoteattr("units-" + a.id)} ', 1))
        elif label:
            out.append(_text(x, top + line_h * len(lines) + label_size * 0.85, str(label),
                             size=label_size, cls="area-label", weight="bold"))
    out.append("</g>")

    if title:
        head = _text(w / 2, 26 * scale, title, size=20 * scale, cls="map-title", weight="bold")
        out.append(head.replace("<text ", '<text id="map-title" ', 1) if slots else head)

    if legend:
        sw = 14 * scale
        row = 19 * scale
        pad = 8 * scale
        longest = max(len(k) for k in legend)
        box_w = pad * 3 + sw + longest * 6.3 * scale
        box_h = pad * 2 + row * len(legend) - (row - sw)
        x0 = 10 * scale
        y0 = h - box_h - 10 * scale
        out.append(f'<g id="legend"><rect x="{_num(x0)}" y="{_num(y0)}" width="{_num(box_w)}" '
                   f'height="{_num(box_h)}" fill="#ffffff" fill-opacity="0.85" stroke="{_OUTLINE}" '
                   f'stroke-width="0.8" rx="{_num(4 * scale)}"/>')
        for k, (caption, colour) in enumerate(legend.items()):
            ry = y0 + pad + k * row
            out.append(f'<rect x="{_num(x0 + pad)}" y="{_num(ry)}" width="{_num(sw)}" '
                       f'height="{_num(sw)}" fill={quoteattr(colour)} stroke="{_OUTLINE}" '
                       f'stroke-width="0.6"/>')
            out.append(_text(x0 + pad * 2 + sw, ry + sw * 0.8, caption, size=11 * scale,
                             cls="legend-text", anchor="start"))
        out.append("</g>")

    out.append("</svg>")
    return "\n".join(out) + "\n"
