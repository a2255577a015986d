"""``leishen read``, ``leishen find`` and ``leishen moments``: a chart read by graph traversal (findings and
judgments), the moments a rule or a condition holds, the moments whose judgment of a topic has a verdict (擇時),
and the hours whose four pillars match. All go through the readings door, :mod:`leishen.service.readings`."""

from __future__ import annotations

import json
import sys
from concurrent.futures import Executor
from contextlib import contextmanager, nullcontext
from functools import partial
from typing import Iterator

import click

from leishen.cli.chart import request_of, request_options
from leishen.cli.options import backend_options, handle_errors
from leishen.cli.render_reading import CHART_HOPS, MARKS, path_words, render_reading  # noqa: F401
from leishen.errors import ChartError, FindError
from leishen.judgments.procedure import DEFAULT_OPTIONS, OPTIONS
from leishen.judgments.choose import VERDICTS
from leishen.readings.lore import DEFAULT_LESSONS, LESSONS
from leishen.service import findexport
from leishen.service.findexport import FORMATS

LANGS = ("zh", "ko", "en")


def _reader(backend, uri, user, password):
    """The reader of the backend chosen (:func:`leishen.service.readings.reader_for`)."""
    from leishen.service.readings import reader_for
    return reader_for(backend, uri, user, password)


def _load_chart(path: str) -> dict:
    """The typed chart in *path* (``-``: stdin), checked by the readings door's one typed-chart loader."""
    from leishen.service import charts
    from leishen.service.readings import read_typed
    data = charts.parse_json(charts.read_text(path, sys.stdin.buffer.read() if path == "-" else None), path)
    return read_typed(data, path)


def judgment_options(func):
    """``--timing-stem``, ``--nianjing-chart``, ``--verdict-conflict``: the judgment's school options
    (docs/judgments.md), each with its default."""
    for name in reversed(OPTIONS):
        func = click.option(f"--{name.replace('_', '-')}", name, type=click.Choice(OPTIONS[name]),
                            default=DEFAULT_OPTIONS[name], show_default=True,
                            help=f"judgment option {name} (see docs/judgments.md)")(func)
    return func


def _topic_word(topic, r):
    """The zh name of the topic a user typed (en or ko name, a common word, 占X: service.requests.topic_name);
    a word that names none is refused (exit 2) listing every topic whole."""
    from leishen.service.topicwords import topic_name
    return topic_name(topic, [{"zh": t["zh"], "ko": t.get("ko") or "", "en": t.get("en") or ""} for t in r.topics()])


@click.command("read")
@click.argument("moment", required=False)
@click.option("--tz", default=None, help="IANA time zone for a moment without offset")
@click.option("--fold", type=click.IntRange(0, 1), default=None, help="which of an ambiguous local time (DST end)")
@click.option("--topic", default=None, help="a topic in zh, ko or en (射覆, 求財, 占天時 / weather divination …), or '*' for every topic; none: the general reading")
@click.option("--lang", type=click.Choice(LANGS), default="zh", show_default=True, help="language of the meanings")
@click.option("--chart", "typed", type=click.Path(dir_okay=False, allow_dash=True), default=None,
              help="read a chart typed by hand (the JSON shape of `leishen chart --json`)")
@click.option("--all", "every", is_flag=True, help="print every finding (grouped by system and topic) instead of "
              "the chart and the judgments")
@click.option("--lessons", type=click.Choice(list(LESSONS)), default=DEFAULT_LESSONS, show_default=True,
              help="reading option: where a 神煞 is read — core: 干支三傳占時本命 (000:23); all: also the 2nd and "
              "4th lessons' uppers (docs/readings.md)")
