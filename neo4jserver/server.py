"""Start, stop and inspect a local Neo4j Community server (embedded, Bolt on 127.0.0.1).

The jars of Neo4j Community 5.26 come from Maven Central through ``pom.xml`` (run by ``mvn``) into a cache
directory outside the package tree: ``~/.cache/leishen/neo4j`` or ``$LEISHEN_NEO4J_HOME``. ``Launcher.java``
runs in Java source-file mode against them. The server runs detached; its console goes to a log file and a
state file (JSON: pid, port, uri, data, log) lets ``status`` and ``stop`` find it from another process.

Layout of the cache directory (``home``)::

    lib-<version>/        the jars (``.complete`` marks a finished fetch)
    fetch.log             Maven's output of the last fetch
    server/               the default run directory ($LEISHEN_NEO4J_RUN overrides it)
        server.json       state of the running server
        neo4j.log         the launcher's console (Neo4j's own logs are in <data>/logs/)
        data/             the default database directory

A test session passes its own ``run_dir`` so that it never touches a developer's server.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import re
import shutil
import signal
import subprocess
import time
from dataclasses import asdict, dataclass
from pathlib import Path

from leishen import settings
from leishen.errors import BackendError, BackendUnavailable
from leishen.neo4jserver.processes import (  # noqa: F401 - _is_launcher and _children are used by tests too
    _children,
    _is_launcher,
    _launched_pid,
    _launcher_arguments,
    _pid_file,
    _port_answers,
    _terminate,
)

PACKAGE_DIR = Path(__file__).resolve().parent
POM = PACKAGE_DIR / "pom.xml"
LAUNCHER = PACKAGE_DIR / "Launcher.java"
READY_MARK = "LEISHEN_NEO4J_READY "
PASSWORD_ENV = "LEISHEN_NEO4J_PASSWORD"
DEFAULT_START_TIMEOUT = 180.0
FETCH_TIMEOUT = 900.0
JVM_FLAGS = [
    "-Xms256m",
    "-Xmx1g",
    "-XX:+ExitOnOutOfMemoryError",
    "-Dfile.encoding=UTF-8",
    # from Neo4j's own neo4j.conf defaults (server.jvm.additional)
    "--add-opens=java.base/java.nio=ALL-UNNAMED",
    "--add-opens=java.base/java.io=ALL-UNNAMED",
    "--add-opens=java.base/sun.nio.ch=ALL-UNNAMED",
    "--add-opens=java.base/java.lang=ALL-UNNAMED",
    "-Dio.netty.tryReflectionSetAccessible=true",
]

@dataclass
class ServerState:
    """What the state file records about a started server."""

    pid: int
    port: int
    uri: str
    data: str
    log: str
    auth: bool
    started_at: float
    start_seconds: float | None = None


# --- locations --------------------------------------------------------------------------------------


def neo4j_version() -> str:
    """The Neo4j version pinned in pom.xml."""
    match = re.search(r"<neo4j\.version>([^<]+)</neo4j\.version>", POM.read_text(encoding="utf-8"))
    if not match:
        raise BackendError(f"{POM} has no <neo4j.version> property")
    return match.group(1).strip()


def home_dir() -> Path:
    """The cache directory for jars and the default server: $LEISHEN_NEO4J_HOME or ~/.cache/leishen/neo4j."""
    env = settings.get("LEISHEN_NEO4J_HOME")
    return env if env else Path.home() / ".cache" / "leishen" / "neo4j"


def lib_dir(home: Path | None = None) -> Path:
    """Where the jars of the pinned version live."""
    return (home or home_dir()) / f"lib-{neo4j_version()}"


def default_run_dir(home: Path | None = None) -> Path:
    """The run directory of the developer's server (state file, console log, default data):
    $LEISHEN_NEO4J_RUN, else <home>/server."""
    env = settings.get("LEISHEN_NEO4J_RUN")
    if env and home is None:
        return env
    return (home or home_dir()) / "server"


def _state_file(run_dir: Path) -> Path:
    return run_dir / "server.json"


def require_driver() -> None:
    """BackendUnavailable unless the Neo4j Python driver is importable (checked before any JVM starts)."""
    try:
        import neo4j  # noqa: F401
    except ImportError as exc:
        raise BackendUnavailable("the Neo4j driver is not installed: pip install 'leishen[neo4j]' "
                                 "(checked before starting the server; nothing was started)") from exc


def _make_dir(path: Path) -> Path:
    """*path* made a folder (with its parents) unless it is one; BackendError in one line when a file, a FIFO or
    a device is in the way (``--data /dev/zero``), never a FileExistsError."""
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise BackendError(f"{path} cannot be made a folder: {exc.strerror or exc}") from None
    return path


@contextlib.contextmanager
def _locked(path: Path):
    """An exclusive advisory lock on ``path`` (serialises fetches and starts between processes)."""
    _make_dir(path.parent)
    with open(path, "w") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


# --- tools ------------------------------------------------------------------------------------------


def java_executable() -> str:
    """The java binary ($JAVA_HOME/bin/java, else the one on PATH); Neo4j 5.26 needs Java 17 or 21."""
    java_home = os.environ.get("JAVA_HOME")
    candidate = Path(java_home) / "bin" / "java" if java_home else None
    if candidate and candidate.is_file():
        return str(candidate)
    found = shutil.which("java")
    if not found:
        raise BackendUnavailable("Java is not installed: Neo4j 5.26 needs Java 17 or 21 (apt-get install openjdk-17-jre-headless)")
    return found


def mvn_executable() -> str:
    """The mvn binary on PATH."""
    found = shutil.which("mvn")
    if not found:
        raise BackendUnavailable("Maven (mvn) is not installed: it fetches the Neo4j jars (apt-get install maven)")
    return found


# --- jars -------------------------------------------------------------------------------------------


def jars_present(home: Path | None = None) -> bool:
    """True when the jars of the pinned version were fetched completely."""
    return (lib_dir(home) / ".complete").is_file()


def fetch_jars(home: Path | None = None, *, quiet: bool = True) -> Path:
    """Fetch the Neo4j jars with Maven into ``lib-<version>/`` unless present; return that directory."""
    home = home or home_dir()
    target = lib_dir(home)
    with _locked(home / "fetch.lock"):
        if jars_present(home):
            return target
        command = [mvn_executable(), "-B", "-f", str(POM), f"-Dleishen.neo4j.home={home}", "package"]
        if quiet:
            command.insert(2, "-q")
        log_path = home / "fetch.log"
        with open(log_path, "w", encoding="utf-8") as log:
            try:
                done = subprocess.run(command, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                      timeout=FETCH_TIMEOUT, check=False)
            except subprocess.TimeoutExpired as exc:
                raise BackendUnavailable(f"fetching the Neo4j jars with Maven took over {FETCH_TIMEOUT:.0f} s; see {log_path}") from exc
        if done.returncode != 0 or not any(target.glob("neo4j-kernel-*.jar")):
            raise BackendUnavailable(
                f"fetching the Neo4j {neo4j_version()} jars with Maven failed (exit {done.returncode}); "
                f"see {log_path}: {_tail(log_path, 3)}")
        (target / ".complete").write_text(neo4j_version() + "\n", encoding="utf-8")
    return target


# --- state ------------------------------------------------------------------------------------------


def read_state(run_dir: Path | None = None) -> ServerState | None:
    """The recorded server of ``run_dir``, or None."""
    path = _state_file(run_dir or default_run_dir())
    try:
        return ServerState(**json.loads(path.read_text(encoding="utf-8")))
    except (OSError, ValueError, TypeError):
        return None


def _write_state(run_dir: Path, state: ServerState) -> None:
    path = _state_file(run_dir)
    temporary = path.with_suffix(".tmp")
    temporary.write_text(json.dumps(asdict(state), indent=2) + "\n", encoding="utf-8")
    temporary.replace(path)


def _clear_state(run_dir: Path) -> None:
    for path in (_state_file(run_dir), _pid_file(run_dir)):
        with contextlib.suppress(FileNotFoundError):
            path.unlink()


def status(run_dir: Path | None = None) -> dict:
    """The state of the server of ``run_dir``: running (process alive), answering (Bolt port open) and its record.
    A launcher that no state file records (its ``start`` was killed before the server answered) is reported
    too, as ``unrecorded``: :func:`unrecorded_status`."""
    run_dir = run_dir or default_run_dir()
    state = read_state(run_dir)
    if state is None:
        return unrecorded_status(Path(run_dir))
    running = _is_launcher(state.pid)
    answering = running and _port_answers(state.port)
    return {"running": running, "answering": answering, "run_dir": str(run_dir), **asdict(state)}


def unrecorded_status(run_dir: Path) -> dict:
    """Without a state file: not running, unless the pid file names a live launcher of ``run_dir`` (a ``start``
    killed while it waited, e.g. ``kill -9``, leaves the detached JVM running). Then running, with its pid, the
    data directory and auth of its command line, and the URI of its log's ready line when it printed one."""
    pid = _launched_pid(run_dir)
    if pid is None:
        return {"running": False, "answering": False, "run_dir": str(run_dir)}
    arguments = _launcher_arguments(pid)
    log = run_dir / "neo4j.log"
    uri = _ready_uri(log)
    port = int(uri.rsplit(":", 1)[1]) if uri else None
    return {"running": True, "answering": bool(port) and _port_answers(port), "run_dir": str(run_dir),
            "unrecorded": True, "pid": pid, "port": port, "uri": uri, "data": arguments.get("--data"),
            "log": str(log), "auth": "--auth" in arguments, "started_at": None, "start_seconds": None}


