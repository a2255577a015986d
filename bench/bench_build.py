"""Graph build time (target ≤ 0.3 s on the project machine).

Run: python bench/bench_build.py [--repeat N]

A cold build inside a warm interpreter (imports are reported separately), every cache cleared
before each run (and the disk cache bypassed): read every table, validate every row, check every citation against the corpus,
make the records (nodes, relations, reified facts, passages), then the NetworkX MultiDiGraph.
Medians of N runs, wall-clock and process CPU time (CPU time is steadier on a loaded machine).
"""

from __future__ import annotations

import argparse
import os
import statistics
import time

t0 = time.perf_counter()
from leishen.loaders import build as build_mod  # noqa: E402
from leishen.loaders import corpus as corpus_mod  # noqa: E402
from leishen.loaders import hangul as hangul_mod  # noqa: E402
from leishen.loaders import schema as schema_mod  # noqa: E402
from leishen.loaders import tables as tables_mod  # noqa: E402
import_seconds = time.perf_counter() - t0


def one_build() -> tuple[float, float, float, float, int, int]:
    """One cold build: every cache cleared, the disk cache (leishen.diskcache) neither read nor written."""
    saved = os.environ.get("LEISHEN_NO_CACHE")
    os.environ["LEISHEN_NO_CACHE"] = "1"
    try:
        return _one_build()
    finally:
        if saved is None:
            os.environ.pop("LEISHEN_NO_CACHE")
        else:
            os.environ["LEISHEN_NO_CACHE"] = saved


def _one_build() -> tuple[float, float, float, float, int, int]:
    build_mod._KEPT.clear()
    build_mod._build.cache_clear()
    corpus_mod.read_corpus.cache_clear()
    schema_mod._schema_at.cache_clear()
    for cached in (getattr(tables_mod, "_char_reading", None), *(getattr(hangul_mod, name) for name in dir(hangul_mod))):
        if hasattr(cached, "cache_clear"):                  # every cache of the readings tables
            cached.cache_clear()
    w0, c0 = time.perf_counter(), time.process_time()
    data = build_mod.build_graph()
    w1, c1 = time.perf_counter(), time.process_time()
    graph = build_mod.to_networkx(data)
    w2, c2 = time.perf_counter(), time.process_time()
    return w1 - w0, c1 - c0, w2 - w1, c2 - c1, graph.number_of_nodes(), graph.number_of_edges()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=9)
    args = parser.parse_args()
    runs = [one_build() for _ in range(args.repeat)]
    med = [statistics.median(r[i] for r in runs) for i in range(4)]
    nodes, relations = runs[-1][4:]
    print(f"imports          {import_seconds:.3f} s (once)")
    print(f"records          {med[0]:.3f} s wall  {med[1]:.3f} s cpu   (read, validate, check citations)")
    print(f"networkx graph   {med[2]:.3f} s wall  {med[3]:.3f} s cpu")
    total = med[0] + med[2]
    print(f"graph build      {total:.3f} s wall  {med[1] + med[3]:.3f} s cpu   target 0.300 s: {'OK' if total <= 0.3 else 'OVER'}")
    print(f"nodes {nodes}, relations {relations}")


if __name__ == "__main__":
    main()
