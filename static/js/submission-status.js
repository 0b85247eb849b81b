// Follows a queued, running or generating submission on its page: polls the status JSON (data-status-url on
// #status) every 2 s, updates the status badge, the evaluator in the header, the evaluation's progress bar
// (#progress-card), each task's row (tr[data-task]: outcome or state, DSR, AC, tests, Pass@1, durations) and the
// generation's count (#gen-progress), and reloads the page once the step shown is over (or once the task rows
// first exist). Text only: names and values from the JSON never go through innerHTML.
(function () {
  const CLASS = /^[a-z0-9_-]+$/;
  function badge(cls, text) {
    const span = document.createElement("span");
    span.className = "badge" + (CLASS.test(cls) ? " " + cls : "");
    span.textContent = text;
    return span;
  }
  function pct(v) { return (v === null || v === undefined) ? "n/a" : (100 * v).toFixed(1) + "%"; }
  function dash(v) { return v ? String(v) : "—"; }
  function cell(tr, cls) { return tr.querySelector("td." + cls); }
  function drawRow(tr, t) {
    const done = t.status === "done";
    const outcome = cell(tr, "t-outcome");
    if (outcome) {
      const parts = [];
      if (t.tests_total === 0) {
        const excluded = badge("", "excluded");
        excluded.title = "no hidden test (N = 0): left out of every mean";
        parts.push(excluded, document.createTextNode(" "));
      }
      if (t.outcome) { parts.push(badge(t.outcome, t.outcome)); }
      else { parts.push(badge(t.status, t.status + (t.phase ? ": " + t.phase : ""))); }
      outcome.replaceChildren.apply(outcome, parts);
    }
    const dsr = cell(tr, "t-dsr");
    if (dsr) dsr.textContent = done ? String(t.dsr) : "—";
    const ac = cell(tr, "t-ac");
    if (ac) {
      if (done) {
        const small = document.createElement("small");
        small.className = "na";
        small.textContent = "(" + t.ac_implemented + "/" + t.ac_declared + ")";
        ac.replaceChildren(document.createTextNode(pct(t.ac) + " "), small);
      } else { ac.textContent = ""; }
    }
    const tests = cell(tr, "t-tests");
    if (tests) tests.textContent = t.tests_passed + "/" + t.tests_total;
    const pass = cell(tr, "t-pass");
    if (pass) pass.textContent = done ? pct(t.pass_at_1) : "";
    const durations = cell(tr, "t-durations");
    if (durations && t.durations) {
      durations.textContent = dash(t.durations.install) + " / " + dash(t.durations.start) + " / " +
        dash(t.durations.test);
    }
  }
  function drawRows(tasks) {
    const rows = document.querySelectorAll("tr[data-task]");
    if (!rows.length && tasks.length) return false;  // the run was just unpacked: its rows come with a reload
    const byName = {};
    tasks.forEach(function (t) { byName[t.task] = t; });
    rows.forEach(function (tr) {
      const t = Object.prototype.hasOwnProperty.call(byName, tr.dataset.task) ? byName[tr.dataset.task] : null;
      if (t) drawRow(tr, t);
    });
    return true;
  }
  function drawEvaluator(ev) {
    const fields = {"ev-version": ev.version, "ev-backend": ev.backend, "ev-isolation": ev.isolation};
    Object.keys(fields).forEach(function (id) {
      const el = document.getElementById(id);
      if (el) el.textContent = fields[id] || "—";
    });
  }
  const status = document.getElementById("status");
  const run = document.getElementById("progress-card");
  const generation = document.getElementById("gen-progress");
  if (!status || !status.dataset.statusUrl || !(run || generation)) return;
  // A page that loaded after the end has nothing to follow (polling it would reload it again and again).
  if (["finished", "failed", "cancelled"].indexOf(status.textContent.trim()) >= 0) return;
  function poll() {
    fetch(status.dataset.statusUrl, {headers: {"Accept": "application/json"}}).then(function (r) { return r.json(); })
      .then(function (d) {
        status.textContent = d.status;
        const p = d.run && d.run.progress;
        if (d.run && d.run.evaluator) drawEvaluator(d.run.evaluator);
        let rowsShown = true;
        if (run && p) {
          rowsShown = drawRows(p.tasks);
          document.getElementById("bar").style.width = (100 * p.done / Math.max(p.total, 1)) + "%";
          const running = p.tasks.filter(function (t) { return t.status === "running"; })
            .map(function (t) { return t.task + " (" + t.phase + ")"; }).join(", ");
          document.getElementById("progress-text").textContent = p.done + " of " + p.total + " tasks done" +
            (running ? " · " + running : "");
        }
        const queue = document.getElementById("queue");
        if (queue && !d.queue) { queue.remove(); }
        else if (queue && d.queue) {
          queue.textContent = "Position " + d.queue.position + " in the queue (" + d.queue.ahead + " ahead, " +
            d.queue.tasks_ahead + " tasks to evaluate before this one)" + (d.queue.estimated_start ?
            " · estimated start around " + d.queue.estimated_start.slice(11, 16) + " UTC" : "") + ".";
        }
        if (generation && d.generation) {
          generation.textContent = d.generation.done + " of " + d.generation.total + " tasks answered…";
        }
        const over = (run && (d.status === "finished" || d.status === "failed" || d.status === "cancelled")) ||
                     (generation && d.status !== "generating") || !rowsShown;
        if (over) { window.location.reload(); } else { setTimeout(poll, 2000); }
      });
  }
  poll();
})();
