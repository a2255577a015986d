"""HTTP API latency: median time per request of a few endpoints, in-process (TestClient over the real app); and
/health while a live server is saturated.

Run: python bench/bench_api.py [--repeat N]
     python bench/bench_api.py --under-load [--runs N] [--uri bolt://…] [--processes N]

The app is the one ``leishen serve`` runs (embedded NetworkX backend, the default corpus); a request
goes through routing, validation, the service call and JSON encoding, without the network.  Start-up
(building the graph and compiling the rules) is reported separately.  Medians of N requests, wall clock.

``--under-load`` (#40): a live ``leishen serve`` (NetworkX, or Neo4j at ``--uri``) with ``LEISHEN_MAX_IN_FLIGHT=2``,
100 clients sending readings of every topic and finds for 6 s from a process of their own (each honouring a
429's Retry-After), and /health timed 40 times meanwhile from this process (tests/reliability/loadprobe.py). Each
run starts its own server; the row is the median over the runs of each run's /health median and p95, with the
1-minute load average before each run (the machine is shared). ``--processes 0`` computes in the server's own
threads (the way before the compute pool), for comparison.

Measured 2026-12-06, 2 shared cores, 5 runs each (/health median / p95, medians over the runs; the README's
serving section quotes them):

    NetworkX, compute pool         1.5 /  5.6 ms   load 2.7–2.9   (load 6.2–7.5:  5.6 / 22.2 ms)
    Neo4j, compute pool            2.8 / 12.9 ms   load 2.7–3.6   (load 7.3–7.8:  4.3 / 17.8 ms)
    NetworkX, server's threads    10.0 / 66.4 ms   load 4.5–6.2   (single runs up to 197 ms p95)
    Neo4j, server's threads       12.3 / 81.3 ms   load 6.4–6.9   (single runs up to 131 ms p95)
    before #40's changes, threads: p95 150–220 ms (/health counted the graph on every call)
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

from fastapi.testclient import TestClient

from leishen.api import Settings, create_app

REQUESTS = [
    ("GET /health", "get", "/health", {}),
    ("GET /symbols/子", "get", "/symbols/子", {}),
    ("GET /paths 子→午", "get", "/paths?source=子&target=午", {}),
    ("GET /queries/resolve", "get", "/queries/resolve?q=神后", {}),
    ("GET /charts", "get", "/charts?moment=2026-12-01T10:00%2B09:00", {}),
    ("GET /readings", "get", "/readings?moment=2026-12-01T10:00%2B09:00", {}),
    ("POST /cypher (12 rows)", "post", "/cypher", {"json": {"query": "MATCH (b:Branch) RETURN b.name AS n ORDER BY n"}}),
    ("GET /facts (all)", "get", "/facts", {}),
]


def under_load(runs: int, uri: str | None, processes: int | None) -> None:
    """Print /health's median and p95 under 100 clients, each run and the median over the runs."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "reliability"))
    import loadprobe

    args = ["--no-corpus", *(["--backend", "neo4j", "--uri", uri] if uri else [])]
    env = {"LEISHEN_MAX_IN_FLIGHT": "2"}
    if processes is not None:
        env["LEISHEN_API_COMPUTE_PROCESSES"] = str(processes)
    print(f"/health under 100 clients, {'neo4j' if uri else 'networkx'}, compute processes "
          f"{'default' if processes is None else processes}")
    print(f"{'run':>4} {'load 1 min':>10} {'median ms':>10} {'p95 ms':>8} {'max ms':>8} {'200s':>6} {'429s':>6}")
    medians, p95s = [], []
    for run in range(1, runs + 1):
        load = os.getloadavg()[0]
        with loadprobe.serving(*args, env=env) as base:
            found = loadprobe.under_load(base)
        health, statuses = found["health"], found["statuses"]
        medians.append(statistics.median(health))
        p95s.append(loadprobe.p95(health))
        print(f"{run:4} {load:10.2f} {1000 * medians[-1]:10.1f} {1000 * p95s[-1]:8.1f} {1000 * max(health):8.1f} "
              f"{statuses.get(200, 0):6} {statuses.get(429, 0):6}")
    print(f"median over {runs} runs: /health median {1000 * statistics.median(medians):.1f} ms, "
          f"p95 {1000 * statistics.median(p95s):.1f} ms")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=20)
    parser.add_argument("--under-load", action="store_true", help="/health of a live server under 100 clients")
    parser.add_argument("--runs", type=int, default=5, help="--under-load: server runs (medians over them)")
    parser.add_argument("--uri", default=None, help="--under-load: serve a Neo4j at this bolt URI")
    parser.add_argument("--processes", type=int, default=None, help="--under-load: LEISHEN_API_COMPUTE_PROCESSES")
    args = parser.parse_args()
    if args.under_load:
        return under_load(args.runs, args.uri, args.processes)
    t0 = time.perf_counter()
    with TestClient(create_app(Settings())) as client:
        print(f"start-up (graph, rules, corpus): {time.perf_counter() - t0:.2f} s")
        print(f"{'request':28} {'median ms':>10} {'min ms':>8}")
        for label, method, url, kwargs in REQUESTS:
            times = []
            for _ in range(args.repeat):
                start = time.perf_counter()
                answer = getattr(client, method)(url, **kwargs)
                times.append(time.perf_counter() - start)
                assert answer.status_code == 200, (label, answer.text[:200])
            print(f"{label:28} {1000 * statistics.median(times):10.1f} {1000 * min(times):8.1f}")


if __name__ == "__main__":
    main()
