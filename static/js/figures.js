// Draws every server-built plotly figure of a page: <div data-plot="ID"> with the figure in
// <script type="application/json" id="ID"> (Django's json_script). With data-click-url, a click on a point opens
// the URL in that point's customdata (the matrix's cells). No inline script: the Content-Security-Policy forbids it.
(function () {
  document.querySelectorAll("[data-plot]").forEach(function (box) {
    const fig = JSON.parse(document.getElementById(box.dataset.plot).textContent);
    const drawn = Plotly.newPlot(box, fig.data, fig.layout, {displaylogo: false, responsive: true});
    if (box.hasAttribute("data-click-url")) {
      drawn.then(function () {
        box.on("plotly_click", function (ev) {
          const p = ev.points && ev.points[0];
          if (p && p.customdata) { window.location.href = p.customdata; }
        });
      });
    }
  });
})();
