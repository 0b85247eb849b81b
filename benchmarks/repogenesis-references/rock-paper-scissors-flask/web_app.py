"""Rock-Paper-Scissors web microservice (HTML pages)."""
import os
import random
from html import escape

from flask import Flask, request

app = Flask(__name__)

CHOICES = ("rock", "paper", "scissors")
BEATS = {"rock": "scissors", "paper": "rock", "scissors": "paper"}

PAGE = """<!DOCTYPE html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>Rock-Paper-Scissors App</title>
</head>
<body>
  <h1>Rock-Paper-Scissors App</h1>
{body}
</body>
</html>
"""

FORM = """  <form action="/results" method="POST">
    <p>Make your choice:</p>
    <label><input type="radio" name="choice" value="rock" checked> Rock</label>
    <label><input type="radio" name="choice" value="paper"> Paper</label>
    <label><input type="radio" name="choice" value="scissors"> Scissors</label>
    <button type="submit">Play</button>
  </form>"""


def normalize(choice):
    choice = (choice or "").strip().lower()
    return choice if choice in CHOICES else "rock"


def outcome(user, computer):
    if user == computer:
        return "It's a tie!"
    if BEATS[user] == computer:
        return "You win!"
    return "You lose!"


@app.route("/", methods=["GET"])
def index():
    return PAGE.format(body=FORM)


@app.route("/results", methods=["GET", "POST"])
def results():
    raw = request.form.get("choice") if request.method == "POST" else request.args.get("choice")
    user = normalize(raw)
    computer = random.choice(CHOICES)
    body = (
        f"  <p>You chose: {escape(user)}</p>\n"
        f"  <p>The computer chose: {escape(computer)}</p>\n"
        f"  <p>Results: {escape(outcome(user, computer))}</p>\n"
        '  <p><a href="/">Play again</a></p>'
    )
    return PAGE.format(body=body)


if __name__ == "__main__":
    app.run(host="0.0.0.0", port=int(os.environ.get("PORT", "5000")), debug=False)
