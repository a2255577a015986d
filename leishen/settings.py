"""Every ``LEISHEN_*`` environment setting, parsed in one place with its type and range.

:data:`SETTINGS` lists each variable once: its kind (``bool``, ``int``, ``float``, ``path``, ``dir``, ``dir or new``,
``text``),
its default, its range and what it does. :func:`get` is how the code reads one (``get("LEISHEN_NO_CACHE")``):
an unset or empty variable gives the default; a value that is not of the kind or outside the range raises
:class:`SettingError` naming the variable, the value and what it takes, never a ``ValueError`` from deep inside.
:func:`check_all` parses every variable at once: the CLI calls it before any command (a bad value exits 2) and
the servers before they start (a bad value refuses to start).

The ``LEISHEN_API_*`` settings of ``leishen serve`` are parsed by :mod:`leishen.api.settings` with the kinds
and ranges of :func:`parse`. The table of the README is :func:`markdown_table`.

Booleans take ``1/true/yes/on`` and ``0/false/no/off`` (any case); ``path`` is any path (``~`` expanded, no
NUL byte); ``dir`` must name an existing folder; ``dir or new`` a folder, or a path not there yet whose nearest
existing parent is a folder (where leishen makes it, or, for the corpus, warns that it is missing) — never a file,
a FIFO or a device, nor a path under one.
"""

from __future__ import annotations

import math
import os
import stat
from dataclasses import dataclass
from pathlib import Path

from leishen.errors import SettingError

_TRUE = frozenset({"1", "true", "yes", "on"})
_FALSE = frozenset({"0", "false", "no", "off"})


@dataclass(frozen=True)
class Setting:
    """One environment variable: its kind, default, inclusive range (numbers) and what it does."""

    name: str
    kind: str
    default: object
    help: str
    low: float | None = None
    high: float | None = None


def _cpus() -> int:
    return os.cpu_count() or 1


#: every LEISHEN_* variable the package reads (scripts/test reads LEISHEN_NO_PIP/APT/CARGO itself)
SETTINGS: tuple[Setting, ...] = (
    Setting("LEISHEN_CORPUS", "dir or new", None, "folder of the source texts (default ../shared/seeds beside a "
            "checkout; a missing one is warned of, as no corpus)"),
    Setting("LEISHEN_CORPUS_MAX_BYTES", "int", 16_000_000, "largest corpus text read, in bytes (a bigger one is "
            "refused as damaged)", 1_000, 1_000_000_000),
    Setting("LEISHEN_ONTOLOGY", "dir", None, "the ontology folder (default: the installed one)"),
    Setting("LEISHEN_CACHE_DIR", "dir or new", None, "the disk cache folder (default $XDG_CACHE_HOME/leishen or "
            "~/.cache/leishen)"),
    Setting("LEISHEN_NO_CACHE", "bool", False, "neither read nor write the disk cache (as --no-cache)"),
    Setting("LEISHEN_CACHE_MAX_BYTES", "int", 2_000_000_000, "largest disk cache entry read, in bytes",
            1_000, 100_000_000_000),
    Setting("LEISHEN_NO_READING_CACHE", "bool", False, "keep nothing from one reading to the next"),
    Setting("LEISHEN_MAX_IN_FLIGHT", "int", None, "computing requests (readings, find, views of a reading, MCP "
            "tools) one server process runs at once; one more is answered 429 with Retry-After "
            "(default: the CPUs, at least 2: a reading holds the interpreter, more at once only wait)", 1, 10_000),
    Setting("LEISHEN_CYPHER_MAX_IN_FLIGHT", "int", None, "ad-hoc Cypher queries one process runs at once "
            "(default: twice the CPUs)", 1, 10_000),
    Setting("LEISHEN_MAX_ANSWER_ROWS", "int", 100_000, "most rows a Neo4j answer may hold before it is refused",
            1, 10_000_000),
    Setting("LEISHEN_MAX_ANSWER_BYTES", "int", 16_000_000, "most bytes (as JSON) a Neo4j answer may hold before "
            "it is refused", 1_000, 1_000_000_000),
    Setting("LEISHEN_NEO4J_HOME", "dir or new", None, "Neo4j jars and the default server (default "
            "~/.cache/leishen/neo4j)"),
    Setting("LEISHEN_NEO4J_RUN", "dir or new", None, "the run folder of `leishen neo4j` (default <home>/server)"),
    Setting("LEISHEN_NEO4J_JVM_OPTS", "text", "", "extra JVM options of the Neo4j server"),
    Setting("LEISHEN_NEO4J_START_TIMEOUT", "float", 180.0, "seconds to wait for Neo4j to answer on start",
            1, 3600),
    Setting("LEISHEN_NEO4J_PASSWORD", "text", None, "the password handed to the Neo4j launcher (set by leishen)"),
    Setting("LEISHEN_VERBOSE", "bool", False, "show Maven's output when the Neo4j jars are fetched"),
    Setting("LEISHEN_SCREENSHOTS", "dir or new", None, "folder where the browser tests save their screenshots"),
)

BY_NAME = {s.name: s for s in SETTINGS}


