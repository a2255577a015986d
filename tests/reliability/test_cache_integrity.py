"""#40 item 4: the disk cache cannot lie. Every entry is verified by the SHA-256 of its key (code and data
fingerprint) and its bytes before it is unpickled; one that does not verify is rebuilt, and a FIFO or a device in
place of an entry (or of stamps.json) is never opened."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from leishen import diskcache

ARGS = ("facts", "--doc", "002", "--json")  # answered from the graph entry; its facts carry 吉 and 凶


def run(cache: Path | None, *args: str) -> subprocess.CompletedProcess:
    """``leishen ARGS`` in a new process with the cache folder *cache* (None: the cache off); 120 s at most."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("LEISHEN_CACHE_DIR", "LEISHEN_NO_CACHE"))}
    env.update({"LEISHEN_CACHE_DIR": str(cache)} if cache else {"LEISHEN_NO_CACHE": "1"})
    done = subprocess.run([sys.executable, "-m", "leishen.cli.main", *args], capture_output=True, text=True,
                          env=env, timeout=120)
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
    return done


@pytest.fixture(scope="module")
def uncached() -> str:
    return run(None, *ARGS).stdout


@pytest.fixture
def cached(tmp_path, uncached) -> tuple[Path, Path]:
    """A cache folder holding the graph entry of a first run, and that entry."""
    cache = tmp_path / "cache"
    assert run(cache, *ARGS).stdout == uncached
    (entry,) = cache.glob("graph-*.pickle")
    return cache, entry


def test_a_same_length_edit_of_an_entry_is_detected_and_rebuilt(cached, uncached):
    cache, entry = cached
    raw = entry.read_bytes()
    good, bad = "吉".encode(), "凶".encode()
    assert len(good) == len(bad) and raw.count(good) > 0
    tampered = raw.replace(good, bad, 1)
    entry.write_bytes(tampered)
    assert entry.stat().st_size == len(raw)
    assert run(cache, *ARGS).stdout == uncached  # not the tampered fact
    again = entry.read_bytes()
    key = again.split(b"\n", 1)[0].split()[2].decode()
    assert again != tampered and diskcache.verified(again, key) is not None  # rebuilt, and verifies
    assert diskcache.verified(tampered, key) is None


@pytest.mark.parametrize("kind", ["fifo", "dev-zero", "folder"])
def test_a_non_regular_entry_is_never_opened(cached, uncached, kind):
    cache, entry = cached
    entry.unlink()
    stamps = cache / diskcache.STAMPS
    stamps.unlink()
    if kind == "fifo":
        os.mkfifo(entry)
        os.mkfifo(stamps)
    elif kind == "dev-zero":
        entry.symlink_to("/dev/zero")
        stamps.symlink_to("/dev/zero")
    else:
        entry.mkdir()
    assert run(cache, *ARGS).stdout == uncached  # no hang (120 s bound), no MemoryError
    assert run(cache, *ARGS).stdout == uncached


def test_load_verifies_the_hash_of_key_and_bytes(tmp_path, monkeypatch):
    monkeypatch.setenv("LEISHEN_CACHE_DIR", str(tmp_path))
    monkeypatch.delenv("LEISHEN_NO_CACHE", raising=False)
    key = "a" * 64
    assert diskcache.store("unit", key, {"polarity": "吉" * 10})
    (path,) = tmp_path.glob("unit-*.pickle")
    raw = path.read_bytes()
    header = raw.split(b"\n", 1)[0].split()
    assert header[:3] == [diskcache.MAGIC, str(diskcache.FORMAT).encode(), key.encode()] and len(header[3]) == 64
    assert diskcache.load("unit", key) == {"polarity": "吉" * 10}
    path.write_bytes(raw.replace("吉".encode(), "凶".encode()))
    assert diskcache.load("unit", key) is None
    path.write_bytes(raw)
    monkeypatch.setenv("LEISHEN_CACHE_MAX_BYTES", str(len(raw) - 1))
    assert diskcache.load("unit", key) is None  # larger than the bound: not read
    monkeypatch.delenv("LEISHEN_CACHE_MAX_BYTES")
    assert diskcache.verified(raw, "b" * 64) is None  # another key
    assert diskcache.verified(raw[:-1], key) is None  # truncated
    assert diskcache.read_regular(Path("/dev/zero"), 10) is None
