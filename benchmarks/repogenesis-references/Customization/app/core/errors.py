"""Unified error format: {"error": str, "message": str, "details": object (optional)}."""
from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

DEFAULT_ERRORS = {
    400: "bad_request", 401: "unauthorized", 403: "forbidden", 404: "not_found",
    405: "method_not_allowed", 409: "conflict", 422: "validation_error", 429: "too_many_requests",
    500: "internal_server_error",
}


class ApiError(Exception):
    def __init__(self, status: int, message: str, details=None, error: str = None, headers=None):
        super().__init__(message)
        self.status = status
        self.message = message
        self.details = details
        self.error = error or DEFAULT_ERRORS.get(status, "error")
        self.headers = headers


def validation_error(details: dict, message: str = "Validation failed") -> ApiError:
    return ApiError(422, message, details)


def error_body(error: str, message: str, details=None) -> dict:
    body = {"error": error, "message": message}
    if details:
        body["details"] = details
    return body


def install(app: FastAPI) -> None:
    @app.exception_handler(ApiError)
    async def _api_error(_request: Request, exc: ApiError):
        return JSONResponse(error_body(exc.error, exc.message, exc.details), status_code=exc.status,
                            headers=exc.headers)

    @app.exception_handler(StarletteHTTPException)
    async def _http_error(_request: Request, exc: StarletteHTTPException):
        messages = {404: "Resource not found", 405: "Method not allowed"}
        return JSONResponse(
            error_body(DEFAULT_ERRORS.get(exc.status_code, "error"),
                       messages.get(exc.status_code, str(exc.detail))),
            status_code=exc.status_code,
        )

    @app.exception_handler(RequestValidationError)
    async def _validation_error(_request: Request, exc: RequestValidationError):
        details = {".".join(str(p) for p in e["loc"]): e["msg"] for e in exc.errors()}
        return JSONResponse(error_body("validation_error", "Validation failed", details), status_code=422)

    @app.exception_handler(Exception)
    async def _unhandled(_request: Request, _exc: Exception):
        return JSONResponse(error_body("internal_server_error", "Internal server error"), status_code=500)
