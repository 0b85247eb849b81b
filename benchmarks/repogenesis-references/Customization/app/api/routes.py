"""HTTP routes under /api/v1."""
from datetime import timedelta

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse

from ..core import config
from ..core.auth import optional_user, require_user
from ..core.errors import validation_error
from ..services import favorites, history, likes
from ..utils.common import int_param, json_object, paginate, parse_iso

router = APIRouter(prefix=config.API_PREFIX)


def _filter(request: Request, name: str, choices=None):
    value = request.query_params.get(name)
    if value is None or value == "":
        return None
    if choices is not None and value not in choices:
        raise validation_error({name: f"must be one of: {', '.join(choices)}"})
    return value


# ---- favorites -------------------------------------------------------------------------------
@router.post("/favorites", status_code=201)
async def add_favorite(request: Request):
    user_id = require_user(request)
    data = await json_object(request)
    return JSONResponse(favorites.add(user_id, data), status_code=201)


@router.get("/favorites")
def list_favorites(request: Request):
    user_id = require_user(request)
    page = int_param(request, "page", 1, 10**9)
    limit = int_param(request, "limit", 10, 100)
    items = favorites.list_for(user_id, _filter(request, "content_type", config.CONTENT_TYPES),
                               _filter(request, "category"))
    page_items, pagination = paginate(items, page, limit)
    return {"favorites": page_items, "pagination": pagination}


@router.delete("/favorites/{favorite_id}")
def delete_favorite(favorite_id: str, request: Request):
    favorites.delete(require_user(request), favorite_id)
    return {"message": "Favorite deleted successfully"}


# ---- likes -----------------------------------------------------------------------------------
@router.post("/likes", status_code=201)
async def like(request: Request):
    user_id = require_user(request)
    data = await json_object(request)
    return JSONResponse(likes.act(user_id, data), status_code=201)


@router.get("/likes/history")
def like_history(request: Request):
    user_id = require_user(request)
    page = int_param(request, "page", 1, 10**9)
    limit = int_param(request, "limit", 10, 50)
    items = likes.history_for(user_id, _filter(request, "content_type", config.CONTENT_TYPES))
    page_items, pagination = paginate(items, page, limit)
    return {"likes": page_items, "pagination": pagination}


@router.get("/likes/stats/{content_id}")
def like_stats(content_id: str, request: Request):
    return likes.stats(content_id, optional_user(request))


# ---- history ---------------------------------------------------------------------------------
@router.post("/history", status_code=201)
async def record_history(request: Request):
    user_id = require_user(request)
    data = await json_object(request)
    forwarded = request.headers.get("X-Forwarded-For")
    ip = forwarded.split(",")[0].strip() if forwarded else (request.client.host if request.client else None)
    rec = history.record(user_id, data, ip, request.headers.get("User-Agent"))
    return JSONResponse(rec, status_code=201)


@router.get("/history")
def list_history(request: Request):
    user_id = require_user(request)
    page = int_param(request, "page", 1, 10**9)
    limit = int_param(request, "limit", 20, 100)
    start = end = None
    raw_start, raw_end = request.query_params.get("start_date"), request.query_params.get("end_date")
    if raw_start:
        start = parse_iso(raw_start, "start_date")
    if raw_end:
        end = parse_iso(raw_end, "end_date")
        if "T" not in raw_end and " " not in raw_end.strip():
            end = end + timedelta(days=1) - timedelta(microseconds=1)  # a bare date includes that whole day
    if start and end and start > end:
        raise validation_error({"start_date": "must not be after end_date"})
    items = history.list_for(user_id, _filter(request, "action"), _filter(request, "content_type"),
                             start, end, _filter(request, "session_id"))
    page_items, pagination = paginate(items, page, limit)
    return {"history": page_items, "pagination": pagination}


@router.delete("/history/{history_id}")
def delete_history(history_id: str, request: Request):
    history.delete(require_user(request), history_id)
    return {"message": "History record deleted successfully"}


@router.delete("/history")
def clear_history(request: Request):
    count = history.clear(require_user(request))
    return {"message": "History cleared successfully", "deleted_count": count}
