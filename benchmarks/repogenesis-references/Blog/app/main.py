from contextlib import asynccontextmanager

from fastapi import FastAPI, HTTPException, Request
from fastapi.encoders import jsonable_encoder
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

from app.core.config import API_PREFIX
from app.core.database import init_db
from app.routers import auth, categories, posts

_ERROR_NAMES = {400: "bad_request", 401: "unauthorized", 403: "forbidden", 404: "not_found",
                405: "method_not_allowed", 409: "conflict", 422: "validation_error", 500: "internal_error"}


@asynccontextmanager
async def lifespan(_app: FastAPI):
    init_db()
    yield


app = FastAPI(title="Blog CMS API", lifespan=lifespan)
init_db()


@app.exception_handler(StarletteHTTPException)
async def http_error(_request: Request, exc: StarletteHTTPException):
    message = exc.detail if isinstance(exc.detail, str) else "Request failed"
    body = {"error": _ERROR_NAMES.get(exc.status_code, "error"), "message": message, "detail": exc.detail}
    return JSONResponse(body, status_code=exc.status_code, headers=getattr(exc, "headers", None))


@app.exception_handler(RequestValidationError)
async def validation_error(_request: Request, exc: RequestValidationError):
    errors = jsonable_encoder(exc.errors())
    body = {"error": "validation_error", "message": "Request validation failed",
            "details": {"errors": errors}, "detail": errors}
    return JSONResponse(body, status_code=422)


@app.exception_handler(Exception)
async def server_error(_request: Request, _exc: Exception):
    return JSONResponse({"error": "internal_error", "message": "Internal server error",
                         "detail": "Internal server error"}, status_code=500)


@app.get("/")
def root():
    return {"service": "Blog CMS API", "docs": "/docs", "api": API_PREFIX}


@app.get("/health")
def health():
    return {"status": "healthy"}


app.include_router(auth.router, prefix=API_PREFIX)
app.include_router(posts.router, prefix=API_PREFIX)
app.include_router(categories.router, prefix=API_PREFIX)
