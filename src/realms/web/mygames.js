// "My games": the seats this browser was given (created in the lobby, opened from a link,
// a rematch), kept in localStorage so that a closed tab does not lose a seat; the lobby
// lists them with each seat's link and the game's status.
const KEY = "realms-my-games";
const KEPT = 50;

export function myGames() {
  try {
    const list = JSON.parse(localStorage.getItem(KEY) || "[]");
    return Array.isArray(list) ? list : [];
  } catch {
    return [];
  }
}

// keep the seats ``[{seat, token}]`` of game ``id`` (of the game ``game``), newest first
export function remember(id, game, seats) {
  const list = myGames();
  const old = list.find((g) => g.id === id);
  const merged = old ? old.seats.filter((s) => !seats.some((x) => x.seat === s.seat)).concat(seats) : seats;
  const entry = { id, game, seats: merged.sort((a, b) => a.seat - b.seat), at: old?.at ?? Date.now() };
  const rest = list.filter((g) => g.id !== id);
  try {
    localStorage.setItem(KEY, JSON.stringify([entry, ...rest].slice(0, KEPT)));
  } catch { /* a browser without storage keeps no list */ }
}

export function forget(id) {
  localStorage.setItem(KEY, JSON.stringify(myGames().filter((g) => g.id !== id)));
}

// the list in ``ul``: a line per game, its status (``statusOf(id)``) and each seat's link
export function drawMyGames(ul, nameOf, statusOf) {
  ul.innerHTML = "";
  const list = myGames();
  ul.parentElement.hidden = list.length === 0;
  for (const g of list) {
    const li = document.createElement("li");
    li.dataset.id = g.id;
    li.append(`${nameOf(g.game)} ${g.id}`);
    const status = document.createElement("span");
    status.className = "status muted";
    const s = statusOf(g.id);
    if (s) status.textContent = ` (${s})`;
    li.appendChild(status);
    for (const s of g.seats) {
      const a = document.createElement("a");
      a.href = `/games/${g.id}#token=${s.token}`;
      a.className = "my-seat";
      a.textContent = `seat ${s.seat + 1}`;
      li.append(" · ", a);
    }
    const x = document.createElement("button");
    x.type = "button";
    x.textContent = "forget";
    x.setAttribute("aria-label", `forget game ${g.id} in this browser`);
    x.onclick = () => { forget(g.id); drawMyGames(ul, nameOf, statusOf); };
    li.append(" ", x);
    ul.appendChild(li);
  }
}
