"""Eve-style REST microservice for the `people` resource.

The real Eve framework needs a running MongoDB server; this service keeps the same
external contract (``_items`` envelopes, ``_id``/``_etag`` meta fields, ETag and
If-Match concurrency control, Eve error envelopes) on top of a small in-memory,
thread-safe document store.
"""
import copy
import hashlib
import json
import os
import threading
import time
from email.utils import formatdate

from flask import Flask, jsonify, make_response, request

RESOURCE = "people"
SCHEMA = {"firstname": str, "lastname": str, "role": str}
REQUIRED = ("firstname", "lastname", "role")
DEFAULT_MAX_RESULTS = None  # no pagination unless the client asks for it
MAX_RESULTS_LIMIT = 1000

app = Flask(__name__)
app.json.sort_keys = False


class DocumentStore:
    """In-memory document collection keyed by ObjectId-like string ids."""

    def __init__(self):
        self._docs = {}
        self._order = []
        self._lock = threading.RLock()
        self._counter = int.from_bytes(os.urandom(3), "big")
        self._machine = os.urandom(5)

    def new_id(self):
        with self._lock:
            self._counter = (self._counter + 1) % 0xFFFFFF
            raw = int(time.time()).to_bytes(4, "big") + self._machine + self._counter.to_bytes(3, "big")
        return raw.hex()

    def insert(self, doc):
        with self._lock:
            self._docs[doc["_id"]] = doc
            self._order.append(doc["_id"])
            return copy.deepcopy(doc)

    def get(self, doc_id):
        with self._lock:
            doc = self._docs.get(doc_id)
            return copy.deepcopy(doc) if doc is not None else None

    def all(self):
        with self._lock:
            return [copy.deepcopy(self._docs[i]) for i in self._order]

    def replace(self, doc):
        with self._lock:
            self._docs[doc["_id"]] = doc
            return copy.deepcopy(doc)

    def delete(self, doc_id):
        with self._lock:
            if self._docs.pop(doc_id, None) is None:
                return False
            self._order.remove(doc_id)
            return True

    @property
    def lock(self):
        return self._lock


store = DocumentStore()


def http_date(ts=None):
    return formatdate(ts if ts is not None else time.time(), usegmt=True)


def compute_etag(doc):
    payload = {k: v for k, v in doc.items() if k not in ("_etag", "_links")}
    return hashlib.sha1(json.dumps(payload, sort_keys=True, default=str).encode()).hexdigest()


def error(status, message, issues=None):
    body = {"_status": "ERR", "_error": {"code": status, "message": message}}
    if issues:
        body["_issues"] = issues
    return make_response(jsonify(body), status)


def item_links(doc):
    return {
        "self": {"title": "person", "href": f"{RESOURCE}/{doc['_id']}"},
        "parent": {"title": "home", "href": "/"},
        "collection": {"title": RESOURCE, "href": RESOURCE},
    }


def render(doc):
    out = dict(doc)
    out["_links"] = item_links(doc)
    return out


def item_response(doc, status=200):
    resp = make_response(jsonify(render(doc)), status)
    resp.headers["ETag"] = f'"{doc["_etag"]}"'
    resp.headers["Last-Modified"] = doc["_updated"]
    return resp


def validate(payload, partial):
    """Return (clean_fields, issues)."""
    if not isinstance(payload, dict):
        return None, {"_root": "the request body must be a JSON object"}
    issues = {}
    clean = {}
    for key, value in payload.items():
        if key in ("_id", "id", "_etag", "_created", "_updated", "_links"):
            continue  # server-managed fields are ignored
        expected = SCHEMA.get(key)
        if expected is None:
            issues[key] = "unknown field"
        elif not isinstance(value, expected):
            issues[key] = "must be of string type"
        else:
            clean[key] = value
    if not partial:
        for key in REQUIRED:
            if key not in payload:
                issues[key] = "required field"
    return clean, issues


def client_etags(header_value):
    tags = set()
    for part in header_value.split(","):
        tag = part.strip()
        if tag.startswith("W/"):
            tag = tag[2:]
        tag = tag.strip().strip('"')
        if tag:
            tags.add(tag)
    return tags


def check_precondition(doc):
    """Return an error response if If-Match is missing or stale, else None."""
    header = request.headers.get("If-Match")
    if header is None or not header.strip():
        return error(428, "To edit a document its etag must be provided using the If-Match header")
    tags = client_etags(header)
    if "*" in tags or doc["_etag"] in tags:
        return None
    return error(412, "Client and server etags don't match")


@app.get("/")
def home():
    return jsonify({"_links": {"child": [{"title": RESOURCE, "href": RESOURCE}]}})


def matches(doc, where):
    for key, value in where.items():
        if doc.get(key) != value:
            return False
    return True


