"""Mail Notification Service: a small REST API for sending and tracking email notifications.

Emails are kept in memory. Delivery is simulated: a queued email is handed to the (simulated) mail
transport right away, so its status becomes ``sent`` with ``sent_at`` set to the time of acceptance.
"""
import os
import re
import threading
import time
import uuid
from collections import defaultdict, deque
from datetime import datetime, timezone

from flask import Flask, jsonify, request

app = Flask(__name__)

API = "/api/v1/mail"
SYSTEM_EMAIL = os.environ.get("MAIL_SYSTEM_EMAIL", "noreply@mailservice.local")
VALID_PRIORITIES = ("low", "normal", "high")
VALID_STATUSES = ("pending", "sent", "failed", "delivered", "bounced")
MAX_BODY_BYTES = 1024 * 1024
MAX_BATCH = 100
DEFAULT_LIMIT = 50
MAX_LIMIT = 100
RATE_LIMIT = int(os.environ.get("MAIL_RATE_LIMIT", "100"))  # requests per minute per client
RATE_WINDOW = 60.0

# RFC 5322 "dot-atom" local part and a domain made of labels with a dot-separated TLD.
_ATEXT = r"[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]"
EMAIL_RE = re.compile(
    r"^" + _ATEXT + r"+(?:\." + _ATEXT + r"+)*"
    r"@(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z]{2,63}$"
)

_lock = threading.Lock()
_emails = {}          # mail_id -> record
_order = []           # mail_ids in insertion order
_rate = defaultdict(deque)


class ApiError(Exception):
    def __init__(self, status, code, message, details=None):
        super().__init__(message)
        self.status, self.code, self.message, self.details = status, code, message, details


def error_response(status, code, message, details=None):
    body = {"error": code, "message": message}
    if details is not None:
        body["details"] = details
    return jsonify(body), status


@app.errorhandler(ApiError)
def _handle_api_error(e):
    return error_response(e.status, e.code, e.message, e.details)


@app.errorhandler(404)
def _not_found(e):
    return error_response(404, "NOT_FOUND", "Resource not found")


@app.errorhandler(405)
def _method_not_allowed(e):
    return error_response(405, "METHOD_NOT_ALLOWED", "Method not allowed")


@app.errorhandler(500)
def _internal(e):
    return error_response(500, "INTERNAL_ERROR", "Internal server error")


def now_utc():
    return datetime.now(timezone.utc)


def iso(dt):
    if dt is None:
        return None
    return dt.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def parse_iso(value, name):
    text = value.strip()
    if text.endswith(("Z", "z")):
        text = text[:-1] + "+00:00"
    try:
        dt = datetime.fromisoformat(text)
    except ValueError:
        raise ApiError(400, "INVALID_DATE", f"'{name}' must be an ISO 8601 date/time", {"field": name})
    if dt.tzinfo is None:
        dt = dt.replace(tzinfo=timezone.utc)
    return dt


@app.before_request
def _rate_limit():
    if not request.path.startswith(API):
        return None
    client = request.remote_addr or "unknown"
    t = time.monotonic()
    with _lock:
        q = _rate[client]
        while q and t - q[0] >= RATE_WINDOW:
            q.popleft()
        if len(q) >= RATE_LIMIT:
            retry = max(1, int(RATE_WINDOW - (t - q[0])) + 1)
            resp, status = error_response(429, "RATE_LIMIT_EXCEEDED",
                                          f"Rate limit of {RATE_LIMIT} requests per minute exceeded")
            resp.headers["Retry-After"] = str(retry)
            return resp, status
        q.append(t)
    return None


