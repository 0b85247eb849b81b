"""Logging filters of the site's handlers (settings.LOGGING)."""
import logging


class NoClientErrorTraceback(logging.Filter):
    """Keeps a refused request's log record to its one line: a record with a 4xx `status_code` (what Django's
    `django.request` and `django.security` loggers attach, e.g. "Forbidden (Permission denied): /path") loses its
    exception and traceback. A 403 or 404 is the client's mistake, not the site's: a traceback per refused request
    fills the log and hides the real errors (issue 13, defect 8). 5xx records and records without a status keep
    theirs."""

    def filter(self, record: logging.LogRecord) -> bool:
        """Always True (the record is kept); strips `exc_info`/`exc_text` from 4xx records."""
        status = getattr(record, "status_code", None)
        if isinstance(status, int) and 400 <= status < 500:
            record.exc_info = None
            record.exc_text = None
        return True
