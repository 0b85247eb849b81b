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


class RefusedRequestOneLine(NoClientErrorTraceback):
    """A filter of the loggers Django writes refused requests to (`django.request`, `django.security.csrf`:
    settings.LOGGING), so every handler, Django's own included, gets the one line: a 4xx record loses its exception
    (NoClientErrorTraceback), and a 403 carrying its request (Django's log_response passes it) says who was refused
    what: "Forbidden (Permission denied): POST /systems/7/run/ by user 'alice'", at WARNING."""

    def filter(self, record: logging.LogRecord) -> bool:
        """Always True; strips 4xx records' exceptions and rewrites a 403's message as above."""
        super().filter(record)
        request = getattr(record, "request", None)
        if getattr(record, "status_code", None) == 403 and request is not None and hasattr(request, "method"):
            user = getattr(request, "user", None)
            who = (f"user {user.get_username()!r}" if user is not None and user.is_authenticated
                   else "an anonymous visitor")
            what = record.getMessage().split(":", 1)[0]  # Django's "Forbidden (Permission denied)", "Forbidden"
            path = request.path.encode("unicode_escape").decode("ascii")  # a %0A in the URL stays on the line
            record.msg, record.args = "%s: %s %s by %s", (what, request.method, path, who)
            record.levelno, record.levelname = logging.WARNING, "WARNING"
        return True