# --- start ------------------------------------------------------------------------------------------


def _tail(path: Path, lines: int = 20) -> str:
    """The last lines of a text file, for error messages."""
    try:
        text = path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return "(no log)"
    return " | ".join(line.strip() for line in text.strip().splitlines()[-lines:] if line.strip())


def _launch(lib: Path, run_dir: Path, data: Path, port: int, auth: bool, password: str | None, log_path: Path) -> subprocess.Popen:
    """Start the JVM detached (own session), console to ``log_path``."""
    extra = settings.get("LEISHEN_NEO4J_JVM_OPTS").split()
    command = [java_executable(), *JVM_FLAGS, *extra, "-cp", f"{lib}/*", str(LAUNCHER), "--port", str(port),
               "--data", str(data)]
    env = dict(os.environ)
    env.pop(PASSWORD_ENV, None)
    if auth:
        command.append("--auth")
        env[PASSWORD_ENV] = password or ""
    with open(log_path, "w", encoding="utf-8") as log:
        return subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                cwd=run_dir, env=env, start_new_session=True)


def _ready_uri(log_path: Path) -> str | None:
    """The bolt:// URI from the launcher's ready line, once printed."""
    try:
        for line in log_path.read_text(encoding="utf-8", errors="replace").splitlines():
            if line.startswith(READY_MARK):
                return line[len(READY_MARK):].strip()
    except OSError:
        pass
    return None


