"""No module-level mutable state in readings/, judgments/, service/, api/ and mcpserver/ (issue #37 item 4): the
modules' ASTs are read (:mod:`modulestate`) for a module- or class-level container that code changes at run
time, a lock or semaphore bound at module level, or a name rebound through ``global``. The checker is proved on
planted snippets first: each kind of state is found, each kind of constant passes."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
from modulestate import module_findings, tree_findings  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
FOLDERS = ("readings", "judgments", "service", "api", "mcpserver")

PLANTED = {
    "a dict a function fills": "CURRENT = {}\ndef choose(topic):\n    CURRENT['topic'] = topic\n",
    "a list appended to": "SEEN: list = []\ndef see(x):\n    SEEN.append(x)\n",
    "a set cleared": "DONE = set()\ndef reset():\n    DONE.clear()\n",
    "an augmented item": "COUNTS = dict()\ndef bump(k):\n    COUNTS[k] += 1\n",
    "an item deleted": "import collections\nCACHE = collections.OrderedDict()\ndef drop(k):\n    del CACHE[k]\n",
    "a weak side table": "import weakref\nSIDE = weakref.WeakKeyDictionary()\ndef put(r, v):\n    SIDE[r] = v\n",
    "a comprehension changed": "TABLE = {k: 0 for k in 'ab'}\ndef put(k):\n    TABLE.update({k: 1})\n",
    "a module semaphore": "import threading\n_slots = threading.BoundedSemaphore(4)\n",
    "an anyio limiter": "import anyio\nLIMIT = anyio.CapacityLimiter(2)\n",
    "a thread-local": "import threading\n_here = threading.local()\n",
    "a counter": "from itertools import count\nTICKETS = count()\n",
    "a lazily made singleton": "_reader = None\ndef reader():\n    global _reader\n    _reader = object()\n"
                               "    return _reader\n",
    "an object given attributes": "import types\nSTATE = types.SimpleNamespace()\ndef keep(r):\n"
                                  "    STATE.reader = r\n",
    "a class-level cache": "class Reader:\n    _memo = {}\n    def get(self, k):\n"
                           "        return self._memo.setdefault(k, k)\n",
    "a class registry": "class Kind:\n    known = []\n    @classmethod\n    def add(cls, k):\n"
                        "        cls.known.append(k)\n",
}

CLEAN = {
    "constants": "KEYS = ('a', 'b')\nNAMES = frozenset({'x'})\nLIMIT = 3\nTEXT = 'zh'\n",
    "a frozen table": "from types import MappingProxyType\nTABLE = MappingProxyType({'a': 1})\n",
    "a dict never changed": "WORDS = {'a': 1}\ndef word(k):\n    return WORDS.get(k)\n",
    "a local container": "def f():\n    out = {}\n    out['a'] = 1\n    return out\n",
    "a cached pure function": "import functools\n@functools.lru_cache(maxsize=1)\ndef table():\n"
                              "    return tuple(range(3))\n",
    "a table built at import": "ORDER = []\nfor k in 'abc':\n    ORDER.append(k)\nORDER = tuple(ORDER)\n",
    "state on an instance": "class Box:\n    def __init__(self):\n        self.items = []\n"
                            "    def add(self, x):\n        self.items.append(x)\n",
    "a class default the instance shadows": "class Box:\n    items: list = []\n    def __init__(self):\n"
                                            "        self.items = []\n    def add(self, x):\n"
                                            "        self.items.append(x)\n",
}


@pytest.mark.parametrize("name", PLANTED)
def test_the_checker_finds_planted_state(name):
    assert module_findings(PLANTED[name]), f"{name}: not found"


@pytest.mark.parametrize("name", CLEAN)
def test_the_checker_passes_constants(name):
    assert module_findings(CLEAN[name]) == [], f"{name}: found"


def test_the_checker_follows_an_import(tmp_path):
    """A table changed by another module of the walk counts against the module that binds it."""
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "tables.py").write_text("REGISTRY = {}\n")
    (tmp_path / "pkg" / "user.py").write_text("from leishen.pkg.tables import REGISTRY\n"
                                               "def register(k, v):\n    REGISTRY[k] = v\n")
    found = tree_findings(tmp_path, ("pkg",))
    assert [(f.path, f.name) for f in found] == [("pkg/tables.py", "REGISTRY")]


def test_no_module_level_mutable_state():
    found = tree_findings(ROOT, FOLDERS)
    assert not found, "module-level mutable state:\n" + "\n".join(map(str, found))
