from typing import Literal, Optional

from fastapi import FastAPI, HTTPException, Response
from pydantic import BaseModel, Field

LINES = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]

app = FastAPI(title="Tic-Tac-Toe")
games: dict[int, dict] = {}
moves: dict[int, list] = {}
seq = {"next": 1}


class NewGame(BaseModel):
    first_player: Literal["X", "O"] = "X"


class Move(BaseModel):
    player: Literal["X", "O"]
    position: int = Field(ge=0, le=8)


def get_or_404(game_id: int) -> dict:
    if game_id not in games:
        raise HTTPException(status_code=404, detail="Game not found")
    return games[game_id]


def winner_of(board: list) -> Optional[str]:
    for a, b, c in LINES:
        if board[a] is not None and board[a] == board[b] == board[c]:
            return board[a]
    return None


@app.get("/health")
def health():
    return {"status": "ok"}


@app.post("/games", status_code=201)
def create_game(body: Optional[NewGame] = None):
    first = body.first_player if body else "X"
    game = {"id": seq["next"], "board": [None] * 9, "next_player": first,
            "status": "in_progress", "winner": None}
    seq["next"] += 1
    games[game["id"]] = game
    moves[game["id"]] = []
    return game


@app.get("/games")
def list_games():
    return [games[i] for i in sorted(games)]


@app.get("/games/{game_id}")
def get_game(game_id: int):
    return get_or_404(game_id)


@app.delete("/games/{game_id}", status_code=204)
def delete_game(game_id: int):
    get_or_404(game_id)
    del games[game_id], moves[game_id]
    return Response(status_code=204)


@app.post("/games/{game_id}/moves")
def play(game_id: int, move: Move):
    game = get_or_404(game_id)
    if game["status"] != "in_progress":
        raise HTTPException(status_code=400, detail="Game is already finished")
    if move.player != game["next_player"]:
        raise HTTPException(status_code=400, detail=f"It is {game['next_player']}'s turn")
    if game["board"][move.position] is not None:
        raise HTTPException(status_code=400, detail="Cell is already taken")
    game["board"][move.position] = move.player
    moves[game_id].append({"player": move.player, "position": move.position})
    winner = winner_of(game["board"])
    if winner:
        game.update(status="won", winner=winner, next_player=None)
    elif all(cell is not None for cell in game["board"]):
        game.update(status="draw", next_player=None)
    else:
        game["next_player"] = "O" if move.player == "X" else "X"
    return game


@app.get("/games/{game_id}/moves")
def list_moves(game_id: int):
    get_or_404(game_id)
    return moves[game_id]
