// Battles, told by the events that carry ``battle`` (core/events.py): who attacks whom,
// each round's dice as dice, the hits and losses, the retreats with their round, the
// result, and the exact odds before each round (GET /api/games/{id}/odds?event=N, the
// game's calculator) or the chances the game worked out itself.  Names no game.

// the battles of a story, oldest first: {n (its first event), area, sides, steps: [event]}
export function battlesOf(events) {
  const out = [];
  const open = new Map(); // area -> battle not yet closed
  for (const e of events) {
    const b = e.battle;
    if (!b) continue;
    let battle = open.get(b.area);
    if (b.open || !battle) {
      battle = { n: e.n, area: b.area, sides: b.sides || ["the attacker", "the defender"], units: b.units, steps: [], closed: false };
      out.push(battle);
      open.set(b.area, battle);
    }
    battle.steps.push(e);
    if (b.close) { battle.closed = true; open.delete(b.area); }
  }
  return out;
}

// the battle an event belongs to
export function battleOfEvent(battles, n) {
  return battles.find((b) => b.steps.some((e) => e.n === n)) || null;
}

// a line that sums a battle up, for the chronicle
export function battleSummary(b) {
  const rounds = b.steps.filter((e) => e.battle.round).length;
  const close = b.steps.find((e) => e.battle.close);
  const first = b.steps[0];
  const place = first.text.match(/ in ([^.:,(]+?)(?: with|[.:,(])/)?.[1] || b.area;
  let end = "going on";
  if (close) {
    const w = close.battle.winner;
    end = w === 0 ? `${b.sides[0]} won` : w === 1 ? `${b.sides[1]} held` : "both fell";
  }
  return `Battle: ${b.sides[0]} against ${b.sides[1]} at ${place}, ${rounds} round${rounds === 1 ? "" : "s"}, ${end}`;
}

const PIPS = { 1: [[2, 2]], 2: [[1, 1], [3, 3]], 3: [[1, 1], [2, 2], [3, 3]], 4: [[1, 1], [3, 1], [1, 3], [3, 3]],
  5: [[1, 1], [3, 1], [2, 2], [1, 3], [3, 3]], 6: [[1, 1], [3, 1], [1, 2], [3, 2], [1, 3], [3, 3]] };

// one die as an SVG: pips for a six-sided die, the number otherwise; a hit drawn with a
// thick frame and a tick (not by colour alone)
function die(value, faces, hit) {
  const ns = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(ns, "svg");
  svg.setAttribute("viewBox", "0 0 40 40");
  svg.setAttribute("class", `die${hit ? " hit" : hit === false ? " miss" : ""}`);
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", `${value}${hit ? ", a hit" : hit === false ? ", a miss" : ""}`);
  svg.dataset.value = value;
  const rect = document.createElementNS(ns, "rect");
  Object.entries({ x: 2, y: 2, width: 36, height: 36, rx: 6 }).forEach(([k, v]) => rect.setAttribute(k, v));
  svg.appendChild(rect);
  if (faces === 6 && PIPS[value]) {
    for (const [cx, cy] of PIPS[value]) {
      const c = document.createElementNS(ns, "circle");
      c.setAttribute("cx", 10 * cx); c.setAttribute("cy", 10 * cy); c.setAttribute("r", 3.6);
      svg.appendChild(c);
    }
  } else {
    const t = document.createElementNS(ns, "text");
    t.setAttribute("x", 20); t.setAttribute("y", 27); t.setAttribute("text-anchor", "middle");
    t.textContent = value;
    svg.appendChild(t);
  }
  return svg;
}

const el = (tag, cls, text) => {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
};
const pct = (p) => (p >= 0.9995 ? ">99.9%" : p > 0 && p < 0.0005 ? "<0.1%" : `${(100 * p).toFixed(1)}%`);

export class BattlePanel {
  // ``box``: the element the panel fills; ``odds(n)``: a promise of the odds of event n
  constructor(box, odds) {
    this.box = box;
    this.odds = odds;
    this.shown = null;
    this.seq = 0;
  }

  close() {
    this.box.hidden = true;
    this.shown = null;
    document.body.dataset.battle = "";
  }

  // show ``b``; ``upTo``: the last of its events to show (a battle played back step by step)
  show(b, upTo = Infinity, prompt = "") {
    this.shown = b;
    const box = this.box;
    box.hidden = false;
    box.innerHTML = "";
    const head = el("div", "battle-head");
    head.appendChild(el("h2", "", `${b.sides[0]} attack ${b.sides[1]}`));
    const x = el("button", "battle-close", "Close");
    x.type = "button";
    x.setAttribute("aria-label", "Close the battle panel");
    x.onclick = () => this.close();
    head.appendChild(x);
    box.appendChild(head);
    const steps = b.steps.filter((e) => e.n <= upTo);
    box.appendChild(el("p", "battle-open", steps[0]?.text || ""));
    const table = el("div", "battle-rounds");
    let lastOdds = null, lastChances = null;
    for (const e of steps) {
      const d = e.battle;
      if (d.odds) lastOdds = e;
      if (d.chances) lastChances = d.chances;
      if (d.round && (d.dice || d.lost)) table.appendChild(this.round(d, e, b));
      if (d.retreat) table.appendChild(el("p", "battle-retreat", `After round ${d.round}: ${e.text}`));
      if (d.close) {
        const w = d.winner;
        const res = el("p", "battle-result", w === 0 ? `Result: ${b.sides[0]} win. ` : w === 1 ? `Result: ${b.sides[1]} hold. ` : "Result: ");
        res.appendChild(document.createTextNode(e.text));
        table.appendChild(res);
      }
    }
    box.appendChild(table);
    if (prompt) box.appendChild(el("p", "battle-now", `Now: ${prompt}`));
    const odds = el("div", "battle-odds");
    odds.setAttribute("aria-live", "polite");
    box.appendChild(odds);
    document.body.dataset.battle = b.n;
    document.body.dataset.battleRounds = steps.filter((e) => e.battle.round).length;
    if (lastChances) this.fillOdds(odds, lastChances, "Chances before the dice");
    else if (lastOdds) {
      const mine = ++this.seq;
      const round = lastOdds.battle.round;
      odds.textContent = "Working out the odds…";
      this.odds(lastOdds.n).then((o) => {
        if (mine !== this.seq) return;
        if (!o) { odds.textContent = ""; return; }
        this.fillOdds(odds, o.odds, `Exact odds ${round ? `after round ${round}` : "as it began"}`, o.method);
      });
    }
  }

  fillOdds(box, chances, title, method) {
    box.innerHTML = "";
    box.appendChild(el("h3", "", title + (method && method !== "exact" ? ` (${method})` : "")));
    const ul = el("ul");
    for (const [k, p] of Object.entries(chances)) {
      if (!(p > 0)) continue;
      const li = el("li");
      const bar = el("span", "bar");
      bar.style.width = `${Math.max(1, Math.round(100 * p))}%`;
      li.append(el("span", "what", k), el("span", "p", pct(p)), bar);
      ul.appendChild(li);
    }
    box.appendChild(ul);
    box.dataset.ready = "yes";
  }

  round(d, e, b) {
    const row = el("div", "battle-round");
    row.dataset.round = d.round;
    row.appendChild(el("h3", "", `Round ${d.round}`));
    for (const side of [0, 1]) {
      const line = el("div", "battle-side");
      line.appendChild(el("span", "who", b.sides[side]));
      const dice = el("span", "dice");
      (d.dice?.[side] || []).forEach((v, k) => {
        const need = d.need?.[side];
        const hit = d.hit ? d.hit[side][k] : need === undefined ? undefined : v >= need;
        dice.appendChild(die(v, d.die || 6, hit));
      });
      line.appendChild(dice);
      const bits = [];
      if (d.need) bits.push(`hit on ${d.need[side]}+`);
      if (d.adds) bits.push(`+ ${d.adds[side]} = ${d.dice[side][0] + d.adds[side]}`);
      if (d.hits) bits.push(`${d.hits[side]} hit${d.hits[side] === 1 ? "" : "s"}`);
      if (d.lost) bits.push(`lost ${d.lost[side]} of ${d.units?.[side] ?? "?"}`);
      line.appendChild(el("span", "sum", bits.join(" · ")));
      row.appendChild(line);
    }
    return row;
  }
}
