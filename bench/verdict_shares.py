"""Each topic's verdict shares (吉 凶 混 平 未定) over the hours of a range: a sanity signal for readers of
docs/judgments.md, not a target to tune. Usage: python3 bench/verdict_shares.py [START END [STEP_HOURS]]
(default: every 2nd hour of 2026, on the embedded backend). Prints a Markdown table."""

from __future__ import annotations

import sys
from collections import Counter
from datetime import timedelta

import leishen
from leishen import readings
from leishen.engine.moment import parse_moment
from leishen.judgments import judge
from leishen.service import book

TOPICS = ("科試", "求財", "行人", "出行", "家宅", "疾病", "田禾", "栽植", "蠶", "年景", "射覆", "天時", "穿地")
VERDICTS = ("吉", "凶", "混", "平", "未定")


def shares(start: str, end: str, step_hours: int) -> dict[str, Counter]:
    """topic → Counter of its verdicts over the moments of the range."""
    reader = book.reader()
    moment, last = parse_moment(start), parse_moment(end)
    out = {t: Counter() for t in TOPICS}
    while moment <= last:
        chart = leishen.chart(moment.isoformat())
        reading = reader.read(chart, topic="*")
        for j in judge(reading, chart, reader):
            if j["topic"] in out:
                out[j["topic"]][j["verdict"]] += 1
        moment += timedelta(hours=step_hours)
    return out


def table(counts: dict[str, Counter]) -> str:
    """The Markdown table: a row per topic, the share of each verdict in percent."""
    rows = ["| topic | n | " + " | ".join(VERDICTS) + " |", "|---|---|" + "---|" * len(VERDICTS)]
    for topic, c in counts.items():
        n = sum(c.values()) or 1
        rows.append(f"| {topic} | {sum(c.values())} | " + " | ".join(f"{100 * c[v] / n:.0f} %" for v in VERDICTS)
                    + " |")
    return "\n".join(rows)


if __name__ == "__main__":
    args = sys.argv[1:]
    start, end = (args[0], args[1]) if len(args) >= 2 else ("2026-01-01T00:00+08:00", "2026-12-31T23:00+08:00")
    print(table(shares(start, end, int(args[2]) if len(args) > 2 else 2)))
