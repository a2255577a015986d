"""Shared fixture of the 擇時 tests: the process's shared NetworkX reader."""

from __future__ import annotations

import pytest

from leishen import readings
from leishen.service import book


@pytest.fixture(scope="session")
def reader():
    return book.reader()
