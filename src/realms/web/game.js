// A game page: the board (SVG from the server), the pending decision as buttons and as
// clickable areas/towns, scores, hand, chronicle; new states arrive over the WebSocket.
// A decision whose game declares it a move (``controls.moves``: keys "SOURCE>DESTINATION",
// asked again after each unit moved) is answered by a gesture: choose a source, a count
// and a destination, and the page sends that key as many times, each answer a normal POST
// with the version the previous one got back.
import { Story } from "./story.js";
import { BattlePanel, battlesOf, battleOfEvent } from "./battle.js";
import { Chronicle } from "./chronicle.js";
import { Playback, sinceSummary } from "./playback.js";
import { showResults, repaintPath } from "./results.js";
import { halo, tuneBoard } from "./board.js";
import { applyPalette, paletteChooser, seatSwatch } from "./palette.js";
import { applyPosition, fits } from "./position.js";
import { remember } from "./mygames.js";
import { backoff } from "./reconnect.js";

const $ = (id) => document.getElementById(id);
const gameId = location.pathname.split("/").filter(Boolean).pop();
const token = new URLSearchParams(location.hash.slice(1)).get("token");
const auth = token ? { Authorization: `Bearer ${token}` } : {};
// this page's WebSocket, by a name its answers give: the server sends their new state in
// the 200 alone, not again over the socket
const socketName = Array.from(crypto.getRandomValues(new Uint8Array(12)), (b) => b.toString(16).padStart(2, "0")).join("");

let current = null;      // the last state payload shown
let boardVersion = -1;   // version of the board picture shown
let boardSeq = 0;
let boardLoading = null; // version of the board being fetched (asked for once)
let selection = [];      // areas clicked so far for a multi-part option ("src>dst")
let sending = false;
let moveSrc = null;      // the source chosen for a move gesture
let gesture = false;     // a move gesture is sending its answers
let gameNames = {};      // game id -> name, from the catalog
let gamePalettes = {};   // game id -> its seats' colours (Game.palette), from the catalog

// the parts of an option key that may name a board element: "a>b", "a:b", "a,b" …
const keyParts = (key) => key.split(/[>:,|\s]+/).filter(Boolean);

function boardElement(part) {
  return document.getElementById(`area-${part}`) || document.getElementById(`town-${part}`);
}

// an area's name, from its tooltip on the board ("Name (terrain)"), else its id
function areaName(part) {
  const t = boardElement(part)?.querySelector("title")?.textContent;
  return t ? t.split(" (")[0] : part;
}

// a replay's work is queued on the server, a few jobs an address at a time: a request turned
// away as busy (429) or over its budget (503) is asked again while it is still wanted
async function fetchWanted(url, wanted) {
  for (let attempt = 1; ; attempt++) {
    const r = await fetch(url).catch(() => null);
    if ((r && r.status !== 429 && r.status !== 503) || attempt >= 8 || !wanted()) return r;
    await new Promise((done) => setTimeout(done, 250 * attempt));
    if (!wanted()) return r;
  }
}

async function loadBoard(version, at = null) {
  if (at === null && version === boardLoading) return;
  const seq = ++boardSeq;
  boardLoading = at === null ? version : null;
  const url = at === null ? `/api/games/${gameId}/board.svg?v=${version}` : `/api/games/${gameId}/board.svg?at=${at}`;
  const r = at === null ? await fetch(url).catch(() => null) : await fetchWanted(url, () => seq === boardSeq);
  if (seq === boardSeq && !r?.ok) boardLoading = null;
  if (!r?.ok || seq !== boardSeq) return;
  const text = await r.text();
  if (seq !== boardSeq) return;
  boardLoading = null;
  $("board").innerHTML = text.replace(/^<\?xml[^>]*>\s*/, "");
  boardVersion = at === null ? version : -1;
  applyPalette($("board"), gamePalettes[current?.game]);
  tuneBoard($("board"));
  if (at === null) playback.redraw();
  if (at === null) renderDecision();
  document.body.dataset.board = at === null ? version : `at-${at}`;
  if (at === null) showBoard(); // states that came while it was on its way
}

// the board of the state shown: the game's position of it (``board``, from this seat's view)
// applied in place to the drawing held, which is fetched whole only when none fits (the
// first, after a replay, a game whose drawing changes its frame)
function showBoard() {
  const s = current;
  if (!s || s.version === boardVersion || boardLoading !== null) return;
  const svg = $("board").querySelector("svg");
  if (boardVersion < 0 || !fits(svg, s.board)) { loadBoard(s.version); return; }
  try {
    applyPosition(svg, s.board);
  } catch (e) { // a drawing that does not take it: drawn whole instead
    console.error(e);
    loadBoard(s.version);
    return;
  }
  boardVersion = s.version;
  applyPalette($("board"), gamePalettes[s.game]);
  halo(svg);
  renderDecision(); // the moves played back stay drawn: their layer is the page's, not the position's
  document.body.dataset.board = s.version;
}

