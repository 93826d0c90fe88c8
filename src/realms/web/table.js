// The game's table on the game page (server/host.py): each seat's clock, the bots that
// play for people, table talk, the seat's notices and the host's tools (a rematch is the
// results panel's).  It keeps to its own section and socket (/api/games/{id}/table/ws), beside the game's.  Everything a
// person wrote is shown as text (textContent), never as markup.

import { backoff } from "./reconnect.js";

const $ = (id) => document.getElementById(id);
const gameId = location.pathname.split("/").filter(Boolean).pop();
const params = new URLSearchParams(location.hash.slice(1));
const token = params.get("token");
const hostToken = params.get("host");
const auth = token || hostToken;
const jsonHeaders = { "Content-Type": "application/json", ...(auth ? { Authorization: `Bearer ${auth}` } : {}) };
const TURN_MARK = "▶ your turn · ";

let table = null;      // the last table view
let got = 0;           // when it came (this page's clock, ms)
let names = [];
let mySeat = null;
let awaitingMe = false;

const el = (tag, text, cls) => {
  const e = document.createElement(tag);
  if (text !== undefined) e.textContent = text;
  if (cls) e.className = cls;
  return e;
};
const clockText = (s) => {
  s = Math.max(0, Math.ceil(s));
  const d = Math.floor(s / 86400), h = Math.floor(s / 3600) % 24, m = Math.floor(s / 60) % 60;
  const two = (n) => String(n).padStart(2, "0");
  const hms = h || d ? `${h}:${two(m)}:${two(s % 60)}` : `${m}:${two(s % 60)}`;
  return d ? `${d}d ${hms}` : hms;
};
const nameOf = (seat) => names[seat] || `P${seat + 1}`;

async function send(method, path, body) {
  const r = await fetch(path, { method, headers: jsonHeaders, body: body === undefined ? undefined : JSON.stringify(body) });
  const data = await r.json().catch(() => ({}));
  if (!r.ok) throw new Error(typeof data.detail === "string" ? data.detail : `${r.status}`);
  return data;
}

function say(id, message) { const e = $(id); if (e) e.textContent = message; }

// --- the section -----------------------------------------------------------------------------
function build() {
  const box = el("section");
  box.id = "table-box";
  box.innerHTML = `
    <h2>Table</h2>
    <div id="table-clock"></div>
    <div id="table-bots"></div>
    <h3 class="muted">Talk</h3>
    <ol id="talk-log"></ol>
    <form id="talk-form" hidden>
      <select id="talk-to" aria-label="to whom"></select>
      <input id="talk-text" maxlength="500" placeholder="a message" aria-label="message" autocomplete="off">
      <button type="submit" id="talk-send">Send</button>
    </form>
    <div class="error" id="talk-error"></div>
    <details id="notice-box" hidden><summary>Notices</summary>
      <label><input type="checkbox" id="notice-sound"> a sound when it is my turn</label>
      <button type="button" id="notice-browser">browser notifications</button>
      <label>Webhook (Discord, Slack…) <input id="notice-webhook" type="url" placeholder="https://…"></label>
      <label>E-mail <input id="notice-email" type="email"></label>
      <button type="button" id="notice-save">Save</button>
      <div class="error" id="notice-error"></div>
    </details>
    <details id="host-box" hidden open><summary>Host</summary>
      <button type="button" id="host-pause">Pause clocks</button>
      <button type="button" id="host-resume">Resume clocks</button>
      <label>+<input id="host-minutes" type="number" min="1" value="60" style="width:5rem"> min
        <button type="button" id="host-extend">Extend</button></label>
      <label>New link for <select id="host-seat"></select> <button type="button" id="host-reissue">Make</button></label>
      <button type="button" id="host-end">End the game</button>
      <ul class="links" id="host-links"></ul>
      <div class="error" id="host-error"></div>
    </details>`;
  const side = $("side") || document.querySelector("main") || document.body;
  side.appendChild(box);
  $("talk-form").onsubmit = talk;
  $("notice-save").onclick = saveNotices;
  $("notice-sound").checked = localStorage.getItem("realms-sound") === "1";
  $("notice-sound").onchange = () => localStorage.setItem("realms-sound", $("notice-sound").checked ? "1" : "0");
  $("notice-browser").onclick = () => ("Notification" in window) && Notification.requestPermission();
  for (const action of ["pause", "resume", "extend", "reissue", "end"]) $(`host-${action}`).onclick = () => host(action);
}

