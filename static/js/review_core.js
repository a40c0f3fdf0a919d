/* Review workspace, the ground its scripts share (window.Review): the page's elements, the
 * filters, the focus, the decisions in flight, the one-at-a-time request line and the
 * messages. The other parts build on it in this order (their deferred <script> tags keep
 * it; each uses only what the ones before it define):
 *   review_panes.js   linking, synchronised scrolling, the add popover (window.ReviewPanes)
 *   review_core.js    this file
 *   review_queue.js   the j/k queue of spans
 *   review_marks.js   a decision shown at once; the server's attribute patch
 *   review_focus.js   focus, the inspector, lazy windows, j/k and page navigation
 *   review_actions.js actions, the outbox, merge, decisions on many spans
 *   review_keys.js    the keyboard, clicks, and the start
 * Fast typing stays right: focus moves only on a key or a click (never when an answer or
 * a window arrives); each action carries the span focused when its key was pressed and
 * reads its version when it leaves; a/x show their decision at once and mark the span
 * pending, so j/k and auto-advance skip it. Without JavaScript the forms still work. */
(function () {
  "use strict";
  const root = document.getElementById("review");
  if (!root || !window.htmx || !window.ReviewPanes) return;
  htmx.config.defaultSettleDelay = 0;

  // Filters are the page's query string (never an action's body).
  const FILTER_KEYS = ["undecided", "label", "detector", "order", "q"];
  function filterQuery() {
    const here = new URLSearchParams(location.search);
    const params = new URLSearchParams();
    FILTER_KEYS.forEach((k) => here.get(k) && params.set(k, here.get(k)));
    return params.toString();
  }
  const actionUrl = (a) => root.dataset.actionUrl.replace("ACTION", a) + "?" + filterQuery();

  // The focus, moved only by the user (a key or a click).
  const focus = {
    current: null, // focused span id (string)
    ref: null, // its group
    label: null, // its label
    prevRef: null, // the group focused before, for "m"
    moves: 0, // counts focus moves made by the user
  };
  const pending = new Map(); // span id → status an action in flight will give it

  // One request at a time (a server with one worker, or SQLite, never sees two of this
  // page's requests at once). Actions and windows go first, in order; the inspector,
  // which only informs, waits until they are done.
  const waiting = [];
  let running = false;
  function pump() {
    if (running || !waiting.length) return;
    let pick = waiting.findIndex((w) => w.urgent);
    if (pick < 0) pick = 0;
    const job = waiting.splice(pick, 1)[0];
    running = true;
    Promise.resolve()
      .then(job.fn)
      .then(job.resolve, job.reject)
      .finally(() => {
        running = false;
        pump();
      });
  }
  function serial(fn, urgent) {
    return new Promise((resolve, reject) => {
      waiting.push({ fn: fn, resolve: resolve, reject: reject, urgent: urgent !== false });
      pump();
    });
  }

  // --- messages ------------------------------------------------------------------------
  const toastEl = () => document.getElementById("toast");
  let toastTimer = null;
  function toast(message, level) {
    const el = toastEl();
    if (!el) return;
    el.textContent = message;
    el.className = "toast show toast-" + (level || "info");
    armToast();
  }
  function armToast() {
    clearTimeout(toastTimer);
    toastTimer = setTimeout(() => toastEl() && toastEl().classList.remove("show"), 4500);
  }
  // A message shown when a swap lands (the answer's toast) stays its full time from now.
  function rearmToast() {
    const t = toastEl();
    if (t && t.classList.contains("show")) armToast();
  }

  window.Review = {
    root: root,
    orig: document.getElementById("original"),
    pseudo: document.getElementById("pseudonymized"),
    panes: window.ReviewPanes,
    canEdit: root.dataset.canEdit === "1",
    labelKeys: JSON.parse(root.dataset.labelKeys || "{}"), // key → label, every label
    byScore: root.dataset.order === "score",
    windows: JSON.parse(root.dataset.windows || "[]"), // [[index, [pages]]]
    filterQuery: filterQuery,
    actionUrl: actionUrl,
    focus: focus,
    pending: pending,
    serial: serial,
    requestsPending: () => running || waiting.length > 0,
    markOf: (id) => (id ? document.getElementById("s-" + id) : null),
    repOf: (id) => (id ? document.getElementById("p-" + id) : null),
    toast: toast,
    rearmToast: rearmToast,
  };
})();
