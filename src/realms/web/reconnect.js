// When a page's socket comes back after it closed.  A process that stopped or died has its
// games taken by another within a second (leases, docs/architecture.md), and a proxy
// without stickiness sends the page's next try to a live one: so the first try comes
// within a second, at a moment drawn at random so that the pages of a process do not all
// come back at once; each failed try doubles the wait, up to 30 s.
// benchmarks/bench_processes.py's pages wait the same (PAGE_AGAIN).
export const FIRST_MS = [250, 1000];
export const LAST_MS = 30000;

export function backoff() {
  let next = null;
  return {
    // the wait before the next try, in ms
    wait() {
      const ms = next ?? FIRST_MS[0] + Math.random() * (FIRST_MS[1] - FIRST_MS[0]);
      next = Math.min(ms * 2, LAST_MS);
      return ms;
    },
    // the socket is open again: the next loss starts from the first wait
    reset() { next = null; },
  };
}
