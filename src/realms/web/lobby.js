// The lobby: create a game (game, seats, options, seed), hand out the seats' links, spectate.
const $ = (id) => document.getElementById(id);
let catalog = [];

function currentGame() { return catalog.find((g) => g.id === $("game").value); }

function seatRow(i, kind) {
  const g = currentGame();
  const label = document.createElement("label");
  label.textContent = `Seat ${i + 1} `;
  const sel = document.createElement("select");
  sel.className = "seat-kind";
  for (const k of g.seat_kinds) {
    const o = document.createElement("option");
    o.value = o.textContent = k;
    sel.appendChild(o);
  }
  sel.value = kind;
  label.appendChild(sel);
  return label;
}

function defaultBot(g) {
  if (g.seat_kinds.includes("auto")) return "auto";
  if (g.seat_kinds.includes("greedy")) return "greedy";
  return "random";
}

function resetSeats() {
  const g = currentGame();
  const box = $("seats");
  box.innerHTML = "";
  const n = Math.max(g.min_players, Math.min(4, g.max_players));
  for (let i = 0; i < n; i++) box.appendChild(seatRow(i, i === 0 ? "human" : defaultBot(g)));
  $("hb-options").hidden = g.id !== "hy-breasil";
}

function seatKinds() { return [...document.querySelectorAll(".seat-kind")].map((s) => s.value); }

async function loadRecent() {
  const r = await fetch("/api/games");
  const data = await r.json();
  const ul = $("recent");
  ul.innerHTML = "";
  for (const g of data.games) {
    const li = document.createElement("li");
    const a = document.createElement("a");
    a.href = `/games/${g.id}`;
    a.textContent = `${g.game} ${g.id}`;
    li.appendChild(a);
    li.append(` — ${g.seats.join(", ")}`);
    ul.appendChild(li);
  }
}

async function create(ev) {
  ev.preventDefault();
  $("create-error").textContent = "";
  const g = currentGame();
  let options = {};
  const extra = $("options-json").value.trim();
  if (extra) {
    try { options = JSON.parse(extra); } catch (e) { $("create-error").textContent = `options: ${e.message}`; return; }
  }
  if (g.id === "hy-breasil") {
    if ($("turns").value) options.turns = Number($("turns").value);
    const rules = [...document.querySelectorAll(".rule:checked")].map((c) => c.value);
    if (rules.length) options.rules = rules;
    if ($("variant").value) options.variant = $("variant").value;
  }
  const body = { game: g.id, options, seats: seatKinds() };
  if ($("seed").value !== "") body.seed = Number($("seed").value);
  const r = await fetch("/api/games", {
    method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body),
  });
  const data = await r.json();
  if (r.status !== 201) {
    const d = data.detail;
    $("create-error").textContent = typeof d === "string" ? d : JSON.stringify(d);
    return;
  }
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
  const li = document.createElement("li");
  const a = document.createElement("a");
  a.href = `/games/${data.id}`;
  a.textContent = "Spectate";
  li.appendChild(a);
  ul.appendChild(li);
  loadRecent();
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
  sel.value = catalog.some((g) => g.id === "hy-breasil") ? "hy-breasil" : catalog[0].id;
  for (const rule of ["races", "submission", "abilities"]) {
    const l = document.createElement("label");
    l.innerHTML = `<input type="checkbox" class="rule" value="${rule}"> ${rule}`;
    $("rules").appendChild(l);
  }
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
  loadRecent();
}

main();
