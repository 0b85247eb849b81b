"""GameBackend: room matching, leaderboard and game state synchronization (Flask, in-memory)."""
import logging
import math
import os
import threading
import uuid
from datetime import datetime, timedelta, timezone

from flask import Flask, jsonify, request
from werkzeug.exceptions import HTTPException

API = "/api/v1"
VERSION = "1.0.0"
GAME_TYPES = ("battle", "coop", "puzzle")
ROOM_STATUSES = ("waiting", "playing", "finished")
LISTABLE_STATUSES = ("waiting", "playing")
ACTIONS = ("move", "attack", "defend", "end_turn", "game_over")
TIME_RANGES = {"daily": timedelta(days=1), "weekly": timedelta(days=7), "monthly": timedelta(days=30), "all": None}

logging.basicConfig(level=logging.INFO, format="%(asctime)s [%(levelname)s] %(name)s: %(message)s")
log = logging.getLogger("gamebackend")

app = Flask(__name__)
app.json.sort_keys = False

lock = threading.RLock()
rooms = {}         # room_id -> room dict
sessions = {}      # room_id -> game session dict
scores = {}        # (player_id, game_type) -> leaderboard entry


# --------------------------------------------------------------------------- helpers
def utcnow():
    return datetime.now(timezone.utc)


def iso(dt):
    return dt.isoformat(timespec="milliseconds").replace("+00:00", "Z")


class ApiError(Exception):
    def __init__(self, status, code, message, details=None):
        super().__init__(message)
        self.status, self.code, self.message, self.details = status, code, message, details


def bad_request(message, details=None):
    return ApiError(400, "INVALID_REQUEST", message, details)


@app.errorhandler(ApiError)
def _api_error(e):
    body = {"code": e.code, "message": e.message}
    if e.details:
        body["details"] = e.details
    return jsonify({"error": body}), e.status


@app.errorhandler(HTTPException)
def _http_error(e):
    codes = {400: "INVALID_REQUEST", 404: "NOT_FOUND", 405: "METHOD_NOT_ALLOWED", 415: "UNSUPPORTED_MEDIA_TYPE"}
    return jsonify({"error": {"code": codes.get(e.code, "HTTP_ERROR"), "message": e.description or e.name}}), e.code


@app.errorhandler(Exception)
def _internal(e):
    log.exception("unhandled error")
    return jsonify({"error": {"code": "INTERNAL_ERROR", "message": "Internal server error"}}), 500


def body():
    data = request.get_json(silent=True, force=True)
    if not isinstance(data, dict):
        raise bad_request("Request body must be a JSON object")
    return data


class Validator:
    """Collects field errors so one response can report all of them."""

    def __init__(self, data):
        self.data, self.errors = data, {}

    def _get(self, name, required):
        if name not in self.data or self.data[name] is None:
            if required:
                self.errors[name] = "is required"
            return None, False
        return self.data[name], True

    def string(self, name, max_len, required=True, min_len=1):
        value, present = self._get(name, required)
        if not present:
            return None
        if not isinstance(value, str):
            self.errors[name] = "must be a string"
            return None
        if len(value.strip()) < min_len or len(value) > max_len:
            self.errors[name] = f"must be {min_len}-{max_len} characters"
            return None
        return value

    def integer(self, name, minimum=None, maximum=None, required=True):
        value, present = self._get(name, required)
        if not present:
            return None
        if isinstance(value, bool) or not isinstance(value, int):
            self.errors[name] = "must be an integer"
            return None
        if (minimum is not None and value < minimum) or (maximum is not None and value > maximum):
            rng = f">= {minimum}" if maximum is None else f"between {minimum} and {maximum}"
            self.errors[name] = f"must be {rng}"
            return None
        return value

    def enum(self, name, choices, required=True):
        value, present = self._get(name, required)
        if not present:
            return None
        if value not in choices:
            self.errors[name] = "must be one of: " + ", ".join(choices)
            return None
        return value

    def uuid(self, name, required=True):
        value, present = self._get(name, required)
        if not present:
            return None
        parsed = parse_uuid(value)
        if parsed is None:
            self.errors[name] = "must be a UUID"
        return parsed

    def boolean(self, name, required=True):
        value, present = self._get(name, required)
        if not present:
            return None
        if not isinstance(value, bool):
            self.errors[name] = "must be a boolean"
            return None
        return value

    def obj(self, name, required=True):
        value, present = self._get(name, required)
        if not present:
            return None
        if not isinstance(value, dict):
            self.errors[name] = "must be an object"
            return None
        return value

    def timestamp(self, name, required=True):
        value, present = self._get(name, required)
        if not present:
            return None
        parsed = parse_iso(value) if isinstance(value, str) else None
        if parsed is None:
            self.errors[name] = "must be an ISO 8601 timestamp"
        return parsed

    def check(self):
        if self.errors:
            raise bad_request("Request validation failed", {"fields": self.errors})


