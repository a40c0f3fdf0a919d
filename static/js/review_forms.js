/* The surface-form table: j/k move between forms, a/x accept/reject every mention of the
 * focused form and move on to the next open one, r (or 1–9) relabels every mention of it,
 * A accepts the rest of the label, c confirms the focused form's carried proposal and C
 * every carried proposal of the label (each one input, one undo step), o shows every occurrence, h/l switch labels, u undoes,
 * Esc goes back to the review. A label whose mentions are all decided moves on to the
 * next label with open ones (then back to the review). Actions go one at a time (fast
 * typing never drops one); a row shows its decision at once and the server's answer
 * redraws it. Without JavaScript the forms still post.
 * With a row's occurrences open (o), ↓/↑ move between its occurrences and a/x/r/1–9
 * decide the marked occurrence alone, [ ] { } grow or shrink it by a word (each its own
 * undo step); o or Esc closes the list. [ / ] on a row widen its one open mention by the
 * word it shows beside it ("◂ word").
 * "Label ▾" on a row or an occurrence opens a menu of every label (mouse relabel). */
(function () {
  "use strict";
  const root = document.getElementById("forms-page");
  if (!root || !window.htmx) return;
  htmx.config.defaultSettleDelay = 0;
  const canEdit = root.dataset.canEdit === "1";
  const list = document.getElementById("forms");
  const rows = () => Array.from(list.querySelectorAll("li.fm-row"));
  const rowById = (id) => (id ? document.getElementById(id) : null);
  let current = null; // focused row id
  let occ = null; // the marked occurrence's span id (in the focused row's open list)

  // --- one request at a time, in order ---------------------------------------------------
  let chain = Promise.resolve();
  let busy = 0;
  window.__formsBusy = () => busy > 0;
  // the forms whose occurrence list is open: the answer redraws them open
  const openForms = () =>
    rows().filter((r) => { const o = r.querySelector(".fm-occ"); return o && !o.hidden; }).map((r) => r.dataset.form);
  // ``values`` may be a function: read when the request leaves (after the answers before
  // it), so that a decision typed right after another posts the span's new version
  function post(action, values) {
    busy += 1;
    const url = root.dataset.actionUrl.replace("ACTION", action);
    chain = chain
      .then(() => {
        const v = typeof values === "function" ? values() : values;
        if (v === null) return undefined; // its occurrence is gone meanwhile
        v.open = openForms().join("\n");
        return htmx.ajax("POST", url, { values: v, swap: "none", source: root });
      })
      .catch(() => undefined)
      .finally(() => {
        busy -= 1;
        afterSwap();
        if (action !== "undo" && busy === 0) moveOn();
      });
    return chain;
  }
  // A label whose every mention is decided: on to the next label with open mentions, and
  // back to the review once none is left (like a/x move the focus on). Not at once: keys
  // typed after the last decision (an undo, say) would reach a page that is going away and
  // be lost, so it waits until the keyboard has been quiet for a moment, and any key or
  // click in between keeps the page (its own answer moves on again when it decides).
  const MOVE_ON_AFTER_MS = 700;
  let moveTimer = null;
  function stayHere() {
    if (moveTimer === null) return;
    clearTimeout(moveTimer);
    moveTimer = null;
    delete root.dataset.movingOn;
  }
  function moveOn() {
    stayHere();
    const on = document.querySelector(".fm-tab.on");
    if (!on || !on.classList.contains("done")) return;
    const tabs = Array.from(document.querySelectorAll(".fm-tab"));
    const i = tabs.indexOf(on);
    const next = tabs.slice(i + 1).concat(tabs.slice(0, i)).find((t) => !t.classList.contains("done"));
    root.dataset.movingOn = next ? next.dataset.label : "review";
    moveTimer = setTimeout(() => {
      moveTimer = null;
      if (busy === 0) location.href = next ? next.href : root.dataset.reviewUrl;
    }, MOVE_ON_AFTER_MS);
  }
  document.body.addEventListener("htmx:beforeSwap", (e) => {
    const s = e.detail.xhr.status;
    if (s === 400 || s === 403 || s === 409) {
      e.detail.shouldSwap = true;
      e.detail.isError = false;
    }
  });
  // A widened form's row is drawn after the row it came from (``afterend``): a row of
  // that form still on the page (kept as "moved" by an undo) is replaced, not doubled.
  document.body.addEventListener("htmx:oobBeforeSwap", (e) => {
    const frag = e.detail.fragment;
    const li = frag && frag.querySelector ? frag.querySelector("li.fm-row") : null;
    const stale = li && li.id ? document.getElementById(li.id) : null;
    if (stale && stale !== e.detail.target) stale.remove();
  });
  document.body.addEventListener("htmx:responseError", (e) => {
    if (e.detail.xhr.status >= 500) toast("The server could not do this; reload the page to see what was saved.", "error");
  });
  let toastTimer = null;
  function toast(message, level) {
    const el = document.getElementById("toast");
    if (!el) return;
    el.textContent = message;
    el.className = "toast show toast-" + (level || "info");
    clearTimeout(toastTimer);
    toastTimer = setTimeout(() => el.classList.remove("show"), 6000);
  }
  function afterSwap() {
    const el = document.getElementById("toast");
    if (el && el.classList.contains("show")) {
      clearTimeout(toastTimer);
      toastTimer = setTimeout(() => el.classList.remove("show"), 6000);
    }
    if (current) paint(current);
    paintOcc();
  }

  // --- focus -----------------------------------------------------------------------------
  function paint(id) {
    list.querySelectorAll("li.fm-row.current").forEach((r) => r.id !== id && r.classList.remove("current"));
    const r = rowById(id);
    if (r) r.classList.add("current");
  }
  function focusRow(r) {
    if (!r) return;
    if (r.id !== current) occ = null;
    current = r.id;
    paint(current);
    r.focus({ preventScroll: true });
    const box = r.getBoundingClientRect();
    if (box.top < 80 || box.bottom > window.innerHeight - 60) r.scrollIntoView({ block: "center" });
  }
  const isOpen = (r) => r.dataset.pending ? false : Number(r.dataset.open) > 0;
  function step(dir, onlyOpen) {
    const all = rows();
    if (!all.length) return;
    let i = all.findIndex((r) => r.id === current);
    for (i += dir; i >= 0 && i < all.length; i += dir) {
      if (!onlyOpen || isOpen(all[i])) return focusRow(all[i]);
    }
    if (onlyOpen) toast("No open form " + (dir > 0 ? "below" : "above") + ".", "info");
  }

  // --- decisions ---------------------------------------------------------------------------
  // A decision on every mention of a form (``extra``: the relabel's target). The row
  // shows it at once; the answer redraws it. Above the threshold it asks first.
  function decide(action, r, extra) {
    if (!canEdit) return toast("This transcript is read-only for you.", "error");
    r = r || rowById(current);
    if (!r) return toast("Choose a form first (j).", "info");
    const count = Number(r.dataset.count);
    const question = {
      reject_form: "Reject all " + count + " mentions of this form?",
      relabel_form: "Relabel all " + count + " mentions of this form as " + (extra && extra.to) + "?",
    }[action];
    if (question && count > Number(root.dataset.confirmAbove) && !window.confirm(question)) return;
    r.dataset.pending = "1";
    r.classList.remove("st-open", "st-accepted", "st-rejected", "st-mixed");
    r.classList.add(action === "reject_form" ? "st-rejected" : "st-accepted", "pending");
    post(action, Object.assign({ label: r.dataset.label, form: r.dataset.form, confirm: "yes" }, extra));
    if (r.id === current) step(1, true);
  }
  // Relabel every mention of a form: to its proposed label (r, or its → button) or to a
  // label's key (1–9). The row leaves this label's table with the answer.
  const labelKeys = JSON.parse(root.dataset.labelKeys || "{}");
  function relabel(to, r) {
    r = r || rowById(current);
    to = to || (r && r.dataset.alternative);
    if (r && !to) return toast("No other label proposed for this form: press a label's key (1–9).", "info");
    if (r && to === r.dataset.label) return;
    decide("relabel_form", r, { to: to });
  }
  function acceptRest() {
    const f = document.querySelector("#fm-rest form");
    if (!f) return toast("Every mention of this label is decided.", "info");
    // Above the threshold it asks first, unless every form of the label has been on the
    // screen: the table was read to its end, and accepting the rest is what reading it was for.
    if (f.dataset.confirm && !seenEnd && !window.confirm(f.dataset.confirm)) return;
    rows().forEach((r) => {
      if (Number(r.dataset.open) > 0) {
        r.dataset.pending = "1";
        r.classList.add("pending");
      }
    });
    post("accept_all", { label: root.dataset.label, confirm: "yes" });
  }
  // Widen a form's one open mention by the word the row shows beside it ([ or ], or its
  // "◂ word" button): where its context is read, with no focusing click in the review.
  function widen(r, edge) {
    if (!canEdit) return toast("This transcript is read-only for you.", "error");
    r = r || rowById(current);
    if (!r) return toast("Choose a form first (j).", "info");
    const sel = "form[data-form-action=widen][data-edge=" + edge + "]";
    if (!r.querySelector(sel)) return toast("No word to widen this form by: open its occurrences (o) and press [ or ] on one.", "info");
    const id = r.id;
    r.dataset.pending = "1";
    r.classList.add("pending");
    post("resize", () => {
      const f = rowById(id) && rowById(id).querySelector(sel);
      if (!f) return null;
      return { span: f.elements.span.value, version: f.elements.version.value, edge: edge };
    });
    if (r.id === current) step(1, true);
  }
  // Confirm carried proposals: the focused form's (c), or every one of the label (C).
  function confirmCarried(r, form) {
    if (!canEdit) return toast("This transcript is read-only for you.", "error");
    if (!r) {
      const f = form || document.getElementById("confirm-carried-label");
      if (!f) return toast("No carried proposal left to confirm in this label.", "info");
      if (f.dataset.confirm && !window.confirm(f.dataset.confirm)) return;
      rows().forEach((row) => {
        if (row.querySelector("form[data-form-action=confirm_carried]")) row.classList.add("pending");
      });
      return post("confirm_carried", { label: root.dataset.label, confirm: "yes" });
    }
    if (!r.querySelector("form[data-form-action=confirm_carried]")) return toast("No carried proposal on this form.", "info");
    r.dataset.pending = "1";
    r.classList.add("pending");
    post("confirm_carried", { label: r.dataset.label, form: r.dataset.form, confirm: "yes" });
    if (r.id === current) step(1, true);
  }
  function toggle(r) {
    r = r || rowById(current);
    if (!r) return;
    const occ = r.querySelector(".fm-occ");
    const b = r.querySelector(".fm-more");
    occ.hidden = !occ.hidden;
    if (b) b.setAttribute("aria-expanded", occ.hidden ? "false" : "true");
    if (occ.hidden && r.id === current) occMark(null);
    const markFirst = () => {
      if (occ.hidden || r.id !== current) return;
      const items = Array.from(occ.querySelectorAll("li.fm-o"));
      occMark(items.find((li) => li.classList.contains("st-suggested")) || items[0] || null);
    };
    if (occ.children.length) markFirst();
    // every occurrence is loaded when the row is first opened (the table carries one
    // context line per form)
    if (!occ.hidden && !occ.children.length && occ.dataset.url && !occ.dataset.loading) {
      occ.dataset.loading = "1";
      fetch(occ.dataset.url, { credentials: "same-origin" })
        .then((res) => (res.ok ? res.text() : Promise.reject(res.status)))
        .then((html) => { occ.innerHTML = html; markFirst(); })
        .catch(() => toast("Could not load the occurrences; try again.", "error"))
        .finally(() => { delete occ.dataset.loading; });
    }
  }
  // --- one occurrence (the open list of the focused row) ----------------------------------
  const occList = () => {
    const r = rowById(current);
    const o = r && r.querySelector(".fm-occ");
    return o && !o.hidden ? o : null;
  };
  const occItems = () => { const o = occList(); return o ? Array.from(o.querySelectorAll("li.fm-o")) : []; };
  const occById = (id) => occItems().find((li) => li.dataset.span === id) || null;
  function paintOcc() {
    list.querySelectorAll("li.fm-o.current").forEach((li) => li.dataset.span !== occ && li.classList.remove("current"));
    const li = occ && occById(occ);
    if (li) li.classList.add("current");
    root.dataset.occ = li ? occ : "";
  }
  function markOcc(li) {
    if (!li) return;
    occ = li.dataset.span;
    paintOcc();
    const box = li.getBoundingClientRect();
    if (box.top < 80 || box.bottom > window.innerHeight - 60) li.scrollIntoView({ block: "center" });
  }
  function stepOcc(dir) {
    const items = occItems();
    if (!items.length) return;
    const i = items.findIndex((li) => li.dataset.span === occ);
    if (i < 0) return markOcc(items[dir > 0 ? 0 : items.length - 1]);
    const next = items[i + dir];
    if (next) markOcc(next);
    else toast("No occurrence " + (dir > 0 ? "below" : "above") + " in this list (o closes it).", "info");
  }
  const inOccMode = () => occ !== null && !!occById(occ);
  // Decide one occurrence: accept, reject, or relabel (``to``). The item shows it at once;
  // the answer redraws the row with its list open; the mark moves to the next open one.
  function decideOcc(action, li, to) {
    if (!canEdit) return toast("This transcript is read-only for you.", "error");
    li = li || (occ && occById(occ));
    if (!li) return;
    const r = li.closest("li.fm-row");
    if (action === "resize") {
      const id = li.dataset.span;
      li.classList.add("pending");
      return post("resize", () => {
        const now = document.querySelector('#forms li.fm-o[data-span="' + id + '"]');
        return now ? Object.assign({ span: id, version: now.dataset.version }, to) : null;
      });
    }
    if (action === "relabel") {
      to = to || r.dataset.alternative;
      if (!to) return toast("No other label proposed for this form: press a label's key (1–9).", "info");
      if (to === r.dataset.label) return;
    }
    const id = li.dataset.span;
    li.classList.remove("st-suggested", "st-accepted", "st-rejected", "st-added");
    li.classList.add(action === "reject" ? "st-rejected" : "st-accepted", "pending");
    post(action, () => {
      const now = document.querySelector('#forms li.fm-o[data-span="' + id + '"]');
      if (!now) return null;
      const v = { span: id, version: now.dataset.version };
      if (action === "relabel") v.label = to;
      return v;
    });
    if (r.id === current && occ === id) {
      const items = occItems();
      const i = items.indexOf(li);
      const next = items.slice(i + 1).find((x) => x.classList.contains("st-suggested")) ||
        items.slice(0, i).find((x) => x.classList.contains("st-suggested")) || items[i + 1];
      if (next) markOcc(next);
    }
  }

  // --- the label menu ("Label ▾"): a row's form or one occurrence -----------------------------
  const picker = document.getElementById("fm-picker");
  let pickFor = null; // the row or occurrence the menu relabels
  function openPicker(button) {
    if (!picker) return;
    pickFor = button.closest("li.fm-o") || button.closest("li.fm-row");
    const r = button.closest("li.fm-row");
    focusRow(r);
    if (pickFor.classList.contains("fm-o")) markOcc(pickFor);
    picker.querySelectorAll("button[data-to]").forEach((b) => { b.disabled = b.dataset.to === r.dataset.label; });
    picker.hidden = false;
    const box = button.getBoundingClientRect();
    const width = picker.offsetWidth;
    picker.style.top = window.scrollY + box.bottom + 2 + "px";
    picker.style.left = Math.max(8, Math.min(window.scrollX + box.right - width, window.innerWidth - width - 8)) + "px";
    const first = picker.querySelector("button:not([disabled])");
    if (first) first.focus({ preventScroll: true });
  }
  function closePicker() {
    if (!picker || picker.hidden) return;
    picker.hidden = true;
    pickFor = null;
  }
  function pick(to) {
    let target = pickFor;
    closePicker();
    if (!target) return;
    if (!target.isConnected) {
      // an answer redrew its row meanwhile: the same row or occurrence, as drawn now
      target = target.classList.contains("fm-o")
        ? document.querySelector('#forms li.fm-o[data-span="' + target.dataset.span + '"]')
        : rowById(target.id);
      if (!target) return;
    }
    if (target.classList.contains("fm-o")) decideOcc("relabel", target, to);
    else relabel(to, target);
  }

  function occMark(li) {
    if (li) markOcc(li);
    else { occ = null; paintOcc(); }
  }
  function tab(dir) {
    const tabs = Array.from(document.querySelectorAll(".fm-tab"));
    const i = tabs.findIndex((t) => t.classList.contains("on"));
    const next = tabs[i + dir];
    if (next) location.href = next.href;
  }

  document.addEventListener("submit", (e) => {
    const form = e.target;
    if (!form.matches || !form.matches("form[data-form-action]")) return;
    e.preventDefault();
    const action = form.dataset.formAction;
    if (action === "accept_form" || action === "reject_form") return decide(action, form.closest("li.fm-row"));
    if (action === "relabel_form") return relabel(form.querySelector("input[name=to]").value, form.closest("li.fm-row"));
    if (action === "widen") return widen(form.closest("li.fm-row"), form.dataset.edge);
    if (action === "accept_all") return acceptRest();
    if (action === "confirm_carried") return confirmCarried(form.closest("li.fm-row"), form);
    if (action === "undo") return post("undo", {});
  });
  document.addEventListener("click", (e) => {
    stayHere();
    const t = e.target;
    if (t.closest("[data-toast-undo]")) return post("undo", {});
    const item = t.closest("#fm-picker button[data-to]");
    if (item) return pick(item.dataset.to);
    if (!t.closest("#fm-picker")) closePicker();
    const occButton = t.closest("button[data-occ]");
    if (occButton) return decideOcc(occButton.dataset.occ, occButton.closest("li.fm-o"));
    const pickButton = t.closest(".fm-pick");
    if (pickButton) return openPicker(pickButton);
    const more = t.closest(".fm-more");
    if (more) {
      e.preventDefault();
      focusRow(more.closest("li.fm-row"));
      return toggle(more.closest("li.fm-row"));
    }
    const r = t.closest("li.fm-row");
    if (r && !t.closest("a, button, form")) {
      focusRow(r);
      const li = t.closest("li.fm-o");
      if (li) markOcc(li);
    }
  });

  document.addEventListener("keydown", (e) => {
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    stayHere();
    const t = e.target;
    if (t && t.closest && t.closest("input, textarea, select")) return;
    let handled = true;
    if (picker && !picker.hidden) {
      // the menu is open: a label's key or a click chooses, Esc closes
      const item = Array.from(picker.querySelectorAll("button[data-to]")).find((b) => b.querySelector("kbd").textContent === e.key);
      if (e.key === "Escape") closePicker();
      else if (item && !item.disabled) pick(item.dataset.to);
      else if (e.key === "ArrowDown" || e.key === "ArrowUp") {
        const items = Array.from(picker.querySelectorAll("button[data-to]:not([disabled])"));
        const i = items.indexOf(document.activeElement);
        const next = items[(i + (e.key === "ArrowDown" ? 1 : -1) + items.length) % items.length];
        if (next) next.focus();
      } else if (e.key !== "Enter" && e.key !== " " && e.key !== "Tab") closePicker();
      else handled = false;
      if (handled) e.preventDefault();
      return;
    }
    if (inOccMode()) {
      // the focused row's occurrences are open and one is marked: keys act on it
      switch (e.key) {
        case "ArrowDown": stepOcc(1); break;
        case "ArrowUp": stepOcc(-1); break;
        case "a": decideOcc("accept"); break;
        case "x": decideOcc("reject"); break;
        case "r": decideOcc("relabel"); break;
        case "[": decideOcc("resize", null, { edge: "left" }); break;
        case "]": decideOcc("resize", null, { edge: "right" }); break;
        case "{": decideOcc("resize", null, { edge_shrink: "left" }); break;
        case "}": decideOcc("resize", null, { edge_shrink: "right" }); break;
        case "Escape": toggle(); break;
        default:
          if (/^[1-9]$/.test(e.key) && labelKeys[e.key]) decideOcc("relabel", null, labelKeys[e.key]);
          else handled = false;
      }
      if (handled) return e.preventDefault();
      handled = true;
    }
    switch (e.key) {
      case "j": case "ArrowDown": step(1, false); break;
      case "k": case "ArrowUp": step(-1, false); break;
      case "n": step(1, true); break;
      case "a": decide("accept_form"); break;
      case "x": decide("reject_form"); break;
      case "A": acceptRest(); break;
      case "c": confirmCarried(rowById(current)); break;
      case "C": confirmCarried(null); break;
      case "r": relabel(); break;
      case "[": widen(null, "left"); break;
      case "]": widen(null, "right"); break;
      case "o": case "Enter": toggle(); break;
      case "u": post("undo", {}); break;
      case "h": case "ArrowLeft": tab(-1); break;
      case "l": case "ArrowRight": tab(1); break;
      case "Escape": if (occList()) toggle(); else location.href = root.dataset.reviewUrl; break;
      default:
        if (/^[1-9]$/.test(e.key) && labelKeys[e.key]) relabel(labelKeys[e.key]);
        else handled = false;
    }
    if (handled) e.preventDefault();
  });
  window.addEventListener("beforeunload", (e) => {
    if (busy > 0) {
      e.preventDefault();
      e.returnValue = "";
    }
  });

  // Whether the last form of the label has been on the screen (read to the end).
  let seenEnd = false;
  const lastRow = rows()[rows().length - 1];
  if (lastRow && "IntersectionObserver" in window) {
    const seen = new IntersectionObserver((entries) => {
      if (!entries.some((e) => e.isIntersecting)) return;
      seenEnd = true;
      root.dataset.seenEnd = "1";
      seen.disconnect();
    });
    seen.observe(lastRow);
  }
  const first = rows().find((r) => Number(r.dataset.open) > 0) || rows()[0];
  if (first) focusRow(first);
  root.dataset.ready = "1";
})();
