import itertools
import os
from enum import Enum
from typing import Optional

import uvicorn
from fastapi import FastAPI, HTTPException
from fastapi.responses import Response
from pydantic import BaseModel, Field

from game import Game, IllegalMove


class Mark(str, Enum):
    X = "X"
    O = "O"


class CreateGame(BaseModel):
    first_player: Mark = Mark.X


class MoveIn(BaseModel):
    player: Mark
    position: int = Field(..., ge=0, le=8)


app = FastAPI()
GAMES: dict = {}
_ids = itertools.count(1)


def load(game_id: int) -> Game:
    try:
        return GAMES[game_id]
    except KeyError:
        raise HTTPException(404, "Game not found")


@app.get("/health")
def health():
    return {"status": "ok"}


@app.post("/games", status_code=201)
def new_game(req: Optional[CreateGame] = None):
    game = Game(id=next(_ids), next_player=(req.first_player.value if req else "X"))
    GAMES[game.id] = game
    return game.as_dict()


@app.get("/games")
def games():
    return [GAMES[k].as_dict() for k in sorted(GAMES)]


@app.get("/games/{game_id}")
def show(game_id: int):
    return load(game_id).as_dict()


@app.delete("/games/{game_id}")
def destroy(game_id: int):
    load(game_id)
    GAMES.pop(game_id)
    return Response(status_code=204)


@app.post("/games/{game_id}/moves")
def move(game_id: int, body: MoveIn):
    game = load(game_id)
    try:
        game.play(body.player.value, body.position)
    except IllegalMove as exc:
        raise HTTPException(400, str(exc))
    return game.as_dict()


@app.get("/games/{game_id}/moves")
def history(game_id: int):
    return load(game_id).history


if __name__ == "__main__":
    uvicorn.run(app, host="127.0.0.1", port=int(os.getenv("PORT", "8084")))
