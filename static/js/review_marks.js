/* Review workspace, what the marks show: a decision shown at once in both panes and the
 * counter before its answer comes (the answer then replaces these elements with the
 * server's, so a refusal brings the truth back), and the server's attribute patch for
 * spans whose extent did not change. */
(function () {
  "use strict";
  const R = window.Review;
  if (!R) return;
  const { pending, markOf, repOf } = R;

  // a/x show their decision at once in both panes; returns 1 when a suggestion became
  // decided (for the counter), else 0.
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

  Object.assign(R, { optimistic: optimistic, showLabel: showLabel, bumpCounter: bumpCounter, applySpanPatch: applySpanPatch });
})();
