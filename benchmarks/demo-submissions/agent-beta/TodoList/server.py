from flask import Flask, abort, jsonify, request

app = Flask(__name__)

TODOS = []


def find_todo(todo_id):
    for t in TODOS:
        if t["id"] == todo_id:
            return t
    abort(404)


@app.errorhandler(404)
def not_found(_):
    return jsonify({"error": "Todo not found"}), 404


@app.route("/health")
def health():
    return jsonify(status="ok")


@app.route("/api/todos", methods=["GET", "POST"])
def todos():
    if request.method == "GET":
        return jsonify(TODOS)
    data = request.get_json(force=True)
    if not data.get("title"):
        return jsonify({"error": "title is required"}), 400
    todo = {"id": len(TODOS) + 1, "title": data["title"], "completed": bool(data.get("completed"))}
    TODOS.append(todo)
    return jsonify(todo), 201


@app.route("/api/todos/<int:todo_id>", methods=["GET", "PUT", "DELETE"])
def todo_detail(todo_id):
    todo = find_todo(todo_id)
    if request.method == "PUT":
        todo.update(request.get_json(force=True))
        return jsonify(todo)
    if request.method == "DELETE":
        TODOS.remove(todo)
        return "", 204
    return jsonify(todo)


if __name__ == "__main__":
    app.run(host="0.0.0.0", port=5000)
