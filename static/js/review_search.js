/* Review workspace, the search over the whole text: Enter in the search box lists every
 * match of the canonical text (GET .../review/search/?find=), marked or not, in a panel
 * under the header; ↑/↓ choose a match, Enter goes there (its window loads, the match is
 * selected and the add popover opens), a label key adds a span exactly at the match
 * (the "add" action, with its offsets). Keys typed while the list is on its way are kept
 * and played when it arrives, so typing never waits for the answer. */
(function () {
  "use strict";
  const R = window.Review;
  if (!R || !R.root.dataset.searchUrl) return;
  const { root, orig, panes, serial, toast, labelKeys } = R;
  const input = document.getElementById("search");
  const form = document.getElementById("filters");
  if (!input || !form) return;

  let panel = document.createElement("div");
  panel.id = "search-results";
  panel.className = "search-results";
  panel.hidden = true;
  panel.tabIndex = -1;
  root.appendChild(panel);
  let early = []; // keys pressed before the list arrived
  let loading = false;
  let last = { find: "", word: false };

  function rows() {
    return Array.from(panel.querySelectorAll("li.sr-hit"));
  }
  function choose(li) {
    if (!li) return;
    rows().forEach((r) => r.classList.toggle("sr-current", r === li));
    li.focus({ preventScroll: false });
  }
  function run(find, word) {
    last = { find: find, word: word };
    loading = true;
    early = [];
    panel.hidden = false;
    panel.innerHTML = '<div class="sr-loading muted">Searching the whole text…</div>';
    panel.focus();
    const q = new URLSearchParams({ find: find });
    if (word) q.set("word", "1");
    const url = root.dataset.searchUrl + "?" + q.toString();
    return serial(() => fetch(url, { headers: { "HX-Request": "true" }, credentials: "same-origin" }).then((r) => (r.ok ? r.text() : Promise.reject(r))))
      .then((html) => {
        const tpl = document.createElement("template");
        tpl.innerHTML = html.trim();
        const fresh = tpl.content.firstElementChild;
        const hadFocus = panel.contains(document.activeElement);
        fresh.hidden = false;
        panel.replaceWith(fresh);
        panel = fresh;
        wire();
        loading = false;
        if (hadFocus || document.activeElement === document.body) {
          if (rows().length) choose(rows()[0]);
          else panel.focus();
        }
        const keys = early;
        early = [];
        keys.forEach(onKey);
      })
      .catch(() => {
        loading = false;
        panel.innerHTML = '<div class="sr-loading error">The search failed; try again.</div>';
      });
  }
  function close() {
    panel.hidden = true;
    input.focus();
  }
  function current() {
    return panel.querySelector("li.sr-hit.sr-current") || (document.activeElement && document.activeElement.closest ? document.activeElement.closest("li.sr-hit") : null);
  }
  function goTo(li) {
    const page = Number(li.dataset.page);
    return R.ensureWindow(R.windowOfPage(page)).then(() => {
      const line = document.getElementById("uo-" + li.dataset.utt);
      if (!line) return;
      const box = orig.getBoundingClientRect();
      panes.setScroll(orig, orig.scrollTop + line.getBoundingClientRect().top - box.top - box.height / 3);
      line.classList.add("sr-flash");
      setTimeout(() => line.classList.remove("sr-flash"), 1500);
      if (R.canEdit) panes.selectOffsets(line.querySelector(".ut"), Number(li.dataset.start), Number(li.dataset.end));
    });
  }
  function add(li, label) {
    if (!R.canEdit) return toast("This transcript is read-only for you.", "error");
    panes.hidePopover();
    const done = R.act("add", { start: li.dataset.start, end: li.dataset.end, label: label });
    // the list keeps the keyboard: the answer does not move the focus to the new span
    R.focus.moves += 1;
    li.classList.add("pending");
    Promise.resolve(done).then((status) => {
      li.classList.remove("pending");
      if (status !== 200) return;
      const unmarked = panel.querySelector("[data-unmarked]");
      if (unmarked && li.classList.contains("sr-free")) unmarked.textContent = String(Math.max(0, Number(unmarked.textContent) - 1));
      li.classList.remove("sr-free");
      const spans = li.querySelector(".sr-spans");
      spans.innerHTML = "";
      const chip = document.createElement("span");
      chip.className = "chip lab-" + label + " st-added";
      chip.textContent = label + " · added";
      spans.appendChild(chip);
    });
  }
  // One key on the list (or one kept while it was on its way); true when it was used.
  function onKey(key) {
    const list = rows();
    const li = current();
    if (key === "ArrowDown" || key === "ArrowUp") {
      if (!list.length) return true;
      const i = li ? list.indexOf(li) : -1;
      choose(list[Math.max(0, Math.min(list.length - 1, i + (key === "ArrowDown" ? 1 : -1)))] || list[0]);
      return true;
    }
    if (key === "Escape") return close() || true;
    if (key === "Enter") return (li && goTo(li)) || true;
    if (labelKeys[key]) {
      if (li) add(li, labelKeys[key]);
      return true;
    }
    return false;
  }
  function wire() {
    panel.addEventListener("keydown", (e) => {
      if (e.ctrlKey || e.metaKey || e.altKey || (e.target && e.target.matches && e.target.matches("input, select"))) return;
      const keep = ["ArrowDown", "ArrowUp", "Enter", "Escape"].includes(e.key) || !!labelKeys[e.key];
      if (!keep) return;
      e.preventDefault();
      e.stopPropagation();
      if (loading) early.push(e.key);
      else onKey(e.key);
    });
    panel.addEventListener("click", (e) => {
      if (e.target.closest("[data-search-close]")) return close();
      const li = e.target.closest("li.sr-hit");
      if (!li) return;
      e.preventDefault();
      choose(li);
      goTo(li);
    });
    const word = panel.querySelector("[data-search-word]");
    if (word) word.addEventListener("change", () => run(last.find, word.checked));
  }
  wire();

  // Enter in the search box searches the whole text (the Filter button, without
  // JavaScript, still filters the spans by their text).
  form.addEventListener(
    "submit",
    (e) => {
      if (document.activeElement !== input) return;
      e.preventDefault();
      e.stopImmediatePropagation();
      const find = input.value.trim();
      if (!find) return close();
      const word = panel.querySelector("[data-search-word]");
      run(find, word ? word.checked : last.word);
    },
    true
  );
  input.addEventListener("keydown", (e) => {
    if (e.key === "ArrowDown" && !panel.hidden && rows().length) {
      e.preventDefault();
      choose(rows()[0]);
    }
  });
  // For tests and the benchmark: a search on its way (and the keys it keeps) is work to wait for.
  const busy = window.__reviewBusy || (() => false);
  window.__reviewBusy = () => loading || busy();
  window.__reviewSearch = () => (loading ? "loading" : panel.hidden ? "closed" : "shown");
})();
