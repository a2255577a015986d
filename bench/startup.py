"""Whole-process start-up rows of ``bench/run``: what a user waits for, beside kinliuren's one-chart process.

Rows (each a whole process, started the way a user starts it):

* ``leishen chart MOMENT --json`` / kinliuren's one-chart process (bench/peers/kinliuren_one.py):
  lunar_python for the inputs, kinliuren for the chart, printed as JSON. Target ≤ 2.5×.
* ``leishen read MOMENT --json`` with a cold cache (the cache folder emptied before each run: the graph and
  the reader built, then stored), with a warm one (read from the cache), and with ``--no-cache`` (what
  every read cost before the cache). Target ≤ 8× kinliuren's process.
* The first reading ``leishen serve`` answers after start-up (GET /readings, after /health first answers),
  on a warm cache: the server's CPU time for the request (all its threads and its compute workers',
  /proc/PID/task/*/schedstat), the client's wall-clock time in the note. Target ≤ 50 ms. Also the time until
  /health answers. While api/app.py builds its own reader, the same with the line proposed for it
  (bench/serve_proposed.py).

Method: every process is timed in CPU time (user + system of the child, from ``getrusage``), the best of
N runs, so that the load other processes put on a shared machine is not counted; the median wall-clock time
is in the note. Both sides run the same interpreter directly (not through a pyenv shim) with bytecode
written to a temporary ``PYTHONPYCACHEPREFIX`` (one untimed run first), so neither side compiles its
sources in a timed run: this machine's ``PYTHONDONTWRITEBYTECODE=1`` would otherwise make leishen compile
~200 modules at every start while lunar_python and kinliuren load the bytecode pip wrote. The serve rows are the
best of a few server starts.

Note on ``--side-by-side`` (issue #37's figures: medians of interleaved runs): both processes are mostly
interpreter start-up and imports, which other processes' load slows more than the peer's arithmetic, so ratios
read on a loaded machine come out higher than on an idle one; the load average is printed with them. Read the
chart figure as the process's own work: since issue #37 it computes the few solar terms a chart shows (not
three years of them), imports no zoneinfo, PyEphem or typed-chart check for a moment with an offset, and
freezes what the command's import made (``gc.freeze``, leishen/cli/main.py), so the collections and the
interpreter's exit no longer walk it.
"""

from __future__ import annotations

import json
import os
import resource
import shutil
import socket
import statistics
import subprocess
import sys
import sysconfig
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

BENCH = Path(__file__).resolve().parent
MOMENT = "2026-12-01T10:00+09:00"
PEER = BENCH / "peers" / "kinliuren_one.py"


def leishen_command() -> list[str]:
    """The ``leishen`` console script run by this interpreter (``python -m leishen.cli.main`` without one)."""
    script = Path(sysconfig.get_path("scripts")) / "leishen"
    return [sys.executable, str(script)] if script.is_file() else [sys.executable, "-m", "leishen.cli.main"]