@app.get(f"/{RESOURCE}")
def list_people():
    docs = store.all()
    where_raw = request.args.get("where")
    if where_raw:
        try:
            where = json.loads(where_raw)
        except ValueError:
            return error(400, "Unable to parse `where` clause")
        if not isinstance(where, dict):
            return error(400, "Unable to parse `where` clause")
        docs = [d for d in docs if matches(d, where)]
    else:
        filters = {k: v for k, v in request.args.items() if k in SCHEMA or k == "_id"}
        if filters:
            docs = [d for d in docs if matches(d, filters)]

    sort_raw = request.args.get("sort")
    if sort_raw:
        for field in reversed([f.strip() for f in sort_raw.split(",") if f.strip()]):
            reverse = field.startswith("-")
            name = field.lstrip("-")
            docs.sort(key=lambda d, n=name: (d.get(n) is None, str(d.get(n, ""))), reverse=reverse)

    total = len(docs)
    try:
        page = max(1, int(request.args.get("page", 1)))
        max_results = request.args.get("max_results")
        max_results = int(max_results) if max_results is not None else DEFAULT_MAX_RESULTS
    except ValueError:
        return error(400, "`page` and `max_results` must be integers")
    if max_results is not None:
        max_results = max(1, min(max_results, MAX_RESULTS_LIMIT))
        docs = docs[(page - 1) * max_results: page * max_results]
    meta = {"page": page, "max_results": max_results if max_results is not None else total, "total": total}
    body = {
        "_items": [render(d) for d in docs],
        "_links": {"parent": {"title": "home", "href": "/"}, "self": {"title": RESOURCE, "href": RESOURCE}},
        "_meta": meta,
    }
    return jsonify(body)


def create_one(payload):
    clean, issues = validate(payload, partial=False)
    if issues:
        return None, issues
    now = http_date()
    doc = {"_id": store.new_id()}
    doc.update({k: clean[k] for k in SCHEMA if k in clean})
    doc["_created"] = now
    doc["_updated"] = now
    doc["_etag"] = compute_etag(doc)
    return store.insert(doc), None


@app.post(f"/{RESOURCE}")
def create_people():
    payload = request.get_json(silent=True)
    if payload is None:
        return error(400, "The request body must be valid JSON")
    if isinstance(payload, list):
        # Eve-style bulk insert: all or nothing.
        results, failed = [], False
        checked = []
        for item in payload:
            _clean, issues = validate(item, partial=False)
            checked.append(issues)
            failed = failed or bool(issues)
        if failed or not payload:
            items = [{"_status": "ERR", "_issues": i} if i else {"_status": "OK"} for i in checked]
            body = {"_status": "ERR", "_error": {"code": 422, "message": "Insertion failure: some document(s) contain(s) error(s)"},
                    "_items": items}
            return make_response(jsonify(body), 422)
        for item in payload:
            doc, _ = create_one(item)
            entry = render(doc)
            entry["_status"] = "OK"
            results.append(entry)
        return make_response(jsonify({"_status": "OK", "_items": results}), 201)

    doc, issues = create_one(payload)
    if issues:
        return error(422, "Insertion failure: 1 document(s) contain(s) error(s)", issues)
    resp = item_response(doc, 201)
    body = render(doc)
    body["_status"] = "OK"
    resp.set_data(json.dumps(body))
    resp.headers["Location"] = request.host_url.rstrip("/") + f"/{RESOURCE}/{doc['_id']}"
    return resp


@app.get(f"/{RESOURCE}/<doc_id>")
def get_person(doc_id):
    doc = store.get(doc_id)
    if doc is None:
        return error(404, "The requested URL was not found on the server.")
    inm = request.headers.get("If-None-Match")
    if inm and (doc["_etag"] in client_etags(inm) or "*" in client_etags(inm)):
        resp = make_response("", 304)
        resp.headers["ETag"] = f'"{doc["_etag"]}"'
        return resp
    return item_response(doc)


def update_person(doc_id):
    with store.lock:
        doc = store.get(doc_id)
        if doc is None:
            return error(404, "The requested URL was not found on the server.")
        failed = check_precondition(doc)
        if failed is not None:
            return failed
        payload = request.get_json(silent=True)
        if payload is None:
            return error(400, "The request body must be valid JSON")
        clean, issues = validate(payload, partial=True)
        if issues:
            return error(422, "Update failure: the document contains error(s)", issues)
        doc.update(clean)
        doc["_updated"] = http_date()
        doc["_etag"] = compute_etag(doc)
        doc = store.replace(doc)
    body = render(doc)
    body["_status"] = "OK"
    resp = item_response(doc)
    resp.set_data(json.dumps(body))
    return resp


@app.put(f"/{RESOURCE}/<doc_id>")
def put_person(doc_id):
    return update_person(doc_id)


@app.patch(f"/{RESOURCE}/<doc_id>")
def patch_person(doc_id):
    return update_person(doc_id)


@app.delete(f"/{RESOURCE}/<doc_id>")
def delete_person(doc_id):
    with store.lock:
        doc = store.get(doc_id)
        if doc is None:
            return error(404, "The requested URL was not found on the server.")
        failed = check_precondition(doc)
        if failed is not None:
            return failed
        store.delete(doc_id)
    return make_response("", 204)


@app.errorhandler(404)
def not_found(_e):
    return error(404, "The requested URL was not found on the server.")


@app.errorhandler(405)
def method_not_allowed(_e):
    return error(405, "The method is not allowed for the requested URL.")


if __name__ == "__main__":
    app.run(host="0.0.0.0", port=int(os.environ.get("PORT", "5001")), threaded=True)
