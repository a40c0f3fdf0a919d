/* Review workspace: focus, keys, the request queue and actions (panes: review_panes.js).
 * Fast typing stays right: focus moves only on a key or a click (never when an answer or
 * a window arrives); each action carries the span focused when its key was pressed and
 * reads its version when it leaves; a/x show their decision at once and mark the span
 * pending, so j/k and auto-advance skip it. Without JavaScript the forms still work. */
(function () {
  "use strict";
  const root = document.getElementById("review");
  if (!root || !window.htmx || !window.ReviewPanes) return;
  htmx.config.defaultSettleDelay = 0;

  const orig = document.getElementById("original");
  const pseudo = document.getElementById("pseudonymized");
  const canEdit = root.dataset.canEdit === "1";
  const labelKeys = JSON.parse(root.dataset.labelKeys || "{}"); // key → label, every label
  const byScore = root.dataset.order === "score";
  const windows = JSON.parse(root.dataset.windows || "[]"); // [[index, [pages]]]

  // Filters are the page's query string (never an action's body).
  const FILTER_KEYS = ["undecided", "label", "detector", "order", "q"];
  function filterQuery() {
    const here = new URLSearchParams(location.search);
    const params = new URLSearchParams();
    FILTER_KEYS.forEach((k) => here.get(k) && params.set(k, here.get(k)));
    return params.toString();
  }
  const actionUrl = (a) => root.dataset.actionUrl.replace("ACTION", a) + "?" + filterQuery();

  let current = null; // focused span id (string)
  let currentRef = null;
  let currentLabel = null;
  let prevRef = null; // the group focused before, for "m"
  let navSeq = 0; // counts focus moves made by the user
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

  const markOf = (id) => (id ? document.getElementById("s-" + id) : null);
  const repOf = (id) => (id ? document.getElementById("p-" + id) : null);
  const panes = window.ReviewPanes;
  const { link, setScroll, calibrate, popoverOpen, hidePopover, addSelection } = panes;
  // (panes.selectOffsets: the keyboard's word selection)

  // --- the j/k queue: [id, page, decided, start, score], kept in order here -------------
  let queue = [];
  let queueIndex = new Map();
  try {
    queue = JSON.parse(document.getElementById("review-queue").dataset.queue || "[]");
  } catch (err) {
    queue = [];
  }
  const orderKey = (e) => (byScore ? [e[4], e[3]] : [e[3], 0]);
  function before(a, b) {
    const ka = orderKey(a);
    const kb = orderKey(b);
    return ka[0] < kb[0] || (ka[0] === kb[0] && ka[1] < kb[1]);
  }
  function reindex() {
    queueIndex = new Map(queue.map((e, i) => [String(e[0]), i]));
  }
  reindex();
  function patchQueue(patch) {
    if (!patch) return;
    const drop = new Set((patch.remove || []).map(String));
    (patch.upsert || []).forEach((e) => drop.add(String(e[0])));
    queue = queue.filter((e) => !drop.has(String(e[0])));
    (patch.upsert || []).forEach((e) => {
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

  // --- the inspector (a plain fetch: a stale answer is dropped) ------------------------
  let inspectorTimer = null;
  function loadInspector(id, delay) {
    clearTimeout(inspectorTimer);
    inspectorTimer = setTimeout(() => {
      inspectorTimer = null;
      const url = root.dataset.inspectorUrl + "?span=" + encodeURIComponent(id) + "&" + filterQuery();
      serial(() => (current === String(id) ? fetch(url, { headers: { "HX-Request": "true" }, credentials: "same-origin" }) : null), false)
        .then((r) => (r && r.ok ? r.text() : null))
        .then((html) => {
          const old = document.getElementById("inspector");
          if (!html || !old || current !== String(id)) return;
          const tpl = document.createElement("template");
          tpl.innerHTML = html.trim();
          const fresh = tpl.content.firstElementChild;
          if (fresh) old.replaceWith(fresh);
        });
    }, delay === undefined ? 60 : delay);
  }

  // --- focus ---------------------------------------------------------------------------
  function reveal(el, pane) {
    if (!el || !pane) return;
    const box = pane.getBoundingClientRect();
    const r = el.getBoundingClientRect();
    const margin = Math.min(80, box.height / 5);
    if (r.top >= box.top + margin && r.bottom <= box.bottom - margin) return;
    setScroll(pane, pane.scrollTop + r.top - box.top - box.height / 3);
  }
  function twinLine(m) {
    const line = m.closest(".utt");
    return line ? document.getElementById("up-" + line.dataset.utt) : null;
  }
  function paint(id) {
    document.querySelectorAll(".current").forEach((el) => {
      if (el.id !== "s-" + id && el.id !== "p-" + id) el.classList.remove("current");
    });
    const m = markOf(id);
    if (m) m.classList.add("current");
    const rep = repOf(id);
    if (rep) rep.classList.add("current");
  }
  function show(id, opts) {
    const m = markOf(id);
    if (!m) return false;
    paint(id);
    const ref = m.dataset.ref || null;
    if (ref && currentRef && ref !== currentRef) prevRef = m.dataset.label === currentLabel ? currentRef : null;
    currentRef = ref;
    currentLabel = m.dataset.label;
    if (prevRef === currentRef) prevRef = null;
    m.focus({ preventScroll: true });
    if (!opts || opts.scroll !== false) {
      reveal(m, orig);
      reveal(repOf(id) || twinLine(m), pseudo);
    }
    mergeHint();
    link(ref);
    return true;
  }
  // The user moves focus to ``id`` (a key or a click). A span in a window not loaded yet
  // becomes the focus at once; it is shown when its window arrives, if still focused.
  function focusSpan(id, page, opts) {
    id = String(id);
    navSeq += 1;
    const changed = current !== id;
    current = id;
    if (changed) loadInspector(id);
    if (show(id, opts)) return Promise.resolve(true);
    paint(id);
    const e = entryOf(id);
    const p = page || (e ? e[1] : 1);
    return ensureWindow(windowOfPage(Number(p))).then(() => (current === id ? show(id, opts) : false));
  }

  function mergeHint() {
    const el = document.getElementById("merge-hint");
    if (el) el.textContent = prevRef && currentRef ? "(" + currentRef + " → " + prevRef + ")" : "";
  }

  // --- windows (lazy pages) ----------------------------------------------------------
  function windowOfPage(page) {
    for (const [index, pages] of windows) if (pages.includes(page)) return index;
    return 0;
  }
  function loadedWindows() {
    return Array.from(orig.querySelectorAll(".win.loaded")).map((el) => el.dataset.window);
  }
  // A window is in when both panes hold its lines (the pseudonymized section comes out of
  // band in the same answer). One whose answer failed, was aborted or left a pane short is
  // asked for again (three tries), then once more whenever it comes into view again.
  function windowIn(index) {
    const o = document.getElementById("wo-" + index);
    const p = document.getElementById("wp-" + index);
    if (!o || !p) return true; // no such window
    if (!o.classList.contains("loaded") || !p.classList.contains("loaded")) return false;
    return o.querySelectorAll(".utt").length === p.querySelectorAll(".utt").length;
  }
  const loading = new Map();
  const quiet = new WeakSet(); // windows re-observed after their tries (see below)
  const TRIES = 3;
  function ensureWindow(index) {
    if (windowIn(index)) return Promise.resolve();
    if (loading.has(index)) return loading.get(index);
    let tries = 0;
    const attempt = () =>
      serial(() => {
        const w = document.getElementById("wo-" + index);
        if (windowIn(index) || !w.dataset.url) return null;
        return htmx.ajax("GET", w.dataset.url, { target: w, swap: "outerHTML", source: w });
      })
        .catch(() => undefined)
        .then(() => (windowIn(index) || ++tries >= TRIES ? null : attempt()));
    const p = attempt().then(() => {
      loading.delete(index);
      afterSwap();
      calibrate();
      const w = document.getElementById("wo-" + index);
      if (w && !windowIn(index)) {
        seen.unobserve(w);
        quiet.add(w); // its first report is where it is now: only a new visit asks again
        seen.observe(w);
      }
    });
    loading.set(index, p);
    return p;
  }
  // Windows load as they come near the viewport (through the same one-at-a-time queue).
  const seen = new IntersectionObserver(
    (entries) =>
      entries.forEach((e) => {
        if (quiet.delete(e.target)) return;
        if (e.isIntersecting) ensureWindow(Number(e.target.dataset.window));
      }),
    { root: orig, rootMargin: "300px 0px" }
  );
  orig.querySelectorAll(".win:not(.loaded)").forEach((w) => seen.observe(w));
  // --- navigation (j/k, pages) ---------------------------------------------------------
  let lastStart = -1; // text position of the focus, for spans the queue does not hold
  function step(dir) {
    if (!queue.length) return toast("No spans match the filters.", "info");
    let i = queueIndex.has(String(current)) ? queueIndex.get(String(current)) : undefined;
    if (i === undefined) {
      const m = markOf(current);
      const pos = m ? Number(m.dataset.start) : lastStart;
      if (byScore || pos < 0) i = dir > 0 ? -1 : queue.length;
      else {
        let lo = 0;
        let hi = queue.length;
        while (lo < hi) {
          const mid = (lo + hi) >> 1;
          if (queue[mid][3] < pos) lo = mid + 1;
          else hi = mid;
        }
        i = dir > 0 ? lo - 1 : lo;
      }
    }
    for (i += dir; i >= 0 && i < queue.length; i += dir) {
      const e = queue[i];
      if (!isDecided(e)) {
        lastStart = e[3];
        return focusSpan(e[0], e[1]);
      }
    }
    toast("No undecided span " + (dir > 0 ? "after" : "before") + " this one.", "info");
  }
  function goToPage(page) {
    page = Number(page);
    if (!page) return;
    const first = queue.find((e) => e[1] === page && !isDecided(e));
    if (first) return focusSpan(first[0], page);
    return ensureWindow(windowOfPage(page)).then(() => {
      const brk = orig.querySelector('.pagebreak[data-page="' + page + '"]') || orig.querySelector('.utt[data-page="' + page + '"]');
      if (brk) {
        orig.scrollTop += brk.getBoundingClientRect().top - orig.getBoundingClientRect().top;
      }
    });
  }

  // --- actions -----------------------------------------------------------------------
  // Actions run one after another (fast typing never drops one). Each carries the span
  // focused when its key was pressed; its version is read when the request leaves, after
  // the previous answer has been swapped in.
  let chain = Promise.resolve();
  let busy = 0;
  // For tests and the benchmark: anything still to be sent, answered or shown.
  window.__reviewBusy = () => busy > 0 || loading.size > 0 || running || waiting.length > 0 || inspectorTimer !== null;
  let tickets = 0;
  const lastTicket = new Map(); // span id → the latest action sent for it
  const laterOn = (id, ticket) => (lastTicket.get(id) || 0) > ticket;
  const SPAN_ACTIONS = ["accept", "reject", "relabel", "resize", "delete", "apply_all"];
  // Nothing typed is lost: actions not sent yet wait here; leaving the page asks first
  // while any action is unanswered, and sends what is still queued in one request that
  // outlives the page (``fetch`` with ``keepalive``; the server runs them in order).
  const outbox = [];
  const inFlight = new Set(); // span ids of actions sent and not answered
  let flushed = false;
  function unsent(entry) {
    const i = outbox.indexOf(entry);
    if (i >= 0) outbox.splice(i, 1);
  }
  function flushOutbox() {
    if (flushed || !outbox.length) return;
    flushed = true;
    const seen = new Set(inFlight);
    const items = outbox.splice(0).map((q) => {
      const values = Object.assign({}, q.extra);
      const m = markOf(q.id);
      if (q.id) values.span = q.id;
      if (m) values.version = m.dataset.version;
      if (q.id && seen.has(q.id)) values.version_after = "1"; // an earlier action on it may land first
      if (q.id) seen.add(q.id);
      return { action: q.action, values: values };
    });
    fetch(root.dataset.batchUrl, {
      method: "POST",
      keepalive: true,
      credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-CSRFToken": csrfToken() },
      body: JSON.stringify({ actions: items }),
    }).catch(() => undefined);
  }
  function csrfToken() {
    try {
      return JSON.parse(document.body.getAttribute("hx-headers") || "{}")["X-CSRFToken"] || "";
    } catch (err) {
      return "";
    }
  }
  window.addEventListener("beforeunload", (e) => {
    if (busy > 0) {
      e.preventDefault();
      e.returnValue = "Some of your decisions are still being saved.";
    }
  });
  window.addEventListener("pagehide", flushOutbox);
  window.__reviewOutbox = () => outbox.length;
  function act(action, extra, opts) {
    if (!canEdit) return toast("This transcript is read-only for you.", "error");
    extra = Object.assign({}, extra || {});
    const id = extra.span ? String(extra.span) : current;
    if (!id && SPAN_ACTIONS.includes(action)) return toast("Select a span first (j or a click).", "info");
    let counted = 0;
    if (id && (action === "accept" || action === "reject" || action === "relabel")) {
      const m = markOf(id);
      pending.set(id, action === "reject" ? "rejected" : "accepted"); // relabel accepts too
      if (m) m.classList.add("pending");
      if (action === "relabel") showLabel(id, extra.label);
      counted = optimistic(id);
      bumpCounter(counted);
    }
    const pressedAt = navSeq;
    const ticket = ++tickets;
    if (id) lastTicket.set(id, ticket);
    const queued = { action: action, extra: extra, id: id, ticket: ticket };
    outbox.push(queued);
    busy += 1;
    chain = chain
      .then(() => {
        const e = entryOf(id);
        return id && !markOf(id) && e ? ensureWindow(windowOfPage(e[1])) : null;
      })
      .then(() => {
        const values = Object.assign({}, extra);
        const m = markOf(id);
        if (id) values.span = id;
        if (m) values.version = m.dataset.version; // the version now, not the form's
        values.loaded = loadedWindows().join(",");
        return serial(() => {
          if (flushed) return null; // sent with the page's last batch (it was left)
          unsent(queued);
          inFlight.add(id);
          return htmx.ajax("POST", actionUrl(action), { values: values, swap: "none", source: root });
        });
      })
      .finally(() => inFlight.delete(id))
      .then(() => {
        queued.status = lastStatus;
      })
      // no answer to swap (5xx), or a refusal that changed nothing (400, 403): the window
      // is loaded again, so an a/x/relabel shown at once is taken back (a bulk action
      // takes back its own: ``bulk``)
      .then(() => (!(opts && opts.bulk) && (lastStatus >= 500 || lastStatus === 400 || lastStatus === 403) && id ? refreshWindowOf(id, counted) : null))
      .finally(() => {
        // This action is answered: its span shows the server's state from now on, unless
        // a later key on the same span is still on its way.
        const target = action === "accept" || action === "relabel" ? "accepted" : action === "reject" ? "rejected" : null;
        if (id && target && pending.get(id) === target && !laterOn(id, ticket)) {
          pending.delete(id);
          const m = markOf(id);
          if (m) m.classList.remove("pending");
        }
      })
      .then(() => answered(action, id, pressedAt))
      .catch(() => undefined)
      .finally(() => {
        busy -= 1;
      });
    return chain.then(() => queued.status);
  }
  // a/x show their decision at once in both panes and the counter; the answer then
  // replaces these elements with the server's (a refusal brings the truth back).
  function optimistic(id) {
    const status = pending.get(id);
    const m = markOf(id);
    const was = m && m.dataset.status;
    if (!m || !status || was === status || was === "added" || was === "rejected") return 0;
    m.dataset.status = status;
    m.classList.replace("st-" + was, "st-" + status);
    const rep = repOf(id);
    if (rep && status === "rejected") {
      const kept = document.createElement("span");
      kept.className = "kept";
      kept.id = "k-" + id;
      kept.textContent = m.textContent;
      rep.replaceWith(kept);
    } else if (rep) rep.classList.replace("st-" + was, "st-" + status);
    return was === "suggested" ? 1 : 0;
  }
  // A relabel shows its new label at once in both panes (the tag's number comes with the
  // answer: "[LOCATION_…]"); the answer then replaces both elements with the server's.
  function showLabel(id, label) {
    const m = markOf(id);
    const old = m && m.dataset.label;
    if (!m || !label || old === label) return;
    m.dataset.label = label;
    m.classList.replace("lab-" + old, "lab-" + label);
    const rep = repOf(id);
    if (rep) {
      rep.dataset.label = label;
      rep.classList.replace("lab-" + old, "lab-" + label);
      rep.textContent = "[" + label + "_…]";
    }
  }
  function bumpCounter(n) {
    const p = document.getElementById("progress");
    if (!n || !p) return;
    const decided = Number(p.dataset.decided) + n;
    p.dataset.decided = String(decided);
    const strong = p.querySelector("strong");
    if (strong) strong.textContent = String(decided);
  }
  // Spans whose extent did not change come as attributes, not markup
  // ([id, label, status, version, ref, replacement or null when kept, other classes]):
  // the mark takes them and its twin in the pseudonymized pane is rebuilt, exactly as
  // the server draws it (annotations/views/review_lines.py).
  function applySpanPatch() {
    const el = document.getElementById("span-patch");
    if (!el || !el.dataset.spans) return;
    let rows = [];
    try {
      rows = JSON.parse(el.dataset.spans);
    } catch (err) {
      rows = [];
    }
    el.dataset.spans = "";
    for (const [id, label, status, version, ref, rep, extra] of rows) {
      const m = markOf(String(id));
      if (!m) continue;
      m.className = "span lab-" + label + " st-" + status + (extra ? " " + extra : "");
      m.dataset.label = label;
      m.dataset.status = status;
      m.dataset.version = String(version);
      m.dataset.ref = ref;
      const old = document.getElementById("p-" + id) || document.getElementById("k-" + id);
      if (!old) continue;
      const twin = document.createElement("span");
      if (rep === null) {
        twin.className = "kept";
        twin.id = "k-" + id;
        twin.dataset.keptId = String(id);
        twin.title = label + " rejected: kept";
        twin.textContent = m.textContent;
      } else {
        twin.className = "rep lab-" + label + " st-" + status;
        twin.id = "p-" + id;
        twin.dataset.spanId = String(id);
        twin.dataset.ref = ref;
        twin.dataset.label = label;
        twin.textContent = rep;
      }
      old.replaceWith(twin);
    }
  }
  function answered(action, id, pressedAt) {
    applySpanPatch();
    afterSwap();
    const patch = document.getElementById("queue-patch");
    if (patch && patch.dataset.patch) {
      try {
        patchQueue(JSON.parse(patch.dataset.patch));
      } catch (err) {
        /* a malformed patch leaves the queue as it was */
      }
      patch.dataset.patch = "";
    }
    const result = document.getElementById("action-result");
    const touched = new Set(((result && result.dataset.touched) || "").split(",").filter(Boolean));
    const target = result && result.dataset.focus;
    // Undo and add bring their span into view, unless the user moved on meanwhile.
    if ((action === "undo" || action === "add") && target && navSeq === pressedAt && result.dataset.status === "ok") {
      return focusSpan(target);
    }
    // accept/reject change only the inspector's status line (swapped with the answer)
    const statusOnly = action === "accept" || action === "reject";
    if (current && !statusOnly && (touched.has(current) || current === id)) loadInspector(current, 150);
  }

  // After any swap: keep the user's focus painted; a swap never moves it.
  function afterSwap() {
    if (current) {
      paint(current);
      const m = markOf(current);
      if (m) {
        if (pending.has(current)) m.classList.add("pending");
        currentRef = m.dataset.ref || null;
        if (m.dataset.label !== currentLabel) prevRef = null;
        currentLabel = m.dataset.label;
        if (prevRef === currentRef) prevRef = null;
        const active = document.activeElement;
        if (!active || active === document.body) m.focus({ preventScroll: true });
      }
    }
    let n = 0;
    pending.forEach((_s, id) => {
      const m = markOf(id);
      if (m) m.classList.add("pending");
      n += optimistic(id);
    });
    bumpCounter(n);
    panes.relink();
    mergeHint();
    const t = toastEl();
    if (t && t.classList.contains("show")) armToast();
  }
  // Conflicts (409), refusals (403) and bad input (400) carry fragments and a message.
  document.body.addEventListener("htmx:beforeSwap", (e) => {
    const s = e.detail.xhr.status;
    if (s === 409 || s === 403 || s === 400) {
      e.detail.shouldSwap = true;
      e.detail.isError = false;
    }
  });
  // A failed action (no answer to swap) may leave a decision shown that was not saved:
  // the span's window is loaded again from the server.
  let lastStatus = 0;
  document.body.addEventListener("htmx:afterRequest", (e) => {
    lastStatus = e.detail.xhr ? e.detail.xhr.status : 0;
  });
  function refreshWindowOf(id, counted) {
    const m = markOf(id);
    const win = m && m.closest(".win");
    pending.delete(id);
    bumpCounter(-counted);
    if (!win || !win.dataset.url) return null;
    return serial(() => htmx.ajax("GET", win.dataset.url, { target: win, swap: "outerHTML", source: win })).then(afterSwap);
  }
  document.body.addEventListener("htmx:responseError", (e) => {
    const s = e.detail.xhr.status;
    if (s >= 500) toast("The server could not do this (error " + s + "); nothing was changed. Try again.", "error");
  });
  // --- merge: always asks first, showing both groups' surface forms ----------------------
  const dialog = document.getElementById("merge-dialog");
  function openMerge(source, target, span) {
    if (!dialog) return;
    const q = new URLSearchParams({ source: source, target: target, span: span || "" });
    serial(() => fetch(root.dataset.mergeUrl + "?" + q.toString(), { headers: { "HX-Request": "true" }, credentials: "same-origin" }))
      .then((r) => (r.ok ? r.text() : Promise.reject(r)))
      .then((html) => {
        document.getElementById("merge-body").innerHTML = html;
        dialog.returnValue = "";
        dialog.showModal();
        const ok = document.getElementById("merge-confirm-button");
        if (ok) ok.focus();
      })
      .catch(() => toast("That group no longer exists.", "error"));
  }
  if (dialog) {
    dialog.addEventListener("close", () => {
      const form = dialog.querySelector("form.merge-confirm");
      if (dialog.returnValue === "merge" && form) {
        // The versions of both groups as the dialog showed them (optimistic lock).
        const groupVersion = (form.dataset.groupVersions || "").split(",");
        act("merge", { source: form.dataset.source, target: form.dataset.target, span: form.dataset.span || current, group_version: groupVersion });
      }
    });
  }

  // --- forms of the inspector and the entity list go through the same queue ------------
  document.addEventListener("submit", (e) => {
    const form = e.target;
    if (!form.matches || !form.matches("form[data-action]")) return;
    e.preventDefault();
    if (form.dataset.confirm && !window.confirm(form.dataset.confirm)) return;
    const values = {};
    new FormData(form, e.submitter || null).forEach((v, k) => {
      if (k !== "csrfmiddlewaretoken") values[k] = v;
    });
    if (form.dataset.action === "accept_all") values.confirm = "yes";
    if (form.hasAttribute("data-merge-form")) return openMerge(values.source, values.target, values.span);
    // (a form's own data-confirm asked above: size 0 asks nothing more)
    if (form.hasAttribute("data-group-action")) {
      const status = form.dataset.action === "reject_all" ? "rejected" : "accepted";
      return bulk(form.dataset.action, values, byRefMarks(values.entity), status, 0);
    }
    if (form.dataset.action === "accept_page") {
      const marks = orig.querySelectorAll('.utt[data-page="' + values.page + '"] mark[data-span-id]');
      return bulk("accept_page", values, marks, "accepted", 0);
    }
    act(form.dataset.action, values);
  });
  const undoForm = document.getElementById("undo-button");
  if (undoForm) undoForm.closest("form").addEventListener("submit", (e) => e.preventDefault() || act("undo"));

  // --- keyboard ----------------------------------------------------------------------
  const autoAdvance = document.getElementById("auto-advance");
  if (autoAdvance) {
    autoAdvance.checked = localStorage.getItem("review.autoAdvance") !== "0";
    autoAdvance.addEventListener("change", () => {
      localStorage.setItem("review.autoAdvance", autoAdvance.checked ? "1" : "0");
      autoAdvance.blur();
    });
  }
  function decide(action) {
    if (!current) return toast("Select a span first (j or a click).", "info");
    act(action);
    if (autoAdvance && autoAdvance.checked) step(1);
  }
  // --- decisions on many spans: a group, the rest of a page (one undo step each) ----------
  // They show at once on the loaded marks and move the focus on like a/x; above the
  // threshold they ask first, below it the answer's toast offers undo.
  const confirmAbove = Number(root.dataset.confirmAbove || 200);
  function markAll(marks, status) {
    const ids = [];
    let counted = 0;
    marks.forEach((m) => {
      if (m.dataset.status !== "suggested" || pending.has(m.dataset.spanId)) return;
      const id = m.dataset.spanId;
      pending.set(id, status);
      m.classList.add("pending");
      counted += optimistic(id);
      ids.push(id);
    });
    bumpCounter(counted);
    ids.counted = counted;
    return ids;
  }
  function settle(ids, status) {
    ids.forEach((id) => {
      if (pending.get(id) !== status) return;
      pending.delete(id);
      const m = markOf(id);
      if (m) m.classList.remove("pending");
    });
  }
  function bulk(action, values, marks, status, size) {
    if (!canEdit) return toast("This transcript is read-only for you.", "error");
    if (size > confirmAbove && !window.confirm((status === "rejected" ? "Reject " : "Accept ") + size + " suggestions at once?")) return;
    const ids = markAll(marks, status);
    values = Object.assign({ confirm: "yes" }, values);
    const done = act(action, values, { bulk: true });
    if (autoAdvance && autoAdvance.checked) step(1);
    return Promise.resolve(done).then((answer) => {
      const failed = !answer || answer >= 400;
      settle(ids, status);
      if (!failed) return null;
      // refused or failed: nothing was decided; the shown decisions are taken back (a
      // refusal's answer brought the server's counter; without an answer, undo the bump)
      if (!answer || answer >= 500) bumpCounter(-ids.counted);
      const wins = new Set(ids.map((id) => markOf(id) && markOf(id).closest(".win")).filter(Boolean));
      return Promise.all(Array.from(wins).map((win) =>
        serial(() => htmx.ajax("GET", win.dataset.url, { target: win, swap: "outerHTML", source: win })).then(afterSwap)
      ));
    });
  }
  function groupSize(ref) {
    const f = document.querySelector('#inspector input[name=entity][value="' + CSS.escape(ref) + '"]');
    const b = f && f.form.querySelector("[data-accept-all-ref]");
    const n = b ? Number((/all (\d+)/.exec(b.textContent) || [0, 0])[1]) : 0;
    return n || Array.from(byRefMarks(ref)).filter((m) => m.dataset.status === "suggested").length;
  }
  const byRefMarks = (ref) => orig.querySelectorAll('mark[data-ref="' + CSS.escape(ref) + '"]');
  function bulkGroup(action, ref) {
    ref = ref || currentRef;
    if (!current || !ref) return toast("Select a mention of a group first (j or a click).", "info");
    return bulk(action, { entity: ref, span: current }, byRefMarks(ref), action === "reject_all" ? "rejected" : "accepted", groupSize(ref));
  }
  function pageOfFocus() {
    const m = markOf(current);
    const line = m && m.closest(".utt");
    if (line) return Number(line.dataset.page);
    const e = entryOf(current);
    return e ? e[1] : null;
  }
  function acceptPage(page) {
    page = page || pageOfFocus();
    if (!page) return toast("Select a span on the page first (j or a click).", "info");
    const marks = orig.querySelectorAll('.utt[data-page="' + page + '"] mark[data-span-id]');
    const size = queue.filter((e) => e[1] === page && !isDecided(e)).length;
    return bulk("accept_page", { page: page, span: current || "" }, marks, "accepted", size);
  }
  function resize(values) {
    if (!current) return toast("Select a span first (j or a click).", "info");
    act("resize", values);
  }

  // --- keyboard selection: shift+arrows select words from the focused position; a label
  // key adds them (the same popover as a mouse selection) ----------------------------------
  let kbSel = null; // {ut, words, anchor, head}: word indexes in the utterance
  function wordsOf(ut) {
    const base = Number(ut.dataset.start);
    const text = ut.textContent;
    const out = [];
    const re = /[\p{L}\p{N}][\p{L}\p{N}'’.\-]*/gu;
    let m;
    while ((m = re.exec(text))) {
      const w = m[0].replace(/[.'’\-]+$/, "");
      out.push([base + m.index, base + m.index + w.length]);
    }
    return out;
  }
  function firstVisibleUt() {
    const box = orig.getBoundingClientRect();
    return Array.from(orig.querySelectorAll(".win.loaded .ut")).find((ut) => ut.getBoundingClientRect().bottom > box.top + 4) || null;
  }
  function selectWords(dir) {
    if (!canEdit) return toast("This transcript is read-only for you.", "error");
    if (!kbSel || !document.body.contains(kbSel.ut)) {
      const m = markOf(current);
      const ut = m ? m.closest(".ut") : firstVisibleUt();
      if (!ut) return;
      const words = wordsOf(ut);
      let i;
      if (m) {
        const start = Number(m.dataset.start);
        const end = start + m.textContent.length;
        i = dir > 0 ? words.findIndex((w) => w[0] >= end) : words.map((w) => w[1] <= start).lastIndexOf(true);
      } else i = 0;
      if (i < 0 || !words.length) return toast("No word " + (dir > 0 ? "after" : "before") + " this one on its line.", "info");
      kbSel = { ut: ut, words: words, anchor: i, head: i };
    } else {
      const next = kbSel.head + dir;
      if (next < 0 || next >= kbSel.words.length) return;
      kbSel.head = next;
    }
    const a = kbSel.words[Math.min(kbSel.anchor, kbSel.head)];
    const b = kbSel.words[Math.max(kbSel.anchor, kbSel.head)];
    panes.selectOffsets(kbSel.ut, a[0], b[1]);
  }

  function toEdge(top) {
    [orig, pseudo].forEach((pane) => setScroll(pane, top ? 0 : pane.scrollHeight - pane.clientHeight));
  }
  document.addEventListener("keydown", (e) => {
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    if (dialog && dialog.open) return; // the dialog's own keys: Enter, Esc
    const t = e.target;
    if (t && t.closest && t.closest("input, textarea, select, [contenteditable=''], [contenteditable='true']")) {
      if (e.key === "Escape") t.blur();
      return;
    }
    if (e.shiftKey && (e.key === "ArrowRight" || e.key === "ArrowLeft")) {
      e.preventDefault();
      return selectWords(e.key === "ArrowRight" ? 1 : -1);
    }
    if (popoverOpen()) {
      if (e.key === "Escape") {
        kbSel = null;
        window.getSelection().removeAllRanges();
        return hidePopover();
      }
      if (labelKeys[e.key]) {
        e.preventDefault();
        kbSel = null;
        return addSelection(labelKeys[e.key]);
      }
      return;
    }
    if (t && t.closest && t.closest("li.ent") && e.key === "Enter") {
      const li = t.closest("li.ent");
      focusSpan(li.dataset.firstSpan, li.dataset.page);
      return e.preventDefault();
    }
    let handled = true;
    switch (e.key) {
      case "j": step(1); break;
      case "k": step(-1); break;
      case "a": decide("accept"); break;
      case "x": decide("reject"); break;
      case "u": act("undo"); break;
      case "m":
        if (!currentRef || !prevRef) toast("Select a mention of one group, then one of another group with the same label, then press m.", "info");
        else openMerge(currentRef, prevRef, current);
        break;
      case "g": {
        const g = document.getElementById("goto-input");
        if (g) { g.focus(); g.select(); }
        break;
      }
      case "/": {
        const s = document.getElementById("search");
        if (s) { s.focus(); s.select(); }
        break;
      }
      case "Home": toEdge(true); break;
      case "End": toEdge(false); break;
      case "Escape": hidePopover(); break;
      case "A": bulkGroup("accept_all"); break;
      case "X": bulkGroup("reject_all"); break;
      case "P": acceptPage(); break;
      case "f": location.href = root.dataset.formsUrl + (currentLabel ? "?label=" + encodeURIComponent(currentLabel) : ""); break;
      case "[": resize({ edge: "left" }); break;
      case "]": resize({ edge: "right" }); break;
      case "{": resize({ edge_shrink: "left" }); break;
      case "}": resize({ edge_shrink: "right" }); break;
      default:
        if (labelKeys[e.key]) act("relabel", { label: labelKeys[e.key] });
        else handled = false;
    }
    if (handled) e.preventDefault();
  });
  const gotoForm = document.getElementById("goto-page");
  if (gotoForm) {
    gotoForm.addEventListener("submit", (e) => {
      e.preventDefault();
      const input = document.getElementById("goto-input");
      goToPage(input.value);
      input.blur();
    });
  }

  // --- clicks ------------------------------------------------------------------------
  orig.addEventListener("click", (e) => {
    const m = e.target.closest("mark[data-span-id]");
    if (m && window.getSelection().isCollapsed) focusSpan(m.dataset.spanId, null, { scroll: false });
  });
  pseudo.addEventListener("click", (e) => {
    const r = e.target.closest("[data-span-id]");
    if (r) focusSpan(r.dataset.spanId, r.closest(".utt") ? r.closest(".utt").dataset.page : 1);
  });
  document.getElementById("entities").parentElement.addEventListener("click", (e) => {
    if (e.target.closest("form, button")) return;
    const li = e.target.closest("li.ent");
    if (!li) return;
    e.preventDefault();
    focusSpan(li.dataset.firstSpan, li.dataset.page);
  });
  document.addEventListener("click", (e) => {
    if (e.target.closest && e.target.closest("[data-toast-undo]")) return act("undo");
    const targets = e.target.closest && e.target.closest("a[data-merge-targets]");
    if (targets) {
      e.preventDefault();
      const slot = document.getElementById("merge-slot");
      serial(() => fetch(targets.href, { headers: { "HX-Request": "true" }, credentials: "same-origin" }))
        .then((r) => (r.ok ? r.text() : Promise.reject(r)))
        .then((html) => {
          const tpl = document.createElement("template");
          tpl.innerHTML = html.trim();
          const form = tpl.content.firstElementChild;
          if (!form || !slot || !document.body.contains(slot)) return;
          slot.replaceWith(form);
          const select = form.querySelector("select");
          if (select) select.focus();
        })
        .catch(() => toast("That span no longer exists.", "error"));
      return;
    }
    const b = e.target.closest && e.target.closest("[data-merge-target]");
    if (b) return openMerge(b.dataset.mergeSource, b.dataset.mergeTarget, current);
    const cell = e.target.closest && e.target.closest("#minimap a.mm");
    if (cell) {
      e.preventDefault();
      goToPage(cell.dataset.page);
    }
  });

  panes.init({ canEdit: canEdit, onAdd: (values) => act("add", values) });

  // --- start ---------------------------------------------------------------------------
  calibrate();
  const initial = new URLSearchParams(location.search).get("span");
  if (initial) focusSpan(initial);
  root.dataset.ready = "1";
})();
