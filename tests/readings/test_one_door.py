"""One door (issue #37, item 3): readings/ imports no backend, and no door makes a Reader or a Reading of its own — every
reader is made by leishen.service.book and reached through leishen.service.readings."""

from __future__ import annotations

import ast
import gc
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOORS = ("api", "cli", "mcpserver", "web", "viz", "judgments")


def _imports(path: Path) -> set[str]:
    """Every module *path* imports (``from X import y`` gives X and X.y), at any depth of the file."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            found |= {node.module} | {f"{node.module}.{a.name}" for a in node.names}
    return found


def test_readings_imports_no_backend():
    offending = {str(p.relative_to(ROOT)): sorted(m for m in _imports(p) if m.startswith("leishen.backends"))
                 for p in sorted((ROOT / "readings").glob("*.py"))}
    assert {p: m for p, m in offending.items() if m} == {}


@pytest.mark.parametrize("folder", DOORS)
def test_no_door_makes_a_reader_of_its_own(folder):
    """A door names no Reader or Reading class: it asks leishen.service.readings (reader_for, served_reader, read)."""
    for path in sorted((ROOT / folder).rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call):
                name = getattr(node.func, "id", None) or getattr(node.func, "attr", None)
                assert name not in ("Reader", "Reading"), f"{path.relative_to(ROOT)}:{node.lineno} makes a {name}"


def test_the_served_reader_is_frozen_once_warm():
    """After the served reader and what the door adds are warm, the process's objects are out of the collector's
    passes (gc.freeze)."""
    from leishen.backends import get_backend
    from leishen.service.readings import served_reader
    gc.unfreeze()
    served = served_reader(get_backend("networkx"))
    assert gc.get_freeze_count() > 0 and served.backend.graph is not None
    gc.unfreeze()
