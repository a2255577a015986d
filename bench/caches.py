#!/usr/bin/env python3
"""What each cache a reader keeps from one reading to the next earns (issue #30): the readings rows with one
cache switched off at a time, each configuration in a fresh process (never part of the tests).

    bench/caches.py [--count 1000] [--repeat 3] [--only NAME,…] [--out FILE]

Rows, as bench/run reads them (NetworkX): the general reading (the first 1,000 of a fresh reader), every topic
(the next 1,000: first readings), every topic on a warm reader (1,000 more after 3,000 readings) and every topic
without the answer cache (the Batched evaluator a server uses; 300 charts). Two fresh readers of one process read
the same charts side by side, one with every cache, one with a cache switched off (kept from one reading to the
next no longer: its store never filled, or as the reader's own option does), alternately, so that the load other
processes put on a shared machine falls on both alike; each row gives the medians of the CPU time per reading of
the two. ``--repeat`` runs every configuration that many times and keeps the medians.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path
from leishen.service import book
from leishen.service.book import new_reader

sys.path.insert(0, str(Path(__file__).resolve().parent))

#: the caches a reader kept from one reading to the next before #30's cache owner (commit 17a447b): name → what
#: switching it off means (bench/README.md has the table). The owner's stores are switched off by name.
OFF = {
    "none": "every cache on (the reference)",
    "answers": "the backend's answers not kept (Reader cache=False: the Batched evaluator, as on a server)",
    "recall": "no outcome recalled (Reader recall=False: the Plain evaluator)",
    "memo": "no graph predicate result kept by its bound values (graph_leaf memo)",
    "findings": "no finding kept by its inputs (findings.Made's store, its rule parts)",
    "pieces": "no walk, fact hop, path node or meaning kept (walks.Pieces)",
    "bounds": "no Bound or bound section shared between charts (bounds.Shared, limit 0)",
    "checks": "no ground check kept per graph leaf and bound values (Graph._checks)",
    "remembered": "no scope body's collected checks kept (evaluate.Remembered)",
    "scopes": "no reading scope kept (Reader._scopes)",
    "lore": "nothing of the lore readings kept (lore_cache.LoreStore, relations_from rows)",
    "trail": "no 九宗門 board or steps kept (trail.py lru_caches)",
    "index": "no rule index: the Batched evaluator collects the checks of every rule in scope (index.py)",
}


class Drop(dict):
    """A store that keeps nothing (as readings/cache.Drop, which the code before the cache owner, measured by
    _legacy_off, does not have)."""

    def __setitem__(self, key, value):
        pass

    def setdefault(self, key, default=None):
        return default

    def update(self, *args, **kwargs):
        pass


def _each_node(r, kind: type, change) -> None:
    """Apply *change* to every compiled node of class *kind* of reader *r*."""
    seen, todo = set(), list(r.compiled.values())
    while todo:
        node = todo.pop()
        if id(node) not in seen:
            seen.add(id(node))
            if isinstance(node, kind):
                change(node)
            todo.extend(node.parts())


def _legacy_off(r, name: str) -> None:
    """Switch a cache off in a reader of the code before #30's cache owner (see OFF)."""
    from leishen.readings import trail
    from leishen.readings.bounds import Shared
    from leishen.readings.evaluate import Remembered
    from leishen.readings.graph_leaf import Graph
    before = []  # what is cleared before every reading
    if name == "answers":
        r.cache = False
    elif name == "recall":
        r.evaluator = "plain"
    elif name == "memo":
        r._memo = Drop()
    elif name == "findings":
        r.made.store, r.made._older, r.made._parts, r.made._rules = Drop(), Drop(), Drop(), Drop()
    elif name == "pieces":
        p = r.made.pieces
        p.walks, p.hops, p.nodes, p.meanings = Drop(), Drop(), Drop(), Drop()
    elif name == "bounds":
        r.lex.shared = Shared(limit=0)
    elif name == "checks":
        _each_node(r, Graph, lambda node: setattr(node, "_checks", Drop()))
    elif name == "remembered":
        _each_node(r, Remembered, lambda node: setattr(node, "kept", Drop()))
    elif name == "scopes":
        r._scopes = Drop()
    elif name == "lore":
        before.append(lambda: setattr(r, "lore_answers", {}))
    elif name == "trail":  # the module's functions without their caches, during this reader's readings
        plain = {f: getattr(trail, f).__wrapped__ for f in ("_board", "_steps", "_parsed_options")}
        cached = {f: getattr(trail, f) for f in plain}
        read = r.read

        def uncached(*args, **kwargs):
            for f, func in plain.items():
                setattr(trail, f, func)
            try:
                return read(*args, **kwargs)
            finally:
                for f, func in cached.items():
                    setattr(trail, f, func)
        r.read = uncached
    if before:
        read = r.read

        def cleared(*args, **kwargs):
            for clear in before:
                clear()
            return read(*args, **kwargs)
        r.read = cleared


