"""Tic-Tac-Toe web game microservice (Flask, in-memory state)."""
import logging
import os
import threading
import uuid
from datetime import datetime, timezone

from flask import Flask, jsonify, request
from werkzeug.exceptions import HTTPException

VERSION = "1.0.0"
API = "/api/v1"

logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(message)s")
log = logging.getLogger("tictactoe")

app = Flask(__name__)

_lock = threading.Lock()
_games = {}
_wins = {}  # player name -> number of wins

WIN_LINES = (
    [[(r, c) for c in range(3)] for r in range(3)]
    + [[(r, c) for r in range(3)] for c in range(3)]
    + [[(i, i) for i in range(3)], [(i, 2 - i) for i in range(3)]]
)


def now_iso():
    return datetime.now(timezone.utc).isoformat().replace("+00:00", "Z")


class ApiError(Exception):
    def __init__(self, status, code, message, details=None):
        super().__init__(message)
        self.status, self.code, self.message, self.details = status, code, message, details


def error_response(status, code, message, details=None):
    err = {"code": code, "message": message}
    if details is not None:
        err["details"] = details
    return jsonify({"error": err}), status


@app.errorhandler(ApiError)
def _api_error(e):
    return error_response(e.status, e.code, e.message, e.details)


@app.errorhandler(HTTPException)
def _http_error(e):
    codes = {400: "BAD_REQUEST", 404: "NOT_FOUND", 405: "METHOD_NOT_ALLOWED", 415: "UNSUPPORTED_MEDIA_TYPE"}
    return error_response(e.code, codes.get(e.code, "HTTP_ERROR"), e.description or e.name)


@app.errorhandler(Exception)
def _unhandled(e):
    log.exception("unhandled error")
    return error_response(500, "INTERNAL_ERROR", "Internal server error")


def json_body(required=True):
    """Parse the request body as a JSON object or raise a 400 ApiError."""
    raw = request.get_data(cache=True)
    if not raw.strip():
        if required:
            raise ApiError(400, "INVALID_REQUEST", "Request body must be a JSON object")
        return {}
    data = request.get_json(silent=True, force=True)
    if data is None:
        raise ApiError(400, "INVALID_JSON", "Request body is not valid JSON")
    if not isinstance(data, dict):
        raise ApiError(400, "INVALID_REQUEST", "Request body must be a JSON object")
    return data


def get_game(game_id):
    game = _games.get(game_id)
    if game is None:
        raise ApiError(404, "GAME_NOT_FOUND", f"Game '{game_id}' not found", {"game_id": game_id})
    return game


def full_state(game):
    return {
        "game_id": game["game_id"],
        "board": [row[:] for row in game["board"]],
        "next_player": game["next_player"],
        "status": game["status"],
        "winner": game["winner"],
        "players": dict(game["players"]),
        "created_at": game["created_at"],
        "updated_at": game["updated_at"],
    }


def find_winner(board):
    for line in WIN_LINES:
        marks = {board[r][c] for r, c in line}
        if len(marks) == 1:
            mark = marks.pop()
            if mark is not None:
                return mark
    return None


@app.get(f"{API}/health")
def health():
    return jsonify({"status": "healthy", "timestamp": now_iso(), "version": VERSION})


@app.post(f"{API}/games")
def create_game():
    data = json_body()
    errors = {}
    for field in ("player_x", "player_o"):
        value = data.get(field)
        if value is None:
            errors[field] = "is required"
        elif not isinstance(value, str):
            errors[field] = "must be a string"
        elif not 1 <= len(value.strip()) or len(value) > 50:
            errors[field] = "must be 1-50 characters"
    if errors:
        raise ApiError(422, "VALIDATION_ERROR", "Invalid game parameters", errors)
    ts = now_iso()
    game = {
        "game_id": uuid.uuid4().hex,
        "board": [[None] * 3 for _ in range(3)],
        "next_player": "X",
        "status": "in_progress",
        "winner": None,
        "players": {"X": data["player_x"], "O": data["player_o"]},
        "created_at": ts,
        "updated_at": ts,
    }
    with _lock:
        _games[game["game_id"]] = game
    log.info("game %s created (%s vs %s)", game["game_id"], data["player_x"], data["player_o"])
    state = full_state(game)
    del state["winner"]
    return jsonify(state), 201


