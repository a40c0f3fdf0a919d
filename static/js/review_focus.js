/* Review workspace, the focus and where it goes: the inspector that follows it, painting
 * and revealing the focused span in both panes, the lazy windows (pages) a span may wait
 * for, what every swap keeps (the user's focus, the decisions in flight), and j/k and
 * page navigation with auto-advance. */
(function () {
  "use strict";
  const R = window.Review;
  if (!R) return;
  const { root, orig, pseudo, panes, focus, pending, serial, markOf, repOf, toast, queue } = R;
  const { link, setScroll, calibrate } = panes;

  // --- the inspector (a plain fetch: a stale answer is dropped) ------------------------
  let inspectorTimer = null;
  function loadInspector(id, delay) {
    clearTimeout(inspectorTimer);
    inspectorTimer = setTimeout(() => {
      inspectorTimer = null;
      const url = root.dataset.inspectorUrl + "?span=" + encodeURIComponent(id) + "&" + R.filterQuery();
      serial(() => (focus.current === String(id) ? fetch(url, { headers: { "HX-Request": "true" }, credentials: "same-origin" }) : null), false)
        .then((r) => (r && r.ok ? r.text() : null))
        .then((html) => {
          const old = document.getElementById("inspector");
          if (!html || !old || focus.current !== String(id)) return;
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
    if (ref && focus.ref && ref !== focus.ref) focus.prevRef = m.dataset.label === focus.label ? focus.ref : null;
    focus.ref = ref;
    focus.label = m.dataset.label;
    if (focus.prevRef === focus.ref) focus.prevRef = null;
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
    focus.moves += 1;
    const changed = focus.current !== id;
    focus.current = id;
    if (changed) loadInspector(id);
    if (show(id, opts)) return Promise.resolve(true);
    paint(id);
    const e = queue.entryOf(id);
    const p = page || (e ? e[1] : 1);
    return ensureWindow(windowOfPage(Number(p))).then(() => (focus.current === id ? show(id, opts) : false));
  }
  function mergeHint() {
    const el = document.getElementById("merge-hint");
    if (el) el.textContent = focus.prevRef && focus.ref ? "(" + focus.ref + " → " + focus.prevRef + ")" : "";
  }

  // After any swap: keep the user's focus painted; a swap never moves it.
  function afterSwap() {
    const current = focus.current;
    if (current) {
      paint(current);
      const m = markOf(current);
      if (m) {
        if (pending.has(current)) m.classList.add("pending");
        focus.ref = m.dataset.ref || null;
        if (m.dataset.label !== focus.label) focus.prevRef = null;
        focus.label = m.dataset.label;
        if (focus.prevRef === focus.ref) focus.prevRef = null;
        const active = document.activeElement;
        if (!active || active === document.body) m.focus({ preventScroll: true });
      }
    }
    let n = 0;
    pending.forEach((_s, id) => {
      const m = markOf(id);
      if (m) m.classList.add("pending");
      n += R.optimistic(id);
    });
    R.bumpCounter(n);
    panes.relink();
    mergeHint();
    R.rearmToast();
  }

  // --- windows (lazy pages) ----------------------------------------------------------
  function windowOfPage(page) {
    for (const [index, pages] of R.windows) if (pages.includes(page)) return index;
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
  // A window's answer replaces its section from the server, then what a swap keeps.
  const reloadWindow = (win) =>
    serial(() => htmx.ajax("GET", win.dataset.url, { target: win, swap: "outerHTML", source: win })).then(afterSwap);

  // --- navigation (j/k, pages) ---------------------------------------------------------
  let lastStart = -1; // text position of the focus, for spans the queue does not hold
  function step(dir) {
    const entries = queue.entries();
    if (!entries.length) return toast("No spans match the filters.", "info");
    let i = queue.indexOf(focus.current);
    if (i === undefined) {
      const m = markOf(focus.current);
      const pos = m ? Number(m.dataset.start) : lastStart;
      if (R.byScore || pos < 0) i = dir > 0 ? -1 : entries.length;
      else {
        let lo = 0;
        let hi = entries.length;
        while (lo < hi) {
          const mid = (lo + hi) >> 1;
          if (entries[mid][3] < pos) lo = mid + 1;
          else hi = mid;
        }
        i = dir > 0 ? lo - 1 : lo;
      }
    }
    for (i += dir; i >= 0 && i < entries.length; i += dir) {
      const e = entries[i];
      if (!queue.isDecided(e)) {
        lastStart = e[3];
        return focusSpan(e[0], e[1]);
      }
    }
    toast("No undecided span " + (dir > 0 ? "after" : "before") + " this one.", "info");
  }
  function goToPage(page) {
    page = Number(page);
    if (!page) return;
    const first = queue.entries().find((e) => e[1] === page && !queue.isDecided(e));
    if (first) return focusSpan(first[0], page);
    return ensureWindow(windowOfPage(page)).then(() => {
      const brk = orig.querySelector('.pagebreak[data-page="' + page + '"]') || orig.querySelector('.utt[data-page="' + page + '"]');
      if (brk) {
        orig.scrollTop += brk.getBoundingClientRect().top - orig.getBoundingClientRect().top;
      }
    });
  }
  // Auto-advance (kept per browser): after a decision the focus moves on to the next
  // undecided span.
  const autoAdvance = document.getElementById("auto-advance");
  if (autoAdvance) {
    autoAdvance.checked = localStorage.getItem("review.autoAdvance") !== "0";
    autoAdvance.addEventListener("change", () => {
      localStorage.setItem("review.autoAdvance", autoAdvance.checked ? "1" : "0");
      autoAdvance.blur();
    });
  }
  function advance() {
    if (autoAdvance && autoAdvance.checked) step(1);
  }

  Object.assign(R, {
    loadInspector: loadInspector,
    inspectorPending: () => inspectorTimer !== null,
    focusSpan: focusSpan,
    afterSwap: afterSwap,
    windowOfPage: windowOfPage,
    loadedWindows: loadedWindows,
    ensureWindow: ensureWindow,
    windowsLoading: () => loading.size > 0,
    reloadWindow: reloadWindow,
    step: step,
    goToPage: goToPage,
    advance: advance,
  });
})();
