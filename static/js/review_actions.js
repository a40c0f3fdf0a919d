/* Review workspace, the actions: one after another (fast typing never drops one), each
 * with the span focused when its key was pressed and that span's version read when the
 * request leaves; the outbox that sends what is unsent when the page is left; answers and
 * refusals; merge (always asked first); decisions on many spans (a group, the rest of a
 * page); the inspector's and the entity list's forms, which go through the same line. */
(function () {
  "use strict";
  const R = window.Review;
  if (!R) return;
  const { root, orig, focus, pending, serial, markOf, toast, queue } = R;
  const { optimistic, showLabel, bumpCounter, afterSwap } = R;

  let chain = Promise.resolve();
  let busy = 0;
  // For tests and the benchmark: anything still to be sent, answered or shown.
  window.__reviewBusy = () => busy > 0 || R.windowsLoading() || R.requestsPending() || R.inspectorPending();
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
    if (!R.canEdit) return toast("This transcript is read-only for you.", "error");
    extra = Object.assign({}, extra || {});
    const id = extra.span ? String(extra.span) : focus.current;
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
    const pressedAt = focus.moves;
    const ticket = ++tickets;
    if (id) lastTicket.set(id, ticket);
    const queued = { action: action, extra: extra, id: id, ticket: ticket };
    outbox.push(queued);
    busy += 1;
    chain = chain
      .then(() => {
        const e = queue.entryOf(id);
        return id && !markOf(id) && e ? R.ensureWindow(R.windowOfPage(e[1])) : null;
      })
      .then(() => {
        const values = Object.assign({}, extra);
        const m = markOf(id);
        if (id) values.span = id;
        if (m) values.version = m.dataset.version; // the version now, not the form's
        values.loaded = R.loadedWindows().join(",");
        return serial(() => {
          if (flushed) return null; // sent with the page's last batch (it was left)
          unsent(queued);
          inFlight.add(id);
          return htmx.ajax("POST", R.actionUrl(action), { values: values, swap: "none", source: root });
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
  function answered(action, id, pressedAt) {
    R.applySpanPatch();
    afterSwap();
    const patch = document.getElementById("queue-patch");
    if (patch && patch.dataset.patch) {
      try {
        queue.patch(JSON.parse(patch.dataset.patch));
      } catch (err) {
        /* a malformed patch leaves the queue as it was */
      }
      patch.dataset.patch = "";
    }
    const result = document.getElementById("action-result");
    const touched = new Set(((result && result.dataset.touched) || "").split(",").filter(Boolean));
    const target = result && result.dataset.focus;
    // Undo and add bring their span into view, unless the user moved on meanwhile.
    if ((action === "undo" || action === "add") && target && focus.moves === pressedAt && result.dataset.status === "ok") {
      return R.focusSpan(target);
    }
    // accept/reject change only the inspector's status line (swapped with the answer)
    const statusOnly = action === "accept" || action === "reject";
    const current = focus.current;
    if (current && !statusOnly && (touched.has(current) || current === id)) R.loadInspector(current, 150);
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
    return R.reloadWindow(win);
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
        act("merge", { source: form.dataset.source, target: form.dataset.target, span: form.dataset.span || focus.current, group_version: groupVersion });
      }
    });
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
    if (!R.canEdit) return toast("This transcript is read-only for you.", "error");
    if (size > confirmAbove && !window.confirm((status === "rejected" ? "Reject " : "Accept ") + size + " suggestions at once?")) return;
    const ids = markAll(marks, status);
    values = Object.assign({ confirm: "yes" }, values);
    const done = act(action, values, { bulk: true });
    R.advance();
    return Promise.resolve(done).then((answer) => {
      const failed = !answer || answer >= 400;
      settle(ids, status);
      if (!failed) return null;
      // refused or failed: nothing was decided; the shown decisions are taken back (a
      // refusal's answer brought the server's counter; without an answer, undo the bump)
      if (!answer || answer >= 500) bumpCounter(-ids.counted);
      const wins = new Set(ids.map((id) => markOf(id) && markOf(id).closest(".win")).filter(Boolean));
      return Promise.all(Array.from(wins).map(R.reloadWindow));
    });
  }
  const byRefMarks = (ref) => orig.querySelectorAll('mark[data-ref="' + CSS.escape(ref) + '"]');
  const pageMarks = (page) => orig.querySelectorAll('.utt[data-page="' + page + '"] mark[data-span-id]');
  function groupSize(ref) {
    const f = document.querySelector('#inspector input[name=entity][value="' + CSS.escape(ref) + '"]');
    const b = f && f.form.querySelector("[data-accept-all-ref]");
    const n = b ? Number((/all (\d+)/.exec(b.textContent) || [0, 0])[1]) : 0;
    return n || Array.from(byRefMarks(ref)).filter((m) => m.dataset.status === "suggested").length;
  }
  function bulkGroup(action, ref) {
    ref = ref || focus.ref;
    if (!focus.current || !ref) return toast("Select a mention of a group first (j or a click).", "info");
    return bulk(action, { entity: ref, span: focus.current }, byRefMarks(ref), action === "reject_all" ? "rejected" : "accepted", groupSize(ref));
  }
  function pageOfFocus() {
    const m = markOf(focus.current);
    const line = m && m.closest(".utt");
    if (line) return Number(line.dataset.page);
    const e = queue.entryOf(focus.current);
    return e ? e[1] : null;
  }
  function acceptPage(page) {
    page = page || pageOfFocus();
    if (!page) return toast("Select a span on the page first (j or a click).", "info");
    const size = queue.entries().filter((e) => e[1] === page && !queue.isDecided(e)).length;
    return bulk("accept_page", { page: page, span: focus.current || "" }, pageMarks(page), "accepted", size);
  }

  // --- forms of the inspector and the entity list go through the same line -------------
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
    if (form.dataset.action === "accept_page") return bulk("accept_page", values, pageMarks(values.page), "accepted", 0);
    act(form.dataset.action, values);
  });
  const undoForm = document.getElementById("undo-button");
  if (undoForm) undoForm.closest("form").addEventListener("submit", (e) => e.preventDefault() || act("undo"));

  Object.assign(R, { act: act, openMerge: openMerge, bulkGroup: bulkGroup, acceptPage: acceptPage });
})();
