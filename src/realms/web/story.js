// The game's story as this seat may read it: every event (GET /api/games/{id}/events),
// each with its battle and board marks, fetched once and then only the new ones.  A game
// may rewrite its last lines (a run of moves told as one growing line), so each fetch
// starts a few lines back and replaces them.
const OVERLAP = 30;

export class Story {
  constructor(gameId, auth) {
    this.gameId = gameId;
    this.auth = auth;
    this.events = [];
    this.version = -1;
    this.listeners = [];
    this.busy = null;
  }

  // call ``fn(events, fresh)`` after each sync: all events, and the numbers of those new
  onChange(fn) { this.listeners.push(fn); }

  // bring the story to ``version`` (the state shown); one fetch at a time, the last wins
  async sync(version) {
    if (version === this.version) return;
    if (this.busy) { this.want = version; return; }
    this.busy = this._fetch(version);
    try { await this.busy; } finally { this.busy = null; }
    if (this.want !== undefined && this.want !== this.version) {
      const v = this.want;
      this.want = undefined;
      await this.sync(v);
    }
  }

  async _fetch(version) {
    const known = this.events.length;
    let since = Math.max(0, known - OVERLAP);
    const got = [];
    for (;;) {
      const r = await fetch(`/api/games/${this.gameId}/events?since=${since}`, { headers: this.auth });
      if (!r.ok) return;
      const data = await r.json();
      got.push(...data.events);
      since += data.events.length;
      if (since >= data.total || data.events.length === 0) { this.total = data.total; break; }
    }
    const start = Math.max(0, known - OVERLAP);
    const before = this.events.slice(start).map((e) => e.text);
    this.events.splice(start, this.events.length - start, ...got);
    this.events.length = this.total ?? this.events.length;
    // new: past what was known, or a line rewritten
    const fresh = [];
    for (let i = start; i < this.events.length; i++) {
      if (i >= known || before[i - start] !== this.events[i].text) fresh.push(i);
    }
    this.version = version;
    for (const fn of this.listeners) fn(this.events, fresh);
  }
}
