// The lobby: create a game (game, seats, options, seed), hand out the seats' links, spectate.
// The options form is drawn from the schema each game declares in the catalog; the server
// checks what is sent with the same schema, so a refused value comes back as an error line.
import { drawMyGames, remember } from "./mygames.js";

const $ = (id) => document.getElementById(id);
let catalog = [];

function currentGame() { return catalog.find((g) => g.id === $("game").value); }

function seatRow(i, kind) {
  const g = currentGame();
  const label = document.createElement("label");
  label.textContent = `Seat ${i + 1} `;
  const sel = document.createElement("select");
  sel.className = "seat-kind";
  for (const c of g.seat_choices) {  // a person, each bot, each bot's declared variants (levels)
    const o = document.createElement("option");
    o.value = c.kind;
    o.textContent = c.label;
    sel.appendChild(o);
  }
  sel.value = kind;
  label.appendChild(sel);
  return label;
}

function defaultBot(g) { return g.default_bot; }

// what the game is, its player range, and its presets (ready-made option sets)
function describeGame(g) {
  const about = $("game-about");
  about.textContent = `${g.description || g.name} For ${g.min_players}–${g.max_players} players.`;
  const box = $("presets");
  box.innerHTML = "";
  for (const [label, options] of Object.entries(g.presets || {})) {
    const b = document.createElement("button");
    b.type = "button";
    b.className = "preset";
    b.textContent = label;
    b.onclick = () => applyPreset(g, options);
    box.appendChild(b);
  }
}

// a preset: its options set in the form, every other option back to its default
function applyPreset(g, options) {
  for (const o of g.options) {
    const el = $(`opt-${o.name}`);
    if (!el || o.name === "players") continue;
    const v = options[o.name];
    if (o.type === "bool") el.checked = v === undefined ? !!o.default : !!v;
    else if (o.type === "choices") {
      document.querySelectorAll(`.opt-${o.name}-choice`).forEach((c) => { c.checked = (v ?? o.default ?? []).includes(c.value); });
    } else el.value = v === undefined ? "" : Array.isArray(v) ? v.join(", ") : String(v);
  }
}

function resetSeats() {
  const g = currentGame();
  describeGame(g);
  const box = $("seats");
  box.innerHTML = "";
  const n = Math.max(g.min_players, Math.min(4, g.max_players));
  for (let i = 0; i < n; i++) box.appendChild(seatRow(i, i === 0 ? "human" : defaultBot(g)));
  drawOptions(g);
}

// -- the options form, from the game's schema (players are the seats) ---------------------
const shown = (v) => (v === null || v === undefined ? "none" : Array.isArray(v) ? v.join(", ") || "none" : String(v));

function hint(o) {
  const bounds = o.type === "int" ? ` (${o.min}–${o.max})` : "";
  return `${o.help}${bounds} Default: ${shown(o.default)}.`;
}

// the option's help, shown by a button (a touch screen has no hover)
function helpButton(o) {
  const b = document.createElement("button");
  b.type = "button";
  b.className = "help";
  b.textContent = "?";
  b.setAttribute("aria-label", `what is ${o.name.replace(/_/g, " ")}?`);
  b.setAttribute("aria-expanded", "false");
  b.onclick = (ev) => {
    ev.preventDefault();
    const open = b.nextElementSibling?.classList.contains("help-text");
    if (open) b.nextElementSibling.remove();
    else {
      const t = document.createElement("span");
      t.className = "help-text";
      t.textContent = hint(o);
      b.after(t);
    }
    b.setAttribute("aria-expanded", String(!open));
  };
  return b;
}

// one option: its label, its control and its help button, kept together on a line
function control(o) {
  const item = document.createElement("span");
  item.className = "option-item";
  item.append(field(o), helpButton(o));
  return item;
}

