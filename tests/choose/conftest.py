"""Shared fixture of the 擇時 tests: the process's shared NetworkX reader."""

from __future__ import annotations

import pytest

from leishen import readings


@pytest.fixture(scope="session")
def reader():
    return readings.reader()
