/* Review workspace, the panes and lists: linking (hover/focus on any [data-ref] lights up
 * every element with that ref), synchronised scrolling, placeholder heights, new entity
 * rows placed in ref order, filters applied on change, and the popover that adds a span
 * from a text selection. review_core.js and the parts after it drive them
 * through ReviewPanes. */
(function () {
  "use strict";
  const orig = document.getElementById("original");
  const pseudo = document.getElementById("pseudonymized");
  if (!orig || !pseudo) return;
  let linkedRef = null;
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

  // Placeholders: rescale the server's estimate by what the loaded windows measured.
  function calibrate() {
    let est = 0;
    let real = 0;
    orig.querySelectorAll(".win.loaded[data-estimate]").forEach((w) => {
      est += Number(w.dataset.estimate);
      real += w.getBoundingClientRect().height;
    });
    if (!est || !real) return;
    const ratio = real / est;
    document.querySelectorAll(".win:not(.loaded)[data-estimate]").forEach((w) => {
      w.style.minHeight = Math.round(Number(w.dataset.estimate) * ratio) + "px";
    });
  }

  // --- synchronised scrolling ----------------------------------------------------------
  // A pane scrolled by this code does not drive the other one: its scroll event finds
  // the position this code set (a user's scroll in the same frame does not).
  const setBySync = new Map();
  function setScroll(pane, top) {
    top = Math.max(0, Math.min(top, pane.scrollHeight - pane.clientHeight));
    if (Math.abs(pane.scrollTop - top) <= 1) return;
    pane.scrollTop = top;
    setBySync.set(pane, pane.scrollTop);
  }
  function twin(id) {
    const map = { "uo-": "up-", "up-": "uo-", "wo-": "wp-", "wp-": "wo-" };
    const prefix = id.slice(0, 3);
    return map[prefix] ? map[prefix] + id.slice(3) : null;
  }
  function anchor(pane) {
    const box = pane.getBoundingClientRect();
    for (const dy of [6, 30, 60, 120]) {
      let el = document.elementFromPoint(box.left + box.width / 2, box.top + dy);
      if (!el || !pane.contains(el) || el === pane) continue;
      if (el.classList.contains("pagebreak")) el = el.nextElementSibling;
      const a = el ? el.closest(".utt, .win") : null;
      if (a && a.id) return a;
    }
    return null;
  }
  // The pane the reader scrolled last leads: a later scroll event of the other pane that
  // this code did not cause (a window loading above the view moves it) must not undo the
  // reader's scroll (on a busy machine such an event arrived after the reader's next one).
  const scrolledAt = new Map();
  function sync(from, to) {
    const mine = setBySync.get(from);
    setBySync.delete(from);
    if (mine !== undefined && Math.abs(from.scrollTop - mine) <= 1) return;
    if ((scrolledAt.get(to) || 0) > (scrolledAt.get(from) || 0)) return;
    let target = null;
    if (from.scrollTop <= 1) target = 0; // the top is the top in both panes
    else if (from.scrollTop + from.clientHeight >= from.scrollHeight - 1) target = to.scrollHeight;
    else {
      let a = anchor(from);
      let b = a ? document.getElementById(twin(a.id)) : null;
      if (a && !b) {
        // A line whose twin is not in yet: its window stands for it.
        a = a.closest(".win");
        b = a ? document.getElementById(twin(a.id)) : null;
      }
      if (!b) return;
      const ra = a.getBoundingClientRect();
      const frac = (from.getBoundingClientRect().top - ra.top) / Math.max(ra.height, 1);
      const rb = b.getBoundingClientRect();
      target = to.scrollTop + (rb.top - to.getBoundingClientRect().top) + frac * rb.height;
    }
    setScroll(to, target);
  }
  function onScroll(from, to) {
    let queued = false;
    return () => {
      const mine = setBySync.get(from);
      if (mine === undefined || Math.abs(from.scrollTop - mine) > 1) {
        scrolledAt.set(from, performance.now()); // the reader's (or the layout's), not ours
      }
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


  const ALL_LABELS = ((document.getElementById("review") || {}).dataset || {}).labels
    ? document.getElementById("review").dataset.labels.split(",")
    : [];
  // A new entity row (or label group) has no place yet: insert it in ref order.
  function ensureGroup(label) {
    let section = document.getElementById("eg-" + label);
    if (section) return section;
    const nav = document.getElementById("entities");
    section = document.createElement("section");
    section.className = "egroup";
    section.id = "eg-" + label;
    section.dataset.label = label;
    section.innerHTML = '<header class="egroup-head" id="eh-' + label + '"></header><ul id="el-' + label + '"></ul>';
    const rank = ALL_LABELS.indexOf(label);
    const next = Array.from(nav.querySelectorAll("section.egroup")).find((s) => ALL_LABELS.indexOf(s.dataset.label) > rank);
    nav.querySelectorAll(":scope > p.muted").forEach((p) => p.remove());
    nav.insertBefore(section, next || null);
    return section;
  }
  const refKey = (ref) => {
    const m = /^(.*)_(\d+)$/.exec(ref || "");
    return m ? [m[1], Number(m[2])] : [ref, 0];
  };
  // An answer's out-of-band fragments get their targets before the swap: a new group's
  // row its place in its label's list, a new label its section; a fragment whose target
  // this page never had (the inspector's status of a span it does not show, the removal
  // of a row it never drew) is left out. htmx then swaps without an error (there were
  // 16 console errors ``htmx:oobErrorNoTarget`` on the answers to add and apply-to-all).
  // A fragment inside another one comes in with it and is never left out (when
  // left out, a window's pseudonymized lines came as an empty section marked loaded).
  function placeRow(el) {
    const list = ensureGroup(el.dataset.label).querySelector("ul");
    const k = refKey(el.dataset.ref);
    const next = Array.from(list.children).find((li) => {
      const o = refKey(li.dataset.ref);
      return o[0] > k[0] || (o[0] === k[0] && o[1] > k[1]);
    });
    const slot = document.createElement("li");
    slot.id = el.id;
    slot.dataset.ref = el.dataset.ref || "";
    list.insertBefore(slot, next || null);
  }
  document.body.addEventListener("htmx:beforeSwap", (e) => {
    const text = e.detail.serverResponse;
    if (typeof text !== "string" || text.indexOf("hx-swap-oob") < 0) return;
    const tpl = document.createElement("template");
    tpl.innerHTML = text;
    let dropped = false;
    tpl.content.querySelectorAll("[hx-swap-oob]").forEach((el) => {
      const how = el.getAttribute("hx-swap-oob");
      if (!el.id || how.indexOf(":") >= 0 || document.getElementById(el.id)) return;
      if (el.parentElement && el.parentElement.closest("[hx-swap-oob]")) return;
      if (how !== "delete" && el.matches("li.ent") && el.dataset.label) return placeRow(el);
      if (how !== "delete" && el.matches("header.egroup-head")) return ensureGroup(el.id.replace(/^eh-/, ""));
      el.remove();
      dropped = true;
    });
    if (dropped) e.detail.serverResponse = tpl.innerHTML;
  });

  // Filters apply as soon as they change (the Filter button is for pages without JS).
  const filterForm = document.getElementById("filters");
  if (filterForm) {
    document.getElementById("review").classList.add("js-on");
    filterForm.addEventListener("change", (e) => {
      if (e.target.name !== "q") filterForm.requestSubmit();
    });
  }

  // The add popover: ``init`` wires it once review_keys.js knows how to send an action.
  let onAdd = () => undefined;
  const opts = { canEdit: false };
  // --- add a span by selecting text ----------------------------------------------------
  const pop = document.getElementById("add-popover");
  let pendingAdd = null;
  const popoverOpen = () => pop && !pop.hidden;
  function hidePopover() {
    if (pop) pop.hidden = true;
    pendingAdd = null;
  }
  // Offsets are the server's: code points (Python's). The DOM counts UTF-16 units, in
  // which a character beyond the Basic Multilingual Plane (an emoji of a text message read
  // into the record) is two: counted as the DOM counts, an add after it on its line landed
  // one character further on for each.
  function cpLength(s) {
    let n = 0;
    for (const _ of s) n++;
    return n;
  }
  function utf16Index(s, cp) {
    let i = 0;
    let n = 0;
    for (const ch of s) {
      if (n >= cp) break;
      i += ch.length;
      n++;
    }
    return i;
  }
  function offsetIn(container, node, offset) {
    const r = document.createRange();
    r.selectNodeContents(container);
    r.setEnd(node, offset);
    return cpLength(r.toString());
  }
  function utOf(node) {
    const el = node.nodeType === 1 ? node : node.parentElement;
    return el ? el.closest(".ut") : null;
  }
  function checkSelection() {
    const sel = window.getSelection();
    if (!opts.canEdit || !sel || sel.isCollapsed || !sel.rangeCount) return;
    const r = sel.getRangeAt(0);
    const a = utOf(r.startContainer);
    const b = utOf(r.endContainer);
    if (!a || a !== b || !orig.contains(a)) return;
    const base = Number(a.dataset.start);
    const start = base + offsetIn(a, r.startContainer, r.startOffset);
    const end = base + offsetIn(a, r.endContainer, r.endOffset);
    if (end <= start || !sel.toString().trim()) return;
    pendingAdd = { start: start, end: end };
    pop.querySelector(".sel-text").textContent = sel.toString().trim().slice(0, 60);
    const rect = r.getBoundingClientRect();
    pop.hidden = false;
    const h = pop.offsetHeight;
    pop.style.left = Math.max(8, Math.min(rect.left, window.innerWidth - pop.offsetWidth - 8)) + "px";
    // Below the selection, or above it when it would not fit (never over the word).
    const above = rect.bottom + 8 + h > window.innerHeight - 8;
    pop.classList.toggle("above", above);
    pop.style.top = Math.max(8, above ? rect.top - h - 8 : rect.bottom + 8) + "px";
  }
  // Select text offsets [start, end) of one line (.ut) as a DOM selection and offer to
  // add it (the keyboard's shift+arrows).
  function selectOffsets(ut, start, end) {
    const base = Number(ut.dataset.start);
    const walker = document.createTreeWalker(ut, NodeFilter.SHOW_TEXT);
    const range = document.createRange();
    let pos = base;
    let node;
    let begun = false;
    while ((node = walker.nextNode())) {
      const data = node.textContent;
      const len = cpLength(data);
      if (!begun && start <= pos + len) {
        range.setStart(node, utf16Index(data, start - pos));
        begun = true;
      }
      if (begun && end <= pos + len) {
        range.setEnd(node, utf16Index(data, end - pos));
        break;
      }
      pos += len;
    }
    const sel = window.getSelection();
    sel.removeAllRanges();
    sel.addRange(range);
    checkSelection();
  }
  function addSelection(label) {
    if (!pendingAdd || !label) return;
    const values = { start: pendingAdd.start, end: pendingAdd.end, label: label };
    hidePopover();
    window.getSelection().removeAllRanges();
    onAdd(values);
  }
  orig.addEventListener("mouseup", () => setTimeout(checkSelection, 0));
  // Chromium starts no text selection on a focusable element (the marks have a tabindex
  // for the keyboard): a press on a mark drops its tabindex until the button is released,
  // so a drag that starts on a highlighted word selects text like anywhere else (a click
  // still focuses it: the click comes after the tabindex is back).
  orig.addEventListener(
    "mousedown",
    (e) => {
      const m = e.button === 0 && e.target.closest ? e.target.closest("mark[tabindex]") : null;
      if (!m) return;
      m.removeAttribute("tabindex");
      document.addEventListener("mouseup", () => m.setAttribute("tabindex", "0"), { once: true, capture: true });
    },
    true
  );
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


  window.ReviewPanes = {
    link: link,
    relink: () => linkedRef && byRef(linkedRef).forEach((el) => el.classList.add("linked")),
    setScroll: setScroll,
    calibrate: calibrate,
    popoverOpen: popoverOpen,
    hidePopover: hidePopover,
    addSelection: addSelection,
    selectOffsets: selectOffsets,
    cpLength: cpLength,
    init: (o) => {
      opts.canEdit = o.canEdit;
      onAdd = o.onAdd;
    },
  };
})();