function field(o) {
  const id = `opt-${o.name}`;
  const label = document.createElement("label");
  label.title = hint(o);
  label.append(`${o.name.replace(/_/g, " ")} `);
  let input;
  if (o.type === "int") {
    input = document.createElement("input");
    Object.assign(input, { type: "number", min: o.min, max: o.max, placeholder: shown(o.default) });
    input.style.width = "6rem";
  } else if (o.type === "bool") {
    input = document.createElement("input");
    input.type = "checkbox";
    input.checked = !!o.default;
  } else if (o.type === "choice" || o.type === "file") {
    input = document.createElement("select");
    const first = document.createElement("option");
    first.value = "";
    first.textContent = o.default === null ? "none" : `${o.default} (default)`;
    input.appendChild(first);
    for (const c of o.choices) {
      if (c === o.default) continue;
      const opt = document.createElement("option");
      opt.value = opt.textContent = c;
      input.appendChild(opt);
    }
  } else if (o.type === "choices") {
    const span = document.createElement("span");
    span.id = id;
    for (const c of o.choices) {
      const l = document.createElement("label");
      const box = document.createElement("input");
      Object.assign(box, { type: "checkbox", value: c, checked: (o.default || []).includes(c) });
      box.className = `opt-${o.name}-choice`;
      l.append(box, ` ${c}`);
      span.appendChild(l);
    }
    label.appendChild(span);
    return label;
  } else {  // names, timeline: text, comma-separated
    input = document.createElement("input");
    input.placeholder = o.type === "timeline" ? "TURN:NAME, …" : "P1, P2, …";
    input.style.width = "14rem";
  }
  input.id = id;
  label.appendChild(input);
  return label;
}

function drawOptions(g) {
  const box = $("option-groups");
  box.innerHTML = "";
  const groups = new Map();
  for (const o of g.options) {
    if (o.name === "players") continue;  // the seats are the players
    if (!groups.has(o.group)) groups.set(o.group, []);
    groups.get(o.group).push(o);
  }
  for (const [name, options] of groups) {
    const row = document.createElement("div");
    row.className = "option-group";
    const head = document.createElement("span");
    head.className = "group-name";
    head.textContent = name;
    row.appendChild(head);
    for (const o of options) row.appendChild(control(o));
    box.appendChild(row);
  }
}

// The value of one option's control, or undefined where the default stands; throws a
// message naming the option for text that cannot be read.
function valueOf(o) {
  const el = $(`opt-${o.name}`);
  if (o.type === "int") return el.value === "" ? undefined : Number(el.value);
  if (o.type === "bool") return el.checked === !!o.default ? undefined : el.checked;
  if (o.type === "choice" || o.type === "file") return el.value === "" ? undefined : el.value;
  if (o.type === "choices") {
    const on = [...document.querySelectorAll(`.opt-${o.name}-choice:checked`)].map((c) => c.value);
    return on.join() === (o.default || []).join() ? undefined : on;
  }
  const parts = el.value.split(",").map((t) => t.trim()).filter((t) => t);
  if (!parts.length) return undefined;
  if (o.type === "names") return parts;
  return parts.map((t) => {
    const m = /^(\d+)\s*:\s*(.+)$/.exec(t);
    if (!m) throw new Error(`${o.name}: "${t.slice(0, 40)}" is not TURN:NAME, e.g. 3:Dana`);
    return [Number(m[1]), m[2]];
  });
}

function chosenOptions(g) {
  const options = {};
  for (const o of g.options) {
    if (o.name === "players") continue;
    const v = valueOf(o);
    if (v !== undefined) options[o.name] = v;
  }
  return options;
}

function seatKinds() { return [...document.querySelectorAll(".seat-kind")].map((s) => s.value); }

let statuses = {};
const nameOf = (id) => catalog.find((c) => c.id === id)?.name ?? id;

async function loadRecent() {
  const r = await fetch("/api/games");
  const data = await r.json();
  statuses = Object.fromEntries(data.games.map((g) => [g.id, g.status]));
  drawMyGames($("my-games"), nameOf, (id) => statuses[id]);
  const ul = $("recent");
  ul.innerHTML = "";
  if (!data.games.length) {
    const li = document.createElement("li");
    li.className = "muted";
    li.textContent = "No game yet: create one above.";
    ul.appendChild(li);
  }
  for (const g of data.games) {
    const li = document.createElement("li");
    const a = document.createElement("a");
    a.href = `/games/${g.id}`;
    a.textContent = `${catalog.find((c) => c.id === g.game)?.name ?? g.game} ${g.id}`;
    li.appendChild(a);
    li.append(` — ${g.seats.join(", ")}${g.status ? ` (${g.status})` : ""}`);
    ul.appendChild(li);
  }
}

// the server's refusal as a line: its text, or each field's problem ("seed: Input should
// be less than or equal to 2147483647") where the body did not have the expected shape
function problem(detail) {
  if (typeof detail === "string") return detail;
  if (Array.isArray(detail)) {
    return detail.map((e) => `${(e.loc || []).filter((x) => x !== "body").join(".") || "request"}: ${e.msg}`).join("; ");
  }
  return JSON.stringify(detail);
}