@request_options
@judgment_options
@backend_options
@click.option("--json", "as_json", is_flag=True, help="machine-readable JSON on stdout (findings and judgments)")
@handle_errors
def read(moment, tz, fold, topic, lang, typed, every, lessons, backend, uri, user, password, as_json, systems,
         day_boundary, longitude, birth_year, sex, qimen_opt, ninestar_opt, timing_stem, nianjing_chart,
         verdict_conflict, **school):
    """Read the chart of MOMENT (default now; or --chart FILE), computed with the options given (as `leishen chart`
    takes them): the chart, then per topic its verdict, 用神, facets, 應期 and conflicts, each cited (--all: every
    rule met, with its path and citations)."""
    from leishen.engine.chart import ChartRequest
    from leishen.service import readings as door
    if moment is not None and typed is not None:
        raise ChartError("give MOMENT or --chart FILE, not both")
    if typed == "":
        raise ChartError("--chart: the file name is empty")
    request = request_of(systems, day_boundary, longitude, birth_year, sex, qimen_opt, ninestar_opt, school)
    if typed and (tz is not None or fold is not None or request != ChartRequest()):
        raise ChartError("--tz, --fold and the chart options set how a MOMENT is charted; a chart from --chart FILE "
                         "carries its own")
    options = {"timing_stem": timing_stem, "nianjing_chart": nianjing_chart, "verdict_conflict": verdict_conflict,
               "lessons": lessons}
    r = _reader(backend, uri, user, password)
    topic = _topic_word(topic, r)
    from leishen.cli.corpus_warning import warn_damaged_corpus
    warn_damaged_corpus(backend)
    chart = _load_chart(typed) if typed else moment  # a typed chart checked here, so that errors name the file
    reading = door.read(chart, topic=topic, reader=r, request=request, tz=tz, fold=fold, options=options,
                        typed=False)
    if as_json:
        click.echo(json.dumps(reading, ensure_ascii=False))
        return
    names = {t["zh"]: t for t in r.topics()}
    if every:
        click.echo(render_reading(reading, lang, names))
        return
    from leishen.cli.render_judged import render_judged
    click.echo(render_judged(reading, lang, names, r))


@click.command("find")
@click.argument("rule", required=False)
@click.option("--from", "start", required=True, help="start of the range (ISO, with offset or --tz)")
@click.option("--to", "end", required=True, help="end of the range (inclusive)")
@click.option("--tz", default=None, help="IANA time zone for moments without offset")
@click.option("--step", type=click.Choice(["hour", "day"]), default="hour", show_default=True)
@click.option("--topic", "topics", multiple=True, help="with RULE or --when: the topic whose rules count; with "
              "--verdict, --facet or --summary: the topic judged (擇時, one a search)")
@click.option("--verdict", type=click.Choice(VERDICTS), default=None,
              help="擇時: the moments whose judgment of --topic has this verdict")
@click.option("--facet", "facets", multiple=True, metavar="FACET=VALUE",
              help="擇時: also require this decided facet answer (e.g. 可行否=可行); may be repeated")
@click.option("--when", "when", default=None, metavar="EXPR", help="the moments where this condition holds, in the "
              "rule vocabulary (docs/rules.md), e.g. 'all(pattern(Pattern.斫輪), vigour(初傳, Vigour.旺))'")
@click.option("--summary", is_flag=True, help="擇時: count each verdict of --topic over the range (one JSON line)")
@click.option("--jobs", type=click.IntRange(1), default=1, show_default=True,
              help="擇時 and --when: processes that share the range (at most the machine's cores)")
@click.option("--scheduler", default=None, metavar="ADDRESS", help="擇時 and --when: run on the Dask cluster whose "
              "scheduler is at ADDRESS (tcp://host:8786; pip install 'leishen[dask]')")
@click.option("--format", "fmt", type=click.Choice(FORMATS), default="jsonl", show_default=True,
              help="jsonl: a JSON line a hit; csv: a row a hit; ics: an iCalendar event a hit")
@click.option("--lang", type=click.Choice(LANGS), default="zh", show_default=True,
              help="csv and ics: the language of the judgment's summary line")
@backend_options
@click.option("--json", "as_json", is_flag=True, help="JSON lines (the default output is JSON lines too)")
@handle_errors
def find(rule, start, end, tz, step, topics, verdict, facets, when, summary, jobs, scheduler, fmt, lang, backend, uri,
         user, password, as_json):
    """The moments from --from to --to where RULE holds, where a condition holds (--when EXPR), or (--topic T
    --verdict V [--facet F=VALUE], 擇時) whose judgment of T has that verdict, each with its deciding reasons:
    JSON lines, CSV or iCalendar (--format; progress on stderr); --summary counts the verdicts instead."""
    from leishen.service import findwork, readings as door
    topic = _one_topic(topics, rule is None and when is None)
    spread = verdict is not None or bool(facets) or summary or when is not None
    if rule is None and not spread:
        raise ChartError("rule: give a RULE, --when EXPR, or --topic with --verdict (or --facet) to choose a time")
    if (jobs != 1 or scheduler) and not spread:
        raise ChartError("--jobs and --scheduler spread a 擇時 or --when search; a RULE find runs in one process")
    if summary and (verdict is not None or fmt != "jsonl"):
        raise ChartError("--summary counts every verdict of the range in one JSON line: give it without --verdict "
                         "and --format")
    source = findwork.Source(backend, uri, user, password)
    with _dask_executor(scheduler) if scheduler else nullcontext() as executor:
        r = _reader(backend, uri, user, password) if executor is None else None  # (on a cluster, its workers read)
        if topic is not None:  # the words a user types (wealth, 占天時 …) as read takes them
            topic = door.by_reader(partial(_topic_word, topic), r, executor, source)
        from leishen.cli.corpus_warning import warn_damaged_corpus
        warn_damaged_corpus(backend)
        t0, t1, total = door.plan(start, end, tz, step, names=("from", "to"))
        hits = door.find(r, t0, t1, rule=rule, topic=topic, verdict="*" if summary else verdict, facets=facets,
                         step=step, jobs=jobs, progress=lambda _t, n=1: bar.update(n), when=when, executor=executor,
                         source=source)  # (checked here: a bad request is refused before the progress bar)
        bar = click.progressbar(length=total, label="find", file=sys.stderr)
        with bar:
            _write(hits, summary, fmt, lang, topic, facets, (t0, t1, total))