SERVER_ONLY = ("answers", "recall", "outcomes", "memo")  # what a reader without the answer cache has off already


def names(r) -> list[str]:
    """The caches of reader *r* that can be switched off: the stores of its owner (readings/cache.py) and, in
    the code before #37, the rule index; for a reader of the code before the owner, the OFF list."""
    if hasattr(r, "kept"):
        return [*r.kept.stores, *(["index"] if hasattr(r, "requires_index") else [])]
    return [n for n in OFF if n != "none"]


def switch_off(name: str, r):
    """Switch off the cache *name* in reader *r* before its first reading (a reader without the answer cache
    keeps its evaluator)."""
    if name == "all":
        for each in names(r):
            switch_off(each, r)
    elif name == "none":
        pass
    elif name in SERVER_ONLY and (r.live if hasattr(r, "kept") else not r.cache):  # (before #37: Reader.cache)
        pass
    elif name == "index":
        r.requires_index.candidates = lambda present: list(r.requires)
        r.others_index.candidates = lambda present: list(r.others)
    elif hasattr(r, "kept"):
        r.kept.switch_off({"recall": "outcomes"}.get(name, name))
    else:
        _legacy_off(r, name)
    return r


def _timed(reader, chart, topic) -> float:
    t0 = time.process_time()
    reader.read(chart, topic=topic)
    return time.process_time() - t0


def _pair(one, two, charts, topic, out: dict | None = None, name: str = "") -> None:
    """Read *charts* with both readers, alternately (which goes first alternates too); with *out*, the median
    time of each under *name*."""
    times = ([], [])
    for i, chart in enumerate(charts):
        order = (0, 1) if i % 2 == 0 else (1, 0)
        for k in order:
            times[k].append(_timed((one, two)[k], chart, topic))
    if out is not None:
        out[name] = [statistics.median(t) for t in times]


def rows(name: str, count: int) -> dict:
    """The readings rows of every cache on and of *name* switched off, read side by side by two fresh readers
    of one process (so that the load of other processes falls on both alike): row → [on, off] medians of the
    CPU time per reading (seconds)."""
    from leishen import readings
    from leishen.engine.chart import build_chart
    from leishen.readings.read import Reader
    from suite import random_moments
    backend = book.reader().backend
    on, off = Reader(backend), switch_off(name, Reader(backend))
    charts = lambda n, seed: [build_chart(m) for m in random_moments(n, seed)]  # noqa: E731
    first = charts(1, 99)
    _pair(on, off, first, "*")
    out: dict = {}
    _pair(on, off, charts(count, 13), None, out, "general")
    _pair(on, off, charts(count, 14), "*", out, "every topic, first")
    _pair(on, off, charts(2 * count, 16), "*")
    _pair(on, off, charts(count, 17), "*", out, "every topic, warm")
    on, off = Reader(backend, cache=False), switch_off(name, Reader(backend, cache=False))
    _pair(on, off, first, "*")
    _pair(on, off, charts(300, 18), "*", out, "every topic, no answer cache (Batched)")
    return out


def child(name: str, count: int) -> None:
    print(json.dumps(rows(name, count)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=1000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--only", default=None, help="comma-separated configuration names")
    parser.add_argument("--out", type=Path, default=None)
    parser.add_argument("--child", default=None, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        return child(args.child, args.count)
    if args.only:
        chosen = args.only.split(",")
    else:
        from leishen.readings.read import Reader
        chosen = [*names(new_reader()), "all"]
    found: dict = {n: [] for n in chosen}
    for _ in range(args.repeat):
        for name in chosen:
            done = subprocess.run([sys.executable, __file__, "--child", name, "--count", str(args.count)],
                                  capture_output=True, text=True, check=True)
            found[name].append(json.loads(done.stdout.strip().splitlines()[-1]))
            print(name, found[name][-1], file=sys.stderr, flush=True)
    table = {n: {row: [statistics.median(run[row][k] for run in runs) for k in (0, 1)] for row in runs[0]}
             for n, runs in found.items()}
    text = json.dumps(table, ensure_ascii=False, indent=1)
    if args.out:
        args.out.write_text(text + "\n")
    print(text)


if __name__ == "__main__":
    main()
