/* Review workspace, the j/k queue: the page's spans as [id, page, decided, start, score],
 * kept in the page's order (text position, or score under ?order=score) as each answer's
 * patch arrives. j/k, the page jump and P read it; a span with an action in flight reads
 * as decided by that action. */
(function () {
  "use strict";
  const R = window.Review;
  if (!R) return;
  const { pending, markOf } = R;

  let queue = [];
  let queueIndex = new Map();
  try {
    queue = JSON.parse(document.getElementById("review-queue").dataset.queue || "[]");
  } catch (err) {
    queue = [];
  }
  const orderKey = (e) => (R.byScore ? [e[4], e[3]] : [e[3], 0]);
  function before(a, b) {
    const ka = orderKey(a);
    const kb = orderKey(b);
    return ka[0] < kb[0] || (ka[0] === kb[0] && ka[1] < kb[1]);
  }
  function reindex() {
    queueIndex = new Map(queue.map((e, i) => [String(e[0]), i]));
  }
  reindex();
  function patch(change) {
    if (!change) return;
    const drop = new Set((change.remove || []).map(String));
    (change.upsert || []).forEach((e) => drop.add(String(e[0])));
    queue = queue.filter((e) => !drop.has(String(e[0])));
    (change.upsert || []).forEach((e) => {
      let lo = 0;
      let hi = queue.length;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (before(queue[mid], e)) lo = mid + 1;
        else hi = mid;
      }
      queue.splice(lo, 0, e);
    });
    reindex();
  }
  const entryOf = (id) => (queueIndex.has(String(id)) ? queue[queueIndex.get(String(id))] : null);
  function isDecided(e) {
    const id = String(e[0]);
    if (pending.has(id)) return pending.get(id) !== "suggested";
    const m = markOf(id);
    return m ? m.dataset.status !== "suggested" : e[2] === 1;
  }

  R.queue = {
    entries: () => queue,
    indexOf: (id) => queueIndex.get(String(id)), // undefined for a span the queue does not hold
    patch: patch,
    entryOf: entryOf,
    isDecided: isDecided,
  };
})();