def validate_email_payload(data):
    """Validate one email object; return the normalised email or raise ApiError(400)."""
    if not isinstance(data, dict):
        raise ApiError(400, "INVALID_REQUEST", "Email must be a JSON object")

    for field in ("to", "subject", "body"):
        if field not in data or data[field] is None:
            raise ApiError(400, "MISSING_FIELD", f"Required field '{field}' is missing", {"field": field})

    to = data["to"]
    if isinstance(to, str):
        to = [to]
    if not isinstance(to, list):
        raise ApiError(400, "INVALID_EMAIL", "'to' must be a list of email addresses", {"field": "to"})
    if len(to) == 0:
        raise ApiError(400, "MISSING_FIELD", "At least one recipient is required in 'to'", {"field": "to"})

    subject, body = data["subject"], data["body"]
    if not isinstance(subject, str):
        raise ApiError(400, "INVALID_FIELD", "'subject' must be a string", {"field": "subject"})
    if not isinstance(body, str):
        raise ApiError(400, "INVALID_FIELD", "'body' must be a string", {"field": "body"})
    if subject.strip() == "":
        raise ApiError(400, "MISSING_FIELD", "'subject' must not be empty", {"field": "subject"})
    if body.strip() == "":
        raise ApiError(400, "MISSING_FIELD", "'body' must not be empty", {"field": "body"})
    if len(body.encode("utf-8")) > MAX_BODY_BYTES:
        raise ApiError(400, "BODY_TOO_LARGE", "Email body exceeds the 1MB limit",
                       {"field": "body", "max_bytes": MAX_BODY_BYTES})

    def check_list(name, value):
        if value is None:
            return []
        if isinstance(value, str):
            value = [value]
        if not isinstance(value, list):
            raise ApiError(400, "INVALID_EMAIL", f"'{name}' must be a list of email addresses", {"field": name})
        for addr in value:
            if not isinstance(addr, str) or not EMAIL_RE.match(addr.strip()) or len(addr) > 254:
                raise ApiError(400, "INVALID_EMAIL", f"Invalid email address in '{name}': {addr!r}",
                               {"field": name, "value": addr})
        return [a.strip() for a in value]

    to = check_list("to", to)
    cc = check_list("cc", data.get("cc"))
    bcc = check_list("bcc", data.get("bcc"))

    sender = data.get("from")
    if sender is None or sender == "":
        sender = SYSTEM_EMAIL
    elif not isinstance(sender, str) or not EMAIL_RE.match(sender.strip()):
        raise ApiError(400, "INVALID_EMAIL", f"Invalid sender address: {sender!r}", {"field": "from"})
    else:
        sender = sender.strip()

    priority = data.get("priority")
    if priority is None:
        priority = "normal"
    if not isinstance(priority, str) or priority.lower() not in VALID_PRIORITIES:
        raise ApiError(400, "INVALID_PRIORITY", "Priority must be one of: low, normal, high",
                       {"field": "priority", "value": priority})

    return {"to": to, "cc": cc, "bcc": bcc, "from": sender, "subject": subject, "body": body,
            "priority": priority.lower()}


def queue_email(email):
    """Store a validated email and hand it to the simulated transport. Returns the record."""
    mail_id = str(uuid.uuid4())
    ts = now_utc()
    record = dict(email)
    record.update({
        "mail_id": mail_id,
        "status": "pending",
        "created_at": ts,
        "sent_at": None,
        "delivered_at": None,
        "error": None,
    })
    # Simulated transport: accepted by the mail server immediately.
    record["status"] = "sent"
    record["sent_at"] = ts
    with _lock:
        _emails[mail_id] = record
        _order.append(mail_id)
    return record


def get_json_object():
    data = request.get_json(silent=True)
    if data is None:
        raise ApiError(400, "INVALID_REQUEST", "Request body must be valid JSON")
    if not isinstance(data, dict):
        raise ApiError(400, "INVALID_REQUEST", "Request body must be a JSON object")
    return data


@app.route("/")
def index():
    return jsonify({"service": "Mail Notification Service", "version": "v1", "status": "ok"})


@app.route("/health")
def health():
    return jsonify({"status": "ok", "timestamp": iso(now_utc())})


@app.route(f"{API}/send", methods=["POST"])
def send_email():
    email = validate_email_payload(get_json_object())
    rec = queue_email(email)
    return jsonify({
        "mail_id": rec["mail_id"],
        "status": rec["status"],
        "message": "Email queued successfully",
        "timestamp": iso(rec["created_at"]),
    }), 200