function clearBoard() {
  document.querySelectorAll("#board [data-part]").forEach((el) => {
    el.classList.remove("clickable", "selected", "target");
    el.onclick = null;
    delete el.dataset.part;
  });
}

function mark(part, cls, onclick) {
  const el = boardElement(part);
  if (!el) return;
  el.classList.add(...cls);
  el.dataset.part = part;
  if (onclick) el.onclick = onclick;
}

// mark the board elements that options name, and answer by clicking them
function wireBoard(decision) {
  clearBoard();
  selection = [];
  if (!decision) return;
  const parts = new Set();
  for (const o of decision.options) for (const p of keyParts(o.key)) parts.add(p);
  for (const part of parts) mark(part, ["clickable"], () => clickPart(part, decision));
}

function clickPart(part, decision) {
  let sel = [...selection, part];
  let candidates = decision.options.filter((o) => sel.every((p) => keyParts(o.key).includes(p)));
  if (candidates.length === 0) {
    sel = [part];
    candidates = decision.options.filter((o) => keyParts(o.key).includes(part));
  }
  // a click that completes a key ("src>dst" after "src") answers it
  const exact = candidates.filter((o) => keyParts(o.key).length === sel.length);
  if (candidates.length === 1 || exact.length === 1) {
    answer((exact.length === 1 ? exact[0] : candidates[0]).key);
    return;
  }
  selection = sel;
  document.querySelectorAll("#board .selected").forEach((e) => e.classList.remove("selected"));
  for (const p of sel) boardElement(p)?.classList.add("selected");
  const keys = new Set(candidates.map((o) => o.key));
  document.querySelectorAll("#options button").forEach((b) => b.classList.toggle("hidden", !keys.has(b.dataset.key)));
}

// POST a body to one of the game's endpoints; show the new state, or the refusal.  True if accepted.
async function post(path, body) {
  if (sending || !current) return false;
  sending = true;
  $("error").textContent = "";
  try {
    let r;
    try {
      r = await fetch(`/api/games/${gameId}/${path}`, {
        method: "POST",
        headers: { "Content-Type": "application/json", "X-Realms-Socket": socketName, ...auth },
        body: JSON.stringify(body),
      });
    } catch {
      $("error").textContent = "The server could not be reached (is the connection down?): your decision was not sent. Try again once it is back.";
      document.body.dataset.offlineError = "yes";
      return false;
    }
    const data = await r.json().catch(() => ({ detail: r.statusText }));
    if (r.ok) { decided(data.version); render(data); return true; }
    $("error").textContent = `${r.status}: ${typeof data.detail === "string" ? data.detail : JSON.stringify(data.detail)}`;
    if (r.status === 409) await refresh();
    return false;
  } finally {
    sending = false;
  }
}

const answer = (key) => post("answers", { key, version: current.version });
// Undo takes back the whole gesture the last decision was part of (three units moved in
// one gesture: one Undo), one answer at a time while the server allows it
let lastGesture = null; // {version: after the gesture, answers: how many it sent}
async function undo() {
  if (gesture) return;
  const n = lastGesture && lastGesture.version === current.version ? lastGesture.answers : 1;
  lastGesture = null;
  document.body.dataset.undoing = "on";
  try {
    for (let i = 0; i < n; i++) {
      if (!(await post("undo", { version: current.version })) || !current.can_undo) break;
    }
  } finally {
    delete document.body.dataset.undoing;
  }
}

function text(el, s) { el.textContent = s; return el; }

function button(label, onclick, cls = "option", key = null) {
  const b = document.createElement("button");
  b.type = "button";
  b.className = cls;
  if (key !== null) b.dataset.key = key;
  b.textContent = label;
  b.onclick = onclick;
  return b;
}

// is state ``a`` newer than ``b``?  An undo goes back a version, so states are ordered by
// the server process, its count of undos, then the version
function newer(a, b) {
  if (a.boot !== b.boot) return true;
  if (a.undos !== b.undos) return a.undos > b.undos;
  return a.version >= b.version;
}

// --- the decision ---------------------------------------------------------------------------

// the pending decision as buttons (the frequent ones kept in view) and clickable board parts
function renderDecision() {
  const state = current;
  if (!state) return;
  const d = state.pending[0];
  const opts = $("options"), keep = $("keep");
  opts.innerHTML = "";
  keep.innerHTML = "";
  $("move-box").hidden = true;
  $("filter").hidden = true;
  if (!d) {
    clearBoard();
    $("prompt").textContent = "";
    moveSrc = null;
    return;
  }
  text($("prompt"), `${d.prompt}${d.section ? ` (${d.section})` : ""}`);
  const controls = d.controls || {};
  if (controls.moves) return renderMoves(d, controls);
  if (controls.orders) return renderOrders(d, controls);
  moveSrc = null;
  const kept = new Set(controls.keep_in_view || []);
  for (const o of d.options) {
    (kept.has(o.key) ? keep : opts).appendChild(button(o.label, () => warned(controls, o.key) && answer(o.key), "option", o.key));
  }
  if (d.options.length > 12) offerFilter(opts);
  wireBoard(d);
}

