// The seats' colours on the board, readable by every eye, naming no game: the game's own
// palette (``Game.palette``, from the catalog) or a colour-blind-safe one the player picks
// (kept in localStorage). A game's drawing marks what it paints in a seat's colour with
// ``data-seat`` (an index into its palette); the page repaints those in the chosen palette
// and lays a pattern of that seat over each, so owners differ by more than colour. Each
// palette keeps its twelve colours at least 20 apart (CIE76 ΔE), for twelve seats.

export const PALETTES = [
  ["game", "the game's colours", null],
  // Okabe & Ito (2008), "Color Universal Design", then grey, wine, white and brown for seats 9–12
  ["okabe-ito", "Okabe–Ito (colour-blind safe)", ["#E69F00", "#56B4E9", "#009E73", "#F0E442", "#0072B2",
    "#D55E00", "#CC79A7", "#000000", "#999999", "#882255", "#FFFFFF", "#6B3E26"]],
  // Paul Tol's "muted" scheme (with its pale grey), then his brown and black
  ["tol-muted", "Paul Tol, muted (colour-blind safe)", ["#332288", "#88CCEE", "#44AA99", "#117733", "#999933",
    "#DDCC77", "#CC6677", "#882255", "#AA4499", "#DDDDDD", "#661100", "#000000"]],
];
const KEY = "realms-palette";

export function chosen() {
  const saved = localStorage.getItem(KEY);
  return PALETTES.some(([id]) => id === saved) ? saved : "game";
}

// the colour of seat ``k`` in the chosen palette (the game's own: ``game``, the catalog's list)
export function seatColour(k, game) {
  const list = PALETTES.find(([id]) => id === chosen())[2] || game || [];
  return list.length ? list[k % list.length] : null;
}

// twelve patterns, each in black and white lines so that it shows on any colour
const STROKES = [
  "M0 8 L8 0", "M0 0 L8 8", "M0 4 L8 4", "M4 0 L4 8", "M0 8 L8 0 M0 0 L8 8", "M0 4 L8 4 M4 0 L4 8",
  "M2 2 h0.1 M6 6 h0.1", "M0 2 L8 2 M0 6 L8 6", "M2 0 L2 8 M6 0 L6 8", "M0 8 L8 0 M0 4 L8 4",
  "M4 1 L7 4 L4 7 L1 4 Z", "M2 2 h0.1 M6 6 h0.1 M0 4 L8 4",
];

function patterns(svg) {
  if (svg.querySelector("#seat-patterns")) return;
  const NS = "http://www.w3.org/2000/svg";
  const defs = document.createElementNS(NS, "defs");
  defs.id = "seat-patterns";
  defs.innerHTML = STROKES.map((d, k) =>
    `<pattern id="seat-pattern-${k}" width="8" height="8" patternUnits="userSpaceOnUse">` +
    `<path d="${d}" stroke="#ffffff" stroke-opacity="0.55" stroke-width="2.6" stroke-linecap="round" fill="none"/>` +
    `<path d="${d}" stroke="#000000" stroke-opacity="0.5" stroke-width="1" stroke-linecap="round" fill="none"/>` +
    "</pattern>").join("");
  svg.prepend(defs);
}

// paint the board's seat-coloured parts in the chosen palette, each with its seat's pattern
export function applyPalette(root, game) {
  const svg = root.querySelector("svg");
  if (!svg) return;
  patterns(svg);
  svg.querySelectorAll(".seat-pattern").forEach((e) => e.remove());
  for (const el of svg.querySelectorAll("[data-seat]")) {
    const k = Number(el.dataset.seat);
    const paint = el.getAttribute("fill") === "none" ? "stroke" : "fill";
    if (el.dataset.gameColour === undefined) el.dataset.gameColour = el.getAttribute(paint) || "";
    const colour = chosen() === "game" ? el.dataset.gameColour : seatColour(k, game);
    if (colour) el.setAttribute(paint, colour);
    if (el.tagName === "text") continue; // a count in its owner's colour: the halo keeps it readable
    if (paint === "stroke") { // an outline: the seat's dashes
      if (k % 4) el.setAttribute("stroke-dasharray", [null, "6 2", "2 2", "6 2 2 2"][k % 4]);
      continue;
    }
    const over = el.cloneNode(false);
    over.removeAttribute("id");
    over.removeAttribute("data-seat");
    over.removeAttribute("data-game-colour");
    over.removeAttribute("class");
    over.classList.add("seat-pattern");
    over.setAttribute("fill", `url(#seat-pattern-${k % STROKES.length})`);
    over.setAttribute("stroke", "none");
    over.setAttribute("pointer-events", "none");
    over.dataset.patternOf = k;
    el.after(over);
  }
  document.body.dataset.palette = chosen();
}

// the palette chooser and a key of each seat's colour and pattern; ``redraw()`` after a change
export function paletteChooser(box, game, names, redraw) {
  let select = box.querySelector("select.palette");
  if (!select) {
    const label = document.createElement("label");
    label.textContent = "Colours ";
    select = document.createElement("select");
    select.className = "palette";
    select.setAttribute("aria-label", "the players' colours on the board");
    for (const [id, name] of PALETTES) select.appendChild(new Option(name, id));
    label.appendChild(select);
    box.appendChild(label);
    const key = document.createElement("span");
    key.className = "seat-key";
    box.appendChild(key);
  }
  select.value = chosen();
  select.onchange = () => {
    localStorage.setItem(KEY, select.value);
    paletteChooser(box, game, names, redraw);
    redraw();
  };
  box.querySelector(".seat-key").innerHTML = names.map((name, k) => {
    const colour = seatColour(k, game) || "#cccccc";
    return `<span class="seat-swatch" data-seat="${k}" title="${escapeHtml(name)}">` +
      `<svg width="16" height="16" aria-hidden="true"><defs><pattern id="key-pattern-${k}" width="8" height="8" patternUnits="userSpaceOnUse">` +
      `<path d="${STROKES[k % STROKES.length]}" stroke="#000" stroke-opacity="0.5" stroke-width="1" fill="none"/></pattern></defs>` +
      `<rect width="16" height="16" fill="${colour}" stroke="#333"/><rect width="16" height="16" fill="url(#key-pattern-${k})"/></svg>` +
      ` ${escapeHtml(name)}</span>`;
  }).join(" ");
}

// a small swatch of seat ``k``'s colour and pattern in the chosen palette, for a line that
// names the seat (the chronicle): the name says who, the swatch matches the board
export function seatSwatch(k, game) {
  const NS = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(NS, "svg");
  svg.setAttribute("viewBox", "0 0 8 8");
  svg.setAttribute("class", "chron-swatch");
  svg.setAttribute("aria-hidden", "true");
  svg.dataset.seat = k;
  svg.innerHTML = `<rect width="8" height="8" fill="${seatColour(k, game) || "#cccccc"}" stroke="#333" stroke-width="0.6"/>` +
    `<path d="${STROKES[k % STROKES.length]}" stroke="#000" stroke-opacity="0.5" stroke-width="0.8" fill="none"/>`;
  return svg;
}

const escapeHtml = (s) => String(s).replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]);
