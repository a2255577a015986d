"""The compiled graph and reader kept on disk, so that a process starts without rebuilding them.

An entry is one file in the user's cache folder (:func:`cache_dir`): ``$LEISHEN_CACHE_DIR``, else
``$XDG_CACHE_HOME/leishen``, else ``~/.cache/leishen``. ``LEISHEN_NO_CACHE=1`` (the CLI's global
``--no-cache``) turns the cache off: nothing is read or written.

An entry's name holds its key (:func:`entry_key`): a SHA-256 of everything the stored objects are made
from: the package's code (its ``.py`` and ``.cypher`` sources), every file of the ontology folder, the
corpus folder and its texts (they decide whether citations are checked and pass), the Python version and
the entry's own arguments. Change any of them and the key changes, so a stale entry is never read; the
older entries of that kind are removed when the new one is written.

Writing is safe when several processes start at once: each writes its own temporary file in the cache
folder and renames it into place (``os.replace`` is atomic), so a reader sees a whole entry or none.
Reading verifies each entry before a byte of it is unpickled: its header holds the SHA-256 of the entry's key
(itself the hash of the code, the ontology and the corpus: the graph's fingerprint) and of the pickled bytes, and
an entry whose bytes do not give that hash (a bit flip, a truncation, a same-length edit of 吉 to 凶), whose
header names another key, that is larger than ``LEISHEN_CACHE_MAX_BYTES`` or that cannot be unpickled for any
reason is a miss: the caller builds again and overwrites it. Only regular files are opened (without blocking:
a FIFO or a device in place of an entry or of ``stamps.json`` is never read from). The files are pickles: they
are read only from the user's own cache folder, made with mode 0700, and only once their hash verifies.
"""

from __future__ import annotations

import dataclasses
import gc
import hashlib
import io
import json
import os
import pickle
import stat
import sys
import tempfile
import threading
import time
from contextlib import contextmanager
from functools import lru_cache
from pathlib import Path

from leishen import settings

FORMAT = 2  # bump when the layout of an entry changes
MAGIC = b"leishen-cache"
KEEP = 3  # entries of one kind kept (the newest), for a few checkouts or versions side by side
PROTOCOL = 5

#: the subpackages whose sources are the code an entry is made by (the ontology is hashed as data)
PACKAGES = ("loaders", "backends", "service", "readings", "judgments", "queries", "engine", "cli",
            "neo4jserver", "viz", "web", "api", "mcpserver")
CODE_SUFFIXES = (".py", ".cypher")


def enabled() -> bool:
    """False when the switch ``LEISHEN_NO_CACHE`` is on (:mod:`leishen.settings`)."""
    return not settings.get("LEISHEN_NO_CACHE")


def cache_dir() -> Path:
    """``$LEISHEN_CACHE_DIR``, else ``$XDG_CACHE_HOME/leishen`` (an absolute one), else ``~/.cache/leishen``."""
    own = settings.get("LEISHEN_CACHE_DIR")
    if own:
        return own
    xdg = os.environ.get("XDG_CACHE_HOME", "")
    base = Path(xdg) if xdg and os.path.isabs(xdg) else Path.home() / ".cache"
    return base / "leishen"


# ---------------------------------------------------------------- keys

def _files(folder: Path, suffixes: tuple[str, ...] | None) -> list[tuple[str, str, os.stat_result]]:
    """Every regular file under *folder* (ending in one of *suffixes*, or all; ``__pycache__`` left out) as
    (relative path, path, stat), in a fixed order."""
    found = []
    for root, dirs, names in os.walk(folder):
        dirs[:] = sorted(d for d in dirs if d != "__pycache__")
        for name in sorted(names):
            if suffixes and not name.endswith(suffixes):
                continue
            path = os.path.join(root, name)
            info = os.stat(path)
            if stat.S_ISREG(info.st_mode):
                found.append((os.path.relpath(path, folder), path, info))
    return found


def tree_digest(folder: Path, suffixes: tuple[str, ...] | None = None) -> str:
    """The SHA-256 of the files under *folder* (their relative paths and bytes). It is remembered in the cache
    folder under the files' stat stamp (path, size, modification and change times, inode): a file written
    since changes its change time, so its tree is read and hashed again; an unchanged tree is only listed."""
    files = _files(folder, suffixes) if folder.is_dir() else []
    stamp = hashlib.sha256(repr((str(folder.resolve()), suffixes, folder.is_dir(), [
        (rel, i.st_size, i.st_mtime_ns, i.st_ctime_ns, i.st_ino) for rel, _, i in files])).encode()).hexdigest()
    stamps = _stamps()
    if stamp in stamps:
        return stamps[stamp]
    digest = hashlib.sha256(b"missing" if not folder.is_dir() else b"tree")
    for rel, path, _ in files:
        digest.update(b"\0" + rel.encode() + b"\0")
        with open(path, "rb") as fh:
            digest.update(fh.read())
    stamps[stamp] = digest.hexdigest()
    _write_stamps(stamps)
    return stamps[stamp]