// an answer that costs units (``controls.warn``) is sent only once the player agrees
function warned(controls, key) {
  const why = controls.warn?.[key];
  return !why || confirm(`${why} Go on?`);
}

// a text box above a long list of options that hides those whose labels do not match
function offerFilter(opts) {
  const f = $("filter");
  f.hidden = false;
  f.value = "";
  f.oninput = () => {
    const q = f.value.toLowerCase();
    opts.querySelectorAll("button").forEach((b) => b.classList.toggle("hidden", !b.textContent.toLowerCase().includes(q)));
  };
}

// a move decision: sources, then a count and the destinations of the chosen source.  Its
// other answers stay at hand: those kept in view as buttons, the rest listed (those naming
// the chosen source beside its destinations) and answered by clicking the fields they name
// that are not sources (an attack's target, say)
function renderMoves(d, controls) {
  const sep = controls.moves.separator;
  const units = controls.moves.units || {};
  const kept = new Set(controls.keep_in_view || []);
  const bySrc = new Map();
  const others = [];
  const keep = $("keep"), opts = $("options");
  for (const o of d.options) {
    const parts = o.key.split(sep);
    if (parts.length !== 2) {
      if (kept.has(o.key)) keep.appendChild(button(o.label, () => warned(controls, o.key) && answer(o.key), "option", o.key));
      else others.push(o);
      continue;
    }
    if (!bySrc.has(parts[0])) bySrc.set(parts[0], []);
    bySrc.get(parts[0]).push({ key: o.key, label: o.label, dst: parts[1] });
  }
  if (moveSrc !== null && !bySrc.has(moveSrc)) moveSrc = null;
  clearBoard();
  selection = [];
  const rest = { options: others };
  for (const part of new Set(others.flatMap((o) => keyParts(o.key)))) {
    if (!bySrc.has(part)) mark(part, ["clickable"], () => clickPart(part, rest));
  }
  for (const src of bySrc.keys()) mark(src, ["clickable"], () => chooseSource(src));
  if (moveSrc === null) {
    opts.appendChild(text(document.createElement("p"), "Choose where to move from: click an outlined area, or:"));
    for (const [src, moves] of bySrc) {
      const n = units[src];
      const what = n === undefined ? "" : `${n} unit${n === 1 ? "" : "s"}, `;
      opts.appendChild(button(`From ${areaName(src)} (${what}${moves.length} destination${moves.length === 1 ? "" : "s"})`,
        () => chooseSource(src), "source", `from:${src}`));
    }
    for (const o of others) opts.appendChild(button(o.label, () => answerOther(o.key), "option", o.key));
    if (bySrc.size + others.length > 12) offerFilter(opts);
    return;
  }
  const moves = bySrc.get(moveSrc);
  const max = Math.max(1, units[moveSrc] ?? 1);
  const box = $("move-box");
  box.hidden = false;
  $("move-from").textContent = areaName(moveSrc);
  const count = $("move-count");
  count.max = max;
  if (!(Number(count.value) >= 1 && Number(count.value) <= max) || count.dataset.src !== moveSrc) count.value = max;
  count.dataset.src = moveSrc;
  $("move-max").textContent = `of ${max}`;
  $("move-back").onclick = () => { moveSrc = null; renderDecision(); };
  mark(moveSrc, ["selected"], () => { moveSrc = null; renderDecision(); });
  for (const m of moves) {
    mark(m.dst, ["clickable", "target"], () => moveUnits(m.key, Number(count.value)));
    opts.appendChild(button(m.label, () => moveUnits(m.key, Number(count.value)), "option", m.key));
  }
  for (const o of others.filter((o) => keyParts(o.key).includes(moveSrc))) {
    opts.appendChild(button(o.label, () => answerOther(o.key), "option", o.key));
  }
}

// an answer beside the moves (a recruit, say): the next decision starts with no source chosen
const answerOther = (key) => { moveSrc = null; return answer(key); };

// --- an order form -------------------------------------------------------------------------
// A decision whose game declares an order form (``controls.orders``: the orders possible
// this turn, each with what it spends — an ``amount`` answered to the decision asked next,
// or a fixed ``cost`` — and which may be written only ``once`` or ``requires`` another) is
// written on the page first: the orders are listed with what is left to spend, and "send"
// posts the answers they stand for, each order's key and amount, then the sending key.
let draft = { form: null, items: [], pick: null, amount: null };

