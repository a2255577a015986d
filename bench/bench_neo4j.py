"""Neo4j beside NetworkX: bulk load time (target ≤ 10 s) and per-query / per-chart reading times, as ratios.

Run: python bench/bench_neo4j.py [--uri bolt://…] [--loads N] [--charts N]

Without --uri a server is started for the bench (leishen.neo4jserver, its own temporary run directory) and
stopped afterwards; its start time is reported. The first load into the fresh database includes creating the
uniqueness constraints; the following loads replace the same graph (the idempotent path). Query times are medians
over inputs drawn from engine charts of seeded random moments; a "chart reading" is relations_among over a
chart's symbols plus symbol_relations of each symbol (what a reading asks of the graph), counted per chart.
"""

from __future__ import annotations

import argparse
import random
import statistics
import tempfile
import time
from datetime import datetime, timedelta, timezone
from functools import partial
from pathlib import Path

from leishen.backends import get_backend
from leishen.loaders.build import build_graph


def _driver_speedups() -> str:
    try:
        import neo4j._rust  # noqa: F401
        return "neo4j-rust-ext: yes"
    except ImportError:
        return "neo4j-rust-ext: no (pip install neo4j-rust-ext for faster packing)"


def _chart_symbols(nx_store, count: int) -> list[list[str]]:
    """Node ids named by engine charts of random moments (tier-0 names of every chart string)."""
    from leishen.engine.chart import build_chart

    rnd = random.Random(7)
    start = datetime(1900, 1, 1, tzinfo=timezone(timedelta(hours=8)))
    cache: dict[str, list[str]] = {}
    charts = []
    for _ in range(count):
        chart = build_chart(start + timedelta(minutes=rnd.randrange(200 * 365 * 24 * 60)))
        strings, stack = set(), [chart]
        while stack:
            item = stack.pop()
            if isinstance(item, str):
                strings.update({item, *(item if len(item) <= 3 else ())})
            elif isinstance(item, dict):
                stack += [*item.keys(), *item.values()]
            elif isinstance(item, (list, tuple)):
                stack += list(item)
        ids = set()
        for text in strings:
            if text not in cache:
                rows = nx_store.run("resolve", q=text.lower())
                best = min((r["tier"] for r in rows), default=None)
                cache[text] = [r["id"] for r in rows if r["tier"] == best]
            ids.update(cache[text])
        charts.append(sorted(ids))
    return charts


def _median_ms(func, inputs: list[dict]) -> float:
    times = []
    for params in inputs:
        t0 = time.perf_counter()
        func(**params)
        times.append(time.perf_counter() - t0)
    return 1000 * statistics.median(times)


def _reading(store, ids: list[str]) -> None:
    store.run("relations_among", node_ids=ids)
    for node_id in ids:
        store.run("symbol_relations", node_id=node_id)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--uri", default=None, help="an existing server (it is overwritten!); default: start one")
    parser.add_argument("--loads", type=int, default=3, help="warm loads after the first")
    parser.add_argument("--charts", type=int, default=50)
    args = parser.parse_args()
    print(_driver_speedups())

    run_dir = None
    if args.uri is None:
        from leishen.neo4jserver import server

        run_dir = Path(tempfile.mkdtemp(prefix="leishen-bench-")) / "server"
        state = server.start(run_dir=run_dir)
        args.uri = state["uri"]
        print(f"server start     {state['start_seconds']:.1f} s  ({args.uri})")
    try:
        data = build_graph()
        neo = get_backend("neo4j", uri=args.uri)
        first = neo.load(data, progress=False)
        warm = [neo.load(data, progress=False)["seconds"] for _ in range(args.loads)]
        print(f"graph            {first['nodes']} nodes, {first['relations']} relations")
        print(f"first load       {first['seconds']:.2f} s (fresh database; {first['constraint_seconds']:.2f} s of it "
              "creating the constraints)")
        best = statistics.median(warm) if warm else first["seconds"]
        print(f"first load       target 15 s: {'OK' if first['seconds'] <= 15 else 'OVER'}")
        print(f"reload (median)  {best:.2f} s   target 5 s: {'OK' if best <= 5 else 'OVER'}  "
              f"(all: {', '.join(f'{w:.2f}' for w in warm)} s)")

        nx_store = get_backend("networkx")
        nx_store.ensure_loaded()
        charts = _chart_symbols(nx_store, args.charts)
        symbols = sorted({i for c in charts for i in c})
        rnd = random.Random(3)
        inputs = {
            "stats": [{}] * 5,
            "resolve": [{"q": q} for q in ("子", "zi", "白虎", "rest gate", "자")],
            "symbol_relations": [{"node_id": i} for i in symbols],
            "facts": [{"doc": None, "node_id": i} for i in symbols],
            "relations_among": [{"node_ids": c} for c in charts],
            "shortest_path": [dict(zip(("source", "target"), rnd.sample(c, 2))) for c in charts if len(c) > 1],
        }
        for store in (nx_store, neo):  # warm both (plan cache, JIT)
            for name, params in inputs.items():
                for p in params[:3]:
                    store.run(name, **p)
        print(f"{'query':18} {'networkx ms':>12} {'neo4j ms':>10} {'ratio':>8}   (median over inputs)")
        for name, params in inputs.items():
            nx_ms = _median_ms(partial(nx_store.run, name), params)
            neo_ms = _median_ms(partial(neo.run, name), params)
            print(f"{name:18} {nx_ms:12.3f} {neo_ms:10.3f} {neo_ms / nx_ms:8.1f}×")
        per_chart = [{"ids": c} for c in charts]
        nx_ms = _median_ms(lambda ids: _reading(nx_store, ids), per_chart)
        neo_ms = _median_ms(lambda ids: _reading(neo, ids), per_chart)
        size = statistics.median(len(c) for c in charts)
        print(f"{'chart reading':18} {nx_ms:12.3f} {neo_ms:10.3f} {neo_ms / nx_ms:8.1f}×   "
              f"({size:.0f} symbols per chart: 1 + {size:.0f} round trips)")
        neo.close()
    finally:
        if run_dir is not None:
            server.stop(run_dir)


if __name__ == "__main__":
    main()
