/* Review workspace, the user's hands: the keyboard (j/k, a/x, u, m, A/X/P, [ ] { }, label
 * keys, shift+arrows selecting words to add), the page jump, clicks on marks, tags,
 * entity rows and the minimap; then the start (the popover's wiring, the focus of
 * ?span=, data-ready). */
(function () {
  "use strict";
  const R = window.Review;
  if (!R) return;
  const { root, orig, pseudo, panes, focus, labelKeys, serial, markOf, toast, act, focusSpan, step, goToPage } = R;
  const { setScroll, popoverOpen, hidePopover, addSelection } = panes;
  const dialog = document.getElementById("merge-dialog");

  function decide(action) {
    if (!focus.current) return toast("Select a span first (j or a click).", "info");
    act(action);
    R.advance();
  }
  function resize(values) {
    if (!focus.current) return toast("Select a span first (j or a click).", "info");
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
    let at = 0; // code points before m.index (the server's offsets), counted as we go
    let last = 0;
    while ((m = re.exec(text))) {
      at += panes.cpLength(text.slice(last, m.index));
      last = m.index;
      const w = m[0].replace(/[.'’\-]+$/, "");
      out.push([base + at, base + at + panes.cpLength(w)]);
    }
    return out;
  }
  function firstVisibleUt() {
    const box = orig.getBoundingClientRect();
    return Array.from(orig.querySelectorAll(".win.loaded .ut")).find((ut) => ut.getBoundingClientRect().bottom > box.top + 4) || null;
  }
  function selectWords(dir) {
    if (!R.canEdit) return toast("This transcript is read-only for you.", "error");
    if (!kbSel || !document.body.contains(kbSel.ut)) {
      const m = markOf(focus.current);
      const ut = m ? m.closest(".ut") : firstVisibleUt();
      if (!ut) return;
      const words = wordsOf(ut);
      let i;
      if (m) {
        const start = Number(m.dataset.start);
        const end = start + panes.cpLength(m.textContent);
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

  // --- keyboard ----------------------------------------------------------------------
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
        if (!focus.ref || !focus.prevRef) toast("Select a mention of one group, then one of another group with the same label, then press m.", "info");
        else R.openMerge(focus.ref, focus.prevRef, focus.current);
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
      case "A": R.bulkGroup("accept_all"); break;
      case "X": R.bulkGroup("reject_all"); break;
      case "P": R.acceptPage(); break;
      case "f": location.href = root.dataset.formsUrl + (focus.label ? "?label=" + encodeURIComponent(focus.label) : ""); break;
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
    if (b) return R.openMerge(b.dataset.mergeSource, b.dataset.mergeTarget, focus.current);
    const cell = e.target.closest && e.target.closest("#minimap a.mm");
    if (cell) {
      e.preventDefault();
      goToPage(cell.dataset.page);
    }
  });

  panes.init({ canEdit: R.canEdit, onAdd: (values) => act("add", values) });

  // --- start ---------------------------------------------------------------------------
  panes.calibrate();
  const initial = new URLSearchParams(location.search).get("span");
  if (initial) focusSpan(initial);
  root.dataset.ready = "1";
})();