// the draft is kept in this browser until it is sent: a reload finds it again
const draftKey = `realms-draft-${gameId}-${(token || "").slice(0, 12)}`;
function keepDraft() {
  try { localStorage.setItem(draftKey, JSON.stringify(draft)); } catch { /* no storage: kept in the page only */ }
}
function savedDraft(form) {
  try {
    const d = JSON.parse(localStorage.getItem(draftKey) || "null");
    return d && d.form === form && Array.isArray(d.items) ? d : null;
  } catch {
    return null;
  }
}

function orderChoices(spec) {
  const used = new Set(draft.items.map((o) => o.key));
  const once = new Set(draft.items.map((o) => spec.items[o.key].once).filter(Boolean));
  const left = spec.budget - draft.items.reduce((n, o) => n + o.spends, 0);
  const out = [];
  for (const [key, it] of Object.entries(spec.items)) {
    if (used.has(key) || (it.once && once.has(it.once)) || (it.requires && !used.has(it.requires))) continue;
    if ((it.amount ? it.amount.min : it.cost || 0) > left) continue;
    out.push([key, it]);
  }
  return { left, out };
}

function renderOrders(d, controls) {
  const spec = controls.orders;
  if (draft.form !== spec.form) draft = savedDraft(spec.form) || { form: spec.form, items: [], pick: null, amount: null };
  draft.items = draft.items.filter((o) => spec.items[o.key]);
  keepDraft();
  const opts = $("options"), keep = $("keep");
  const { left, out } = orderChoices(spec);
  const form = document.createElement("div");
  form.id = "order-form";
  form.appendChild(text(document.createElement("p"), `${left} ${spec.unit} left to spend (${spec.budget} in all).`)).id = "order-left";
  const list = document.createElement("ol");
  list.id = "order-list";
  draft.items.forEach((o, i) => {
    const li = text(document.createElement("li"), o.amount === null ? o.label : `${o.label}: ${o.amount} ${spec.unit}`);
    const x = button("remove", () => {
      const gone = new Set([o.key]);
      draft.items = draft.items.filter((p, j) => j !== i && !gone.has(spec.items[p.key].requires));
      renderDecision();
    }, "order-remove");
    x.style.cssText = "display:inline;width:auto;margin-left:.5rem";
    li.appendChild(x);
    list.appendChild(li);
  });
  if (!draft.items.length) list.appendChild(text(document.createElement("li"), "no orders written yet")).className = "muted";
  form.appendChild(list);
  if (!out.some(([k]) => k === draft.pick)) draft.pick = out.length ? out[0][0] : null;
  const pick = document.createElement("select");
  pick.id = "order-pick";
  const groups = new Map();
  for (const [key, it] of out) {
    if (!groups.has(it.group)) groups.set(it.group, document.createElement("optgroup"));
    const g = groups.get(it.group);
    g.label = it.group;
    const o = text(document.createElement("option"), it.label);
    o.value = key;
    g.appendChild(o);
  }
  for (const g of groups.values()) pick.appendChild(g);
  const amount = document.createElement("input");
  amount.type = "number";
  amount.id = "order-amount";
  amount.setAttribute("aria-label", spec.unit);
  const add = button("Add the order", () => {
    const it = spec.items[draft.pick];
    if (!it) return;
    let n = null;
    if (it.amount) {
      n = Number(amount.value);
      const max = Math.min(it.amount.max, left);
      if (!(n >= it.amount.min && n <= max && (n - it.amount.min) % it.amount.step === 0)) {
        $("error").textContent = `${it.label}: from ${it.amount.min} to ${max} ${spec.unit}` +
          (it.amount.step > 1 ? `, in steps of ${it.amount.step}` : "");
        return;
      }
    }
    $("error").textContent = "";
    draft.items.push({ key: draft.pick, label: it.label, amount: n, spends: n ?? it.cost ?? 0 });
    draft.pick = null;
    draft.amount = null;
    renderDecision();
  }, "order-add");
  add.id = "order-add";
  const fit = () => {
    const it = spec.items[draft.pick];
    amount.hidden = !it?.amount;
    if (!it?.amount) return;
    const max = Math.min(it.amount.max, left);
    amount.min = it.amount.min;
    amount.max = max - ((max - it.amount.min) % it.amount.step);
    amount.step = it.amount.step;
    const v = Number(draft.amount ?? amount.value);
    amount.value = v >= Number(amount.min) && v <= Number(amount.max) ? v : amount.max;
  };
  pick.onchange = () => { draft.pick = pick.value; draft.amount = null; fit(); };
  amount.oninput = () => { draft.amount = amount.value; };
  if (draft.pick !== null) {
    pick.value = draft.pick;
    fit();
    form.append(pick, amount, add);
  } else {
    form.appendChild(text(document.createElement("p"), "No other order is possible."));
  }
  opts.appendChild(form);
  const send = button(`${spec.send_label || "Send"} (${draft.items.length} order${draft.items.length === 1 ? "" : "s"})`,
    () => sendOrders(spec), "option", spec.send);
  send.id = "order-send";
  keep.appendChild(send);
  // a state clicked on the board picks the next order naming it
  clearBoard();
  const parts = new Map();
  for (const [key] of out) for (const part of keyParts(key)) (parts.get(part) || parts.set(part, []).get(part)).push(key);
  for (const [part, keys] of parts) {
    mark(part, ["clickable"], () => {
      draft.pick = keys[(keys.indexOf(draft.pick) + 1) % keys.length];
      draft.amount = null;
      renderDecision();
    });
  }
}

