"""``leishen read`` and ``leishen find``: a chart read by graph traversal (findings and judgments), the moments a
rule holds, and the moments whose judgment of a topic has a verdict (擇時). Both go through the readings door,
:mod:`leishen.service.readings`."""

from __future__ import annotations

import json
import sys

import click

from leishen.cli.chart import request_of, request_options
from leishen.cli.options import backend_options, handle_errors
from leishen.cli.render_reading import CHART_HOPS, MARKS, path_words, render_reading  # noqa: F401
from leishen.errors import ChartError
from leishen.judgments.procedure import DEFAULT_OPTIONS, OPTIONS
from leishen.readings.lore import DEFAULT_LESSONS, LESSONS

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
         verdict_conflict, **liuren):
    """Read the chart of MOMENT (default now; or --chart FILE), computed with the options given (as `leishen chart`
    takes them): the chart, then per topic its verdict, 用神, facets, 應期 and conflicts, each cited (--all: every
    rule met, with its path and citations)."""
    from leishen.engine.chart import ChartRequest
    from leishen.service import readings as door
    if moment is not None and typed is not None:
        raise ChartError("give MOMENT or --chart FILE, not both")
    if typed == "":
        raise ChartError("--chart: the file name is empty")
    request = request_of(systems, day_boundary, longitude, birth_year, sex, qimen_opt, ninestar_opt, liuren)
    if typed and (tz is not None or fold is not None or request != ChartRequest()):
        raise ChartError("--tz, --fold and the chart options set how a MOMENT is charted; a chart from --chart FILE "
                         "carries its own")
    options = {"timing_stem": timing_stem, "nianjing_chart": nianjing_chart, "verdict_conflict": verdict_conflict,
               "lessons": lessons}
    r = _reader(backend, uri, user, password)
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
@click.option("--topic", default=None, help="with RULE: the topic whose rules count; with --verdict or --facet: the "
              "topic judged (擇時)")
@click.option("--verdict", type=click.Choice(["吉", "凶", "混", "平", "未定"]), default=None,
              help="擇時: the moments whose judgment of --topic has this verdict")
@click.option("--facet", "facets", multiple=True, metavar="FACET=VALUE",
              help="擇時: also require this decided facet answer (e.g. 可行否=可行); may be repeated")
@click.option("--jobs", type=click.IntRange(1, 64), default=1, show_default=True,
              help="擇時: processes that share the range")
@backend_options
@click.option("--json", "as_json", is_flag=True, help="JSON lines (the default output is JSON lines too)")
@handle_errors
def find(rule, start, end, tz, step, topic, verdict, facets, jobs, backend, uri, user, password, as_json):
    """The moments from --from to --to where RULE holds, or (--topic T --verdict V [--facet F=VALUE], 擇時) whose
    judgment of T has that verdict, each with its deciding reasons: JSON lines (progress on stderr)."""
    from leishen.service import readings as door
    if rule is None and verdict is None and not facets:
        raise ChartError("rule: give a RULE, or --topic with --verdict (or --facet) to choose a time")
    if jobs != 1 and verdict is None and not facets:
        raise ChartError("--jobs: spreads a 擇時 search (--topic with --verdict); a RULE find runs in one process")
    r = _reader(backend, uri, user, password)
    from leishen.cli.corpus_warning import warn_damaged_corpus
    warn_damaged_corpus(backend)
    t0, t1, total = door.plan(start, end, tz, step, names=("from", "to"))
    with click.progressbar(length=total, label="find", file=sys.stderr) as bar:
        for hit in door.find(r, t0, t1, rule=rule, topic=topic, verdict=verdict, facets=facets, step=step,
                             jobs=jobs, progress=lambda _t, n=1: bar.update(n)):
            click.echo(json.dumps(hit, ensure_ascii=False))


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