def _bolt_answers(uri: str, auth: tuple[str, str] | None) -> bool:
    """True when a Bolt handshake and a trivial query succeed."""
    from neo4j import GraphDatabase  # imported late: the [neo4j] extra is optional

    try:
        with GraphDatabase.driver(uri, auth=auth, connection_timeout=5) as driver:
            driver.verify_connectivity()
            return True
    except Exception:  # noqa: BLE001 - any failure means "not ready yet"
        return False


def _wait_ready(proc: subprocess.Popen, log_path: Path, auth: tuple[str, str] | None, timeout: float) -> str:
    """Wait until the ready line is printed and Bolt answers; return the URI. Kills the JVM on failure."""
    deadline = time.monotonic() + timeout
    uri = None
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise BackendUnavailable(f"Neo4j exited during start (exit {proc.returncode}); {log_path}: {_tail(log_path, 8)}")
        uri = uri or _ready_uri(log_path)
        if uri and _bolt_answers(uri, auth):
            return uri
        time.sleep(0.5)
    _terminate(proc.pid, grace=10)
    raise BackendUnavailable(f"Neo4j did not answer on Bolt within {timeout:.0f} s (raise LEISHEN_NEO4J_START_TIMEOUT); "
                             f"{log_path}: {_tail(log_path, 8)}")