def child_env(folder: Path) -> dict:
    """The environment of the timed processes: bytecode under *folder*, the cache in *folder*/cache."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONDONTWRITEBYTECODE", "LEISHEN_NO_CACHE")}
    env.update(PYTHONPYCACHEPREFIX=str(folder / "pycache"), LEISHEN_CACHE_DIR=str(folder / "cache"))
    return env


def timed(command: list[str], env: dict, runs: int, before=None) -> dict:
    """Best CPU seconds (user + system) and median wall seconds of *runs* runs of *command* (*before*: called
    before each run, untimed)."""
    cpu, wall = [], []
    for _ in range(runs):
        if before:
            before()
        start = resource.getrusage(resource.RUSAGE_CHILDREN)
        t0 = time.perf_counter()
        subprocess.run(command, env=env, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        wall.append(time.perf_counter() - t0)
        end = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu.append(end.ru_utime - start.ru_utime + end.ru_stime - start.ru_stime)
    return {"cpu": min(cpu), "wall": statistics.median(wall), "runs": runs}


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _get(url: str, timeout: float = 30) -> bytes:
    try:
        with urllib.request.urlopen(url, timeout=timeout) as answer:  # 127.0.0.1 only
            return answer.read()
    except urllib.error.HTTPError as err:  # said in one line: the status and the start of the answer
        raise RuntimeError(f"GET {url}: HTTP {err.code}: {err.read()[:300].decode('utf-8', 'replace')}") from None


def _cpu_ns(pid: int) -> int | None:
    """Nanoseconds process *pid* and its child processes (the server's compute workers, api/pool.py) have run on
    a CPU, all their threads (/proc/PID/task/*/schedstat); None elsewhere."""
    try:
        tasks = list(Path(f"/proc/{pid}/task").iterdir())
        own = sum(int((task / "schedstat").read_text().split()[0]) for task in tasks)
        children = {int(child) for task in tasks for child in (task / "children").read_text().split()}
    except (OSError, ValueError, IndexError):
        return None
    return own + sum(filter(None, map(_cpu_ns, children)))


def serve_first_reading(env: dict, command: list[str] | None = None) -> dict:
    """Start ``leishen serve`` (or *command* with ``--port``), wait for /health, then time the first and the
    second GET /readings (two moments); the server is stopped whatever happens."""
    port = _free_port()
    base = f"http://127.0.0.1:{port}"
    proc = subprocess.Popen([*(command or [*leishen_command(), "serve"]), "--port", str(port)], env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        t0 = time.perf_counter()
        while True:
            if proc.poll() is not None:
                raise RuntimeError(f"leishen serve exited with code {proc.returncode}")
            try:
                _get(f"{base}/health", timeout=2)
                break
            except (OSError, RuntimeError):
                if time.perf_counter() - t0 > 300:
                    raise RuntimeError("leishen serve did not answer /health within 300 s") from None
                time.sleep(0.02)
        ready = time.perf_counter() - t0
        times, cpus = [], []
        for moment in (MOMENT, "1984-02-04T23:30+08:00"):
            c1, t1 = _cpu_ns(proc.pid), time.perf_counter()
            body = _get(f"{base}/readings?moment={urllib.parse.quote(moment)}")
            times.append(time.perf_counter() - t1)
            c2 = _cpu_ns(proc.pid)
            cpus.append((c2 - c1) / 1e9 if c1 is not None and c2 is not None else None)
            assert json.loads(body)["findings"], "a reading without findings"
        return {"ready": ready, "first": times[0], "second": times[1], "first_cpu": cpus[0], "second_cpu": cpus[1]}
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def bench_startup(row, runs: int = 10, starts: int = 3) -> list[dict]:
    """The start-up rows (see the module docstring); *row* is suite.row."""
    import importlib.util
    folder = Path(tempfile.mkdtemp(prefix="leishen-startup-"))
    try:
        env, ls = child_env(folder), leishen_command()
        cache = folder / "cache"
        chart, read = [*ls, "chart", MOMENT, "--json"], [*ls, "read", MOMENT, "--json"]
        peer_cmd = [sys.executable, str(PEER), MOMENT]
        have_peer = importlib.util.find_spec("kinliuren") is not None
        for command in ([peer_cmd] if have_peer else []) + [chart, read]:  # bytecode written, cache filled
            subprocess.run(command, env=env, check=True, capture_output=True)
        peer = timed(peer_cmd, env, runs) if have_peer else None
        results = {"chart": timed(chart, env, runs),
                   "read, cold cache": timed(read, env, max(3, runs // 3), before=lambda: shutil.rmtree(cache, True)),
                   "read, warm cache": None, "read --no-cache": timed([*ls, "--no-cache", *read[len(ls):]], env,
                                                                     max(3, runs // 3))}
        subprocess.run(read, env=env, check=True, capture_output=True)  # the cache filled again
        results["read, warm cache"] = timed(read, env, runs)
        served = _starts(env, None, starts)
        proposed = None
        app_py = (BENCH.parent / "api" / "app.py").read_text(encoding="utf-8")
        if "reader_over" not in app_py and "served_reader" not in app_py:
            proposed = _starts(env, [sys.executable, str(BENCH / "serve_proposed.py"), "serve"], starts)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    peer_name = "kinliuren 0.1.2.9 + lunar_python, one chart per process" if peer else "kinliuren (not installed)"
    rows = []
    for name, label, target in (("chart", "leishen chart MOMENT --json", "≤ 2.5×"),
                                ("read, cold cache", "leishen read MOMENT --json, cold cache", "≤ 8×"),
                                ("read, warm cache", "leishen read MOMENT --json, warm cache", "≤ 8×"),
                                ("read --no-cache", "leishen --no-cache read MOMENT --json", "(before the cache)")):
        got = results[name]
        note = f"whole process, CPU best of {got['runs']}; wall median {got['wall'] * 1e3:.0f} ms"
        if peer:
            note += f" (peer {peer['wall'] * 1e3:.0f} ms)"
        rows.append(row(f"Start-up: {label}", got["cpu"], peer["cpu"] if peer else None, peer_name, "time",
                        target, note))
    rows.append(_serve_row("Start-up: first reading of leishen serve", served))
    if proposed:
        rows.append(_serve_row("Start-up: first reading of leishen serve, api/app.py line proposed (bench/serve_proposed.py)",
                               proposed))
    return rows


def _starts(env: dict, command: list[str] | None, starts: int) -> list[dict] | str:
    """*starts* server starts (serve_first_reading), or what went wrong, in one line."""
    try:
        return [serve_first_reading(env, command) for _ in range(starts)]
    except (RuntimeError, OSError, AssertionError, ValueError) as err:
        return f"failed: {err}"


def _serve_row(name: str, served: list[dict] | str) -> dict:
    """The row of a few server starts: the server's CPU time for its first reading (all its threads), best of
    the starts, with the wall-clock times the client saw in the note."""
    from suite import row
    if isinstance(served, str):
        return row(name, None, None, "—", "time", "≤ 50 ms", served)
    cpu = [s["first_cpu"] for s in served if s["first_cpu"] is not None]
    ms = lambda values: ", ".join(f"{v * 1e3:.0f}" for v in values)  # noqa: E731
    return row(name, min(cpu) if cpu else min(s["first"] for s in served), None, "—", "time", "≤ 50 ms",
               f"GET /readings after /health answers, warm cache, {len(served)} server starts: server CPU "
               f"{ms(cpu) or '—'} ms, wall {ms(s['first'] for s in served)} ms; the second reading CPU "
               f"{ms(s['second_cpu'] for s in served if s['second_cpu'] is not None) or '—'} ms; /health "
               f"answered {min(s['ready'] for s in served):.2f} s after the start (wall)")


def side_by_side(runs: int = 15) -> dict:
    """Issue #37's start-up figures, one run, warm cache: the median CPU seconds of kinliuren's one-chart
    process, of ``leishen chart MOMENT --json`` and of ``leishen read MOMENT --topic 射覆 --json``, and the two
    ratios to the peer (targets ≤ 1.5× and ≤ 4×)."""
    folder = Path(tempfile.mkdtemp(prefix="leishen-startup-"))
    try:
        env, ls = child_env(folder), leishen_command()
        commands = {"peer": [sys.executable, str(PEER), MOMENT], "chart": [*ls, "chart", MOMENT, "--json"],
                    "read 射覆": [*ls, "read", MOMENT, "--topic", "射覆", "--json"]}
        for command in commands.values():  # bytecode written, cache filled
            subprocess.run(command, env=env, check=True, capture_output=True)
        cpu = {name: [] for name in commands}
        for _ in range(runs):  # interleaved: a change of load falls on every row alike
            for name, command in commands.items():
                cpu[name].append(_cpu_of(command, env))
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    median = {name: statistics.median(values) for name, values in cpu.items()}
    return {**{f"{k} ms": round(v * 1e3, 1) for k, v in median.items()}, "runs": runs,
            "chart ×": round(median["chart"] / median["peer"], 2), "read 射覆 ×": round(median["read 射覆"] / median["peer"], 2),
            "load": os.getloadavg()[0]}


def _cpu_of(command: list[str], env: dict) -> float:
    """The CPU seconds (user + system) of one run of *command*."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(command, env=env, check=True, capture_output=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime


if __name__ == "__main__":
    sys.path.insert(0, str(BENCH))
    if sys.argv[1:2] == ["--side-by-side"]:
        print(json.dumps(side_by_side(int(sys.argv[2]) if len(sys.argv) > 2 else 15), ensure_ascii=False))
        sys.exit(0)
    import suite
    for item in bench_startup(suite.row, runs=int(sys.argv[1]) if len(sys.argv) > 1 else 10):
        print(json.dumps(item, ensure_ascii=False))
