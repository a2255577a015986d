"""A snapshot of readings, to show a change of the evaluator changed no finding (issue #30).

    python3 tests/readings/snapshot.py take NAME [--moments 1500] [--seed 30] [--backend networkx]
                                                 [--reader default|norecall|nocache]
    python3 tests/readings/snapshot.py diff NAME_A NAME_B

``take`` reads N random moments (every third with an asker's birth year) under every topic (``*``) and
in general, and writes one digest per reading — each finding's (id, path, src, polarity, certainty) —
to ``/tmp/leishen-snapshot-NAME.json`` (never into the repo). ``--reader``: the shared reader (default), one
that recalls no outcome (norecall), or one without the answer cache (nocache: the checks collected and asked
in one call, as on a server). ``diff`` names the readings whose digests
differ, with the finding ids gained and lost, and exits 1 when there is any.
"""

from __future__ import annotations

import hashlib
import json
import random
import sys
from datetime import datetime, timedelta, timezone
from pathlib import Path


def _path(name: str) -> Path:
    return Path("/tmp") / f"leishen-snapshot-{name}.json"


def moments(n: int, seed: int) -> list[tuple[datetime, int | None]]:
    """*n* random UTC minutes of 1920–2079, every third with a birth year."""
    rng = random.Random(seed)
    start = datetime(1920, 1, 1, tzinfo=timezone.utc)
    out = []
    for i in range(n):
        m = start + timedelta(minutes=rng.randrange(160 * 365 * 24 * 60))
        out.append((m, m.year - rng.randrange(1, 80) if i % 3 == 0 else None))
    return out


def digest(reading: dict) -> tuple[str, list[str]]:
    """(a hash of every finding's id, path, src, polarity and certainty, in order; the finding ids)."""
    rows = [[f["id"], f["path"], f["src"], f["polarity"], f["certainty"]] for f in reading["findings"]]
    text = json.dumps(rows, ensure_ascii=False, sort_keys=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest(), [f["id"] for f in reading["findings"]]


def take(name: str, count: int, seed: int, backend: str, kind: str = "default") -> Path:
    from leishen.engine.chart import ChartRequest, build_chart
    from leishen.service.book import new_reader, reader
    if backend != "networkx":
        r = _server_reader(backend)
    else:
        r = {"default": reader, "norecall": lambda: new_reader(recall=False), "nocache": lambda: new_reader(cache=False)}[kind]()
    out = {}
    for moment, year in moments(count, seed):
        request = ChartRequest(birth_year=year, sex="male") if year else ChartRequest()
        chart = build_chart(moment, request)
        for topic in ("*", None):
            out[f"{moment.isoformat()}@{year}|{topic}"] = digest(r.read(chart, topic=topic))
    path = _path(name)
    path.write_text(json.dumps(out, ensure_ascii=False))
    return path


def _server_reader(backend: str):
    from leishen.backends import get_backend
    from leishen.readings.read import Reader
    return Reader(get_backend(backend), cache=False)


def diff(a: str, b: str) -> int:
    """The number of readings whose digests differ (each named, with the ids gained and lost)."""
    one, two = (json.loads(_path(n).read_text()) for n in (a, b))
    differ = 0
    for key in sorted(set(one) | set(two)):
        x, y = one.get(key), two.get(key)
        if x is None or y is None or x[0] != y[0]:
            differ += 1
            if differ <= 20:
                gained = sorted(set((y or [0, []])[1]) - set((x or [0, []])[1]))
                lost = sorted(set((x or [0, []])[1]) - set((y or [0, []])[1]))
                print(f"{key}: gained {gained[:5]} lost {lost[:5]}" if gained or lost else f"{key}: paths differ")
    print(f"{len(one)} / {len(two)} readings, {differ} differ")
    return differ


def main(argv: list[str]) -> int:
    if len(argv) >= 2 and argv[0] == "take":
        opts = dict(zip(argv[2::2], argv[3::2]))
        path = take(argv[1], int(opts.get("--moments", 1500)), int(opts.get("--seed", 30)),
                    opts.get("--backend", "networkx"), opts.get("--reader", "default"))
        print(path)
        return 0
    if len(argv) == 3 and argv[0] == "diff":
        return 1 if diff(argv[1], argv[2]) else 0
    print(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
