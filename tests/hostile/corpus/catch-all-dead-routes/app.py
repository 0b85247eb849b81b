"""Implements nothing: every method on every path answers 200 {"ok": true}. The routes of the task are written out
on a second Flask app that never runs, so a static check of the source finds every one of them."""
import os

from flask import Flask, jsonify

dead = Flask("never-served")


@dead.get("/health")
def health():
    return jsonify({"status": "ok"})


@dead.get("/api/todos")
def list_todos():
    return jsonify([])


@dead.post("/api/todos")
def create_todo():
    return jsonify({}), 201


@dead.get("/api/todos/<int:todo_id>")
def get_todo(todo_id):
    return jsonify({})


@dead.put("/api/todos/<int:todo_id>")
def replace_todo(todo_id):
    return jsonify({})


@dead.patch("/api/todos/<int:todo_id>")
def update_todo(todo_id):
    return jsonify({})


@dead.delete("/api/todos/<int:todo_id>")
def delete_todo(todo_id):
    return "", 204


served = Flask("catch-all")


@served.route("/", defaults={"path": ""}, methods=["GET", "POST", "PUT", "PATCH", "DELETE"])
@served.route("/<path:path>", methods=["GET", "POST", "PUT", "PATCH", "DELETE"])
def anything(path):
    return jsonify({"ok": True})


if __name__ == "__main__":
    served.run(host="127.0.0.1", port=int(os.environ.get("PORT", 8080)))
