/* Review workspace: linking, synchronised scrolling, keyboard, selection → add.
 *
 * The server renders everything; this file only moves focus, sends htmx requests
 * (htmx.ajax) and keeps the two panes in step. Every action is also reachable without
 * JavaScript through the inspector's plain forms.
 */
(function () {
  "use strict";
  const root = document.getElementById("review");
  if (!root || !window.htmx) return;
  htmx.config.defaultSettleDelay = 0;

  const orig = document.getElementById("original");
  const pseudo = document.getElementById("pseudonymized");
  const canEdit = root.dataset.canEdit === "1";
  const keyLabels = (root.dataset.keyLabels || "").split(",");
  const windows = JSON.parse(root.dataset.windows || "[]"); // [[index, [pages]]]
  const actionUrl = (a) => root.dataset.actionUrl.replace("ACTION", a);

  let current = null; // focused span id (string)
  let currentRef = null;
  let currentLabel = null;
  let prevRef = null; // the group focused before, for "m"
  let linkedRef = null;

  const markOf = (id) => (id ? document.getElementById("s-" + id) : null);
  const byRef = (ref) => document.querySelectorAll('[data-ref="' + CSS.escape(ref) + '"]');

  // --- linking: hover/focus on any [data-ref] lights up every element with that ref ----
  function link(ref) {
    if (ref === linkedRef) return;
    unlink();
    if (!ref) return;
    linkedRef = ref;
    byRef(ref).forEach((el) => el.classList.add("linked"));
  }
  function unlink() {
    if (!linkedRef) return;
    document.querySelectorAll(".linked").forEach((el) => el.classList.remove("linked"));
    linkedRef = null;
  }
  function refOf(el) {
    const t = el && el.closest ? el.closest("[data-ref]") : null;
    return t && t.dataset.ref ? t.dataset.ref : null;
  }
  document.addEventListener("mouseover", (e) => {
    const ref = refOf(e.target);
    if (ref) link(ref);
  });
  document.addEventListener("mouseout", (e) => {
    const from = refOf(e.target);
    const to = refOf(e.relatedTarget);
    if (from && from !== to) link(refOf(document.activeElement) || to);
  });
  document.addEventListener("focusin", (e) => link(refOf(e.target)));

  // --- selecting a span --------------------------------------------------------------
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

  let inspectorTimer = null;
  function loadInspector(id) {
    clearTimeout(inspectorTimer);
    inspectorTimer = setTimeout(() => {
      // A plain fetch (not htmx's per-element queue): a stale answer is dropped, and the
      // element swapped is the one in the page when the answer arrives.
      const url = root.dataset.inspectorUrl + "?span=" + encodeURIComponent(id) + "&" + filterQuery();
      fetch(url, { headers: { "HX-Request": "true" }, credentials: "same-origin" })
        .then((r) => (r.ok ? r.text() : null))
        .then((html) => {
          const old = document.getElementById("inspector");
          if (!html || !old || current !== String(id)) return;
          const tpl = document.createElement("template");
          tpl.innerHTML = html.trim();
          const fresh = tpl.content.firstElementChild;
          if (!fresh) return;
          old.replaceWith(fresh);
          htmx.process(fresh);
        });
    }, 60);
  }

  function select(id, opts) {
    opts = opts || {};
    id = String(id);
    const m = markOf(id);
    if (!m) return false;
    document.querySelectorAll(".current").forEach((el) => el.classList.remove("current"));
    m.classList.add("current");
    const rep = document.getElementById("p-" + id);
    if (rep) rep.classList.add("current");
    const ref = m.dataset.ref || null;
    if (ref && currentRef && ref !== currentRef) prevRef = m.dataset.label === currentLabel ? currentRef : null;
    currentRef = ref;
    currentLabel = m.dataset.label;
    if (prevRef === currentRef) prevRef = null;
    const changed = current !== id;
    current = id;
    m.focus({ preventScroll: true });
    if (opts.scroll !== false) m.scrollIntoView({ block: "center" });
    if (changed && opts.inspector !== false) loadInspector(id);
    mergeHint();
    link(ref);
    return true;
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
  function ensureWindow(index) {
    const el = document.getElementById("wo-" + index);
    if (!el || el.classList.contains("loaded")) return Promise.resolve();
    return new Promise((resolve) => {
      const check = () => {
        const w = document.getElementById("wo-" + index);
        if (w && w.classList.contains("loaded")) finish();
      };
      const finish = () => {
        document.body.removeEventListener("htmx:afterSettle", check);
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(finish, 8000);
      document.body.addEventListener("htmx:afterSettle", check);
      htmx.trigger(el, "loadnow");
    });
  }
  function goTo(id, page) {
    if (select(id)) return Promise.resolve(true);
    return ensureWindow(windowOfPage(Number(page))).then(() => select(id));
  }

  // --- navigation queue (j/k) --------------------------------------------------------
  function queue() {
    const el = document.getElementById("review-queue");
    try {
      return JSON.parse(el.dataset.queue || "[]");
    } catch (err) {
      return [];
    }
  }
  function step(dir) {
    const q = queue();
    if (!q.length) return toast("No spans match the filters.", "info");
    let i = q.findIndex((e) => String(e[0]) === current);
    if (i < 0) {
      const m = markOf(current);
      if (m) {
        const pos = Number(m.dataset.start);
        const starts = q.map((e) => {
          const mm = markOf(e[0]);
          return mm ? Number(mm.dataset.start) : null;
        });
        i = dir > 0 ? -1 : q.length;
        starts.forEach((s, k) => {
          if (s === null) return;
          if (dir > 0 && s < pos) i = k;
          if (dir < 0 && s > pos && i === q.length) i = k;
        });
      } else {
        i = dir > 0 ? -1 : q.length;
      }
    }
    for (i += dir; i >= 0 && i < q.length; i += dir) {
      const [id, page, decided] = q[i];
      const m = markOf(id);
      const isDecided = m ? m.dataset.status !== "suggested" : decided === 1;
      if (!isDecided) return goTo(String(id), page);
    }
    toast("No undecided span " + (dir > 0 ? "after" : "before") + " this one.", "info");
  }

  // --- actions -----------------------------------------------------------------------
  function filterQuery() {
    const form = document.getElementById("filters");
    if (!form) return "";
    const params = new URLSearchParams();
    new FormData(form).forEach((v, k) => {
      if (v) params.append(k, v);
    });
    return params.toString();
  }
  // Actions run one after another (fast typing never drops one); the span's version is
  // read when the request leaves, after the previous answer has been swapped in.
  let chain = Promise.resolve();
  function groupVersion(ref) {
    const li = document.getElementById("e-" + ref);
    return ref + ":" + (li ? li.dataset.version || "" : "");
  }
  function act(action, extra) {
    if (!canEdit) return toast("This transcript is read-only for you.", "error");
    const needsSpan = ["accept", "reject", "relabel", "resize", "delete", "apply_all"].includes(action);
    const id = current;
    if (!markOf(id) && needsSpan) return toast("Select a span first (j or a click).", "info");
    chain = chain
      .then(() => {
        const values = Object.assign({}, extra || {});
        const m = markOf(id);
        if (m) Object.assign(values, { span: id, version: m.dataset.version, focus: id }, extra || {});
        // Merge: the versions of both groups as the entity list shows them (optimistic lock).
        if (values.source && values.target) values.group_version = [values.source, values.target].map(groupVersion);
        return htmx.ajax("POST", actionUrl(action), { values: values, swap: "none", source: root });
      })
      .catch(() => undefined);
    return chain;
  }

  document.body.addEventListener("htmx:configRequest", (e) => {
    if (e.detail.verb !== "post") return;
    const p = e.detail.parameters;
    p["loaded"] = loadedWindows().join(",");
    if (current && !p["focus"]) p["focus"] = current;
    new URLSearchParams(filterQuery()).forEach((v, k) => {
      if (!p[k]) p[k] = v;
    });
  });
  // Conflicts (409), refusals (403) and bad input (400) carry fragments and a message.
  document.body.addEventListener("htmx:beforeSwap", (e) => {
    const s = e.detail.xhr.status;
    if (s === 409 || s === 403 || s === 400) {
      e.detail.shouldSwap = true;
      e.detail.isError = false;
    }
  });
  document.body.addEventListener("htmx:oobErrorNoTarget", (e) => e.preventDefault());
  document.body.addEventListener("htmx:afterSettle", () => {
    const insp = document.getElementById("inspector");
    const focus = insp && insp.dataset.focus;
    if (focus && focus !== current && markOf(focus)) select(focus, { scroll: false, inspector: false });
    const m = markOf(current);
    if (m) {
      m.classList.add("current");
      const rep = document.getElementById("p-" + current);
      if (rep) rep.classList.add("current");
      currentRef = m.dataset.ref || null;
      if (m.dataset.label !== currentLabel) prevRef = null;
      currentLabel = m.dataset.label;
      if (prevRef === currentRef) prevRef = null;
      if (document.activeElement === document.body || !document.activeElement) m.focus({ preventScroll: true });
    }
    if (linkedRef) byRef(linkedRef).forEach((el) => el.classList.add("linked"));
    mergeHint();
    const t = toastEl();
    if (t && t.classList.contains("show")) armToast();
  });

  // --- keyboard ----------------------------------------------------------------------
  document.addEventListener("keydown", (e) => {
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    const t = e.target;
    if (t && t.closest && t.closest("input, textarea, select, [contenteditable=''], [contenteditable='true']")) {
      if (e.key === "Escape") t.blur();
      return;
    }
    if (popoverOpen()) {
      if (e.key === "Escape") return hidePopover();
      if (/^[1-9]$/.test(e.key) && keyLabels[Number(e.key) - 1]) {
        e.preventDefault();
        return addSelection(keyLabels[Number(e.key) - 1]);
      }
      return;
    }
    let handled = true;
    switch (e.key) {
      case "j": step(1); break;
      case "k": step(-1); break;
      case "a": act("accept"); break;
      case "x": act("reject"); break;
      case "u": act("undo"); break;
      case "m":
        if (!currentRef || !prevRef) toast("Select a mention of one group, then one of another group with the same label, then press m.", "info");
        else act("merge", { source: currentRef, target: prevRef });
        break;
      case "/": {
        const s = document.getElementById("search");
        if (s) { s.focus(); s.select(); }
        break;
      }
      case "Escape": hidePopover(); break;
      default:
        if (/^[1-9]$/.test(e.key) && keyLabels[Number(e.key) - 1]) act("relabel", { label: keyLabels[Number(e.key) - 1] });
        else handled = false;
    }
    if (handled) e.preventDefault();
  });

  // --- clicks ------------------------------------------------------------------------
  orig.addEventListener("click", (e) => {
    const m = e.target.closest("mark[data-span-id]");
    if (m && window.getSelection().isCollapsed) select(m.dataset.spanId, { scroll: false });
  });
  pseudo.addEventListener("click", (e) => {
    const r = e.target.closest("[data-span-id]");
    if (r) goTo(r.dataset.spanId, r.closest(".utt") ? r.closest(".utt").dataset.page : 1);
  });
  document.getElementById("entities").parentElement.addEventListener("click", (e) => {
    if (e.target.closest("form, button")) return;
    const li = e.target.closest("li.ent");
    if (!li) return;
    e.preventDefault();
    goTo(li.dataset.firstSpan, li.dataset.page);
  });
  document.addEventListener("keydown", (e) => {
    const li = e.target.closest && e.target.closest("li.ent");
    if (li && e.key === "Enter") goTo(li.dataset.firstSpan, li.dataset.page);
  });

  // --- add a span by selecting text ----------------------------------------------------
  const pop = document.getElementById("add-popover");
  let pending = null;
  const popoverOpen = () => pop && !pop.hidden;
  function hidePopover() {
    if (pop) pop.hidden = true;
    pending = null;
  }
  function offsetIn(container, node, offset) {
    const r = document.createRange();
    r.selectNodeContents(container);
    r.setEnd(node, offset);
    return r.toString().length;
  }
  function utOf(node) {
    const el = node.nodeType === 1 ? node : node.parentElement;
    return el ? el.closest(".ut") : null;
  }
  function checkSelection() {
    const sel = window.getSelection();
    if (!canEdit || !sel || sel.isCollapsed || !sel.rangeCount) return;
    const r = sel.getRangeAt(0);
    const a = utOf(r.startContainer);
    const b = utOf(r.endContainer);
    if (!a || a !== b || !orig.contains(a)) return;
    const base = Number(a.dataset.start);
    const start = base + offsetIn(a, r.startContainer, r.startOffset);
    const end = base + offsetIn(a, r.endContainer, r.endOffset);
    if (end <= start || !sel.toString().trim()) return;
    pending = { start: start, end: end };
    pop.querySelector(".sel-text").textContent = sel.toString().trim().slice(0, 60);
    const rect = r.getBoundingClientRect();
    pop.hidden = false;
    pop.style.left = Math.max(8, Math.min(rect.left, window.innerWidth - pop.offsetWidth - 8)) + "px";
    pop.style.top = Math.min(rect.bottom + 8, window.innerHeight - pop.offsetHeight - 8) + "px";
  }
  function addSelection(label) {
    if (!pending || !label) return;
    const values = { start: pending.start, end: pending.end, label: label };
    hidePopover();
    window.getSelection().removeAllRanges();
    htmx.ajax("POST", actionUrl("add"), { values: values, swap: "none", source: root });
  }
  orig.addEventListener("mouseup", () => setTimeout(checkSelection, 0));
  if (pop) {
    pop.addEventListener("click", (e) => {
      const b = e.target.closest("[data-add-label]");
      if (b) addSelection(b.dataset.addLabel);
    });
    pop.querySelector("[data-add-select]").addEventListener("change", (e) => addSelection(e.target.value));
  }
  document.addEventListener("mousedown", (e) => {
    if (popoverOpen() && !pop.contains(e.target)) hidePopover();
  });

  // --- synchronised scrolling ----------------------------------------------------------
  let ignore = null;
  function twin(id) {
    const map = { "uo-": "up-", "up-": "uo-", "wo-": "wp-", "wp-": "wo-" };
    const prefix = id.slice(0, 3);
    return map[prefix] ? map[prefix] + id.slice(3) : null;
  }
  function anchor(pane) {
    const box = pane.getBoundingClientRect();
    let el = document.elementFromPoint(box.left + box.width / 2, box.top + 6);
    if (!el || !pane.contains(el)) return null;
    if (el.classList.contains("pagebreak")) el = el.nextElementSibling;
    return el ? el.closest(".utt, .win") : null;
  }
  function sync(from, to) {
    if (ignore === from) {
      ignore = null;
      return;
    }
    const a = anchor(from);
    const b = a && a.id ? document.getElementById(twin(a.id)) : null;
    if (!b) return;
    const ra = a.getBoundingClientRect();
    const frac = (from.getBoundingClientRect().top - ra.top) / Math.max(ra.height, 1);
    const rb = b.getBoundingClientRect();
    const target = to.scrollTop + (rb.top - to.getBoundingClientRect().top) + frac * rb.height;
    if (Math.abs(to.scrollTop - target) > 1) {
      ignore = to;
      to.scrollTop = target;
    }
  }
  function onScroll(from, to) {
    let queued = false;
    return () => {
      if (queued) return;
      queued = true;
      requestAnimationFrame(() => {
        queued = false;
        sync(from, to);
      });
    };
  }
  orig.addEventListener("scroll", onScroll(orig, pseudo), { passive: true });
  pseudo.addEventListener("scroll", onScroll(pseudo, orig), { passive: true });

  // --- start ---------------------------------------------------------------------------
  const initial = new URLSearchParams(location.search).get("span");
  if (initial) select(initial, { inspector: false });
  root.dataset.ready = "1";
})();