def parse_uuid(value):
    if not isinstance(value, str):
        return None
    try:
        return str(uuid.UUID(value))
    except ValueError:
        return None


def parse_iso(value):
    try:
        dt = datetime.fromisoformat(value.strip().replace("Z", "+00:00").replace("z", "+00:00"))
    except ValueError:
        return None
    return dt if dt.tzinfo else dt.replace(tzinfo=timezone.utc)


def path_uuid(value, name):
    parsed = parse_uuid(value)
    if parsed is None:
        raise bad_request(f"{name} must be a UUID", {name: value})
    return parsed


def query_int(name, default, minimum, maximum):
    raw = request.args.get(name)
    if raw is None:
        return default
    try:
        value = int(raw)
    except ValueError:
        raise bad_request(f"{name} must be an integer", {name: raw})
    if not minimum <= value <= maximum:
        raise bad_request(f"{name} must be between {minimum} and {maximum}", {name: value})
    return value


def query_enum(name, choices, default=None):
    raw = request.args.get(name)
    if raw is None:
        return default
    if raw not in choices:
        raise bad_request(f"{name} must be one of: " + ", ".join(choices), {name: raw})
    return raw


def room_summary(room):
    return {
        "room_id": room["room_id"],
        "room_name": room["room_name"],
        "max_players": room["max_players"],
        "current_players": len(room["players"]),
        "game_type": room["game_type"],
        "status": room["status"],
        "created_at": room["created_at"],
    }


def room_info(room):
    return {
        "room_id": room["room_id"],
        "room_name": room["room_name"],
        "current_players": len(room["players"]),
        "max_players": room["max_players"],
        "players": [{"player_id": p["player_id"], "player_name": p["player_name"], "joined_at": p["joined_at"]}
                    for p in room["players"]],
    }


def get_room(room_id):
    room = rooms.get(room_id)
    if room is None:
        raise ApiError(404, "ROOM_NOT_FOUND", "Room not found", {"room_id": room_id})
    return room


# --------------------------------------------------------------------------- misc
@app.get("/")
def index():
    return jsonify({"service": "GameBackend", "version": VERSION, "api": API})


@app.get(f"{API}/health")
def health():
    return jsonify({"status": "ok", "version": VERSION, "timestamp": iso(utcnow())})


# --------------------------------------------------------------------------- rooms
@app.post(f"{API}/rooms")
def create_room():
    v = Validator(body())
    room_name = v.string("room_name", 50)
    max_players = v.integer("max_players", 2, 8)
    game_type = v.enum("game_type", GAME_TYPES)
    password = v.string("password", 20, required=False, min_len=0)
    v.check()
    now = iso(utcnow())
    creator_id = str(uuid.uuid4())
    room = {
        "room_id": str(uuid.uuid4()),
        "room_name": room_name,
        "max_players": max_players,
        "game_type": game_type,
        "password": password or None,
        "status": "waiting",
        "created_at": now,
        "creator_id": creator_id,
        "players": [{"player_id": creator_id, "player_name": "Host", "joined_at": now, "is_ready": False}],
    }
    with lock:
        rooms[room["room_id"]] = room
    log.info("room %s created (%s, %s, max %d)", room["room_id"], room_name, game_type, max_players)
    data = room_summary(room)
    data["creator_id"] = creator_id
    return jsonify(data), 201


@app.get(f"{API}/rooms")
def list_rooms():
    game_type = query_enum("game_type", GAME_TYPES)
    status = query_enum("status", LISTABLE_STATUSES)
    page = query_int("page", 1, 1, 1_000_000)
    limit = query_int("limit", 10, 1, 100)
    with lock:
        selected = [r for r in rooms.values()
                    if (game_type is None or r["game_type"] == game_type)
                    and (status is None or r["status"] == status)]
        selected.sort(key=lambda r: r["created_at"], reverse=True)
        total = len(selected)
        items = [room_summary(r) for r in selected[(page - 1) * limit: page * limit]]
    return jsonify({"rooms": items, "pagination": {
        "page": page, "limit": limit, "total": total, "total_pages": math.ceil(total / limit)}})


