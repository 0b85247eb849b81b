"""Flask microservice: health check, string echo and integer sum."""
import os

from flask import Flask, jsonify, request

app = Flask(__name__)


def error(reason, status=400):
    return jsonify({"error": reason}), status


@app.get("/health")
def health():
    return jsonify({"status": "ok"}), 200


@app.post("/echo")
def echo():
    data = request.get_json(silent=True)
    if not isinstance(data, dict):
        return error("request body must be a JSON object")
    if "message" not in data:
        return error("missing field: message")
    message = data["message"]
    if not isinstance(message, str):
        return error("field 'message' must be a string")
    return jsonify({"message": message, "length": len(message)}), 200


def parse_int(raw):
    if raw is None:
        return None
    text = raw.strip()
    if not text:
        return None
    try:
        return int(text)
    except ValueError:
        return None


@app.get("/sum")
def sum_():
    raw_a, raw_b = request.args.get("a"), request.args.get("b")
    if raw_a is None or raw_b is None:
        return error("query parameters 'a' and 'b' are required")
    a, b = parse_int(raw_a), parse_int(raw_b)
    if a is None or b is None:
        return error("query parameters 'a' and 'b' must be integers")
    return jsonify({"result": a + b}), 200


@app.errorhandler(404)
def not_found(_e):
    return error("not found", 404)


@app.errorhandler(405)
def method_not_allowed(_e):
    return error("method not allowed", 405)


if __name__ == "__main__":
    app.run(host="0.0.0.0", port=int(os.environ.get("PORT", "5000")))
