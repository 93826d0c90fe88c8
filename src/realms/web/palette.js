// The seats' colours on the board, readable by every eye, naming no game: the game's own
// palette (``Game.palette``, from the catalog) or a colour-blind-safe one the player picks
// (kept in localStorage). A game's drawing marks what it paints in a seat's colour with
// ``data-seat`` (an index into its palette); the page repaints those in the chosen palette
// and lays a pattern of that seat over each, so owners differ by more than colour. Each
// palette keeps its twelve colours at least 20 apart (CIE76 ΔE), for twelve seats. A game
// that tells a seat's pieces apart by shades of its colour marks each with ``data-shade``
// (0: the seat's own colour, r: its r-th other piece): the chosen palette shades the seat's
// colour likewise (``shaded``), lighter and darker, so they stay apart for every eye.

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

// the r-th shade of ``colour`` (#rrggbb): its CIE L* moved by SHADE_STEP a step, lighter and
// darker in turn (darker first for a light colour), within L* 8–96 and what sRGB can show
// (the chroma lessened where it must), so shades of one colour are at least SHADE_STEP
// apart (CIE76 ΔE ≥ |ΔL*|) whatever the hue; past the shades that fit, they come round again
const SHADE_STEP = 16;
export function shaded(colour, r) {
  if (!r) return colour;
  const [L, a, b] = toLab(colour);
  const levels = [];
  for (let k = 1; k * SHADE_STEP <= 100; k++) {
    for (const d of L > 50 ? [-k, k] : [k, -k]) {
      const level = L + d * SHADE_STEP;
      if (level >= 8 && level <= 96) levels.push(level);
    }
  }
  const level = levels[(r - 1) % levels.length];
  for (let c = 1; c > 0; c -= 0.05) {
    const rgb = fromLab(level, a * c, b * c);
    if (rgb) return rgb;
  }
  return fromLab(level, 0, 0);
}

// CIE L*a*b* (D65) of "#rrggbb", and back (null outside sRGB)
function toLab(colour) {
  const lin = [1, 3, 5].map((i) => parseInt(colour.slice(i, i + 2), 16) / 255)
    .map((c) => (c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4));
  const [r, g, b] = lin;
  const xyz = [(0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047, 0.2126 * r + 0.7152 * g + 0.0722 * b,
    (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883];
  const [fx, fy, fz] = xyz.map((t) => (t > 0.008856 ? Math.cbrt(t) : 7.787 * t + 16 / 116));
  return [116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)];
}

function fromLab(L, a, b) {
  const fy = (L + 16) / 116, fx = fy + a / 500, fz = fy - b / 200;
  const inv = (f) => (f ** 3 > 0.008856 ? f ** 3 : (f - 16 / 116) / 7.787);
  const x = inv(fx) * 0.95047, y = inv(fy), z = inv(fz) * 1.08883;
  const lin = [3.2406 * x - 1.5372 * y - 0.4986 * z, -0.9689 * x + 1.8758 * y + 0.0415 * z,
    0.0557 * x - 0.2040 * y + 1.0570 * z];
  if (lin.some((c) => c < -0.001 || c > 1.001)) return null;
  return "#" + lin.map((c) => Math.min(1, Math.max(0, c)))
    .map((c) => (c <= 0.0031308 ? 12.92 * c : 1.055 * c ** (1 / 2.4) - 0.055))
    .map((c) => Math.round(c * 255).toString(16).padStart(2, "0")).join("");
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
    const own = seatColour(k, game);
    const colour = chosen() === "game" ? el.dataset.gameColour : own && shaded(own, Number(el.dataset.shade || 0));
    if (colour) el.setAttribute(paint, colour);
    if (el.tagName === "text") continue; // a count in its owner's colour: the halo keeps it readable
    if (paint === "stroke") { // an outline: the seat's dashes
      if (k % 4) el.setAttribute("stroke-dasharray", [null, "6 2", "2 2", "6 2 2 2"][k % 4]);
      continue;
    }
    const over = el.cloneNode(false);
    over.removeAttribute("id");
    over.removeAttribute("data-seat");
    over.removeAttribute("data-shade");
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