STAMPS = "stamps.json"  # stat stamp → tree digest, in the cache folder (the newest 64)


def _stamps() -> dict:
    try:
        raw = read_regular(cache_dir() / STAMPS, 10_000_000)
        found = json.loads(raw.decode("utf-8")) if raw is not None else {}
        return found if isinstance(found, dict) else {}
    except (OSError, ValueError):
        return {}


def _write_stamps(stamps: dict) -> None:
    """Write *stamps* (the newest 64) atomically; a folder that cannot be written is left alone."""
    folder = cache_dir()
    kept = dict(list(stamps.items())[-64:])
    try:
        folder.mkdir(parents=True, exist_ok=True, mode=0o700)
        fd, tmp = tempfile.mkstemp(prefix=".stamps-", suffix=".tmp", dir=folder)
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            json.dump(kept, fh)
        os.replace(tmp, folder / STAMPS)
    except OSError:
        pass


@lru_cache(maxsize=1)
def code_digest() -> str:
    """The SHA-256 of the package's code: every ``.py`` / ``.cypher`` file of ``leishen`` and its subpackages
    (read once per process: the code a process runs does not change under it)."""
    import importlib.util

    import leishen
    digest = hashlib.sha256(f"{FORMAT} {sys.version}".encode())
    folders = [("leishen", Path(leishen.__file__).parent)]
    for name in PACKAGES:
        spec = importlib.util.find_spec(f"leishen.{name}")
        places = list(spec.submodule_search_locations or []) if spec else []
        folders.append((name, Path(places[0]) if places else Path("/nonexistent")))
    for name, folder in folders:
        digest.update(f"\0package {name} {tree_digest(folder, CODE_SUFFIXES)}".encode())
    return digest.hexdigest()


def data_digest(ontology: Path, corpus: Path | None, docs: tuple[str, ...]) -> str:
    """The SHA-256 of the ontology folder's files and of the corpus texts (``<doc>_*.txt``, or "none")."""
    digest = hashlib.sha256(f"ontology {ontology.resolve()} {tree_digest(ontology)}".encode())
    digest.update(f"\0corpus {corpus.resolve() if corpus else None}".encode())
    if corpus is not None:
        for doc in docs:
            for path in sorted(corpus.glob(f"{doc}_*.txt")):
                digest.update(b"\0" + path.name.encode() + (b" dir" if path.is_dir() else b"\0"))
                if path.is_file():  # a regular one: a FIFO or a device is never opened
                    digest.update(read_regular(path, settings.get("LEISHEN_CORPUS_MAX_BYTES")) or b"unread")
    return digest.hexdigest()


def entry_key(kind: str, *parts) -> str:
    """The key of an entry of *kind*: the code digest, then *parts* (their ``repr``), hashed."""
    text = "\0".join([kind, code_digest(), *(repr(p) for p in parts)])
    return hashlib.sha256(text.encode()).hexdigest()


# ---------------------------------------------------------------- pickling

def _record_reducer(cls):
    """A reducer of a slotted dataclass as ``cls(*fields)`` (several times faster to load than the default
    per-attribute ``__setstate__``); None for a class it would not rebuild exactly."""
    fields = dataclasses.fields(cls)
    names = tuple(f.name for f in fields)
    slots = {s for c in cls.__mro__ for s in c.__dict__.get("__slots__", ())}
    if ("__slots__" not in cls.__dict__ or slots != set(names) or any(not f.init for f in fields)
            or not cls.__dataclass_params__.init or hasattr(cls, "__post_init__")):
        return None
    return lambda obj: (cls, tuple(getattr(obj, n) for n in names))


_LOCK_TYPES = {type(threading.Lock()): threading.Lock, type(threading.RLock()): threading.RLock,
               threading.local: threading.local}


_SHARED = threading.local()  # the objects an entry being loaded in this thread names (name → object)


def _shared_named(name: str):
    """The object named *name* in the entry being loaded (see :func:`load`)."""
    return _SHARED.objects[name]


class _Pickler(pickle.Pickler):
    """Pickles *shared* objects (by identity) as their names, slotted dataclasses by their fields, and a lock
    or a thread-local as a new empty one (one reducer per type, chosen once)."""

    def __init__(self, file, shared: dict[str, object]):
        super().__init__(file, protocol=PROTOCOL)
        self.shared = {id(obj): name for name, obj in shared.items()}
        self.shared_types = {type(obj) for obj in shared.values()}
        self.reducers: dict[type, object] = {}

    def reducer_override(self, obj):
        cls = type(obj)
        reducer = self.reducers.get(cls, _UNSEEN)
        if reducer is _UNSEEN:
            reducer = self.reducers[cls] = self._reducer_of(cls)
        return NotImplemented if reducer is None else reducer(obj)

    def _reducer_of(self, cls):
        """The reducer of objects of *cls*: None for pickle's own."""
        if cls in self.shared_types:
            record = _record_reducer(cls) if dataclasses.is_dataclass(cls) else None

            def named(obj):
                name = self.shared.get(id(obj))
                if name is not None:
                    return _shared_named, (name,)
                return NotImplemented if record is None else record(obj)
            return named
        if cls in _LOCK_TYPES:
            return lambda obj: (_LOCK_TYPES[cls], ())
        if dataclasses.is_dataclass(cls) and isinstance(cls, type):
            return _record_reducer(cls)
        return None