@app.post(f"{API}/rooms/<room_id>/join")
def join_room(room_id):
    room_id = path_uuid(room_id, "room_id")
    v = Validator(body())
    player_id = v.uuid("player_id")
    player_name = v.string("player_name", 30)
    password = v.string("password", 20, required=False, min_len=0)
    v.check()
    with lock:
        room = get_room(room_id)
        if room["password"] is not None and password != room["password"]:
            raise ApiError(403, "INVALID_PASSWORD", "Incorrect room password", {"room_id": room_id})
        if any(p["player_id"] == player_id for p in room["players"]):
            raise ApiError(409, "ALREADY_JOINED", "Player is already in this room", {"player_id": player_id})
        if room["status"] != "waiting":
            raise ApiError(409, "ROOM_NOT_JOINABLE", f"Room is {room['status']}", {"status": room["status"]})
        if len(room["players"]) >= room["max_players"]:
            raise ApiError(409, "ROOM_FULL", "Room is full", {"max_players": room["max_players"]})
        room["players"].append({"player_id": player_id, "player_name": player_name,
                                "joined_at": iso(utcnow()), "is_ready": False})
        info = room_info(room)
    log.info("player %s joined room %s", player_id, room_id)
    return jsonify({"success": True, "message": "Joined room successfully", "room_info": info})


@app.post(f"{API}/rooms/<room_id>/leave")
def leave_room(room_id):
    room_id = path_uuid(room_id, "room_id")
    v = Validator(body())
    player_id = v.uuid("player_id")
    v.check()
    with lock:
        room = get_room(room_id)
        remaining = [p for p in room["players"] if p["player_id"] != player_id]
        if len(remaining) == len(room["players"]):
            raise ApiError(404, "PLAYER_NOT_IN_ROOM", "Player is not in this room", {"player_id": player_id})
        room["players"] = remaining
        if not remaining:
            del rooms[room_id]
            sessions.pop(room_id, None)
            message = "Left room successfully; the empty room was closed"
        else:
            message = "Left room successfully"
            session = sessions.get(room_id)
            if session and session["current_player"] == player_id:
                session["current_player"] = remaining[0]["player_id"]
    log.info("player %s left room %s", player_id, room_id)
    return jsonify({"success": True, "message": message})


# --------------------------------------------------------------------------- leaderboard
def ranked(game_type=None, since=None):
    entries = [e for e in scores.values()
               if (game_type is None or e["game_type"] == game_type)
               and (since is None or e["updated_dt"] >= since)]
    entries.sort(key=lambda e: (-e["score"], e["updated_dt"], e["player_id"]))
    return entries


def entry_view(entry, rank):
    return {"rank": rank, "player_id": entry["player_id"], "player_name": entry["player_name"],
            "score": entry["score"], "game_type": entry["game_type"], "updated_at": iso(entry["updated_dt"])}


@app.post(f"{API}/leaderboard/score")
def submit_score():
    v = Validator(body())
    player_id = v.uuid("player_id")
    player_name = v.string("player_name", 30)
    score = v.integer("score", 0)
    game_type = v.enum("game_type", GAME_TYPES)
    room_id = v.uuid("room_id", required=False)
    v.check()
    with lock:
        scores[(player_id, game_type)] = {"player_id": player_id, "player_name": player_name, "score": score,
                                          "game_type": game_type, "room_id": room_id, "updated_dt": utcnow()}
        board = ranked(game_type)
        rank = next(i for i, e in enumerate(board, 1) if e["player_id"] == player_id)
    log.info("score %d for %s in %s (rank %d)", score, player_id, game_type, rank)
    return jsonify({"success": True, "message": "Score updated successfully", "player_rank": rank, "score": score})


@app.get(f"{API}/leaderboard")
def get_leaderboard():
    game_type = query_enum("game_type", GAME_TYPES + ("all",), "all")
    time_range = query_enum("time_range", tuple(TIME_RANGES), "all")
    limit = query_int("limit", 100, 1, 1000)
    window = TIME_RANGES[time_range]
    since = utcnow() - window if window else None
    with lock:
        board = ranked(None if game_type == "all" else game_type, since)
        items = [entry_view(e, i) for i, e in enumerate(board[:limit], 1)]
        total = len({e["player_id"] for e in board})
    return jsonify({"leaderboard": items, "time_range": time_range, "game_type": game_type,
                    "total_players": total})


@app.get(f"{API}/leaderboard/player/<player_id>")
def player_rank(player_id):
    player_id = path_uuid(player_id, "player_id")
    game_type = query_enum("game_type", GAME_TYPES)
    with lock:
        board = ranked(game_type)
        for i, e in enumerate(board, 1):
            if e["player_id"] == player_id:
                return jsonify(entry_view(e, i))
    raise ApiError(404, "PLAYER_NOT_FOUND", "Player has no leaderboard entry",
                   {"player_id": player_id, "game_type": game_type or "all"})


