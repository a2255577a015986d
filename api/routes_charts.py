"""Chart and reading endpoints: /charts, /readings, /find."""

from fastapi import APIRouter

from leishen.api.settings import Settings


def router(settings: Settings) -> APIRouter:
    """The chart routes, with the limits of *settings*."""
    api = APIRouter(tags=["charts"])
    return api
