import pytest
import requests


class GameClient:
    """Small helper around the HTTP API (not a test class)."""

    def __init__(self, base_url, first_player=None):
        self.base_url = base_url
        body = {"first_player": first_player} if first_player else None
        resp = requests.post(f"{base_url}/games", json=body, timeout=5)
        assert resp.status_code == 201, resp.text
        self.game = resp.json()
        self.url = f"{base_url}/games/{self.game['id']}"

    def move(self, player, position):
        return requests.post(f"{self.url}/moves", json={"player": player, "position": position}, timeout=5)

    def play(self, positions, first="X"):
        player, resp = first, None
        for position in positions:
            resp = self.move(player, position)
            assert resp.status_code == 200, resp.text
            player = "O" if player == "X" else "X"
        return resp.json()


def test_health(base_url):
    resp = requests.get(f"{base_url}/health", timeout=5)
    assert resp.status_code == 200
    assert resp.json() == {"status": "ok"}


def test_create_game(base_url):
    resp = requests.post(f"{base_url}/games", timeout=5)
    assert resp.status_code == 201
    game = resp.json()
    assert isinstance(game["id"], int)
    assert game["board"] == [None] * 9
    assert game["next_player"] == "X"
    assert game["status"] == "in_progress"
    assert game["winner"] is None


def test_create_game_o_first(base_url):
    client = GameClient(base_url, first_player="O")
    assert client.game["next_player"] == "O"


def test_create_game_invalid_first_player(base_url):
    resp = requests.post(f"{base_url}/games", json={"first_player": "Z"}, timeout=5)
    assert resp.status_code == 422


def test_get_and_list_games(base_url):
    client = GameClient(base_url)
    assert requests.get(client.url, timeout=5).json() == client.game
    listed = requests.get(f"{base_url}/games", timeout=5)
    assert listed.status_code == 200
    assert client.game["id"] in [g["id"] for g in listed.json()]


def test_unknown_game(base_url):
    assert requests.get(f"{base_url}/games/777777", timeout=5).status_code == 404


def test_delete_game(base_url):
    client = GameClient(base_url)
    assert requests.delete(client.url, timeout=5).status_code == 204
    assert requests.get(client.url, timeout=5).status_code == 404


class TestMoves:
    def test_first_move(self, base_url):
        client = GameClient(base_url)
        resp = client.move("X", 4)
        assert resp.status_code == 200
        game = resp.json()
        assert game["board"][4] == "X"
        assert game["next_player"] == "O"

    def test_wrong_turn(self, base_url):
        client = GameClient(base_url)
        assert client.move("O", 0).status_code == 400

    def test_occupied_cell(self, base_url):
        client = GameClient(base_url)
        client.play([0])
        resp = client.move("O", 0)
        assert resp.status_code == 400
        assert requests.get(client.url, timeout=5).json()["board"][0] == "X"

    @pytest.mark.parametrize("body", [
        {"player": "X", "position": 9},
        {"player": "X", "position": -1},
        {"player": "Y", "position": 0},
        {"player": "X"},
    ])
    def test_invalid_move_body(self, base_url, body):
        client = GameClient(base_url)
        resp = requests.post(f"{client.url}/moves", json=body, timeout=5)
        assert resp.status_code == 422

    def test_move_history(self, base_url):
        client = GameClient(base_url)
        client.play([4, 0, 8])
        resp = requests.get(f"{client.url}/moves", timeout=5)
        assert resp.status_code == 200
        assert resp.json() == [{"player": "X", "position": 4}, {"player": "O", "position": 0},
                               {"player": "X", "position": 8}]


@pytest.mark.parametrize("positions, winner", [
    ([0, 3, 1, 4, 2], "X"),          # top row
    ([1, 0, 2, 3, 4, 6], "O"),       # left column
    ([0, 1, 4, 2, 8], "X"),          # main diagonal
    ([2, 0, 4, 1, 6], "X"),          # anti-diagonal
])
def test_win_detection(base_url, positions, winner):
    client = GameClient(base_url)
    game = client.play(positions)
    assert game["status"] == "won"
    assert game["winner"] == winner
    assert game["next_player"] is None


@pytest.mark.timeout(10)
def test_draw_and_finished_game(base_url):
    client = GameClient(base_url)
    game = client.play([0, 1, 2, 4, 3, 5, 7, 6, 8])
    assert game["status"] == "draw"
    assert game["winner"] is None
    assert None not in game["board"]
    assert client.move("O", 0).status_code == 400
