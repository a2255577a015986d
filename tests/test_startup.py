"""Start-up: the compiled graph and rule book kept on disk (leishen.diskcache), and what a command imports.

Every test runs the CLI as a separate process with its own temporary cache folder (LEISHEN_CACHE_DIR): a
cold cache, a warm one, a stale one (a key input altered), a damaged entry, two processes starting at once,
and --no-cache / LEISHEN_NO_CACHE. An entry is never rewritten on a hit (a miss always writes one), so the
same inode after a run proves the run read it. No timing is asserted (speed is in bench/).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from leishen import diskcache
from leishen.loaders.corpus import default_corpus_dir
from leishen.loaders.schema import ontology_dir
from leishen.service import book

MOMENT = "2026-12-01T10:00+09:00"
ROOT = Path(__file__).resolve().parent.parent


def run(*args: str, cache: Path | None, env: dict | None = None, check: bool = True) -> subprocess.CompletedProcess:
    """``leishen ARGS`` in a fresh process, with the cache folder *cache* (None: the variable unset)."""
    full = {k: v for k, v in os.environ.items() if not k.startswith(("LEISHEN_CACHE_DIR", "LEISHEN_NO_CACHE"))}
    if cache is not None:
        full["LEISHEN_CACHE_DIR"] = str(cache)
    full.update(env or {})
    done = subprocess.run([sys.executable, "-m", "leishen.cli.main", *args], capture_output=True, text=True,
                          env=full, timeout=300)
    if check:
        assert done.returncode == 0, done.stderr
        assert "Traceback" not in done.stderr
    return done


def entries(cache: Path, kind: str = "book") -> list[Path]:
    return sorted(cache.glob(f"{kind}-*.pickle")) if cache.is_dir() else []


@pytest.fixture(scope="module")
def uncached() -> str:
    """The reading of MOMENT (every topic) with the cache off: what every cached run must print."""
    return run("--no-cache", "read", MOMENT, "--topic", "*", "--json", cache=None).stdout


def test_cold_then_warm_cache_read_the_same(tmp_path, uncached):
    cache = tmp_path / "cache"
    cold = run("read", MOMENT, "--topic", "*", "--json", cache=cache)
    assert cold.stdout == uncached
    (entry,) = entries(cache)
    (graph,) = entries(cache, "graph")
    assert entry.read_bytes().startswith(b"leishen-cache ")
    inode = entry.stat().st_ino
    warm = run("read", MOMENT, "--topic", "*", "--json", cache=cache)
    assert warm.stdout == uncached
    assert entries(cache) == [entry] and entry.stat().st_ino == inode  # read, not rebuilt
    assert json.loads(run("topics", "--json", cache=cache).stdout)  # another command on the same entry
    assert entry.stat().st_ino == inode


def test_other_moments_read_the_same_from_the_cache(tmp_path):
    cache = tmp_path / "cache"
    run("topics", "--json", cache=cache)  # the entry written
    for moment, topic in (("1984-02-04T23:30+08:00", "射覆"), ("2031-07-15T06:10+09:00", None)):
        args = ["read", moment, "--json"] + (["--topic", topic] if topic else [])
        assert run(*args, cache=cache).stdout == run("--no-cache", *args, cache=None).stdout


def _copy_inputs(tmp_path: Path) -> tuple[Path, Path]:
    onto, corpus = tmp_path / "ontology", tmp_path / "seeds"
    shutil.copytree(ontology_dir(), onto, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(default_corpus_dir(), corpus)
    for path in corpus.iterdir():
        path.chmod(0o644)
    return onto, corpus


def test_an_altered_table_is_read_not_the_stale_entry(tmp_path):
    onto, corpus = _copy_inputs(tmp_path)
    cache, env = tmp_path / "cache", {"LEISHEN_ONTOLOGY": str(onto), "LEISHEN_CORPUS": str(corpus)}
    first = json.loads(run("topics", "--json", cache=cache, env=env).stdout)[0]
    (old,) = entries(cache)
    name = first["en"]
    for table in sorted(onto.rglob("*.csv")):
        text = table.read_text(encoding="utf-8")
        if f",{name}," in text:
            table.write_text(text.replace(f",{name},", f",{name} altered,", 1), encoding="utf-8")
            break
    else:
        pytest.fail(f"no table row names {name!r}")
    again = json.loads(run("topics", "--json", cache=cache, env=env).stdout)
    assert {t["id"]: t["en"] for t in again}[first["id"]] == f"{name} altered"
    assert old in entries(cache) and len(entries(cache)) == 2  # a new entry beside the old one


def test_an_altered_corpus_text_makes_a_new_entry(tmp_path):
    onto, corpus = _copy_inputs(tmp_path)
    cache, env = tmp_path / "cache", {"LEISHEN_ONTOLOGY": str(onto), "LEISHEN_CORPUS": str(corpus)}
    before = run("read", MOMENT, "--json", cache=cache, env=env).stdout
    (old,) = entries(cache)
    text = sorted(corpus.glob("000_*.txt"))[0]
    text.write_bytes(text.read_bytes() + b"\n")  # the same passages, another file: the key changes
    assert run("read", MOMENT, "--json", cache=cache, env=env).stdout == before
    assert len(entries(cache)) == 2 and old in entries(cache)
    text.write_bytes(b"\xff\xfe not UTF-8")  # a damaged text: the graph is built unchecked, as without a cache
    damaged = run("read", MOMENT, "--json", cache=cache, env=env)
    assert damaged.stdout == run("--no-cache", "read", MOMENT, "--json", cache=None, env=env).stdout


@pytest.mark.parametrize("damage", ["garbage", "truncated", "empty", "wrong key"])
def test_a_damaged_entry_is_ignored_and_rebuilt(tmp_path, uncached, damage):
    cache = tmp_path / "cache"
    run("topics", "--json", cache=cache)
    (entry,) = entries(cache)
    raw = entry.read_bytes()
    header, _, body = raw.partition(b"\n")
    keyed = header.rsplit(b" ", 1)[0]  # magic, format and key (the hash of key and bytes follows)
    entry.write_bytes({"garbage": b"\x80\x05 not a pickle at all" * 100, "truncated": raw[: len(raw) // 2],
                       "empty": b"", "wrong key": keyed[:-4] + b"0000 " + header.rsplit(b" ", 1)[1] + b"\n" + body}[damage])
    done = run("read", MOMENT, "--topic", "*", "--json", cache=cache)
    assert done.stdout == uncached and done.stderr == ""
    assert entries(cache) == [entry] and entry.read_bytes().startswith(keyed + b" ")  # written again
    inode = entry.stat().st_ino
    assert run("read", MOMENT, "--topic", "*", "--json", cache=cache).stdout == uncached
    assert entry.stat().st_ino == inode  # and whole: the next run reads it


def test_two_processes_starting_at_once(tmp_path, uncached):
    cache = tmp_path / "cache"
    env = {k: v for k, v in os.environ.items() if not k.startswith("LEISHEN_NO_CACHE")}
    env["LEISHEN_CACHE_DIR"] = str(cache)
    command = [sys.executable, "-m", "leishen.cli.main", "read", MOMENT, "--topic", "*", "--json"]
    procs = [subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
             for _ in range(2)]
    outs = [p.communicate(timeout=300) for p in procs]
    assert [p.returncode for p in procs] == [0, 0], [err for _, err in outs]
    assert [out for out, _ in outs] == [uncached, uncached]
    assert len(entries(cache)) == 1 and len(entries(cache, "graph")) == 1
    assert not list(cache.glob(".*.tmp"))  # no temporary file left
    (entry,) = entries(cache)
    inode = entry.stat().st_ino
    assert run("read", MOMENT, "--topic", "*", "--json", cache=cache).stdout == uncached
    assert entry.stat().st_ino == inode


@pytest.mark.parametrize("how", ["flag", "variable"])
def test_no_cache_neither_reads_nor_writes(tmp_path, uncached, how):
    cache = tmp_path / "cache"
    args, env = (["--no-cache"], {}) if how == "flag" else ([], {"LEISHEN_NO_CACHE": "1"})
    assert run(*args, "read", MOMENT, "--topic", "*", "--json", cache=cache, env=env).stdout == uncached
    assert not cache.exists()
    run("topics", "--json", cache=cache)
    (entry,) = entries(cache)
    entry.write_bytes(b"damaged")
    assert run(*args, "read", MOMENT, "--topic", "*", "--json", cache=cache, env=env).stdout == uncached
    assert entry.read_bytes() == b"damaged"  # not read, not replaced


def test_a_cache_folder_that_cannot_be_written(tmp_path, uncached):
    """A folder that cannot be made (under /proc: not even by root) costs only the build. A path under a file is
    no folder at all: a bad LEISHEN_CACHE_DIR, refused (tests/reliability/test_settings.py)."""
    done = run("read", MOMENT, "--topic", "*", "--json", cache=Path("/proc") / f"leishen-{tmp_path.name}")
    assert done.stdout == uncached and done.stderr == ""


def test_the_cache_folder_follows_xdg_then_home(tmp_path):
    xdg, home = tmp_path / "xdg", tmp_path / "home"
    run("stats", "--json", cache=None, env={"XDG_CACHE_HOME": str(xdg)})
    assert entries(xdg / "leishen", "graph")
    env = {k: v for k, v in os.environ.items() if k != "XDG_CACHE_HOME"}
    env["HOME"] = str(home)
    full = {k: v for k, v in env.items() if not k.startswith(("LEISHEN_CACHE_DIR", "LEISHEN_NO_CACHE"))}
    subprocess.run([sys.executable, "-m", "leishen.cli.main", "stats", "--json"], env=full, check=True,
                   capture_output=True, timeout=300)
    assert entries(home / ".cache" / "leishen", "graph")


# ---------------------------------------------------------------- the cache module in process

def test_store_and_load_keep_records_equal_and_shared(tmp_path, monkeypatch):
    from leishen.loaders.build import build_graph
    monkeypatch.setenv("LEISHEN_CACHE_DIR", str(tmp_path))
    monkeypatch.delenv("LEISHEN_NO_CACHE", raising=False)
    data = build_graph()
    marker = object()
    assert diskcache.store("test", "k" * 64, {"data": data, "marker": marker}, shared={"m": marker})
    back = diskcache.load("test", "k" * 64, shared={"m": "given back"})
    assert back["marker"] == "given back"
    assert back["data"].facts == data.facts and back["data"].rules == data.rules
    assert [(n.id, n.label, n.props) for n in back["data"].nodes] == [(n.id, n.label, n.props) for n in data.nodes]
    shared = {id(e.props) for e in data.edges}
    assert len({id(e.props) for e in back["data"].edges}) == len(shared)  # one dict where there was one
    assert diskcache.load("test", "j" * 64) is None  # another key: a miss
    monkeypatch.setenv("LEISHEN_NO_CACHE", "1")
    assert diskcache.load("test", "k" * 64) is None and not diskcache.store("test", "k" * 64, 1)


def test_the_code_key_covers_every_package():
    packages = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]["packages"]
    top = {p.split(".")[1] for p in packages if p.count(".") >= 1}
    assert top - {"ontology"} == set(diskcache.PACKAGES)  # the ontology is hashed as data


# ---------------------------------------------------------------- lazy imports

def imported(*args: str) -> set[str]:
    """The top-level modules a ``leishen ARGS`` process imports (python -X importtime)."""
    done = subprocess.run([sys.executable, "-X", "importtime", "-m", "leishen.cli.main", *args],
                          capture_output=True, text=True, timeout=300, env={**os.environ, "LEISHEN_NO_CACHE": "1"})
    assert done.returncode == 0, done.stderr[-2000:]
    return {line.rsplit("|", 1)[1].strip().split(".")[0] for line in done.stderr.splitlines()
            if line.startswith("import time:") and "|" in line}


HEAVY = {"networkx", "fastapi", "starlette", "uvicorn", "mcp", "neo4j", "grand_cypher", "pyvis", "jinja2"}


def test_chart_imports_no_graph_server_or_driver():
    found = imported("chart", MOMENT, "--json")
    assert "lunar_python" in found  # what a chart needs is there (the test sees imports)
    assert not found & HEAVY, found & HEAVY


def test_chart_imports_no_pydantic():
    """A moment's chart needs no typed-chart model: engine/schema.py (pydantic) is imported only for a typed chart."""
    assert "pydantic" not in imported("chart", MOMENT, "--json")


