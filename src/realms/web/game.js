// A game page: the board (SVG from the server), the pending decision as buttons and as
// clickable areas/towns, scores, hand, chronicle; new states arrive over the WebSocket.
const $ = (id) => document.getElementById(id);
const gameId = location.pathname.split("/").filter(Boolean).pop();
const token = new URLSearchParams(location.hash.slice(1)).get("token");
const auth = token ? { Authorization: `Bearer ${token}` } : {};

let current = null;      // the last state payload shown
let boardVersion = -1;   // version of the board picture shown
let boardSeq = 0;
let selection = [];      // areas clicked so far for a multi-part option ("src>dst")
let sending = false;

// the parts of an option key that may name a board element: "a>b", "a:b", "a,b" …
const keyParts = (key) => key.split(/[>:,|\s]+/).filter(Boolean);

function boardElement(part) {
  return document.getElementById(`area-${part}`) || document.getElementById(`town-${part}`);
}

async function loadBoard(version, at = null) {
  const seq = ++boardSeq;
  const url = at === null ? `/api/games/${gameId}/board.svg?v=${version}` : `/api/games/${gameId}/board.svg?at=${at}`;
  const r = await fetch(url);
  if (!r.ok || seq !== boardSeq) return;
  const text = await r.text();
  if (seq !== boardSeq) return;
  $("board").innerHTML = text.replace(/^<\?xml[^>]*>\s*/, "");
  boardVersion = at === null ? version : -1;
  wireBoard();
  document.body.dataset.board = at === null ? version : `at-${at}`;
}

// mark the board elements that options name, and answer by clicking them
function wireBoard() {
  if (!current) return;
  const decision = current.pending[0];
  selection = [];
  if (!decision) return;
  const byPart = new Map();
  for (const o of decision.options) {
    for (const p of keyParts(o.key)) {
      if (!byPart.has(p)) byPart.set(p, []);
      byPart.get(p).push(o.key);
    }
  }
  for (const [part] of byPart) {
    const el = boardElement(part);
    if (!el) continue;
    el.classList.add("clickable");
    el.dataset.part = part;
    el.onclick = () => clickPart(part, decision);
  }
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

// POST a body to one of the game's endpoints; show the new state, or the refusal
async function post(path, body) {
  if (sending || !current) return;
  sending = true;
  $("error").textContent = "";
  try {
    const r = await fetch(`/api/games/${gameId}/${path}`, {
      method: "POST",
      headers: { "Content-Type": "application/json", ...auth },
      body: JSON.stringify(body),
    });
    const data = await r.json();
    if (r.ok) render(data);
    else {
      $("error").textContent = `${r.status}: ${typeof data.detail === "string" ? data.detail : JSON.stringify(data.detail)}`;
      if (r.status === 409) await refresh();
    }
  } finally {
    sending = false;
  }
}

const answer = (key) => post("answers", { key, version: current.version });
const undo = () => post("undo", { version: current.version });

function text(el, s) { el.textContent = s; return el; }

// is state ``a`` newer than ``b``?  An undo goes back a version, so states are ordered by
// the server process, its count of undos, then the version
function newer(a, b) {
  if (a.boot !== b.boot) return true;
  if (a.undos !== b.undos) return a.undos > b.undos;
  return a.version >= b.version;
}

function render(state) {
  if (current && !newer(state, current)) return; // an older push arriving late
  current = state;
  const me = state.seat;
  const names = state.seats.map((s) => s.name);
  $("title").textContent = `${state.game} · game ${state.id}`;
  $("who").textContent = me === null ? "spectating" : `you are ${names[me]} (seat ${me + 1})`;
  $("version").textContent = state.version;
  document.body.dataset.version = state.version;
  // decision
  const d = state.pending[0];
  const opts = $("options");
  opts.innerHTML = "";
  if (d) {
    text($("prompt"), `${d.prompt}${d.section ? ` (${d.section})` : ""}`);
    $("status").textContent = "";
    for (const o of d.options) {
      const b = document.createElement("button");
      b.className = "option";
      b.dataset.key = o.key;
      b.textContent = o.label;
      b.onclick = () => answer(o.key);
      opts.appendChild(b);
    }
  } else {
    $("prompt").textContent = "";
    if (state.over) {
      const r = state.result || {};
      $("status").textContent = `The game is over. ${r.winner ? `Winner: ${r.winner}.` : r.winners && r.winners.length ? `Shared: ${r.winners.join(", ")}.` : ""}`;
    } else {
      $("status").textContent = `Waiting for ${state.awaiting.map((p) => names[p]).join(", ")}…`;
    }
  }
  $("undo").hidden = !state.can_undo;
  $("undo").onclick = undo;
  // what the game advises before deciding (e.g. the odds of the battles at stake)
  const odds = state.odds || [];
  $("odds-box").hidden = odds.length === 0;
  const ul = $("odds");
  ul.innerHTML = "";
  for (const o of odds) ul.appendChild(text(document.createElement("li"), o.text));
  $("odds-note").textContent = odds.length ? `Exact odds; they assume ${odds[0].assumes || "no retreats"}.` : "";
  // scores
  const table = $("scores");
  table.innerHTML = `<tr><th>player</th><th>seat</th><th>${state.score_name}</th></tr>`;
  state.seats.forEach((p, i) => {
    const tr = document.createElement("tr");
    const score = state.scores?.[i] ?? "";
    for (const c of [p.name, p.kind, score]) tr.appendChild(text(document.createElement("td"), String(c)));
    if (state.awaiting.includes(i)) tr.style.fontWeight = "bold";
    table.appendChild(tr);
  });
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
  // chronicle
  const ol = $("chronicle");
  ol.innerHTML = "";
  for (const line of state.chronicle.slice(-60)) ol.appendChild(text(document.createElement("li"), line));
  ol.scrollTop = ol.scrollHeight;
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
  if (state.version !== boardVersion) loadBoard(state.version);
  else wireBoard();
}

// a slider over the turns of a finished game: each stop shows the board as the turn began
let replayWired = false;
async function wireReplay(version) {
  const r = await fetch(`/api/games/${gameId}/turns`);
  if (!r.ok) { replayWired = false; return; }
  const data = await r.json();
  const stops = data.turns.map((t) => ({ at: t.at, label: t.turn === 0 ? "setup" : `${data.word} ${t.turn} begins` }));
  stops.push({ at: data.answers, label: "the end" });
  const s = $("replay-slider");
  s.min = 0;
  s.max = stops.length - 1;
  s.step = 1;
  s.value = stops.length - 1;
  const show = (load) => {
    const stop = stops[Number(s.value)];
    $("replay-at").textContent = `${stop.label} (answer ${stop.at} of ${data.answers})`;
    if (load) loadBoard(version, stop.at);
  };
  s.oninput = () => show(true);
  show(false);
}

async function refresh() {
  const r = await fetch(`/api/games/${gameId}`, { headers: auth });
  const data = await r.json();
  if (!r.ok) { $("error").textContent = `${r.status}: ${data.detail}`; return; }
  render(data);
}

function connect() {
  const proto = location.protocol === "https:" ? "wss" : "ws";
  const q = token ? `?token=${encodeURIComponent(token)}` : "";
  const ws = new WebSocket(`${proto}://${location.host}/api/games/${gameId}/ws${q}`);
  ws.onmessage = (ev) => render(JSON.parse(ev.data));
  ws.onclose = () => setTimeout(connect, 1500);
}

refresh().then(connect);
