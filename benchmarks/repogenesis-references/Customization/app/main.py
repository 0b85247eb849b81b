"""Personalization API entry point: `uvicorn app.main:app --port 8082`."""
from datetime import datetime, timezone

from fastapi import FastAPI

from .api.routes import router
from .core import config, errors

app = FastAPI(title=config.APP_NAME, version=config.APP_VERSION)
errors.install(app)
app.include_router(router)


@app.get("/")
def root():
    return {"service": config.APP_NAME, "version": config.APP_VERSION, "docs": "/docs", "health": "/health"}


@app.get("/health")
@app.get(f"{config.API_PREFIX}/health")
def health():
    return {"status": "healthy", "version": config.APP_VERSION,
            "timestamp": datetime.now(timezone.utc).isoformat().replace("+00:00", "Z")}
