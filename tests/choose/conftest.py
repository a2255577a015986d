"""Shared fixtures of the 擇時 tests: the process's shared NetworkX reader, and the leishen command line."""

from __future__ import annotations

import shutil
import sys

import pytest

from leishen import readings


@pytest.fixture(scope="session")
def reader():
    return readings.reader()


@pytest.fixture(scope="session")
def leishen_cmd() -> list[str]:
    """The command that runs the CLI of this checkout."""
    return [shutil.which("leishen")] if shutil.which("leishen") else [sys.executable, "-m", "leishen.cli.main"]
