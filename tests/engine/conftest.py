"""Fixtures for the chart-engine tests: golden data and small helpers (as fixtures, not imports)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from leishen.engine.liuren.chart import liuren_section
from leishen.engine.liuren.options import LiurenOptions

DATA = Path(__file__).parent / "data"


def _cast(day: str, hour: str, general: str, **options) -> dict:
    """The Liu Ren section for day pillar, hour branch and 月將, with school options by name."""
    return liuren_section(day, hour, general, LiurenOptions.from_mapping(options))


@pytest.fixture(scope="session")
def cast():
    return _cast


@pytest.fixture(scope="session")
def engine_data() -> Path:
    return DATA


def pytest_generate_tests(metafunc):
    """Parametrise any test taking ``textbook_case`` over tests/engine/data/liuren_textbook.json."""
    if "textbook_case" in metafunc.fixturenames:
        cases = json.loads((DATA / "liuren_textbook.json").read_text(encoding="utf-8"))["cases"]
        metafunc.parametrize("textbook_case", cases, ids=[c["id"] for c in cases])
