// The end of a game, played out or ended by its host (``state.ended``: the table as it
// stood, no winner the game did not name): the final table, the winner and how the victory
// came (the game's result), each player's path (the scores as each turn began: GET /api/games/{id}/scores),
// a Rematch (POST /api/games/{id}/rematch: the same seats and bots, a new deal; each seat
// gets its own seat of it) and the way back to the lobby.
import { remember } from "./mygames.js";
import { seatColour } from "./palette.js";

const NS = "http://www.w3.org/2000/svg";
// told apart by the line's dash and its end marker, not by colour alone
const DASHES = ["", "6 3", "2 3", "8 3 2 3", "12 4", "1 4"];
const SHAPES = ["●", "■", "▲", "◆", "▼", "✚"];

const el = (tag, cls, text) => {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
};

// what the result says beyond the scores: how the game ended in words (``how``) when the
// game says it so, else the ways a game's result names its victory
function howWon(result) {
  const bits = [];
  for (const key of typeof result.how === "string" && result.how ? ["how"] : ["victory", "end", "reason"]) {
    if (typeof result[key] === "string" && result[key]) bits.push(result[key]);
  }
  if (result.turns !== undefined) bits.push(`after ${result.turns} ${result.turn_word || "turns"}`);
  return bits.join("; ");
}

// ``palette``: the game's own seat colours (the catalog's), the chart's lines drawn in the
// palette chosen for the board, as the board draws each seat
export async function showResults(box, state, gameId, auth, palette) {
  if (box.dataset.shown === String(state.version)) return;
  box.dataset.shown = state.version;
  box.hidden = false;
  box.innerHTML = "";
  const r = state.result || {};
  const names = state.seats.map((s) => s.name);
  box.appendChild(el("h2", "", state.ended ? "The host ended the game" : "The game is over"));
  const winner = r.winner ? `${r.winner} wins` : (r.winners || []).length ? `Shared victory: ${r.winners.join(", ")}`
    : state.ended ? "No winner: the host ended the game before its end" : "No winner";
  const how = howWon(r);
  box.appendChild(el("p", "winner", how ? `${winner} (${how}).` : `${winner}.`));
  const table = el("table", "final");
  const cap = el("caption", "", state.ended ? "The table as it stood" : "Final table");
  table.appendChild(cap);
  const head = el("tr");
  for (const h of ["", "player", "seat", state.score_name]) head.appendChild(el("th", "", h));
  table.appendChild(head);
  const order = names.map((n, i) => i).sort((a, b) => (state.scores[b] ?? 0) - (state.scores[a] ?? 0));
  order.forEach((i, place) => {
    const tr = el("tr");
    if ((r.winners || [r.winner]).includes(names[i])) tr.className = "won";
    for (const c of [`${place + 1}.`, `${SHAPES[i % SHAPES.length]} ${names[i]}`, state.seats[i].label || state.seats[i].kind, state.scores[i] ?? ""]) {
      tr.appendChild(el("td", "", String(c)));
    }
    table.appendChild(tr);
  });
  box.appendChild(table);
  const chart = el("figure", "path-chart");
  box.appendChild(chart);
  const actions = el("p", "results-actions");
  if (state.seat !== null) {
    const again = el("button", "primary", "Rematch");
    again.type = "button";
    again.id = "rematch";
    again.title = "The same game, seats and bots, a new deal; you keep your seat";
    again.onclick = async () => {
      again.disabled = true;
      const res = await fetch(`/api/games/${gameId}/rematch`, { method: "POST", headers: auth });
      const data = await res.json().catch(() => ({}));
      if (!res.ok) {
        again.disabled = false;
        actions.appendChild(el("span", "error", `${res.status}: ${data.detail || "the rematch was refused"}`));
        return;
      }
      remember(data.id, state.game, [{ seat: data.seat, token: data.token }]);
      location.href = `/games/${data.id}#token=${data.token}`;
    };
    actions.appendChild(again);
  }
  const back = el("a", "button-link", "Back to the lobby");
  back.href = "/";
  actions.appendChild(back);
  box.appendChild(actions);
  const res = await fetch(`/api/games/${gameId}/scores`);
  if (res.ok) drawPath(chart, await res.json(), names, palette);
}

// the chart's lines repainted in the palette chosen now
export function repaintPath(box, palette) {
  for (const line of box.querySelectorAll(".path-chart [data-seat]")) {
    const colour = seatColour(Number(line.dataset.seat), palette) || "#000";
    line.setAttribute(line.tagName === "text" ? "fill" : "stroke", colour);
  }
}

function drawPath(fig, data, names, palette) {
  const turns = data.turns;
  if (!turns.length) return;
  const W = 320, H = 160, L = 34, B = 22, R = 20; // R: room for the last turn's label
  const max = Math.max(1, ...turns.flatMap((t) => t.scores));
  const x = (i) => L + (turns.length === 1 ? 0 : (i * (W - L - R)) / (turns.length - 1));
  const y = (v) => H - B - (v / max) * (H - B - 8);
  const svg = document.createElementNS(NS, "svg");
  svg.setAttribute("viewBox", `0 0 ${W} ${H}`);
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", `Each player's score by ${data.word}: ` +
    names.map((n, p) => `${n} ${turns.map((t) => t.scores[p]).join(", ")}`).join("; "));
  let body = `<line x1="${L}" y1="${H - B}" x2="${W}" y2="${H - B}" stroke="#444"/><line x1="${L}" y1="4" x2="${L}" y2="${H - B}" stroke="#444"/>`;
  body += `<text x="${L - 4}" y="${y(max) + 4}" text-anchor="end" font-size="10">${max}</text><text x="${L - 4}" y="${H - B}" text-anchor="end" font-size="10">0</text>`;
  turns.forEach((t, i) => { body += `<text x="${x(i)}" y="${H - 6}" text-anchor="middle" font-size="10">${t.turn}</text>`; });
  names.forEach((n, p) => {
    const pts = turns.map((t, i) => `${x(i)},${y(t.scores[p] ?? 0)}`).join(" ");
    const colour = seatColour(p, palette) || "#000";
    body += `<polyline class="path" data-seat="${p}" points="${pts}" fill="none" stroke="${colour}" stroke-width="2" stroke-dasharray="${DASHES[p % DASHES.length]}"/>`;
    const last = turns.length - 1;
    body += `<text x="${x(last) - 2}" y="${y(turns[last].scores[p] ?? 0) + 4}" text-anchor="end" font-size="11" data-seat="${p}" fill="${colour}">${SHAPES[p % SHAPES.length]}</text>`;
  });
  svg.innerHTML = body;
  fig.appendChild(svg);
  const cap = el("figcaption", "", `Score by ${data.word} (${names.map((n, p) => `${SHAPES[p % SHAPES.length]} ${n}`).join(", ")})`);
  fig.appendChild(cap);
  fig.dataset.points = turns.length;
}