// send the orders written: each step is a key of this seat's pending decision; an amount
// is skipped when the game applied it itself (the only one possible), and the sending key
// when the game sent the orders itself (nothing else was possible)
async function sendOrders(spec) {
  if (gesture || !current) return;
  if (!draft.items.length && !confirm(`Send no orders at all for this ${current.turn_word || "turn"}?`)) return;
  const steps = [];
  const order = [...draft.items.filter((o) => !spec.items[o.key].requires), ...draft.items.filter((o) => spec.items[o.key].requires)];
  for (const o of order) {
    steps.push({ key: o.key });
    if (o.amount !== null) steps.push({ key: String(o.amount), kind: spec.amount_kind });
  }
  steps.push({ key: spec.send, last: true });
  gesture = true;
  document.body.dataset.gesture = "on";
  let sent = 0;
  try {
    for (const s of steps) {
      $("status").textContent = `Sending ${sent + 1} of ${steps.length}…`;
      if (!(await sendStep(spec, s))) break;
      sent++;
    }
  } finally {
    gesture = false;
    delete document.body.dataset.gesture;
  }
  const ok = sent === steps.length;
  if (ok) {
    draft = { form: spec.form, items: [], pick: null, amount: null };
    localStorage.removeItem(draftKey);
  }
  $("status").textContent = ok ? "Your orders are sent; they stay hidden until the turn resolves." : "";
  document.body.dataset.sent = ok ? "yes" : "no";
  if (current.version !== boardVersion) showBoard();
  else renderDecision();
}

async function sendStep(spec, s) {
  for (let tries = 0; tries < 3; tries++) {
    const d = current.pending[0];
    const same = d && (d.kind === spec.amount_kind || d.controls?.orders?.form === spec.form);
    if (s.kind && (!same || d.kind !== s.kind)) return true;
    if (s.last && !same) return true;
    if (!same || !d.options.some((o) => o.key === s.key)) {
      $("error").textContent = `${s.key}: no longer possible; the orders before it were sent`;
      return false;
    }
    if (await post("answers", { key: s.key, version: current.version })) return true;
    if (!$("error").textContent.startsWith("409")) return false;
  }
  return false;
}

function chooseSource(src) {
  if (gesture) return;
  moveSrc = src;
  renderDecision();
}

// send ``key`` up to ``n`` times, each with the version the last answer got back; stop
// early when the decision no longer offers it (the units are spent, the phase moved on).
// A game whose first move leads to a decision of another kind names it in
// ``controls.moves.continues_as``, and the gesture goes on there
async function moveUnits(key, n) {
  if (gesture || !current) return;
  gesture = true;
  document.body.dataset.gesture = "on";
  const first = current.pending[0];
  const kinds = new Set([first?.kind, ...(first?.controls?.moves?.continues_as || [])]);
  let done = 0;
  try {
    while (done < n) {
      const d = current.pending[0];
      if (!d || !kinds.has(d.kind) || !d.options.some((o) => o.key === key)) break;
      $("status").textContent = `Moving ${done + 1} of ${n}…`;
      if (!(await post("answers", { key, version: current.version }))) break;
      done++;
    }
  } finally {
    gesture = false;
    delete document.body.dataset.gesture;
  }
  $("status").textContent = done < n && !$("error").textContent ? `Moved ${done} of ${n}: no more could go there.` : "";
  lastGesture = done > 1 ? { version: current.version, answers: done } : null;
  document.body.dataset.moved = `${done}`;
  delete $("move-count").dataset.src; // the count offered next: all that are left
  if (current.version !== boardVersion) showBoard();
  else renderDecision();
}

// --- the story: chronicle, battles, others' moves played back -------------------------------

const story = new Story(gameId, auth);
const battlePanel = new BattlePanel($("battle-panel"), async (n) => {
  const r = await fetch(`/api/games/${gameId}/odds?event=${n}`, { headers: auth });
  return r.ok ? r.json() : null;
});
const chronicle = new Chronicle($("chronicle-box"), (b) => battlePanel.show(b, Infinity, battlePrompt(b)));
const playback = new Playback({ bar: $("playback"), pace: $("pace"), skip: $("skip") }, {
  chronicle,
  element: (id) => boardElement(id),
  showBattle: (e, quiet) => {
    const b = battleOfEvent(battlesOf(story.events), e.n);
    if (b) battlePanel.show(b, quiet ? Infinity : e.n, battlePrompt(b));
  },
  done: () => showOpenBattle(),
});

