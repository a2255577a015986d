"""Graph build time (target ≤ 0.3 s on the project machine): read + validate + citation-check + NetworkX.

Run: python bench/bench_build.py [--repeat N]
Each run clears every cache, so it measures a cold build inside a warm interpreter (imports excluded;
they are reported separately).
"""

from __future__ import annotations

import argparse
import statistics
import time

t0 = time.perf_counter()
from leishen.loaders import build as build_mod  # noqa: E402
from leishen.loaders import corpus as corpus_mod  # noqa: E402
from leishen.loaders import schema as schema_mod  # noqa: E402
import_seconds = time.perf_counter() - t0


def cold_build() -> tuple[float, float, int, int]:
    build_mod._build.cache_clear()
    corpus_mod.read_corpus.cache_clear()
    schema_mod._schema_at.cache_clear()
    start = time.perf_counter()
    data = build_mod.build_graph()
    mid = time.perf_counter()
    g = build_mod.to_networkx(data)
    end = time.perf_counter()
    return mid - start, end - mid, g.number_of_nodes(), g.number_of_edges()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=7)
    args = parser.parse_args()
    runs = [cold_build() for _ in range(args.repeat)]
    records = statistics.median(r[0] for r in runs)
    graph = statistics.median(r[1] for r in runs)
    print(f"imports            {import_seconds:.3f} s (once)")
    print(f"read+check records {records:.3f} s (median of {args.repeat})")
    print(f"NetworkX graph     {graph:.3f} s")
    print(f"graph build total  {records + graph:.3f} s  target 0.300 s  -> {'OK' if records + graph <= 0.3 else 'OVER'}")
    print(f"nodes {runs[0][2]}, relations {runs[0][3]}")


if __name__ == "__main__":
    main()