_UNSEEN = object()


@contextmanager
def _no_gc(freeze: bool = False):
    """Pause the cyclic garbage collector while an entry is written or its objects are made: they hold few
    cycles, and without the pause collections scan the growing heap again and again (about 3× the time).
    *freeze* (after a load) moves every object to the collector's permanent generation (``gc.freeze``): an
    entry is loaded once per process and lives as long, and the next collection would otherwise scan its
    300,000 objects once more (about 40 ms)."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if freeze:
            gc.freeze()
        if was:
            gc.enable()


def _path(kind: str, key: str) -> Path:
    return cache_dir() / f"{kind}-{key[:40]}.pickle"


def read_regular(path: Path, limit: int) -> bytes | None:
    """The bytes of *path* when it is a regular file of at most *limit* bytes, else None (missing, a folder,
    a FIFO, a device, too large). The file is opened without blocking and checked on its open descriptor."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    except OSError:
        return None
    with os.fdopen(fd, "rb") as fh:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode) or info.st_size > limit:
            return None
        raw = fh.read(limit + 1)
    return raw if len(raw) <= limit else None


def _header(key: str, payload) -> bytes:
    """The first line of an entry: magic, format, key and the SHA-256 of the key and the pickled bytes."""
    digest = hashlib.sha256(key.encode() + b"\0")
    digest.update(payload)
    return b"%s %d %s %s\n" % (MAGIC, FORMAT, key.encode(), digest.hexdigest().encode())


def verified(raw: bytes, key: str) -> memoryview | None:
    """The pickled bytes of the entry *raw* when its header names *key* and its hash verifies, else None."""
    end = raw.find(b"\n", 0, 512)
    if end < 0:
        return None
    payload = memoryview(raw)[end + 1:]
    return payload if raw[:end + 1] == _header(key, payload) else None


def load(kind: str, key: str, shared: dict[str, object] | None = None):
    """The object stored under *key*, or None (off, missing, not a regular file, too large, not verifying, or
    a file that cannot be read whole: never an exception). *shared*: the objects the entry names instead of
    holding (name → object)."""
    if not enabled():
        return None
    try:
        raw = read_regular(_path(kind, key), settings.get("LEISHEN_CACHE_MAX_BYTES"))
        payload = verified(raw, key) if raw is not None else None
        if payload is None:
            return None
        _SHARED.objects = shared or {}
        try:
            with _no_gc(freeze=True):
                return pickle.loads(payload)
        finally:
            _SHARED.objects = {}
    except Exception:  # noqa: BLE001 — a damaged, truncated or foreign file is a miss, rebuilt by the caller
        return None


def has(kind: str, key: str) -> bool:
    """Whether an entry of *kind* is stored under *key* (not read: :func:`load` still verifies it)."""
    return enabled() and _path(kind, key).is_file()


def store(kind: str, key: str, obj, shared: dict[str, object] | None = None) -> bool:
    """Write *obj* under *key* (temporary file + atomic rename), and remove older entries of *kind*.
    *shared*: objects (name → object) stored as their name, given back to :func:`load`. False (and
    nothing written) when the cache is off, the folder is not writable or *obj* cannot be pickled."""
    if not enabled():
        return False
    folder = cache_dir()
    tmp = None
    try:
        folder.mkdir(parents=True, exist_ok=True, mode=0o700)
        buf = io.BytesIO()
        with _no_gc():
            _Pickler(buf, shared or {}).dump(obj)
        fd, tmp = tempfile.mkstemp(prefix=f".{kind}-", suffix=".tmp", dir=folder)
        with os.fdopen(fd, "wb") as fh:
            fh.write(_header(key, buf.getbuffer()))
            fh.write(buf.getbuffer())
        os.replace(tmp, _path(kind, key))
        tmp = None
    except Exception:  # noqa: BLE001 — a cache that cannot be written only costs the next start its build
        return False
    finally:
        if tmp is not None:
            _remove(Path(tmp))
    _prune(folder, kind, _path(kind, key))
    return True


def _remove(path: Path) -> None:
    try:
        path.unlink()
    except OSError:
        pass


def _prune(folder: Path, kind: str, keep: Path) -> None:
    """Remove all but the newest :data:`KEEP` entries of *kind*, and temporary files older than an hour
    (left by a process killed while writing)."""
    try:
        entries = sorted(folder.glob(f"{kind}-*.pickle"), key=lambda p: p.stat().st_mtime, reverse=True)
        for old in [p for p in entries if p != keep][KEEP - 1:]:
            _remove(old)
        for tmp in folder.glob(f".{kind}-*.tmp"):
            if time.time() - tmp.stat().st_mtime > 3600:
                _remove(tmp)
    except OSError:
        pass