// the battle going on, if any, in its panel with the decision it asks (none once the game
// is over: its page opens no panel by itself)
function showOpenBattle() {
  if (current?.over) return;
  const battles = battlesOf(story.events);
  const last = battles[battles.length - 1];
  if (last && !last.steps.some((e) => e.battle.close)) battlePanel.show(last, Infinity, battlePrompt(last));
}
let synced = false;
// what the seat saw when it last decided: the scores, and how far the story went
let sinceMine = null;

// the pending decision, said in the panel of the battle it belongs to (still going on)
function battlePrompt(b) {
  const d = current?.pending[0];
  const closed = b.steps.some((e) => e.battle.close);
  return d && !closed ? `${d.prompt}` : "";
}

// "since your last turn", once the seat's decision is back after others played, and the
// story has caught up with the state shown
function maybeSince() {
  const state = current, events = story.events;
  // others decided since: the state is past the version the seat's own last answer made
  if (!state || !sinceMine || state.version <= sinceMine.after || state.seat === null || !state.pending.length) return;
  if (story.version !== state.version || events.length <= sinceMine.events) return;
  sinceSummary($("since"), state.seat, state.seats.map((x) => x.name), sinceMine.scores, state.scores,
    events.slice(sinceMine.events), (id) => areaName(id));
  sinceMine = { scores: [...state.scores], events: events.length, after: state.version };
}

// the seat sent a decision: the marks of the moves before it go, and the summary
function decided(after) {
  playback.clear();
  $("since").hidden = true;
  sinceMine = { scores: [...(current?.scores || [])], events: story.events.length, after };
}

story.onChange((events, fresh) => {
  chronicle.update(events);
  if (synced) playback.play(fresh.map((i) => events[i]));
  else showOpenBattle();
  synced = true;
  const state = current;
  maybeSince();
  document.body.dataset.events = events.length;
});

// --- the turn's deadline ----------------------------------------------------------------------

// ``state.deadline`` (a game whose creator set one): ``at``, the instant the round awaited
// ends (seconds since the epoch, the server's clock), and ``passed``, whether the round
// before ended at its deadline; shown in the header as the time left, each second, and
// "deadline passed" once it has (the server ends the round within a second)
let deadlineTimer = null;
const clockText = (s) => {
  const d = Math.floor(s / 86400), h = Math.floor(s / 3600) % 24, m = Math.floor(s / 60) % 60;
  const two = (n) => String(n).padStart(2, "0");
  const hms = h || d ? `${h}:${two(m)}:${two(s % 60)}` : `${m}:${two(s % 60)}`;
  return d ? `${d}d ${hms}` : hms;
};
function renderDeadline(deadline) {
  let el = $("deadline");
  if (!el) {
    el = document.createElement("span");
    el.id = "deadline";
    el.style.padding = "0 .4em";
    el.style.borderRadius = "4px";
    el.title = "the time left before the deadline the game's creator set; then the game answers for whoever has not (no orders)";
    $("who").after(el);
  }
  clearInterval(deadlineTimer);
  if (!deadline || (deadline.at === null && !deadline.passed)) {
    el.hidden = true;
    return;
  }
  el.hidden = false;
  const tick = () => {
    const left = deadline.at === null ? 0 : Math.ceil(deadline.at - Date.now() / 1000);
    el.textContent = left <= 0 ? "deadline passed"
      : deadline.passed ? `the last deadline passed · the next in ${clockText(left)}` : `deadline in ${clockText(left)}`;
    const urgent = left <= 60;  // the last minute, and after: marked on the dark header
    el.style.background = urgent ? "#f3d27a" : "";
    el.style.color = urgent ? "#1d1d1b" : "";
    el.dataset.left = Math.max(left, 0);
    if (left <= 0) clearInterval(deadlineTimer);
  };
  tick();
  if (deadline.at !== null) deadlineTimer = setInterval(tick, 1000);
}

// --- the page -------------------------------------------------------------------------------

// what the catalog tells of the game: its name, and its seats' colours (the chooser and the board)
function named(state) {
  $("title").textContent = `${gameNames[state.game] || state.game} · game ${state.id}`;
  const mark = document.title.match(/^(.*· )[^·]*— realms$/)?.[1] || ""; // what table.js put before it
  document.title = `${mark}${gameNames[state.game] || state.game} — realms`;
  const repaint = () => {
    applyPalette($("board"), gamePalettes[state.game]);
    halo($("board").querySelector("svg"));
    chronicle.draw(); // its swatches
    repaintPath($("results"), gamePalettes[state.game]);
  };
  chronicle.swatch = (k) => seatSwatch(k, gamePalettes[state.game]);
  paletteChooser($("pace-box"), gamePalettes[state.game], state.seats.map((s) => s.name), repaint);
  return repaint;
}

