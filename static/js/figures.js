// Draws every server-built plotly figure of a page: <div data-plot="ID"> with the figure in
// <script type="application/json" id="ID"> (Django's json_script). With data-click-url, a click on a point opens
// the URL in that point's customdata (the matrix's cells). No inline script: the Content-Security-Policy forbids it.
//
// window.rgFitFigure(box, fig) fits a figure built for a desktop page to a narrow box (a 390 px phone; also used by
// static/js/leaderboard.js for the board's radars): a smaller title wrapped between words, smaller tick labels,
// margins that leave the plot room (a radar keeps room for its axis labels "Pass@1", "DSR"), a bar chart's one tick
// per task thinned out, and a heat map kept wide enough for every task column (its box scrolls sideways).
(function () {
  const NARROW = 600;
  function wrapTitle(text, perLine) {
    const words = String(text).split(" ");
    const lines = [];
    let line = "";
    words.forEach(function (w) {
      if (line && (line + " " + w).length > perLine) { lines.push(line); line = w; } else { line = line ? line + " " + w : w; }
    });
    if (line) lines.push(line);
    return lines;
  }
  function tickFont(axis, size) {
    axis.tickfont = Object.assign({}, axis.tickfont, {size: size});
    axis.automargin = true;
  }
  window.rgFitFigure = function (box, fig) {
    const width = box.clientWidth || window.innerWidth;
    if (width >= NARROW) return fig;
    const layout = fig.layout = fig.layout || {};
    const margin = layout.margin = Object.assign({l: 80, r: 80, t: 100, b: 80}, layout.margin);
    let titleLines = 0;
    if (layout.title && layout.title.text) {
      const lines = wrapTitle(layout.title.text, Math.max(20, Math.floor(width / 8.5)));
      titleLines = lines.length;
      layout.title.text = lines.join("<br>");
      layout.title.font = Object.assign({}, layout.title.font, {size: 14});
    }
    margin.t = Math.max(30, 18 * titleLines + 24);
    const data = fig.data || [];
    const polar = data.some(function (t) { return t.type === "scatterpolar"; });
    const heatmap = data.find(function (t) { return t.type === "heatmap"; });
    if (polar) {
      layout.polar = layout.polar || {};
      layout.polar.angularaxis = Object.assign({}, layout.polar.angularaxis, {tickfont: {size: 11}});
      layout.polar.radialaxis = Object.assign({}, layout.polar.radialaxis, {tickfont: {size: 9}});
      layout.legend = Object.assign({}, layout.legend, {font: {size: 10}});
      margin.l = 50; margin.r = 50;  // "Pass@1" on the right, "DSR" on the left stay inside the chart
      return fig;
    }
    ["xaxis", "yaxis"].forEach(function (key) { layout[key] = layout[key] || {}; tickFont(layout[key], 10); });
    margin.l = Math.min(margin.l, 10); margin.r = Math.min(margin.r, 10);
    if (heatmap) {
      const columns = (heatmap.x || []).length;
      // Row labels cut to 22 characters (the hover text keeps the whole name); the map as wide as its columns
      // need, scrolling sideways in its box when that is wider than the screen.
      const rows = heatmap.y || [];
      const cut = rows.map(function (s) { s = String(s); return s.length > 22 ? s.slice(0, 21) + "\u2026" : s; });
      layout.yaxis.tickmode = "array"; layout.yaxis.tickvals = rows; layout.yaxis.ticktext = cut;
      const longest = Math.max.apply(null, cut.map(function (s) { return s.length; }).concat([1]));
      const wanted = longest * 6 + columns * 16 + 100;  // labels, cells, colour bar
      if (wanted > width) { layout.width = wanted; box.style.overflowX = "auto"; }
      layout.title.x = 0; layout.title.xref = "container"; layout.title.xanchor = "left";
      margin.b = Math.min(margin.b, 40);
      return fig;
    }
    if (layout.xaxis.dtick === 1) { delete layout.xaxis.dtick; layout.xaxis.nticks = 6; }
    margin.b = Math.min(margin.b, 40);
    return fig;
  };
  document.querySelectorAll("[data-plot]").forEach(function (box) {
    const fig = window.rgFitFigure(box, JSON.parse(document.getElementById(box.dataset.plot).textContent));
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
