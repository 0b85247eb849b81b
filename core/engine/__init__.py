"""The phases of docs/scoring.md "The run of one task", Django-free: plain arguments in, dataclasses out.

Entry points: `evaluate_task` (one task in a sandbox), `inspect_archive` / `extract_archive`
(checking and unpacking uploads), `evaluate_submission` (every task of an extracted submission).
"""
EVALUATOR_VERSION = "1.0.0"
