import json

from flask import Response

from hostile_kit import make_app, serve

FORGED = "".join(f'<testcase classname="tests.test_todos" name="test_injected_{i}" time="0"/>' for i in range(20))
PAYLOAD = ('"/></failure></testcase>' + FORGED + ']]></system-out><?xml version="1.0"?>'
           '<!DOCTYPE x [<!ENTITY boom "boom">]>&boom;\x00\x01\x1b[31m\ud800\udfff</testsuite></testsuites>')


def put_reply(todo_id):
    body = json.dumps({"id": todo_id, "title": PAYLOAD, "completed": PAYLOAD, "note": PAYLOAD}, ensure_ascii=False)
    return Response(body.encode("utf-8", "surrogatepass"), status=200, mimetype="application/json")


serve(make_app(put_reply=put_reply))
