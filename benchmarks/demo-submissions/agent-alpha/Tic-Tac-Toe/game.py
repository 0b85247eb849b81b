"""Game rules, independent of the web layer."""
from dataclasses import dataclass, field
from typing import List, Optional


class IllegalMove(Exception):
    pass


@dataclass
class Game:
    id: int
    next_player: Optional[str] = "X"
    board: List[Optional[str]] = field(default_factory=lambda: [None] * 9)
    status: str = "in_progress"
    winner: Optional[str] = None
    history: List[dict] = field(default_factory=list)

    def _line_complete(self, cells):
        first = self.board[cells[0]]
        return first is not None and all(self.board[c] == first for c in cells)

    def _find_winner(self):
        for i in range(3):
            row = [3 * i, 3 * i + 1, 3 * i + 2]
            col = [i, i + 3, i + 6]
            for line in (row, col):
                if self._line_complete(line):
                    return self.board[line[0]]
        return None

    def play(self, player: str, position: int):
        if self.status != "in_progress":
            raise IllegalMove("game over")
        if player != self.next_player:
            raise IllegalMove("not your turn")
        if self.board[position]:
            raise IllegalMove("square taken")
        self.board[position] = player
        self.history.append({"player": player, "position": position})
        winner = self._find_winner()
        if winner:
            self.status, self.winner, self.next_player = "won", winner, None
        elif None not in self.board:
            self.status, self.next_player = "draw", None
        else:
            self.next_player = "X" if player == "O" else "O"

    def as_dict(self):
        return {"id": self.id, "board": self.board, "next_player": self.next_player,
                "status": self.status, "winner": self.winner}