def test_read_imports_no_server_or_driver():
    found = imported("read", MOMENT, "--json")
    assert "networkx" in found
    assert not found & (HEAVY - {"networkx"}), found & HEAVY


def test_reader_over_a_networkx_store_is_the_cached_reader_warmed(tmp_path, monkeypatch):
    import leishen
    from leishen import readings
    from leishen.backends import get_backend
    monkeypatch.setenv("LEISHEN_CACHE_DIR", str(tmp_path))
    monkeypatch.delenv("LEISHEN_NO_CACHE", raising=False)
    built = book.reader_over(get_backend("networkx"))  # no entry yet: built and stored
    (entry,) = entries(tmp_path)
    store = get_backend("networkx")
    store.ensure_loaded()
    loaded = book.reader_over(store)
    assert loaded is not built and loaded.backend is store and entries(tmp_path) == [entry]
    chart = leishen.chart(MOMENT)
    assert json.dumps(loaded.read(chart, topic="*")) == json.dumps(built.read(chart, topic="*"))


@pytest.mark.parametrize("args", [("coverage", "--json"), ("passage", "000:3", "--json")])
def test_commands_on_the_records_import_no_networkx(args):
    found = imported(*args)
    assert "leishen" in found and not found & HEAVY, found & HEAVY


def test_a_tree_digest_sees_a_rewrite_that_keeps_size_and_mtime(tmp_path, monkeypatch):
    monkeypatch.setenv("LEISHEN_CACHE_DIR", str(tmp_path / "cache"))
    tree = tmp_path / "tree"
    (tree / "sub").mkdir(parents=True)
    table = tree / "sub" / "a.csv"
    table.write_text("abc")
    first = diskcache.tree_digest(tree)
    assert diskcache.tree_digest(tree) == first and (tmp_path / "cache" / diskcache.STAMPS).is_file()
    info = table.stat()
    table.write_text("xyz")  # the same size, and the old modification time put back
    os.utime(table, ns=(info.st_atime_ns, info.st_mtime_ns))
    second = diskcache.tree_digest(tree)
    assert second != first
    (tree / "sub" / "b.csv").write_text("")
    assert diskcache.tree_digest(tree) not in (first, second)