// --- drawing the table -----------------------------------------------------------------------
function render(view) {
  table = view;
  got = Date.now();
  const c = view.clock, clockBox = $("table-clock");
  clockBox.innerHTML = "";
  if (c) {
    clockBox.appendChild(el("div", `${c.kind === "bank" ? `time bank ${c.minutes} min + ${c.increment} s a decision`
      : `${c.minutes} min a turn`} · a bot after ${c.misses} missed turn(s)${c.paused ? " · PAUSED" : ""}`, "muted"));
    for (const s of c.seats) {
      const line = el("div", "", "seat-clock");
      line.dataset.seat = s.seat;
      clockBox.appendChild(line);
    }
  }
  const bots = $("table-bots");
  bots.innerHTML = "";
  for (const [seat, kind] of Object.entries(view.bots)) {
    const line = el("div", `A bot (${kind}) plays ${nameOf(Number(seat))}'s seat.`);
    if (Number(seat) === mySeat) {
      const b = el("button", "Take my seat back");
      b.type = "button";
      b.id = "seat-back";
      b.onclick = async () => { try { render(await send("POST", `/api/games/${gameId}/seat/back`)); } catch (e) { say("talk-error", e.message); } };
      line.appendChild(b);
      line.appendChild(el("span", " or answer: your answer takes it back.", "muted"));
    }
    bots.appendChild(line);
  }
  // a seat its person took back by answering (server/host.py): said, each seat's latest
  const back = {};
  for (const s of view.stand_ins || []) if (s.back) back[s.seat] = s;
  for (const [seat, s] of Object.entries(back)) {
    if (s.back !== "answer" || seat in view.bots) continue;
    const who = Number(seat) === mySeat ? "You took your seat" : `${nameOf(Number(seat))} took their seat`;
    const line = el("div", `${who} back from the bot (${s.by}) by answering.`, "muted");
    line.dataset.back = seat;
    bots.appendChild(line);
  }
  if (view.ended) bots.appendChild(el("div", "The host ended the game.", "error"));
  renderTalk(view);
  if (view.notices) {
    $("notice-box").hidden = false;
    if (document.activeElement !== $("notice-webhook")) $("notice-webhook").value = view.notices.webhook || "";
    if (document.activeElement !== $("notice-email")) $("notice-email").value = view.notices.email || "";
  }
  $("host-box").hidden = !view.host;
  const sel = $("host-seat");
  if (view.host && !sel.options.length) for (let i = 0; i < names.length; i++) sel.appendChild(new Option(nameOf(i), i));
  const mine = mySeat !== null && view.awaiting.includes(mySeat) && !(String(mySeat) in view.bots);
  if (mine && !awaitingMe) yourTurn();
  awaitingMe = mine;
  tick();
}

function renderTalk(view) {
  const log = $("talk-log");
  log.innerHTML = "";
  for (const m of view.messages) addMessage(m, false);
  const form = $("talk-form");
  form.hidden = mySeat === null || view.talk === "none" || view.ended;
  if (view.talk === "none") say("talk-error", "The game's creator turned table talk off.");
  const to = $("talk-to");
  if (!to.options.length && mySeat !== null) {
    to.appendChild(new Option("to everyone", ""));
    if (view.talk === "full") for (let i = 0; i < names.length; i++) if (i !== mySeat) to.appendChild(new Option(`to ${nameOf(i)} only`, i));
  }
}

function addMessage(m, scroll = true) {
  const log = $("talk-log");
  const who = m.to === null ? nameOf(m.seat) : `${nameOf(m.seat)} → ${nameOf(m.to)} (private)`;
  const li = el("li");
  li.append(el("b", `${who}: `), el("span", m.text));
  li.dataset.n = m.n;
  const later = [...log.children].find((x) => Number(x.dataset.n) > m.n);  // pushed out of turn by another process
  log.insertBefore(li, later || null);
  if (scroll) log.scrollTop = log.scrollHeight;
}