@contextmanager
def _dask_executor(address: str) -> Iterator[Executor]:
    """The executor of the Dask cluster whose scheduler is at *address*, closed on leaving; FindError naming
    ``scheduler`` when Dask is not installed or no scheduler answers."""
    try:
        from distributed import Client
        client = Client(address, timeout="10s", set_as_default=False)
    except ImportError:
        raise FindError("scheduler: Dask is not installed: pip install 'leishen[dask]'", "scheduler") from None
    except (OSError, ValueError) as exc:  # (TimeoutError is an OSError)
        raise FindError(f"scheduler: no Dask scheduler answers at {address!r} ({exc})", "scheduler") from None
    with client:
        yield client.get_executor(pure=False)


def _write(hits, summary: bool, fmt: str, lang: str, topic: str | None, facets: tuple, span: tuple) -> None:
    """The hits on stdout in *fmt*, or (*summary*) the count of each verdict over the *span* (start, end, moments)."""
    t0, t1, total = span
    if summary:
        counts = findexport.verdict_counts(hits, VERDICTS)
        click.echo(json.dumps({"topic": topic, "from": t0.isoformat(), "to": t1.isoformat(), "moments": total,
                               "facets": list(facets), "verdicts": counts}, ensure_ascii=False))
        return
    findexport.write(fmt, hits, click.get_text_stream("stdout"), t0.tzinfo, topic, lang)


def _one_topic(topics: tuple, judged: bool) -> str | None:
    """The one topic of a find; ChartError for more than one where a search judges a topic (擇時)."""
    if len(topics) > 1:
        raise ChartError(f"--topic: a find reads one topic, given {len(topics)} ({', '.join(topics)}); run one find "
                         "per topic" + (" (擇時 judges one topic a search)" if judged else ""))
    return topics[0] if topics else None


@click.command("moments")
@click.option("--pillars", required=True, metavar="年,月,日,時", help="the four pillars, each a 干支 (甲子 …) or *")
@click.option("--from", "start", required=True, help="start of the range (ISO, with offset or --tz)")
@click.option("--to", "end", required=True, help="end of the range (inclusive)")
@click.option("--tz", default=None, help="IANA time zone for moments without offset")
@click.option("--day-boundary", type=click.Choice(["23:00", "00:00"]), default="23:00", show_default=True,
              help="when the day pillar changes (子初換日 23:00, or midnight)")
@handle_errors
def moments(pillars, start, end, tz, day_boundary):
    """The spans of hours from --from to --to whose four pillars match --pillars (年,月,日,時; any may be *), with
    the solar term in force: JSON lines."""
    from leishen.service import readings as door
    for span in door.pillar_moments(pillars, start, end, tz, day_boundary):
        click.echo(json.dumps(span, ensure_ascii=False))


@click.command("topics")
@backend_options
@click.option("--json", "as_json", is_flag=True, help="machine-readable JSON on stdout")
@handle_errors
def topics(backend, uri, user, password, as_json):
    """The topics that have rules (zh, ko, en), each sub-topic under the topic it is a case of."""
    found = _reader(backend, uri, user, password).topics()
    if as_json:
        click.echo(json.dumps(found, ensure_ascii=False))
        return
    for t in sorted(found, key=lambda t: (t["parent"] or t["zh"], t["parent"] is not None, t["zh"])):
        click.echo(f"{'  ' if t['parent'] else ''}{t['zh']}\t{t['ko']}\t{t['en']}")
