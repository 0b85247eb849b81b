"""Django-free grading: everything docs/scoring.md defines that does not need a database or a sandbox.

Modules (plain arguments in, frozen dataclasses out; nothing here imports Django):

- `taxonomy`: the task outcomes of docs/scoring.md "Failure taxonomy", their groups and labels.
- `junit`: pytest JUnit XML and Maven Surefire reports -> per-case statuses.
- `paths`, `endpoints`, `static_routes`, `dispatch_routes`: declared endpoints from a README, path normalisation
  and the static route check of docs/scoring.md "API Coverage".
- `probe`: the dynamic endpoint probe of docs/scoring.md "API Coverage".
- `testcount`: static counts of hidden test cases (docs/scoring.md "Metrics per task", `tests_total`).
- `metrics`, `bootstrap`: per-task metrics, macro means and 95% bootstrap intervals (docs/scoring.md "Aggregates").
- `ranking`: leaderboard order, shared ranks and statistical ties with the leader (docs/scoring.md "Ranking").
"""
