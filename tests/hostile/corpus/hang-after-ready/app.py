import time

from flask import Flask

from hostile_kit import serve

app = Flask(__name__)


@app.get("/")
def ready():
    return "ready\n"


@app.route("/<path:path>", methods=["GET", "POST", "PUT", "DELETE", "PATCH"])
def sleep_forever(path):
    while True:
        time.sleep(3600)


serve(app)
