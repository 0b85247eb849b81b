// Tabs (Python / Java / Overall) and the radar charts, drawn by plotly.js from server-built figures.
// Loaded with `defer`: the tabs work as soon as the page is parsed. plotly.js (<script id="plotly-js" async>) is
// not on that path: a chart is drawn once it has loaded. The plotly template is in the page once
// (<script id="plotly-template">, leaderboard.charts.shared_template), not in every tab's figure.
(function () {
  const templateBox = document.getElementById("plotly-template");
  const template = templateBox ? JSON.parse(templateBox.textContent) : null;
  function withPlotly(fn) {
    // Not yet executed means its load event is still to come (scripts run one at a time).
    if (window.Plotly) { fn(); } else { document.getElementById("plotly-js").addEventListener("load", fn, {once: true}); }
  }
  function draw(panel) {
    const box = panel.querySelector(".chart");
    if (!box || box.dataset.drawn) return;
    box.dataset.drawn = "1";
    withPlotly(function () {
      const fig = JSON.parse(document.getElementById(box.dataset.figureId).textContent);
      if (template && !fig.layout.template) fig.layout.template = template;
      if (window.rgFitFigure) window.rgFitFigure(box, fig);  // narrow screens (static/js/figures.js)
      Plotly.newPlot(box, fig.data, fig.layout, {displaylogo: false, responsive: true});
    });
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
