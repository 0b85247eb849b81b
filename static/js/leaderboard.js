// Tabs (Python / Java / Overall) and the radar charts, drawn by plotly.js from server-built figures.
(function () {
  function draw(panel) {
    const box = panel.querySelector(".chart");
    if (!box || box.dataset.drawn) return;
    const fig = JSON.parse(document.getElementById(box.dataset.figureId).textContent);
    Plotly.newPlot(box, fig.data, fig.layout, {displaylogo: false, responsive: true});
    box.dataset.drawn = "1";
  }
  function show(key) {
    document.querySelectorAll(".tab").forEach(function (t) {
      const on = t.dataset.tab === key;
      t.classList.toggle("active", on);
      t.setAttribute("aria-selected", on ? "true" : "false");
    });
    document.querySelectorAll(".panel").forEach(function (p) {
      p.hidden = p.dataset.panel !== key;
      if (!p.hidden) draw(p);
    });
    const url = new URL(window.location);
    url.searchParams.set("language", key);
    window.history.replaceState(null, "", url);
  }
  document.querySelectorAll(".tab").forEach(function (t) {
    t.addEventListener("click", function () { show(t.dataset.tab); });
  });
  const active = document.querySelector(".tab.active");
  if (active) show(active.dataset.tab);
})();
