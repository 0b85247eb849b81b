"""The phases of docs/scoring.md "The run of one task", Django-free: plain arguments in, dataclasses out.

Entry points: `evaluate_task` (one task in a sandbox), `inspect_archive` / `extract_archive`
(checking and unpacking uploads), `evaluate_submission` (every task of an extracted submission).
"""
#: The evaluator's version, stamped on every run; a run scored by another version is shown as outdated. 1.1.0: the
#: hidden Java tests are compiled and run by the platform's own pom (docs/scoring.md "The test phase"). 1.2.0: red team
#: round 16's forgeries closed (no tracing of Maven from the sandbox, the platform's preloading listener, the white-box
#: checks of trace hooks and the clients' data): a run scored before may hold one of them.
EVALUATOR_VERSION = "1.2.0"
