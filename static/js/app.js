// Small behaviours every page shares, kept out of the templates so that the
// Content-Security-Policy can forbid inline scripts, styles and handlers.
(function () {
  "use strict";
  // <select data-autosubmit>: submit its form on change (filters).
  document.addEventListener("change", (e) => {
    const el = e.target;
    if (el && el.matches && el.matches("select[data-autosubmit]") && el.form) el.form.submit();
  });
  // data-width="42" / data-min-height="300" / data-open="25" (the minimap's --open): sizes
  // set through the CSSOM (allowed by the
  // policy, unlike style="" attributes), on load and on every htmx swap.
  function size(root) {
    const scope = root && root.querySelectorAll ? root : document;
    const nodes = [scope, ...scope.querySelectorAll("[data-width], [data-min-height], [data-open]")];
    nodes.forEach((el) => {
      if (!el.dataset) return;
      if (el.dataset.width !== undefined) el.style.width = el.dataset.width + "%";
      if (el.dataset.minHeight !== undefined) el.style.minHeight = el.dataset.minHeight + "px";
      if (el.dataset.open !== undefined) el.style.setProperty("--open", el.dataset.open + "%");
    });
  }
  size(document); // deferred: the document is parsed; before htmx sets up "intersect"
  document.addEventListener("htmx:load", (e) => size(e.detail && e.detail.elt));
  document.addEventListener("htmx:oobAfterSwap", (e) => size(e.detail && e.detail.target));
})();