@app.get(f"{API}/games/<game_id>")
def game_state(game_id):
    with _lock:
        return jsonify(full_state(get_game(game_id)))


def _int_field(data, name, errors):
    value = data.get(name)
    if value is None:
        errors[name] = "is required"
    elif isinstance(value, bool) or not isinstance(value, int):
        errors[name] = "must be an integer"
    elif not 0 <= value <= 2:
        errors[name] = "must be between 0 and 2"
    return value


@app.post(f"{API}/games/<game_id>/moves")
def make_move(game_id):
    data = json_body()
    with _lock:
        game = get_game(game_id)
        errors = {}
        player = data.get("player")
        if player not in ("X", "O"):
            errors["player"] = "must be 'X' or 'O'"
        row = _int_field(data, "row", errors)
        col = _int_field(data, "col", errors)
        if errors:
            raise ApiError(422, "VALIDATION_ERROR", "Invalid move", errors)
        if game["status"] != "in_progress":
            raise ApiError(409, "GAME_OVER", "Game is not in progress", {"status": game["status"]})
        if player != game["next_player"]:
            raise ApiError(409, "NOT_YOUR_TURN", f"It is {game['next_player']}'s turn",
                           {"next_player": game["next_player"]})
        board = game["board"]
        if board[row][col] is not None:
            raise ApiError(409, "CELL_OCCUPIED", "Target cell is already occupied", {"row": row, "col": col})
        board[row][col] = player
        winner = find_winner(board)
        if winner:
            game["status"], game["winner"], game["next_player"] = "finished", winner, None
            name = game["players"][winner]
            _wins[name] = _wins.get(name, 0) + 1
            log.info("game %s won by %s (%s)", game_id, winner, name)
        elif all(cell is not None for r in board for cell in r):
            game["status"], game["winner"], game["next_player"] = "draw", None, None
        else:
            game["next_player"] = "O" if player == "X" else "X"
        game["updated_at"] = now_iso()
        return jsonify({
            "game_id": game_id,
            "board": [r[:] for r in board],
            "next_player": game["next_player"],
            "status": game["status"],
            "winner": game["winner"],
            "last_move": {"player": player, "row": row, "col": col},
            "updated_at": game["updated_at"],
        })


@app.post(f"{API}/games/<game_id>/reset")
def reset_game(game_id):
    with _lock:
        game = get_game(game_id)
        game.update(board=[[None] * 3 for _ in range(3)], next_player="X", status="in_progress",
                    winner=None, updated_at=now_iso())
        return jsonify({
            "game_id": game_id,
            "board": [r[:] for r in game["board"]],
            "next_player": game["next_player"],
            "status": game["status"],
            "updated_at": game["updated_at"],
        })


@app.get(f"{API}/leaderboard")
def leaderboard():
    raw = request.args.get("limit")
    limit = 10
    if raw is not None:
        try:
            limit = int(raw)
        except ValueError:
            raise ApiError(400, "INVALID_PARAMETER", "limit must be an integer", {"limit": raw})
        if not 1 <= limit <= 100:
            raise ApiError(422, "VALIDATION_ERROR", "limit must be between 1 and 100", {"limit": limit})
    with _lock:
        ranked = sorted(_wins.items(), key=lambda kv: (-kv[1], kv[0]))
    items = [{"player": p, "wins": w} for p, w in ranked[:limit]]
    return jsonify({"items": items, "pagination": {"limit": limit, "total": len(ranked)}})


@app.get("/")
def root():
    return jsonify({"service": "tic-tac-toe", "version": VERSION, "base_path": API})


if __name__ == "__main__":
    app.run(host="0.0.0.0", port=int(os.environ.get("PORT", "8082")), threaded=True)
