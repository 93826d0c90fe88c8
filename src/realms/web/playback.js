// Others' moves followed: the events since the version shown are played one by one at a
// pace the player sets (or all at once: "Skip"), each line marked in the chronicle and
// said in a bar over the board, units moved drawn as arrows, areas taken flashed and
// starred, a battle shown in its panel round by round (``marks`` and ``battle``, the
// Event docstring).  The marks of the moves played stay on the board until the player's
// next decision is sent; a "since your last turn" summary says what changed.
const NS = "http://www.w3.org/2000/svg";
const PACES = [["slow", 1400], ["normal", 650], ["fast", 250], ["at once", 0]];

const el = (tag, cls, text) => {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
};

export class Playback {
  // ``ui``: {bar, pace, skip}; ``hooks``: {chronicle, showBattle(event), element(id)}
  constructor(ui, hooks) {
    this.ui = ui;
    this.hooks = hooks;
    this.queue = [];
    this.kept = [];     // the marks shown since the player's last decision
    this.timer = null;
    const saved = localStorage.getItem("realms-pace");
    this.pace = saved !== null && PACES.some(([, ms]) => String(ms) === saved) ? Number(saved) : 650;
    for (const [name, ms] of PACES) ui.pace.appendChild(new Option(name, ms));
    ui.pace.value = this.pace;
    ui.pace.onchange = () => {
      this.pace = Number(ui.pace.value);
      localStorage.setItem("realms-pace", this.pace);
      if (this.pace === 0) this.skip();
    };
    ui.skip.onclick = () => this.skip();
  }

  // play ``events`` (those new to the page)
  play(events) {
    this.queue.push(...events);
    if (this.pace === 0) { this.skip(); return; }
    if (!this.timer) this.next();
  }

  next() {
    this.timer = null;
    const e = this.queue.shift();
    if (!e) { this.done(); return; }
    this.show(e);
    this.ui.bar.parentElement.hidden = false;
    this.ui.bar.textContent = e.text;
    document.body.dataset.playing = e.n;
    this.timer = setTimeout(() => this.next(), this.pace);
  }

  skip() {
    clearTimeout(this.timer);
    this.timer = null;
    const rest = this.queue.splice(0);
    for (const e of rest) this.show(e, true);
    this.done();
  }

  done() {
    this.hooks.done?.();
    this.ui.bar.parentElement.hidden = true;
    delete document.body.dataset.playing;
    document.body.dataset.played = this.hooks.chronicle.events.length;
  }

  show(e, quiet = false) {
    if (!quiet) this.hooks.chronicle.mark(e.n);
    if (e.marks && (e.marks.to || e.marks.taken)) {
      this.kept.push(e.marks);
      this.draw(e.marks, !quiet);
    }
    if (e.battle) this.hooks.showBattle(e, quiet);
  }

  // the player decided: the last turn's marks go
  clear() {
    this.kept = [];
    this.layer()?.remove();
  }

  // the board was drawn again: the marks kept go back on it
  redraw() {
    for (const m of this.kept) this.draw(m, false);
  }

  layer() {
    const svg = document.querySelector("#board svg");
    if (!svg) return null;
    let g = svg.querySelector("#playback-layer");
    if (!g) {
      g = document.createElementNS(NS, "g");
      g.id = "playback-layer";
      g.setAttribute("pointer-events", "none");
      g.innerHTML = `<defs><marker id="pb-head" viewBox="0 0 10 10" refX="8" refY="5" markerWidth="5" markerHeight="5" orient="auto-start-reverse"><path d="M0 0 L10 5 L0 10 z" fill="#111" stroke="#fff" stroke-width="1"/></marker></defs>`;
      svg.appendChild(g);
    }
    return g;
  }

  centre(id) {
    const target = this.hooks.element(id);
    if (!target) return null;
    const b = target.getBBox();
    return [b.x + b.width / 2, b.y + b.height / 2];
  }

  draw(m, flash) {
    const g = this.layer();
    if (!g) return;
    const to = m.to !== undefined ? this.centre(m.to) : null;
    for (const from of m.from || []) {
      const a = this.centre(from);
      if (!a || !to) continue;
      for (const [cls, w] of [["arrow-halo", 7], ["arrow", 3.5]]) {
        const line = document.createElementNS(NS, "line");
        line.setAttribute("class", cls);
        line.setAttribute("x1", a[0]); line.setAttribute("y1", a[1]);
        line.setAttribute("x2", to[0]); line.setAttribute("y2", to[1]);
        line.setAttribute("stroke-width", w);
        if (cls === "arrow") line.setAttribute("marker-end", "url(#pb-head)");
        line.dataset.from = from;
        line.dataset.to = m.to;
        g.appendChild(line);
      }
    }
    for (const id of m.taken || []) {
      const c = this.centre(id);
      const target = this.hooks.element(id);
      if (!c || !target) continue;
      if (flash) {
        target.classList.remove("flash");
        void target.getBBox();
        target.classList.add("flash");
      }
      const star = document.createElementNS(NS, "text");
      star.setAttribute("class", "taken-star");
      star.setAttribute("x", c[0]); star.setAttribute("y", c[1]);
      star.setAttribute("text-anchor", "middle");
      star.setAttribute("dominant-baseline", "central");
      star.dataset.area = id;
      star.textContent = "★";
      g.appendChild(star);
    }
  }
}

// "since your last turn": the scores then and now, the areas the seat gained and lost,
// the battles fought, from the events between
export function sinceSummary(box, seat, names, before, now, events, nameOf = (id) => id) {
  box.innerHTML = "";
  if (!before) { box.hidden = true; return; }
  box.hidden = false;
  box.appendChild(el("h2", "", "Since your last turn"));
  const gained = [], lost = [];
  let battles = 0;
  for (const e of events) {
    if (e.battle?.open) battles++;
    const m = e.marks;
    if (!m?.taken) continue;
    if (m.seat === seat) gained.push(...m.taken);
    else if (m.from_seat === seat) lost.push(...m.taken);
  }
  const ul = el("ul");
  ul.appendChild(el("li", "", `${events.length} event${events.length === 1 ? "" : "s"}, ${battles} battle${battles === 1 ? "" : "s"}`));
  ul.appendChild(el("li", "", `You gained ${gained.length ? [...new Set(gained)].map(nameOf).join(", ") : "no area"}; you lost ${lost.length ? [...new Set(lost)].map(nameOf).join(", ") : "none"}.`));
  const changes = names.map((n, i) => [n, before[i], now[i]]).filter(([, a, b]) => a !== b);
  ul.appendChild(el("li", "", changes.length ? "Scores: " + changes.map(([n, a, b]) => `${n} ${a ?? 0} → ${b ?? 0}`).join(", ") : "No score changed."));
  box.appendChild(ul);
  box.dataset.gained = gained.length;
  box.dataset.lost = lost.length;
}