def _num(value) -> str:
    """A number as the table and messages show it: whole ones with thousands separators."""
    return f"{int(value):,}" if float(value).is_integer() else f"{value:g}"


def _bad(setting: Setting, raw: str, what: str) -> SettingError:
    return SettingError(f"{setting.name}={raw!r}: {what}", variable=setting.name)


def _number(setting: Setting, raw: str, text: str):
    """An int or float of *setting* within its range."""
    kind = int if setting.kind == "int" else float
    try:
        if not text.isascii() or (kind is int and not text.lstrip("+-").isdigit()):
            raise ValueError  # (float() and int() would take full-width or other scripts' digits: １２)
        value = kind(text)
    except ValueError:
        raise _bad(setting, raw, f"not {'a whole number' if kind is int else 'a number'}") from None
    if (kind is float and not math.isfinite(value)) or (setting.low is not None and value < setting.low) \
            or (setting.high is not None and value > setting.high):
        raise _bad(setting, raw, f"must be from {_num(setting.low)} to {_num(setting.high)}")
    return value


def parse(setting: Setting, raw: str | None):
    """The value of *raw* for *setting* (its default when unset or blank); SettingError when it is not one."""
    if raw is None or not raw.strip():
        return setting.default
    text = raw.strip()
    if "\0" in raw:
        raise _bad(setting, raw, "holds a NUL byte")
    if setting.kind == "bool":
        if text.lower() in _TRUE:
            return True
        if text.lower() in _FALSE:
            return False
        raise _bad(setting, raw, "not a switch (1/true/yes/on or 0/false/no/off)")
    if setting.kind in ("int", "float"):
        return _number(setting, raw, text)
    if setting.kind in ("path", "dir", "dir or new"):
        path = Path(text).expanduser()
        if setting.kind == "dir" and not path.is_dir():
            raise _bad(setting, raw, "not an existing folder" if not path.exists() else "not a folder")
        if setting.kind == "dir or new":
            _folder_or_new(setting, raw, path)
        return path
    return raw


def _folder_or_new(setting: Setting, raw: str, path: Path) -> None:
    """SettingError unless *path* is a folder, or is not there and its nearest existing parent is a folder
    (looked at with stat only: a FIFO or a device is never opened)."""
    for at in (path, *path.absolute().parents):
        try:
            mode = at.stat().st_mode
        except (FileNotFoundError, NotADirectoryError):
            continue  # not there (yet), or under a file: the parent says which
        except OSError as exc:  # EACCES, ELOOP …: nothing can be made there either
            raise _bad(setting, raw, f"not a folder ({exc.strerror})") from None
        if stat.S_ISDIR(mode):
            return
        what = ("a file" if stat.S_ISREG(mode) else "a FIFO" if stat.S_ISFIFO(mode) else
                "a socket" if stat.S_ISSOCK(mode) else "a device")
        raise _bad(setting, raw, f"not a folder ({what})" if at == path else f"not a folder: {at} is {what}")


def get(name: str, environ=None):
    """The parsed value of the variable *name* (of :data:`SETTINGS`) in *environ* (default ``os.environ``)."""
    setting = BY_NAME[name]
    return parse(setting, (os.environ if environ is None else environ).get(name))


def check_all(environ=None) -> None:
    """Parse every variable of :data:`SETTINGS` (and the ``LEISHEN_API_*`` ones); SettingError on the first bad
    one. Unknown ``LEISHEN_*`` names are left alone (the scripts have their own)."""
    env = os.environ if environ is None else environ
    for setting in SETTINGS:
        parse(setting, env.get(setting.name))
    if any(key.startswith("LEISHEN_API_") for key in env):
        from leishen.api.settings import Settings
        Settings.from_env(env)


def max_in_flight(environ=None) -> int:
    """``LEISHEN_MAX_IN_FLIGHT``, else the CPU count (at least 2)."""
    found = get("LEISHEN_MAX_IN_FLIGHT", environ)
    return found if found is not None else max(2, _cpus())


def served_processes(in_flight: int) -> int:
    """The compute worker processes of ``leishen serve`` unless told (``LEISHEN_API_COMPUTE_PROCESSES``): one per
    in-flight slot, at most the CPUs (at least 2): more than the cores would only take turns."""
    return min(in_flight, max(2, _cpus()))


def cypher_max_in_flight(environ=None) -> int:
    """``LEISHEN_CYPHER_MAX_IN_FLIGHT``, else twice the CPUs."""
    found = get("LEISHEN_CYPHER_MAX_IN_FLIGHT", environ)
    return found if found is not None else 2 * _cpus()


def markdown_table() -> str:
    """The settings as a Markdown table (variable, kind and range, default, what it does), for the README."""
    rows = ["| variable | kind | default | what it does |", "|---|---|---|---|"]
    for s in SETTINGS:
        kind = s.kind if s.low is None else f"{s.kind} {_num(s.low)}–{_num(s.high)}"
        default = "—" if s.default in (None, "") else ("off" if s.default is False else _num(s.default))
        rows.append(f"| `{s.name}` | {kind} | {default} | {s.help} |")
    return "\n".join(rows)
