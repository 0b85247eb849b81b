"""Multilingual and Multi-Timezone Support Service."""
import os
from datetime import datetime

import pytz
from babel import Locale, UnknownLocaleError
from babel.dates import format_datetime
from flask import Flask, jsonify, request

import translator

app = Flask(__name__)
app.json.ensure_ascii = False
app.json.sort_keys = False


class ApiError(Exception):
    def __init__(self, message, status=400):
        super().__init__(message)
        self.message, self.status = message, status


@app.errorhandler(ApiError)
def handle_api_error(e):
    return jsonify({"success": False, "error": e.message}), e.status


@app.errorhandler(404)
def handle_404(_e):
    return jsonify({"success": False, "error": "Endpoint not found"}), 404


@app.errorhandler(405)
def handle_405(_e):
    return jsonify({"success": False, "error": "Method not allowed"}), 405


@app.errorhandler(Exception)
def handle_unexpected(e):
    return jsonify({"success": False, "error": f"Internal server error: {e}"}), 500


def body_fields(*names):
    data = request.get_json(silent=True)
    if not isinstance(data, dict):
        raise ApiError("Request body must be a JSON object")
    missing = [n for n in names if n not in data or data[n] is None]
    if missing:
        raise ApiError(f"Missing required field(s): {', '.join(missing)}")
    for n in names:
        if not isinstance(data[n], str):
            raise ApiError(f"Field '{n}' must be a string")
    return data


def get_tz(name):
    try:
        return pytz.timezone(name)
    except pytz.UnknownTimeZoneError:
        raise ApiError(f"Invalid timezone: {name}")


def parse_dt(value, tz):
    """Parse an ISO 8601 datetime; naive values are interpreted in `tz`, aware ones are converted to it."""
    v = value.strip()
    if v.endswith("Z"):
        v = v[:-1] + "+00:00"
    try:
        dt = datetime.fromisoformat(v)
    except ValueError:
        raise ApiError(f"Invalid datetime format: '{value}' (expected ISO 8601, e.g. 2025-10-30T12:00:00)")
    if dt.tzinfo is None:
        return tz.localize(dt)
    return dt.astimezone(tz)


@app.get("/")
def index():
    return jsonify({"success": True, "service": "Multilingual and Multi-Timezone Support Service",
                    "endpoints": ["POST /api/translate", "POST /api/timezone", "POST /api/localize",
                                  "GET /api/languages"]})


@app.get("/api/languages")
def languages():
    return jsonify({"success": True, "languages": dict(translator.LANGUAGES)})


@app.post("/api/translate")
def translate():
    data = body_fields("text", "source_lang", "target_lang")
    text = data["text"]
    if not text.strip():
        raise ApiError("Field 'text' must not be empty")
    source = translator.normalize_lang(data["source_lang"])
    target = translator.normalize_lang(data["target_lang"])
    if source is None:
        raise ApiError(f"Unsupported source language: {data['source_lang']}")
    if target is None:
        raise ApiError(f"Unsupported target language: {data['target_lang']}")
    return jsonify({
        "success": True,
        "original_text": text,
        "translated_text": translator.translate(text, source, target),
        "source_lang": data["source_lang"],
        "target_lang": data["target_lang"],
    })


@app.post("/api/timezone")
def convert_timezone():
    data = body_fields("datetime", "from_timezone", "to_timezone")
    from_tz = get_tz(data["from_timezone"])
    to_tz = get_tz(data["to_timezone"])
    original = parse_dt(data["datetime"], from_tz)
    converted = original.astimezone(to_tz)
    return jsonify({
        "success": True,
        "original_datetime": original.isoformat(),
        "converted_datetime": to_tz.normalize(converted).isoformat(),
        "from_timezone": data["from_timezone"],
        "to_timezone": data["to_timezone"],
    })


@app.post("/api/localize")
def localize():
    data = body_fields("datetime", "timezone", "locale")
    tz = get_tz(data["timezone"])
    try:
        loc = Locale.parse(data["locale"].replace("-", "_"))
    except (UnknownLocaleError, ValueError):
        raise ApiError(f"Invalid locale: {data['locale']}")
    dt = parse_dt(data["datetime"], tz)
    formatted = format_datetime(dt, format="full", tzinfo=tz, locale=loc)
    return jsonify({
        "success": True,
        "formatted_datetime": formatted,
        "timezone": data["timezone"],
        "locale": data["locale"],
    })


if __name__ == "__main__":
    app.run(host="0.0.0.0", port=int(os.environ.get("PORT", "5000")), threaded=True)