function render(state) {
  if (current && !newer(state, current)) return; // an older push arriving late
  current = state;
  const me = state.seat;
  const names = state.seats.map((s) => s.name);
  named(state);
  $("who").textContent = me === null ? "spectating" : `you are ${names[me]} (seat ${me + 1})`;
  $("version").textContent = state.version;
  document.body.dataset.version = state.version;
  const d = state.pending[0];
  $("decision-head").textContent = state.over ? "No decision: the game is over"
    : me === null ? "The decision awaited" : "Your decision";
  if (!d) {
    if (state.over) {
      const r = state.result || {};
      $("status").textContent = `${state.ended ? "The host ended the game." : "The game is over."} ${r.winner ? `Winner: ${r.winner}.` : r.winners && r.winners.length ? `Shared: ${r.winners.join(", ")}.` : ""}`;
    } else {
      $("status").textContent = `Waiting for ${state.awaiting.map((p) => names[p]).join(", ")}…`;
    }
  } else if (!gesture) {
    $("status").textContent = "";
  }
  $("undo").hidden = !state.can_undo;
  $("undo").onclick = undo;
  renderOdds(state.odds || []);
  renderScores(state);
  renderDeadline(state.deadline);
  // what the game shows this seat beside the board (a hand of cards, a mission)
  const panels = $("panels");
  panels.innerHTML = "";
  for (const panel of state.panels || []) {
    const box = document.createElement("section");
    box.appendChild(text(document.createElement("h2"), panel.title));
    const items = document.createElement("div");
    items.className = "hand";
    for (const item of panel.items) items.appendChild(text(document.createElement("span"), String(item)));
    if (!panel.items.length) items.appendChild(text(document.createElement("em"), "none"));
    box.appendChild(items);
    panels.appendChild(box);
  }
  story.sync(state.version).then(maybeSince);
  chronicle.setSeats(names, state.turn_word);
  if (state.over) showResults($("results"), state, gameId, auth, gamePalettes[state.game]);
  $("record-link").href = "#";
  $("record-link").onclick = async (e) => {
    e.preventDefault();
    const r = await fetch(`/api/games/${gameId}/record`, { headers: auth });
    const blob = new Blob([JSON.stringify(await r.json(), null, 1)], { type: "application/json" });
    const a = document.createElement("a");
    a.href = URL.createObjectURL(blob);
    a.download = `${state.game}-${gameId}.json`;
    a.click();
  };
  // replay viewer for finished games
  $("replay").hidden = !state.over;
  if (state.over && !replayWired) {
    replayWired = true;
    wireReplay(state.version);
  }
  if (gesture) return; // the board and the controls follow when the gesture ends
  renderDecision(); // again once the new board is in, to mark its areas
  if (state.version !== boardVersion) showBoard();
}

// the odds the game advises: the first few, the rest folded away; a note in their place
// (kind "pending": being worked out, pushed when they are; "unavailable": none to be had)
// is shown as a note, without the line about exact odds
const ODDS_SHOWN = 3;
const ODDS_NOTES = new Set(["pending", "unavailable"]);
function renderOdds(odds) {
  $("odds-box").hidden = odds.length === 0;
  $("odds-box").setAttribute("aria-busy", String(odds.some((o) => o.kind === "pending")));
  const ul = $("odds");
  ul.innerHTML = "";
  odds.forEach((o, i) => {
    const li = text(document.createElement("li"), o.text);
    if (i >= ODDS_SHOWN) li.classList.add("more");
    if (ODDS_NOTES.has(o.kind)) li.classList.add("muted");
    ul.appendChild(li);
  });
  ul.classList.remove("all");
  const more = $("odds-more");
  more.hidden = odds.length <= ODDS_SHOWN;
  more.textContent = `${odds.length - ODDS_SHOWN} more`;
  more.onclick = () => { ul.classList.add("all"); more.hidden = true; };
  const exact = odds.filter((o) => !ODDS_NOTES.has(o.kind));
  $("odds-note").textContent = exact.length ? `Exact odds; they assume ${exact[0].assumes || "no retreats"}.` : "";
}

function renderScores(state) {
  const table = $("scores");
  table.innerHTML = `<tr><th>player</th><th>seat</th><th>${state.score_name}</th></tr>`;
  state.seats.forEach((p, i) => {
    const tr = document.createElement("tr");
    const score = state.scores?.[i] ?? "";
    for (const c of [p.name, p.label || p.kind, score]) tr.appendChild(text(document.createElement("td"), String(c)));
    if (state.awaiting.includes(i)) tr.style.fontWeight = "bold";
    table.appendChild(tr);
  });
}


