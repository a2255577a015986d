"""A snapshot of readings taken through the readings door, to show a refactor changed no finding, judgment or
trail (issue #37).

    python tests/readings/door_snapshot.py take NAME [--moments 1500] [--seed 37]
    python tests/readings/door_snapshot.py diff NAME_A NAME_B

``take`` charts N random moments (every third with an asker's birth year; ``snapshot.moments``) and reads each
through :func:`leishen.service.readings.read` twice: in general and under one topic, the topics taken in turn.
It writes one digest per reading to ``/tmp/leishen-door-NAME.json`` (never into the repo): a hash of every
finding's (id, path, src, polarity, certainty), one of the judgments and one of the trail, with the finding
ids. ``diff`` names the readings whose digests differ (with the finding ids gained and lost) and exits 1 when
there is any.
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from snapshot import moments  # noqa: E402  (the same random moments: 1920–2079, every third with a birth year)


def _path(name: str) -> Path:
    return Path("/tmp") / f"leishen-door-{name}.json"


def _hash(value) -> str:
    text = json.dumps(value, ensure_ascii=False, sort_keys=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest()


def digest(reading: dict) -> list:
    """[findings' hash, judgments' hash, trail's hash, the finding ids]."""
    rows = [[f["id"], f["path"], f["src"], f["polarity"], f["certainty"]] for f in reading["findings"]]
    return [_hash(rows), _hash(reading.get("judgments")), _hash(reading.get("trail")),
            [f["id"] for f in reading["findings"]]]


def _topics() -> list[str]:
    """The ids of the topics that have rules, sorted (service.book lists them; before #37, leishen.readings)."""
    try:
        from leishen.service.book import topics
    except ImportError:
        from leishen.readings import topics
    return sorted(t["id"] for t in topics())


def take(name: str, count: int, seed: int) -> Path:
    """Read the snapshot's charts through the door and write their digests."""
    from leishen.engine.chart import ChartRequest, build_chart
    from leishen.service import readings as door
    topics = _topics()
    out = {}
    for i, (moment, year) in enumerate(moments(count, seed)):
        request = ChartRequest(birth_year=year, sex="male") if year else ChartRequest()
        chart = build_chart(moment, request)
        for topic in (None, topics[i % len(topics)]):
            reading = door.read(chart, topic=topic, request=request, typed=False)
            out[f"{moment.isoformat()}@{year}|{topic}"] = digest(reading)
    path = _path(name)
    path.write_text(json.dumps(out, ensure_ascii=False))
    return path


def diff(a: str, b: str) -> int:
    """The number of readings whose digests differ (the first 20 named, with the ids gained and lost)."""
    one, two = (json.loads(_path(n).read_text()) for n in (a, b))
    differ = 0
    for key in sorted(set(one) | set(two)):
        x, y = one.get(key), two.get(key)
        if x is None or y is None or x[:3] != y[:3]:
            differ += 1
            if differ <= 20:
                parts = [p for i, p in enumerate(("findings", "judgments", "trail")) if x and y and x[i] != y[i]]
                gained = sorted(set(y[3]) - set(x[3])) if x and y else []
                lost = sorted(set(x[3]) - set(y[3])) if x and y else []
                print(f"{key}: {parts or 'missing'} +{gained} -{lost}")
    print(f"{len(one)} vs {len(two)} readings; {differ} differ")
    return differ


if __name__ == "__main__":
    args = sys.argv[1:]
    if args[:1] == ["take"]:
        opts = dict(zip(args[2::2], args[3::2]))
        print(take(args[1], int(opts.get("--moments", 1500)), int(opts.get("--seed", 37))))
    elif args[:1] == ["diff"]:
        sys.exit(1 if diff(args[1], args[2]) else 0)
    else:
        sys.exit(__doc__)