const LOOPBACK = /^(localhost|127\.\d+\.\d+\.\d+|\[::1\])$/;

async function create(ev) {
  ev.preventDefault();
  $("create-error").textContent = "";
  const g = currentGame();
  let options;
  try { options = chosenOptions(g); } catch (e) { $("create-error").textContent = e.message; return; }
  const body = { game: g.id, options, seats: seatKinds(), table: tableSettings() };
  if ($("seed").value !== "") body.seed = Number($("seed").value);
  const r = await fetch("/api/games", {
    method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body),
  });
  const data = await r.json();
  if (r.status !== 201) {
    $("create-error").textContent = problem(data.detail);
    return;
  }
  remember(data.id, g.id, data.seats.map((s) => ({ seat: s.seat, token: s.token })));
  $("created").hidden = false;
  $("created-id").textContent = data.id;
  const ul = $("seat-links");
  ul.innerHTML = "";
  for (const s of data.seats) {
    const url = `${location.origin}/games/${data.id}#token=${s.token}`;
    const li = document.createElement("li");
    const a = document.createElement("a");
    a.href = url;
    a.className = "seat-link";
    a.textContent = `Play seat ${s.seat + 1}`;
    const copy = document.createElement("button");
    copy.type = "button";
    copy.textContent = "copy link";
    copy.onclick = async () => {
      try {
        await navigator.clipboard.writeText(url);  // only in secure contexts (https, localhost)
      } catch {
        const t = document.createElement("textarea");  // served over plain http on a LAN address
        t.value = url;
        document.body.append(t);
        t.select();
        document.execCommand("copy");
        t.remove();
      }
      copy.textContent = "copied";
    };
    li.append(a, " ", copy, " ");
    const code = document.createElement("code");
    code.textContent = url;
    li.appendChild(code);
    ul.appendChild(li);
  }
  if (data.host) {
    const li = document.createElement("li");
    const a = document.createElement("a");
    a.href = `${location.origin}/games/${data.id}#host=${data.host}`;
    a.id = "host-link";
    a.textContent = "The host's link (pause, extend, new seat links, end, rematch): keep it to yourself";
    li.appendChild(a);
    ul.appendChild(li);
  }
  // the links carry the address this page was reached at: a loopback one works on this computer only
  $("loopback-note").hidden = !LOOPBACK.test(location.hostname);
  const li = document.createElement("li");
  const a = document.createElement("a");
  a.href = `/games/${data.id}`;
  a.textContent = "Spectate";
  li.appendChild(a);
  ul.appendChild(li);
  loadRecent();
}

// the clock's fields are read only for the kinds that use them: greyed out otherwise
function drawClockFields() {
  const kind = $("clock-kind").value;
  $("clock-minutes").disabled = kind === "none";
  $("clock-increment").disabled = kind !== "bank";
  $("clock-misses").disabled = kind === "none";
}

// the table of a game played over days (server/host.py): its clock and its talk
function tableSettings() {
  const kind = $("clock-kind").value;
  const clock = { kind, misses: Number($("clock-misses").value) };
  if (kind !== "none") clock.minutes = Number($("clock-minutes").value);
  if (kind === "bank") clock.increment = Number($("clock-increment").value);
  return { clock, talk: $("talk-mode").value };
}

async function main() {
  catalog = (await (await fetch("/api/catalog")).json()).games;
  const sel = $("game");
  for (const g of catalog) {
    const o = document.createElement("option");
    o.value = g.id;
    o.textContent = `${g.name} (${g.min_players}–${g.max_players})`;
    sel.appendChild(o);
  }
  sel.value = catalog[0].id;
  sel.onchange = resetSeats;
  resetSeats();
  $("add-seat").onclick = () => {
    const g = currentGame(), n = seatKinds().length;
    if (n < g.max_players) $("seats").appendChild(seatRow(n, defaultBot(g)));
  };
  $("remove-seat").onclick = () => {
    const g = currentGame(), box = $("seats");
    if (seatKinds().length > g.min_players) box.removeChild(box.lastChild);
  };
  $("create").onsubmit = create;
  $("clock-kind").onchange = drawClockFields;
  drawClockFields();
  loadRecent();
}

main();
