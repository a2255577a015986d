"""A find's hits as people use them: JSON lines, CSV, an iCalendar file (``leishen find --format``), and the count of
each verdict over a range (``--summary``).

- ``jsonl``: one hit a line, as the HTTP /find answers them;
- ``csv``: one row a hit (moment, verdict, the facet deciding it, the decided facets, the judgment's summary line,
  the citations of its first reasons; for ``--when``: moment, condition, system);
- ``ics`` (through :mod:`icalendar`): one event a hit, an hour long, on the range's own clock (its IANA zone, or
  its UTC offset, with its VTIMEZONE), the verdict and the judgment's summary (its deciding line) in the
  description."""

from __future__ import annotations

import csv
import json
from datetime import datetime, timedelta, timezone
from typing import IO, Iterable

FORMATS = ("jsonl", "csv", "ics")
LANGS = ("zh", "ko", "en")
HOUR = timedelta(hours=1)


def line(hit: dict, lang: str = "zh") -> str:
    """The deciding line of a hit: the judgment's summary in *lang* (else its verdict), or its condition."""
    summary = hit.get("summary") or {}
    return summary.get(lang) or summary.get("zh") or hit.get("verdict") or hit.get("when", "")


def write_jsonl(hits: Iterable[dict], out: IO[str]) -> int:
    """Each hit as a line of JSON, written as it comes; how many."""
    n = 0
    for n, hit in enumerate(hits, 1):
        out.write(json.dumps(hit, ensure_ascii=False) + "\n")
        out.flush()
    return n


def _row(hit: dict, lang: str) -> tuple[tuple, tuple]:
    """(header, row) of a hit: of 擇時 (verdict …), of ``--when`` (condition, system) or of a rule (findings)."""
    moment = hit["moment"]
    if "verdict" in hit:
        facets = "; ".join(f"{k}={'/'.join(v)}" for k, v in hit["facets"].items())
        src = " ".join(dict.fromkeys(s for r in hit["reasons"] for s in r["src"]))
        return (("local", "utc", "verdict", "verdict_by", "facets", "summary", "src"),
                (moment["local"], moment["utc"], hit["verdict"], hit["verdict_by"] or "", facets, line(hit, lang), src))
    if "when" in hit:
        return ("local", "utc", "when", "system"), (moment["local"], moment["utc"], hit["when"], hit["system"])
    return ("local", "utc", "findings"), (moment["local"], moment["utc"], " ".join(hit["findings"]))


def write_csv(hits: Iterable[dict], out: IO[str], lang: str = "zh") -> int:
    """Each hit as a CSV row under a header (by the first hit's kind: :func:`_row`), written as it comes; how
    many."""
    writer, n = csv.writer(out, lineterminator="\n"), 0
    for n, hit in enumerate(hits, 1):
        header, row = _row(hit, lang)
        if n == 1:
            writer.writerow(header)
        writer.writerow(row)
        out.flush()
    return n


def calendar(hits: Iterable[dict], zone, topic: str | None = None, lang: str = "zh"):
    """An :class:`icalendar.Calendar` with one event a hit, on the clock of *zone* (a ZoneInfo or a fixed offset),
    with that zone's VTIMEZONE."""
    import icalendar
    cal = icalendar.Calendar()
    cal.add("prodid", "-//leishen//find//EN")
    cal.add("version", "2.0")
    for hit in hits:
        start = datetime.fromisoformat(hit["moment"]["utc"]).astimezone(zone)
        event = icalendar.Event()
        title = f"{topic} {hit['verdict']}" if "verdict" in hit else hit.get("when") or " ".join(hit.get("findings", ()))
        event.add("uid", f"{hit['moment']['utc']}-{topic or 'when'}@leishen")
        event.add("dtstamp", datetime(2000, 1, 1, tzinfo=timezone.utc))  # the same file for the same hits
        event.add("dtstart", start)
        event.add("dtend", start + HOUR)
        event.add("summary", title.strip())
        reasons = "\n".join(f"{r['meaning']} ({r['polarity']}) [{', '.join(r['src'])}]" for r in hit.get("reasons", ()))
        event.add("description", "\n".join(x for x in (hit.get("verdict", ""), line(hit, lang), reasons) if x))
        cal.add_component(event)
    if isinstance(zone, timezone):
        cal.add_component(_fixed_zone(zone))
    else:
        cal.add_missing_timezones()
    return cal


def _fixed_zone(zone: timezone):
    """The VTIMEZONE of a fixed UTC offset (named as icalendar names it: ``UTC+09:00``)."""
    import icalendar
    offset = zone.utcoffset(None)
    found = icalendar.Timezone()
    found.add("tzid", zone.tzname(None))
    standard = icalendar.TimezoneStandard()
    standard.add("dtstart", datetime(1800, 1, 1))
    standard.add("tzoffsetfrom", offset)
    standard.add("tzoffsetto", offset)
    standard.add("tzname", zone.tzname(None))
    found.add_component(standard)
    return found


def write_ics(hits: Iterable[dict], out: IO[str], zone, topic: str | None = None, lang: str = "zh") -> int:
    """The hits as one iCalendar file (written when the last hit is in); how many."""
    found = list(hits)
    out.write(calendar(found, zone, topic, lang).to_ical().decode())
    return len(found)


def write(fmt: str, hits: Iterable[dict], out: IO[str], zone, topic: str | None = None, lang: str = "zh") -> int:
    """The hits written to *out* in *fmt* (one of :data:`FORMATS`); how many."""
    if fmt == "csv":
        return write_csv(hits, out, lang)
    if fmt == "ics":
        return write_ics(hits, out, zone, topic, lang)
    return write_jsonl(hits, out)


def verdict_counts(hits: Iterable[dict], verdicts: tuple[str, ...]) -> dict[str, int]:
    """How many of the hits have each verdict (every verdict named, 0 where none)."""
    counts = dict.fromkeys(verdicts, 0)
    for hit in hits:
        counts[hit["verdict"]] = counts.get(hit["verdict"], 0) + 1
    return counts
