"""StructuredDataConvertor HTTP service (Excel / CSV / PDF conversion), base path /api/v1."""
import os
import time
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime, timezone

from flask import Flask, jsonify, request

import converter

VERSION = "1.0.0"
app = Flask(__name__)
app.json.sort_keys = False
app.config["MAX_CONTENT_LENGTH"] = 200 * 1024 * 1024
pool = ThreadPoolExecutor(max_workers=8)


@app.after_request
def cors(resp):
    resp.headers["Access-Control-Allow-Origin"] = "*"
    resp.headers["Access-Control-Allow-Methods"] = "GET, POST, OPTIONS"
    resp.headers["Access-Control-Allow-Headers"] = "Content-Type"
    return resp


def health_body():
    return {"status": "healthy", "timestamp": datetime.now(timezone.utc).isoformat(), "version": VERSION}


@app.get("/")
def index():
    return jsonify({"service": "StructuredDataConvertor", "version": VERSION, "base_path": "/api/v1"})


@app.get("/api/v1/health")
@app.get("/health")
def health():
    return jsonify(health_body())


def run_one(item):
    try:
        return converter.convert(item)
    except converter.ConversionError as e:
        return converter.failure(str(e))
    except Exception as e:  # unexpected failure of one task must not sink the batch
        return converter.failure(f"Conversion failed: {e}")


@app.post("/api/v1/convert")
def convert():
    payload = request.get_json(silent=True)
    try:
        return jsonify(converter.convert(payload))
    except converter.ConversionError as e:
        return jsonify(converter.failure(str(e))), 400
    except Exception as e:
        return jsonify(converter.failure(f"Conversion failed: {e}")), 500


@app.post("/api/v1/convert/batch")
def convert_batch():
    started = time.perf_counter()
    payload = request.get_json(silent=True)
    if not isinstance(payload, dict) or not isinstance(payload.get("conversions"), list):
        return jsonify({"success": False, "message": "'conversions' must be a list", "results": [],
                        "summary": None}), 400
    parallel = payload.get("parallel", False)
    if not isinstance(parallel, bool):
        return jsonify({"success": False, "message": "'parallel' must be a boolean", "results": [],
                        "summary": None}), 400
    items = payload["conversions"]
    if parallel and len(items) > 1:
        results = list(pool.map(run_one, items))
    else:
        results = [run_one(item) for item in items]
    ok = sum(1 for r in results if r["success"])
    total_time = max(time.perf_counter() - started, 1e-6)
    return jsonify({
        "success": True,
        "message": f"Processed {len(results)} conversions: {ok} succeeded, {len(results) - ok} failed",
        "results": results,
        "summary": {"total_count": len(results), "success_count": ok, "failure_count": len(results) - ok,
                    "total_time": round(total_time, 6) or 1e-6},
    })


@app.errorhandler(404)
def not_found(_e):
    return jsonify({"success": False, "message": "Not found"}), 404


@app.errorhandler(405)
def not_allowed(_e):
    return jsonify({"success": False, "message": "Method not allowed"}), 405


@app.errorhandler(413)
def too_large(_e):
    return jsonify({"success": False, "message": "Request too large"}), 413


if __name__ == "__main__":
    app.run(host="0.0.0.0", port=int(os.environ.get("PORT", "8000")), threaded=True)
