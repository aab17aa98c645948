// Filters by status and kind, expandable causes, copy buttons. No network: everything is in
// this file. State can come from the URL fragment: #status=new,accepted&kind=hash_only&open=c-1a2b3c
(function () {
  "use strict";
  const causes = Array.from(document.querySelectorAll("tbody.cause"));
  const statusBoxes = Array.from(document.querySelectorAll("input[name=status]"));
  const kindSelect = document.getElementById("kind");
  const shown = document.getElementById("shown");

  function apply() {
    const statuses = new Set(statusBoxes.filter(b => b.checked).map(b => b.value));
    const kind = kindSelect.value;
    let n = 0;
    for (const c of causes) {
      const visible = statuses.has(c.dataset.status) && (kind === "" || c.dataset.kind === kind);
      c.hidden = !visible;
      if (visible) n += 1;
    }
    shown.textContent = n + " of " + causes.length + " causes shown";
  }

  function toggle(cause, open) {
    const detail = cause.querySelector("tr.detail");
    const button = cause.querySelector("button.toggle");
    const now = open === undefined ? detail.hidden : open;
    detail.hidden = !now;
    button.textContent = now ? "\u25BE" : "\u25B8";
    button.setAttribute("aria-expanded", String(now));
  }

  function fromFragment() {
    const params = new URLSearchParams(location.hash.replace(/^#/, ""));
    if (params.has("status")) {
      const wanted = new Set(params.get("status").split(","));
      statusBoxes.forEach(b => { b.checked = wanted.has(b.value); });
    }
    if (params.has("kind")) kindSelect.value = params.get("kind");
    if (params.has("open")) {
      for (const id of params.get("open").split(",")) {
        const cause = document.getElementById(id);
        if (cause) toggle(cause, true);
      }
    }
  }

  for (const c of causes) {
    c.querySelector("tr.row").addEventListener("click", () => toggle(c));
  }
  statusBoxes.forEach(b => b.addEventListener("change", apply));
  kindSelect.addEventListener("change", apply);
  for (const button of document.querySelectorAll("button.copy")) {
    button.addEventListener("click", event => {
      event.stopPropagation();
      const text = button.previousElementSibling.textContent;
      const done = () => { button.textContent = "copied"; };
      if (navigator.clipboard) {
        navigator.clipboard.writeText(text).then(done, () => {});
      }
    });
  }
  window.addEventListener("hashchange", () => { fromFragment(); apply(); });
  fromFragment();
  apply();
  document.body.dataset.ready = "yes";
})();
