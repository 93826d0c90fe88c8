// The whole chronicle: every line the seat may read, scrollable by mouse and keyboard,
// filtered by turn and by player (the lines naming the player), a run of identical lines
// told once ("… (×8)"), each battle told in one line that opens its panel, and the seats a
// line names shown by their swatches in the palette chosen (a line names seats by name, never
// by a colour another palette would change).
import { battlesOf, battleSummary } from "./battle.js";

const el = (tag, cls, text) => {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
};

export class Chronicle {
  // ``openBattle(b)``: show a battle's panel
  constructor(root, openBattle) {
    this.root = root;
    this.openBattle = openBattle;
    // ``swatch(seat)``: an element showing a seat's colour as the board draws it, put before
    // a line that names seats (its event's ``seats``); none without it
    this.swatch = null;
    this.events = [];
    this.names = [];
    this.word = "turn";
    this.turn = $sel(root, ".chron-turn");
    this.player = $sel(root, ".chron-player");
    this.list = $sel(root, "ol");
    this.turn.onchange = () => this.draw();
    this.player.onchange = () => this.draw();
  }

  setSeats(names, word) {
    if (names.join("\n") === this.names.join("\n")) return;
    this.names = names;
    this.word = word || this.word;
    const keep = this.player.value;
    this.player.innerHTML = "";
    this.player.appendChild(new Option("every player", ""));
    for (const n of names) this.player.appendChild(new Option(n, n));
    this.player.value = keep;
  }

  update(events) {
    this.events = events;
    this.battles = battlesOf(events);
    const turns = [...new Set(events.map((e) => e.turn))];
    if (turns.length !== this.turn.options.length - 1) {
      const keep = this.turn.value;
      this.turn.innerHTML = "";
      this.turn.appendChild(new Option(`every ${this.word}`, ""));
      for (const t of turns) this.turn.appendChild(new Option(t === 0 ? "setup" : `${this.word} ${t}`, t));
      this.turn.value = keep;
    }
    this.draw();
  }

  // the lines shown: the filters applied, battles and runs folded
  lines() {
    const turn = this.turn.value, who = this.player.value;
    const first = new Map(this.battles.map((b) => [b.n, b]));
    const inBattle = new Set();
    for (const b of this.battles) for (const e of b.steps) if (e.n !== b.n) inBattle.add(e.n);
    const out = [];
    for (const e of this.events) {
      if (turn !== "" && String(e.turn) !== turn) continue;
      if (inBattle.has(e.n)) continue;
      const battle = first.get(e.n);
      const text = battle ? battleSummary(battle) : e.text;
      if (who && !(battle ? battle.steps.some((s) => s.text.includes(who)) || battle.sides.some((s) => s.includes(who)) : text.includes(who))) continue;
      const last = out[out.length - 1];
      if (!battle && last && !last.battle && last.text === text) { last.times++; last.ns.push(e.n); continue; }
      out.push({ text, battle, times: 1, ns: [e.n], turn: e.turn, seats: battle ? [] : e.seats || [] });
    }
    return out;
  }

  draw() {
    const ol = this.list;
    const atEnd = ol.scrollHeight - ol.scrollTop - ol.clientHeight < 30;
    ol.innerHTML = "";
    for (const line of this.lines()) {
      const li = el("li");
      li.dataset.n = line.ns[0];
      if (line.battle) {
        const b = el("button", "battle-line", `⚔ ${line.text}`);
        b.type = "button";
        b.onclick = () => this.openBattle(line.battle);
        li.appendChild(b);
        li.className = "battle";
      } else {
        li.textContent = line.times > 1 ? `${line.text} (×${line.times})` : line.text;
        if (this.swatch) li.prepend(...line.seats.map((k) => this.swatch(k)));
        if (line.times > 1) li.dataset.times = line.times;
      }
      ol.appendChild(li);
    }
    this.root.dataset.lines = ol.children.length;
    if (atEnd) ol.scrollTop = ol.scrollHeight;
  }

  // mark the line of event ``n`` (played back) and bring it into view
  mark(n) {
    this.list.querySelectorAll("li.now").forEach((li) => li.classList.remove("now"));
    let li = null;
    for (const x of this.list.children) if (Number(x.dataset.n) <= n) li = x;
    if (li) {
      li.classList.add("now");
      li.scrollIntoView({ block: "nearest" });
    }
  }
}

function $sel(root, q) { return root.querySelector(q); }
