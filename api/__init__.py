"""leishen.api — the HTTP API (FastAPI): ``create_app(Settings(...))``, served by ``leishen serve``."""

from leishen.api.app import app_from_env, create_app
from leishen.api.settings import Settings

__all__ = ["Settings", "app_from_env", "create_app"]