# --------------------------------------------------------------------------- game state
def session_for(room_id, create_for=None):
    """The game session of a room. A room created here has its players; a room id unknown to the
    matching system gets a standalone session (created on first state update) whose players are the
    ones who post to it."""
    session = sessions.get(room_id)
    if session is None and create_for is not None:
        session = {"room_id": room_id, "game_state": {}, "current_player": create_for,
                   "status": "waiting", "last_updated": utcnow(), "players": []}
        sessions[room_id] = session
    return session


def session_players(room_id, session):
    room = rooms.get(room_id)
    return room["players"] if room else session["players"]


def set_status(room_id, session, status):
    session["status"] = status
    room = rooms.get(room_id)
    if room:
        room["status"] = status


@app.post(f"{API}/game/state")
def update_game_state():
    v = Validator(body())
    room_id = v.uuid("room_id")
    player_id = v.uuid("player_id")
    game_state = v.obj("game_state")
    action = v.enum("action", ACTIONS)
    timestamp = v.timestamp("timestamp")
    v.check()
    with lock:
        room = rooms.get(room_id)
        if room and not any(p["player_id"] == player_id for p in room["players"]):
            raise ApiError(403, "NOT_IN_ROOM", "Player is not a member of this room", {"player_id": player_id})
        session = session_for(room_id, create_for=player_id)
        if session["status"] == "finished":
            raise ApiError(409, "GAME_FINISHED", "The game in this room is already finished", {"room_id": room_id})
        players = session_players(room_id, session)
        if room is None and not any(p["player_id"] == player_id for p in players):
            players.append({"player_id": player_id, "player_name": f"player-{player_id[:8]}",
                            "joined_at": iso(utcnow()), "is_ready": True})
        session["game_state"] = game_state
        session["last_updated"] = utcnow()
        session["last_action"] = {"player_id": player_id, "action": action, "timestamp": iso(timestamp)}
        ids = [p["player_id"] for p in players]
        if action == "game_over":
            set_status(room_id, session, "finished")
            next_player = None
        else:
            set_status(room_id, session, "playing")
            if action == "end_turn" and player_id in ids:
                next_player = ids[(ids.index(player_id) + 1) % len(ids)]
            else:
                next_player = player_id
            session["current_player"] = next_player
        result = {"success": True, "message": f"Game state updated ({action})", "game_state": game_state}
        if next_player:
            result["next_player"] = next_player
        result["room_status"] = session["status"]
    log.info("room %s: %s by %s", room_id, action, player_id)
    return jsonify(result)


@app.get(f"{API}/game/state/<room_id>")
def get_game_state(room_id):
    room_id = path_uuid(room_id, "room_id")
    with lock:
        session = sessions.get(room_id)
        room = rooms.get(room_id)
        if session is None and room is None:
            raise ApiError(404, "ROOM_NOT_FOUND", "No game found for this room", {"room_id": room_id})
        if session is None:
            session = {"game_state": {}, "current_player": room["players"][0]["player_id"],
                       "status": room["status"], "last_updated": None}
        players = room["players"] if room else session["players"]
        return jsonify({
            "room_id": room_id,
            "game_state": session["game_state"],
            "current_player": session["current_player"],
            "status": room["status"] if room else session["status"],
            "last_updated": iso(session["last_updated"]) if session["last_updated"] else room["created_at"],
            "players": [{"player_id": p["player_id"], "player_name": p["player_name"],
                         "is_ready": p["is_ready"]} for p in players],
        })


@app.post(f"{API}/game/ready")
def player_ready():
    v = Validator(body())
    room_id = v.uuid("room_id")
    player_id = v.uuid("player_id")
    is_ready = v.boolean("is_ready")
    v.check()
    with lock:
        room = rooms.get(room_id)
        session = sessions.get(room_id)
        if room is None and session is None:
            raise ApiError(404, "ROOM_NOT_FOUND", "Room not found", {"room_id": room_id})
        players = room["players"] if room else session["players"]
        player = next((p for p in players if p["player_id"] == player_id), None)
        if player is None:
            raise ApiError(404, "PLAYER_NOT_IN_ROOM", "Player is not in this room", {"player_id": player_id})
        player["is_ready"] = is_ready
        all_ready = all(p["is_ready"] for p in players)
        game_started = False
        status = room["status"] if room else session["status"]
        if all_ready and len(players) >= 2 and status == "waiting":
            if room:
                room["status"] = "playing"
            sess = session_for(room_id, create_for=players[0]["player_id"])
            sess["status"] = "playing"
            sess["last_updated"] = utcnow()
            game_started = True
            log.info("room %s: all players ready, game started", room_id)
    return jsonify({"success": True, "message": "Ready status updated", "all_ready": all_ready,
                    "game_started": game_started})


if __name__ == "__main__":
    app.run(host="0.0.0.0", port=int(os.environ.get("PORT", "8080")), threaded=True)
