import os
from itertools import count

from flask import Flask, jsonify, request

app = Flask(__name__)
todos = {}
next_id = count(1)


def error(message, status):
    return jsonify({"error": message}), status


def validate(data, partial):
    if not isinstance(data, dict):
        return "body must be a JSON object"
    if "title" in data or not partial:
        title = data.get("title")
        if not isinstance(title, str) or not title.strip():
            return "title must be a non-empty string"
        if len(title) > 200:
            return "title must be at most 200 characters"
    if "completed" in data and not isinstance(data["completed"], bool):
        return "completed must be a boolean"
    return None


@app.get("/health")
def health():
    return jsonify({"status": "ok"})


@app.get("/api/todos")
def list_todos():
    items = list(todos.values())
    flag = request.args.get("completed")
    if flag is not None:
        if flag not in ("true", "false"):
            return error("completed must be true or false", 400)
        items = [t for t in items if t["completed"] == (flag == "true")]
    return jsonify(items)


@app.post("/api/todos")
def create_todo():
    data = request.get_json(silent=True)
    problem = validate(data, partial=False)
    if problem:
        return error(problem, 400)
    todo = {"id": next(next_id), "title": data["title"],
            "completed": data.get("completed", False)}
    todos[todo["id"]] = todo
    return jsonify(todo), 201


@app.get("/api/todos/<int:todo_id>")
def get_todo(todo_id):
    if todo_id not in todos:
        return error("Todo not found", 404)
    return jsonify(todos[todo_id])


@app.put("/api/todos/<int:todo_id>")
def update_todo(todo_id):
    if todo_id not in todos:
        return error("Todo not found", 404)
    data = request.get_json(silent=True)
    problem = validate(data, partial=True)
    if problem:
        return error(problem, 400)
    todo = todos[todo_id]
    if "title" in data:
        todo["title"] = data["title"]
    if "completed" in data:
        todo["completed"] = data["completed"]
    return jsonify(todo)


@app.delete("/api/todos/<int:todo_id>")
def delete_todo(todo_id):
    if todos.pop(todo_id, None) is None:
        return error("Todo not found", 404)
    return "", 204


if __name__ == "__main__":
    app.run(host="127.0.0.1", port=int(os.environ.get("PORT", "8080")))
