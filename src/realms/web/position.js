// A state's position applied in place to the board drawing the page holds, naming no game:
// the description is the game's ``board`` hook's, from the seat's view (core/position.py
// says what each key sets, and applies the same rules to draw a board whole). The page
// fetches the drawing once and then applies each new state's description to it.

const NS = "http://www.w3.org/2000/svg";

// whether ``position`` applies to the drawing in ``svg`` (the same frame), else the board
// is drawn whole again
export const fits = (svg, position) => !!svg && !!position && (svg.dataset.frame || "") === (position.frame || "");

const lineOffsets = (n) => Array.from({ length: n }, (_, k) => (k === 0 ? `${-(n - 1) / 2 + 0}em` : "1em"));

function setSeat(el, seat) {
  setMark(el, "data-seat", seat);
}

function setMark(el, name, value) {
  if (value === null || value === undefined) el.removeAttribute(name);
  else el.setAttribute(name, String(value));
}

// a paint the page's palette keeps as the game's own colour (web/palette.js repaints it)
function paint(el, attr, colour) {
  el.setAttribute(attr, colour);
  el.dataset.gameColour = colour;
}

function applyArea(svg, area, entry) {
  const shape = svg.getElementById(`area-${area}`) || svg.getElementById(`town-${area}`);
  const shapes = [...(shape ? [shape] : []), ...svg.querySelectorAll(`[data-part-of="${CSS.escape(area)}"]`)];
  for (const el of shapes) {
    if ("fill" in entry) paint(el, "fill", entry.fill);
    if ("seat" in entry) setSeat(el, entry.seat);
    if ("shade" in entry) setMark(el, "data-shade", entry.shade);
  }
  const owner = svg.getElementById(`owner-${area}`);
  if ("owner" in entry && owner) {
    if (entry.owner === null) {
      owner.setAttribute("display", "none");
      setSeat(owner, null);
    } else {
      owner.removeAttribute("display");
      setSeat(owner, entry.owner.seat);
      paint(owner, owner.getAttribute("fill") === "none" ? "stroke" : "fill", entry.owner.colour);
    }
  }
  const units = svg.getElementById(`units-${area}`);
  if (units) {
    if ("units" in entry) {
      units.replaceChildren();
      const dys = lineOffsets(entry.units.length);
      entry.units.forEach((line, k) => {
        const span = document.createElementNS(NS, "tspan");
        span.setAttribute("x", units.getAttribute("x") || "0");
        span.setAttribute("dy", dys[k]);
        span.textContent = line;
        units.appendChild(span);
      });
    }
    if ("ink" in entry) units.setAttribute("fill", entry.ink);
  }
  if ("marks" in entry) {
    const shown = new Set(entry.marks);
    for (const el of svg.querySelectorAll(`[data-mark][data-area="${CSS.escape(area)}"]`)) {
      if (shown.has(el.dataset.mark)) el.removeAttribute("display");
      else el.setAttribute("display", "none");
    }
  }
}

// apply ``position`` to the drawing ``svg`` (an <svg> element in the page)
export function applyPosition(svg, position) {
  for (const [area, entry] of Object.entries(position.areas || {})) applyArea(svg, area, entry);
  for (const [id, text] of Object.entries(position.texts || {})) {
    const el = svg.getElementById(id);
    if (el) el.textContent = text;
  }
  for (const [id, fragment] of Object.entries(position.layers || {})) {
    const el = svg.getElementById(id);
    if (!el) continue;
    const doc = new DOMParser().parseFromString(`<svg xmlns="${NS}">${fragment}</svg>`, "image/svg+xml");
    el.replaceChildren(...[...doc.documentElement.childNodes].map((n) => document.importNode(n, true)));
  }
}