// each second: the clocks count down from the last view, and the tab's title says a turn
function tick() {
  if (!table) return;
  const c = table.clock;
  if (c) {
    const gone = c.paused ? 0 : (Date.now() - got) / 1000;
    for (const line of document.querySelectorAll("#table-clock .seat-clock")) {
      const s = c.seats[Number(line.dataset.seat)];
      const bot = String(s.seat) in table.bots;
      const left = s.left === null ? null : Math.max(0, s.left - gone);
      line.textContent = `${nameOf(s.seat)}: ${bot ? "a bot plays" : left === null ? "—" : clockText(left)}`
        + (s.misses ? ` · ${s.misses} missed` : "");
      line.dataset.left = left === null ? "" : Math.ceil(left);
      line.classList.toggle("urgent", left !== null && left <= 300);
    }
  }
  const t = document.title;
  if (awaitingMe && !t.startsWith(TURN_MARK)) document.title = TURN_MARK + t;
  if (!awaitingMe && t.startsWith(TURN_MARK)) document.title = t.slice(TURN_MARK.length);
}

function yourTurn() {
  if ($("notice-sound").checked) {
    try {
      const ctx = new AudioContext(), osc = ctx.createOscillator();
      osc.connect(ctx.destination);
      osc.frequency.value = 660;
      osc.start();
      osc.stop(ctx.currentTime + 0.2);
    } catch { /* no sound here */ }
  }
  if ("Notification" in window && Notification.permission === "granted" && document.hidden) {
    new Notification("realms: your turn", { body: `game ${gameId}` });
  }
}

// --- what a person does here ----------------------------------------------------------------
async function talk(ev) {
  ev.preventDefault();
  say("talk-error", "");
  const to = $("talk-to").value;
  try {
    await send("POST", `/api/games/${gameId}/talk`, { text: $("talk-text").value, to: to === "" ? null : Number(to) });
    $("talk-text").value = "";
  } catch (e) { say("talk-error", e.message); }
}

async function saveNotices() {
  say("notice-error", "");
  try {
    render(await send("PUT", `/api/games/${gameId}/notices`,
      { webhook: $("notice-webhook").value || null, email: $("notice-email").value || null }));
    say("notice-error", "saved");
  } catch (e) { say("notice-error", e.message); }
}

async function host(action) {
  say("host-error", "");
  const body = { action };
  if (action === "extend") body.minutes = Number($("host-minutes").value);
  if (action === "reissue") body.seat = Number($("host-seat").value);
  if (action === "end" && !confirm("End the game for everyone?")) return;
  try {
    const view = await send("POST", `/api/games/${gameId}/host`, body);
    render(view);
    if (view.token) link(`New link for ${nameOf(body.seat)} (the old one no longer works)`, `/games/${gameId}#token=${view.token}`);
  } catch (e) { say("host-error", e.message); }
}

function link(label, path) {
  const li = el("li");
  const a = el("a", label);
  a.href = path;
  li.append(a, " ", el("code", `${location.origin}${path}`));
  $("host-links").appendChild(li);
}

// --- the socket ---------------------------------------------------------------------------
const again = backoff();  // when a lost socket is tried again (reconnect.js)
function connect() {
  const proto = location.protocol === "https:" ? "wss" : "ws";
  const q = auth ? `?token=${encodeURIComponent(auth)}` : "";
  const ws = new WebSocket(`${proto}://${location.host}/api/games/${gameId}/table/ws${q}`);
  ws.onopen = () => { again.reset(); };
  ws.onmessage = (ev) => {
    const msg = JSON.parse(ev.data);
    if (msg.type === "talk") {
      // a message may come both in the view sent on connecting and pushed, from another process
      if (table && table.messages.some((m) => m.n === msg.message.n)) return;
      if (table) table.messages.push(msg.message);
      addMessage(msg.message);
    } else render(msg);
  };
  ws.onclose = (ev) => {
    if (ev.code >= 4000 && ev.code < 5000) return say("talk-error", ev.reason || "the server refused this link");
    if (document.body.dataset.failed === "true") return;  // the page said why it stopped: so does the table
    setTimeout(connect, again.wait());
  };
}

async function main() {
  try {
    const r = await fetch(`/api/games/${gameId}`, { headers: token ? { Authorization: `Bearer ${token}` } : {} });
    if (r.status === 403 || r.status === 404) return;  // no such game, or not a seat of it: the page says so
    if (r.ok) {
      const st = await r.json();
      names = st.seats.map((s) => s.name);
      mySeat = st.seat;
    }
  } catch { /* the table shows seats as P1, P2… */ }
  build();
  connect();
  setInterval(tick, 1000);
}

main();
