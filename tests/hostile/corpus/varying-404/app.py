"""Implements nothing: every request gets a 404 whose body carries a fresh request id, so no two 404s look alike
and a body comparison would call every endpoint implemented."""
import os
import secrets

from flask import Flask, jsonify

served = Flask("varying-404")


@served.route("/", defaults={"path": ""}, methods=["GET", "POST", "PUT", "PATCH", "DELETE"])
@served.route("/<path:path>", methods=["GET", "POST", "PUT", "PATCH", "DELETE"])
def nothing(path):
    return jsonify({"error": "not found", "request": secrets.token_hex(4)}), 404


if __name__ == "__main__":
    served.run(host="127.0.0.1", port=int(os.environ.get("PORT", 8080)))
