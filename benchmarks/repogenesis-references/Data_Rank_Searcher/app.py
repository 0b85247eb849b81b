"""Data Rank Searcher: in-memory records with pagination, sorting, exact and fuzzy search."""
import math
import os
import threading
import uuid
from datetime import datetime, timezone

from flask import Flask, jsonify, request

app = Flask(__name__)
app.json.ensure_ascii = False
app.json.sort_keys = False

lock = threading.Lock()
records = {}  # id -> record (insertion ordered)

SORT_FIELDS = ("name", "category", "score", "created_at")
SEARCH_FIELDS = ("id", "name", "category", "score", "description", "tags", "created_at")
DEFAULT_PAGE_SIZE = 10
MAX_PAGE_SIZE = 100


def ok(message, data=None, status=200):
    body = {"success": True, "message": message}
    if data is not None:
        body["data"] = data
    return jsonify(body), status


def fail(status, message):
    return jsonify({"success": False, "message": message}), status


def is_number(v):
    return isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)


def validate(payload):
    if not isinstance(payload, dict):
        return "request body must be a JSON object"
    for field in ("name", "category"):
        v = payload.get(field)
        if not isinstance(v, str) or not v.strip():
            return f"'{field}' is required and must be a non-empty string"
    if "score" not in payload or not is_number(payload["score"]):
        return "'score' is required and must be a number"
    desc = payload.get("description")
    if desc is not None and not isinstance(desc, str):
        return "'description' must be a string"
    tags = payload.get("tags")
    if tags is not None and (not isinstance(tags, list) or not all(isinstance(t, str) for t in tags)):
        return "'tags' must be an array of strings"
    return None


@app.get("/")
def index():
    return jsonify({"success": True, "message": "Data Rank Searcher is running",
                    "endpoints": ["POST /api/data", "GET /api/data", "GET /api/data/{id}",
                                  "DELETE /api/data/{id}"]})


@app.post("/api/data")
def add_data():
    payload = request.get_json(silent=True)
    err = validate(payload)
    if err:
        return fail(400, err)
    record = {
        "id": str(uuid.uuid4()),
        "name": payload["name"],
        "category": payload["category"],
        "score": payload["score"],
        "description": payload.get("description") or "",
        "tags": list(payload.get("tags") or []),
        "created_at": datetime.now(timezone.utc).isoformat(timespec="microseconds").replace("+00:00", "Z"),
    }
    with lock:
        records[record["id"]] = record
    return ok("Data record created successfully", record, 201)


def int_param(name, default):
    raw = request.args.get(name)
    if raw is None or raw.strip() == "":
        return default
    return int(raw)


def exact_match(record, field, value):
    v = record.get(field)
    if field == "tags":
        return value in v
    if field == "score":
        try:
            return float(value) == float(v)
        except ValueError:
            return False
    return str(v) == value


def fuzzy_match(record, field, value):
    needle = value.lower()
    v = record.get(field)
    if field == "tags":
        return any(needle in t.lower() for t in v)
    return needle in str(v).lower()


@app.get("/api/data")
def query_data():
    try:
        page = int_param("page", 1)
        page_size = int_param("page_size", DEFAULT_PAGE_SIZE)
    except ValueError:
        return fail(400, "'page' and 'page_size' must be integers")
    if page < 1:
        return fail(400, "'page' must be >= 1")
    if page_size < 1:
        return fail(400, "'page_size' must be >= 1")
    page_size = min(page_size, MAX_PAGE_SIZE)

    sort_by = request.args.get("sort_by") or None
    sort_order = (request.args.get("sort_order") or "asc").lower()
    if sort_by is not None and sort_by not in SORT_FIELDS:
        return fail(400, f"'sort_by' must be one of {', '.join(SORT_FIELDS)}")
    if sort_order not in ("asc", "desc"):
        return fail(400, "'sort_order' must be 'asc' or 'desc'")

    search_field = request.args.get("search_field") or None
    search_value = request.args.get("search_value")
    fuzzy_field = request.args.get("fuzzy_field") or None
    fuzzy_value = request.args.get("fuzzy_value")
    for f in (search_field, fuzzy_field):
        if f is not None and f not in SEARCH_FIELDS:
            return fail(400, f"search field must be one of {', '.join(SEARCH_FIELDS)}")

    with lock:
        items = list(records.values())
    if search_field is not None and search_value is not None:
        items = [r for r in items if exact_match(r, search_field, search_value)]
    if fuzzy_field is not None and fuzzy_value is not None:
        items = [r for r in items if fuzzy_match(r, fuzzy_field, fuzzy_value)]
    if sort_by is not None:
        items.sort(key=lambda r: r[sort_by], reverse=(sort_order == "desc"))

    total = len(items)
    total_pages = math.ceil(total / page_size) if total else 0
    start = (page - 1) * page_size
    return ok("Query successful", {
        "items": items[start:start + page_size],
        "pagination": {"page": page, "page_size": page_size, "total_items": total, "total_pages": total_pages},
    })


@app.get("/api/data/<data_id>")
def get_data(data_id):
    record = records.get(data_id)
    if record is None:
        return fail(404, f"Data record '{data_id}' not found")
    return ok("Data record retrieved successfully", record)


@app.delete("/api/data/<data_id>")
def delete_data(data_id):
    with lock:
        record = records.pop(data_id, None)
    if record is None:
        return fail(404, f"Data record '{data_id}' not found")
    return ok("Data record deleted successfully")


@app.errorhandler(404)
def not_found(_e):
    return fail(404, "Resource not found")


@app.errorhandler(405)
def not_allowed(_e):
    return fail(405, "Method not allowed")


if __name__ == "__main__":
    app.run(host="0.0.0.0", port=int(os.environ.get("PORT", "8080")), threaded=True)