@app.route(f"{API}/send-batch", methods=["POST"])
def send_batch():
    data = get_json_object()
    if "emails" not in data or data["emails"] is None:
        raise ApiError(400, "MISSING_FIELD", "Required field 'emails' is missing", {"field": "emails"})
    emails = data["emails"]
    if not isinstance(emails, list):
        raise ApiError(400, "INVALID_REQUEST", "'emails' must be a list", {"field": "emails"})
    if len(emails) == 0:
        raise ApiError(400, "MISSING_FIELD", "'emails' must contain at least one email", {"field": "emails"})
    if len(emails) > MAX_BATCH:
        raise ApiError(400, "BATCH_TOO_LARGE", f"Batch size exceeds limit (max {MAX_BATCH} emails per batch)",
                       {"max": MAX_BATCH, "received": len(emails)})

    results, queued, failed = [], 0, 0
    for index, item in enumerate(emails):
        try:
            rec = queue_email(validate_email_payload(item))
        except ApiError as e:
            failed += 1
            results.append({"mail_id": None, "status": "failed", "message": e.message,
                            "error": e.code, "index": index})
            continue
        queued += 1
        results.append({"mail_id": rec["mail_id"], "status": rec["status"],
                        "message": "Email queued successfully", "index": index})

    return jsonify({
        "batch_id": str(uuid.uuid4()),
        "total": len(emails),
        "queued": queued,
        "failed": failed,
        "results": results,
        "timestamp": iso(now_utc()),
    }), 200


@app.route(f"{API}/status/<path:mail_id>", methods=["GET"])
def email_status(mail_id):
    with _lock:
        rec = _emails.get(mail_id)
    if rec is None:
        raise ApiError(404, "NOT_FOUND", f"Email '{mail_id}' not found", {"mail_id": mail_id})
    return jsonify({
        "mail_id": rec["mail_id"],
        "status": rec["status"],
        "to": rec["to"],
        "subject": rec["subject"],
        "sent_at": iso(rec["sent_at"]),
        "delivered_at": iso(rec["delivered_at"]),
        "error": rec["error"],
    })


def int_param(name, default):
    raw = request.args.get(name)
    if raw is None or raw == "":
        return default
    try:
        return int(raw)
    except ValueError:
        raise ApiError(400, "INVALID_PARAMETER", f"'{name}' must be an integer", {"parameter": name})


@app.route(f"{API}/history", methods=["GET"])
def email_history():
    limit = int_param("limit", DEFAULT_LIMIT)
    offset = int_param("offset", 0)
    if limit < 1:
        raise ApiError(400, "INVALID_PARAMETER", "'limit' must be a positive integer", {"parameter": "limit"})
    if offset < 0:
        raise ApiError(400, "INVALID_PARAMETER", "'offset' must not be negative", {"parameter": "offset"})
    limit = min(limit, MAX_LIMIT)

    status = request.args.get("status")
    if status is not None and status != "":
        if status not in VALID_STATUSES:
            raise ApiError(400, "INVALID_STATUS", f"'status' must be one of: {', '.join(VALID_STATUSES)}",
                           {"parameter": "status"})
    else:
        status = None

    from_raw, to_raw = request.args.get("from_date"), request.args.get("to_date")
    from_date = parse_iso(from_raw, "from_date") if from_raw else None
    to_date = parse_iso(to_raw, "to_date") if to_raw else None
    if from_date and to_date and from_date > to_date:
        raise ApiError(400, "INVALID_DATE_RANGE", "'from_date' must not be after 'to_date'")

    with _lock:
        records = [_emails[i] for i in _order]

    def when(r):
        return r["sent_at"] or r["created_at"]

    matched = []
    for r in records:
        if status and r["status"] != status:
            continue
        if from_date and when(r) < from_date:
            continue
        if to_date and when(r) > to_date:
            continue
        matched.append(r)
    matched.sort(key=when, reverse=True)  # most recent first

    page = matched[offset:offset + limit]
    return jsonify({
        "total": len(matched),
        "limit": limit,
        "offset": offset,
        "emails": [{
            "mail_id": r["mail_id"],
            "to": r["to"],
            "subject": r["subject"],
            "status": r["status"],
            "sent_at": iso(r["sent_at"]),
            "delivered_at": iso(r["delivered_at"]),
        } for r in page],
    })


if __name__ == "__main__":
    port = int(os.environ.get("PORT") or os.environ.get("SERVICE_PORT") or 8080)
    app.run(host="0.0.0.0", port=port, threaded=True, debug=False, use_reloader=False)
