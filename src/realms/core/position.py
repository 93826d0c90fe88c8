"""A position on a board drawing: what changes between two states of a game, applied to
the elements of the drawing that stable ids name (``Game.board``).

A game's drawing of a position (``Game.draw``) is its board drawn once with a slot for
everything a position changes, then filled in by :func:`apply` from the position's
description; a game page holds the drawing and applies each new state's description to
it in place (``web/position.js``, the same rules), so the board crosses the wire once.

The description (JSON)::

    {"frame": "…",                       # the drawing it applies to (else: draw it whole again)
     "areas": {AREA: {"fill": colour,    # #area-AREA (or #town-AREA) and [data-part-of=AREA]
                      "seat": k | None,  #   their data-seat (web/palette.js repaints it)
                      "shade": r | None,  #   their data-shade: the seat's r-th piece (0: its own colour)
                      "owner": {"seat": k, "colour": c} | None,  # #owner-AREA shown so, or hidden
                      "units": [line, …], "ink": colour,         # #units-AREA: its lines, its fill
                      "marks": [name, …]}},  # [data-mark=name][data-area=AREA] shown, the others hidden
     "texts": {id: text},                # the text of #id
     "layers": {id: svg}}                # the children of #id, replaced (a side panel, a legend)

Each key may be left out: what it would set stays as drawn.  Unit lines are ``<tspan>``
children of ``#units-AREA``, each ``1em`` under the one before, the block centred on
the text's ``y``.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from typing import Any

__all__ = ["apply", "line_offsets", "SVG_NS"]

SVG_NS = "http://www.w3.org/2000/svg"
_Q = "{%s}" % SVG_NS
ET.register_namespace("", SVG_NS)

def line_offsets(n: int) -> list[str]:
    """The ``dy`` of each of ``n`` unit lines, one em apart, the block centred on the
    text's ``y`` (halves of an em, written alike by Python and JavaScript)."""
    return [f"{-(n - 1) / 2 + 0.0:g}em" if k == 0 else "1em" for k in range(n)]


def apply(svg: str, position: dict[str, Any]) -> str:
    """``svg`` (a drawing with slots) with ``position`` filled in, as SVG text."""
    body = svg.split("?>", 1)[1] if svg.startswith("<?xml") else svg
    root = ET.fromstring(body)
    ids: dict[str, ET.Element] = {}
    parts: dict[str, list[ET.Element]] = {}
    marks: dict[str, list[ET.Element]] = {}
    for el in root.iter():
        if (i := el.get("id")) is not None:
            ids[i] = el
        if (p := el.get("data-part-of")) is not None:
            parts.setdefault(p, []).append(el)
        if (a := el.get("data-area")) is not None and el.get("data-mark") is not None:
            marks.setdefault(a, []).append(el)
    for area, entry in (position.get("areas") or {}).items():
        _area(area, entry, ids, parts.get(area, []), marks.get(area, []))
    for i, text in (position.get("texts") or {}).items():
        if i in ids:
            ids[i].text = text
    for i, fragment in (position.get("layers") or {}).items():
        if i in ids:
            el = ids[i]
            for child in list(el):
                el.remove(child)
            el.text = None
            el.extend(ET.fromstring(f'<g xmlns="{SVG_NS}">{fragment}</g>'))
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"


def _area(area: str, entry: dict, ids: dict, parts: list, marks: list) -> None:
    shape = ids.get(f"area-{area}") or ids.get(f"town-{area}")
    shapes = ([shape] if shape is not None else []) + parts
    for el in shapes:
        if "fill" in entry:
            el.set("fill", entry["fill"])
        if "seat" in entry:
            _seat(el, entry["seat"])
        if "shade" in entry:
            _mark(el, "data-shade", entry["shade"])
    owner = ids.get(f"owner-{area}")
    if "owner" in entry and owner is not None:
        found = entry["owner"]
        if found is None:
            owner.set("display", "none")
            _seat(owner, None)
        else:
            owner.attrib.pop("display", None)
            _seat(owner, found["seat"])
            owner.set("stroke" if owner.get("fill") == "none" else "fill", found["colour"])
    units = ids.get(f"units-{area}")
    if units is not None:
        if "units" in entry:
            for child in list(units):
                units.remove(child)
            units.text = None
            lines = entry["units"]
            for line, dy in zip(lines, line_offsets(len(lines))):
                span = ET.SubElement(units, _Q + "tspan", {"x": units.get("x", "0"), "dy": dy})
                span.text = line
        if "ink" in entry:
            units.set("fill", entry["ink"])
    if "marks" in entry:
        shown = set(entry["marks"])
        for el in marks:
            if el.get("data-mark") in shown:
                el.attrib.pop("display", None)
            else:
                el.set("display", "none")


def _seat(el: ET.Element, seat: int | None) -> None:
    _mark(el, "data-seat", seat)


def _mark(el: ET.Element, name: str, value: int | None) -> None:
    if value is None:
        el.attrib.pop(name, None)
    else:
        el.set(name, str(value))