def start(*, port: int = 0, data: Path | str | None = None, auth: bool = False, password: str | None = None,
          run_dir: Path | None = None, home: Path | None = None, timeout: float | None = None) -> dict:
    """Start a server (fetching the jars first if missing) and wait until Bolt answers; return its status.

    ``port=0`` lets the OS choose a free port. With ``auth`` the user is ``neo4j`` and ``password`` (at least
    8 characters) is set at start. A server already running from ``run_dir`` is an error unless it serves the
    same data directory, in which case it is returned as is.
    """
    run_dir = Path(run_dir or default_run_dir(home)).resolve()
    home = home or home_dir()
    data = Path(data).expanduser().resolve() if data else run_dir / "data"
    timeout = timeout or settings.get("LEISHEN_NEO4J_START_TIMEOUT")
    if auth and (not password or len(password) < 8):
        raise BackendError("--auth needs a password of at least 8 characters (NEO4J_PASSWORD or --password)")
    if port and not 0 < port < 65536:
        raise BackendError(f"port {port} is not a TCP port (1-65535, or 0 for a free one)")
    require_driver()
    lib = fetch_jars(home)
    with _locked(run_dir / "start.lock"):  # (makes run_dir)
        _reap_orphan(run_dir)
        current = status(run_dir)
        if current["running"]:
            if Path(current["data"]) == data and current["auth"] == auth:
                return current
            raise BackendError(f"a Neo4j server already runs from {run_dir} (pid {current['pid']}, data {current['data']}); "
                               "stop it first (leishen neo4j stop) or set LEISHEN_NEO4J_HOME")
        if port and _port_answers(port):
            raise BackendError(f"port {port} on 127.0.0.1 is already in use; choose another with --port or use 0")
        _make_dir(data)
        log_path = run_dir / "neo4j.log"
        began = time.monotonic()
        proc = _launch(lib, run_dir, data, port, auth, password, log_path)
        _children[proc.pid] = proc
        _pid_file(run_dir).write_text(f"{proc.pid}\n", encoding="utf-8")
        try:
            uri = _wait_ready(proc, log_path, ("neo4j", password) if auth else None, timeout)
            state = ServerState(pid=proc.pid, port=int(uri.rsplit(":", 1)[1]), uri=uri, data=str(data),
                                log=str(log_path), auth=auth, started_at=time.time(),
                                start_seconds=round(time.monotonic() - began, 2))
            _write_state(run_dir, state)
        except BaseException:  # any failure after the launch (even ^C): no JVM is left behind
            _terminate(proc.pid, grace=10)
            _clear_state(run_dir)
            raise
    return status(run_dir)


def _reap_orphan(run_dir: Path) -> bool:
    """Stop a launcher of ``run_dir`` that no state file records (a start that died half-way); True if one ran."""
    if read_state(run_dir) is not None:
        return False
    pid = _launched_pid(run_dir)
    if pid is None:
        return False
    _terminate(pid, grace=30)
    _clear_state(run_dir)
    return True


def ensure_running(**kwargs) -> dict:
    """Return the running server of the run directory, starting one when none answers (same arguments as start)."""
    run_dir = kwargs.get("run_dir") or default_run_dir(kwargs.get("home"))
    current = status(Path(run_dir))
    if current["answering"]:
        return current
    if current["running"]:  # alive but Bolt silent: a hung server; replace it
        stop(Path(run_dir))
    return start(**kwargs)


# --- stop -------------------------------------------------------------------------------------------


def stop(run_dir: Path | None = None, *, grace: float = 60.0) -> bool:
    """Stop the server of ``run_dir``; True if one was running. The database is shut down cleanly when possible."""
    run_dir = Path(run_dir or default_run_dir())
    state = read_state(run_dir)
    if state is None:
        return _reap_orphan(run_dir)
    was_running = _is_launcher(state.pid)
    if was_running:
        _terminate(state.pid, grace)
    _clear_state(run_dir)
    return was_running


def kill(run_dir: Path | None = None) -> bool:
    """Kill the server of ``run_dir`` at once (SIGKILL, no clean shutdown) — for crash tests."""
    run_dir = Path(run_dir or default_run_dir())
    state = read_state(run_dir)
    if state is None or not _is_launcher(state.pid):
        return False
    _terminate(state.pid, grace=0, first_signal=signal.SIGKILL)
    _clear_state(run_dir)
    return True
