// Follows a queued, running or generating submission on its page: polls the status JSON (data-status-url on
// #status) every 2 s, updates the status badge, the evaluation's progress bar (#progress-card) and the generation's
// count (#gen-progress), and reloads the page once the step shown is over.
(function () {
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
        if (run && p) {
          document.getElementById("bar").style.width = (100 * p.done / Math.max(p.total, 1)) + "%";
          document.getElementById("progress-text").textContent = p.done + " of " + p.total + " tasks done · " +
            p.tasks.filter(function (t) { return t.status === "running"; })
              .map(function (t) { return t.task + " (" + t.phase + ")"; }).join(", ");
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
                     (generation && d.status !== "generating");
        if (over) { window.location.reload(); } else { setTimeout(poll, 2000); }
      });
  }
  poll();
})();