// a finished game replayed decision by decision: a slider over every answer, buttons to the
// next or previous decision and turn; each stop shows the board, the scores, the chronicle
// as they were, and the last line told
let replayWired = false;
async function wireReplay(version) {
  const r = await fetch(`/api/games/${gameId}/turns`);
  if (!r.ok) { replayWired = false; return; }
  const data = await r.json();
  const starts = data.turns;
  const turnAt = (at) => {
    let t = starts[0];
    for (const x of starts) if (x.at <= at) t = x;
    return t ? (t.turn === 0 ? "setup" : `${data.word} ${t.turn}`) : "";
  };
  const s = $("replay-slider");
  s.min = 0;
  s.max = data.answers;
  s.step = 1;
  s.value = data.answers;
  const box = $("replay");
  if (!box.querySelector(".replay-steps")) {
    const steps = document.createElement("span");
    steps.className = "replay-steps";
    const go = (label, name, fn) => {
      const b = button(label, () => { s.value = fn(Number(s.value)); show(true); }, "replay-step");
      b.setAttribute("aria-label", name);
      b.title = name;
      steps.appendChild(b);
    };
    go("« turn", "previous turn", (v) => [...starts].reverse().find((t) => t.at < v)?.at ?? 0);
    go("‹", "previous decision", (v) => Math.max(0, v - 1));
    go("›", "next decision", (v) => Math.min(data.answers, v + 1));
    go("turn »", "next turn", (v) => starts.find((t) => t.at > v)?.at ?? data.answers);
    box.appendChild(steps);
  }
  let seq = 0;
  const show = async (load) => {
    const at = Number(s.value);
    $("replay-at").textContent = `${turnAt(at)}, decision ${at} of ${data.answers}`;
    if (!load) return;
    loadBoard(version, at);
    const mine = ++seq;
    const past = await fetchWanted(`/api/games/${gameId}?at=${at}`, () => mine === seq);
    if (!past?.ok || mine !== seq) return;
    const p = await past.json();
    if (mine !== seq) return;
    renderScores(p);
    renderChronicle(p.chronicle);
    $("playback").textContent = p.chronicle[p.chronicle.length - 1] || "";
    $("playback-box").hidden = false;
    document.body.dataset.replayed = at;
  };
  s.oninput = () => show(true);
  show(false);
}

function renderChronicle(lines) {
  const ol = $("chronicle");
  ol.innerHTML = "";
  for (const line of lines) ol.appendChild(text(document.createElement("li"), line));
  ol.scrollTop = ol.scrollHeight;
}

async function refresh() {
  const r = await fetch(`/api/games/${gameId}`, { headers: auth });
  const data = await r.json().catch(() => ({}));
  if (!r.ok) {
    const why = r.status === 404 ? "There is no such game here: check the link."
      : r.status === 403 ? "This link's token is not a seat of this game: check the link (or open it without #token=… to watch)."
      : `${r.status}: ${data.detail || "the server refused"}`;
    return fail(why);
  }
  if (token && data.seat !== null) remember(gameId, data.game, [{ seat: data.seat, token }]);
  render(data);
  return true;
}

// say why the page cannot show the game, and stop trying
function fail(why) {
  $("status").textContent = "";
  $("error").textContent = why;
  document.body.dataset.failed = "true";
  return false;
}

// the WebSocket, reconnected after a loss as reconnect.js says; a refusal (unknown game,
// bad token: close codes 4xxx) is said, not retried
const again = backoff();
function connect() {
  const proto = location.protocol === "https:" ? "wss" : "ws";
  const q = `?socket=${socketName}` + (token ? `&token=${encodeURIComponent(token)}` : "");
  const ws = new WebSocket(`${proto}://${location.host}/api/games/${gameId}/ws${q}`);
  ws.onopen = () => { again.reset(); $("offline").hidden = true; };
  ws.onmessage = (ev) => render(JSON.parse(ev.data));
  ws.onclose = (ev) => {
    if (ev.code >= 4000 && ev.code < 5000) {
      fail(ev.code === 4404 ? "There is no such game here: check the link." : `The server refused: ${ev.reason || ev.code}`);
      return;
    }
    const ms = again.wait();
    $("offline").hidden = false;
    $("offline").textContent = `Connection lost; trying again ${ms < 1000 ? "now" : `in ${Math.round(ms / 1000)} s`}…`;
    setTimeout(async () => { if (await refresh().catch(() => true)) connect(); }, ms);
  };
}

// the catalog and the game fetched side by side: the game does not wait for the catalog
async function main() {
  fetch("/api/catalog").then((r) => r.json()).then((catalog) => {
    for (const g of catalog.games) [gameNames[g.id], gamePalettes[g.id]] = [g.name, g.palette];
    if (current) named(current)();
  }).catch(() => { /* the ids will do */ });
  if (await refresh()) connect();
}

main();
