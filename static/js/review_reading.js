/* Reading mode: font size (kept per browser), the list of places still readable, and
   flagging a tag for the lead. */
(function () {
  "use strict";
  const root = document.getElementById("reading");
  if (!root) return;
  const text = document.getElementById("reading-text");
  let size = Number(localStorage.getItem("review.readingSize") || "17");
  const apply = () => text.style.setProperty("--reading-size", size + "px");
  apply();
  root.querySelectorAll("[data-size]").forEach((b) =>
    b.addEventListener("click", () => {
      size = Math.max(12, Math.min(30, size + 2 * Number(b.dataset.size)));
      localStorage.setItem("review.readingSize", String(size));
      apply();
    })
  );
  // The header's count opens the list of places (a <details>) and scrolls to it.
  const count = document.getElementById("leak-count-link");
  const places = document.getElementById("reading-places");
  if (count && places) {
    count.addEventListener("click", (e) => {
      e.preventDefault();
      places.open = true;
      // below the sticky header, whose height depends on the title's length
      const head = root.querySelector(".reading-head");
      const top = places.getBoundingClientRect().top + window.scrollY;
      window.scrollTo({ top: Math.max(0, top - (head ? head.offsetHeight : 0) - 8) });
      places.querySelector("a")?.focus({ preventScroll: true });
    });
  }
  if (root.dataset.canEdit !== "1") return;
  const csrf = document.querySelector("[name=csrfmiddlewaretoken]").value;
  const toast = (message) => {
    const el = document.getElementById("toast");
    el.textContent = message;
    el.className = "toast show";
    setTimeout(() => el.classList.remove("show"), 4000);
  };
  text.addEventListener("click", (e) => {
    const rep = e.target.closest(".rep[data-span-id]");
    if (!rep) return;
    const flagged = rep.classList.contains("flagged");
    const note = flagged ? null : window.prompt("Comment for the lead on " + rep.textContent + ":", "");
    if (note === null && !flagged) return;
    const body = new URLSearchParams({ span: rep.dataset.spanId, version: rep.dataset.version,
                                       flagged: flagged ? "" : "1", note: note || "" });
    fetch(root.dataset.flagUrl, { method: "POST", body: body, credentials: "same-origin",
                                  headers: { "X-CSRFToken": csrf, "HX-Request": "true" } })
      .then((r) => {
        if (!r.ok) throw new Error(String(r.status));
        rep.classList.toggle("flagged", !flagged);
        toast(flagged ? "Flag removed." : "Flagged for the lead.");
      })
      .catch(() => toast("Could not save the flag; reload the page and try again."));
  });
})();
