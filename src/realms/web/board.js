// The board drawn by the game, made readable and usable by the page, naming no game:
// every text passes clicks through to the area under it and gets a halo in black or white,
// whichever contrasts more with its own colour (so a label reads at 4.5:1 or better on any
// terrain: the halo is its background); the board zooms and pans (buttons, wheel, a drag,
// two fingers) by its viewBox.

// relative luminance of a CSS colour "rgb(r, g, b)" or "#rrggbb" (WCAG 2)
export function luminance(colour) {
  let rgb;
  const m = colour.match(/rgba?\(([^)]+)\)/);
  if (m) rgb = m[1].split(",").slice(0, 3).map(Number);
  else if (/^#[0-9a-f]{6}$/i.test(colour)) rgb = [1, 3, 5].map((i) => parseInt(colour.slice(i, i + 2), 16));
  else if (/^#[0-9a-f]{3}$/i.test(colour)) rgb = [1, 2, 3].map((i) => 17 * parseInt(colour[i], 16));
  else return null;
  const [r, g, b] = rgb.map((v) => {
    const c = v / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

export const contrast = (l1, l2) => (Math.max(l1, l2) + 0.05) / (Math.min(l1, l2) + 0.05);

// halo every text of the board, and make it zoom and pan
export function tuneBoard(root) {
  const svg = root.querySelector("svg");
  if (!svg) return;
  halo(svg);
  zoomable(root, svg);
}

// a halo for every text, black or white by its colour (again after the colours change);
// the worst contrast of a text with its halo, kept on the body
export function halo(svg) {
  if (!svg) return;
  let worst = Infinity;
  for (const t of svg.querySelectorAll("text")) {
    if (t.closest("#playback-layer")) continue;
    const l = luminance(getComputedStyle(t).fill);
    if (l === null) continue;
    const white = contrast(l, 1), black = contrast(l, 0);
    t.classList.remove("halo-light", "halo-dark");
    t.classList.add(white >= black ? "halo-light" : "halo-dark");
    worst = Math.min(worst, Math.max(white, black));
  }
  document.body.dataset.labelContrast = worst === Infinity ? "" : worst.toFixed(2);
}

// --- zoom and pan -----------------------------------------------------------------------------

let view = null; // the viewBox chosen, kept across new boards of the same size

function zoomable(root, svg) {
  const base = svg.viewBox.baseVal;
  if (!base || !base.width) return;
  const full = [base.x, base.y, base.width, base.height];
  if (!view || view.full.join() !== full.join()) view = { full, box: [...full] };
  const apply = () => {
    svg.setAttribute("viewBox", view.box.join(" "));
    root.dataset.zoom = (view.full[2] / view.box[2]).toFixed(2);
  };
  apply();
  const zoom = (factor, cx = 0.5, cy = 0.5) => {
    const [x, y, w, h] = view.box;
    const nw = Math.min(view.full[2], Math.max(view.full[2] / 8, w / factor));
    const nh = (nw * view.full[3]) / view.full[2];
    view.box = clamp([x + (w - nw) * cx, y + (h - nh) * cy, nw, nh]);
    apply();
  };
  const clamp = ([x, y, w, h]) => [
    Math.min(Math.max(x, view.full[0]), view.full[0] + view.full[2] - w),
    Math.min(Math.max(y, view.full[1]), view.full[1] + view.full[3] - h), w, h];
  const pan = (dx, dy) => { // in screen pixels
    const r = svg.getBoundingClientRect();
    const k = view.box[2] / r.width;
    view.box = clamp([view.box[0] - dx * k, view.box[1] - dy * k, view.box[2], view.box[3]]);
    apply();
  };
  let tools = root.parentElement.querySelector(".zoom-tools");
  if (!tools) {
    tools = document.createElement("div");
    tools.className = "zoom-tools";
    for (const [label, name, fn] of [["+", "Zoom in", () => zoom(1.5)], ["−", "Zoom out", () => zoom(1 / 1.5)],
      ["⤢", "Whole board", () => { view.box = [...view.full]; apply(); }]]) {
      const b = document.createElement("button");
      b.type = "button";
      b.textContent = label;
      b.title = name;
      b.setAttribute("aria-label", name);
      b.onclick = () => fn();
      tools.appendChild(b);
    }
    root.before(tools);
  }
  tools.querySelectorAll("button").forEach((b, i) => {
    b.onclick = [() => zoom(1.5), () => zoom(1 / 1.5), () => { view.box = [...view.full]; apply(); }][i];
  });
  svg.addEventListener("wheel", (e) => {
    if (!e.ctrlKey && !e.metaKey) return; // the page scrolls; ctrl+wheel zooms
    e.preventDefault();
    const r = svg.getBoundingClientRect();
    zoom(e.deltaY < 0 ? 1.2 : 1 / 1.2, (e.clientX - r.left) / r.width, (e.clientY - r.top) / r.height);
  }, { passive: false });
  // a drag pans once zoomed (a click stays a click: it moves less than 6 px); two fingers pinch
  const touches = new Map();
  let last = null, moved = 0, pinch = null;
  svg.addEventListener("pointerdown", (e) => {
    touches.set(e.pointerId, [e.clientX, e.clientY]);
    last = [e.clientX, e.clientY];
    moved = 0;
    if (touches.size === 2) {
      const [a, b] = [...touches.values()];
      pinch = Math.hypot(a[0] - b[0], a[1] - b[1]);
    }
  });
  svg.addEventListener("pointermove", (e) => {
    if (!touches.has(e.pointerId)) return;
    touches.set(e.pointerId, [e.clientX, e.clientY]);
    if (touches.size === 2 && pinch) {
      const [a, b] = [...touches.values()];
      const d = Math.hypot(a[0] - b[0], a[1] - b[1]);
      zoom(d / pinch);
      pinch = d;
      moved = 99;
      return;
    }
    if (view.box[2] >= view.full[2]) return;
    const dx = e.clientX - last[0], dy = e.clientY - last[1];
    moved += Math.abs(dx) + Math.abs(dy);
    if (moved > 6) pan(dx, dy);
    last = [e.clientX, e.clientY];
  });
  const up = (e) => { touches.delete(e.pointerId); if (touches.size < 2) pinch = null; };
  svg.addEventListener("pointerup", up);
  svg.addEventListener("pointercancel", up);
  // a drag is not a click on the area it ends on
  svg.addEventListener("click", (e) => { if (moved > 6) { e.stopPropagation(); e.preventDefault(); moved = 0; } }, true);
}
