"""Signals of the evaluation pipeline.

`submission_ended(submission_id, status)` is sent when a submission reaches `finished` or `failed` (by
pipeline.submission_status_set, the one writer of its status); evaluation.tasks sends the team's notifications
(e-mail, webhook) once the transaction commits. A cancel sends nothing: the team did it.
"""
from django.dispatch import Signal

submission_ended = Signal()
