"""HTTP API latency: median time per request of a few endpoints, in-process (TestClient over the real app).

Run: python bench/bench_api.py [--repeat N]

The app is the one ``leishen serve`` runs (embedded NetworkX backend, the default corpus); a request
goes through routing, validation, the service call and JSON encoding, without the network.  Start-up
(building the graph and compiling the rules) is reported separately.  Medians of N requests, wall clock.
"""

from __future__ import annotations

import argparse
import statistics
import time

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


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=20)
    args = parser.parse_args()
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
