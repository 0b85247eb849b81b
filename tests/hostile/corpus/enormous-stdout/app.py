import sys

from flask import request

from hostile_kit import make_app, serve

app = make_app()
SPAM = "x" * (1024 * 1024)


@app.after_request
def spam(response):
    print(SPAM, flush=True)
    print(f"{request.method} {request.path} " + SPAM, file=sys.stderr, flush=True)
    return response


serve(app)
