"""``leishen read`` and ``leishen find``: a chart read by graph traversal, and the moments a rule holds."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from leishen.cli.options import backend_options, handle_errors, open_backend
from leishen.cli.chart import request_of, request_options
from leishen.errors import ChartError

MARKS = {"吉": "○", "凶": "×", "平": "·", "混": "±", None: " "}
CHART_HOPS = {"PLATE_OVER": ("上", "has over it"), "RIDDEN_BY": ("乘", "carries"), "LODGES": ("寄", "lodges at"),
              "UNDER": ("臨", "stands over"), "IS_SLOT": ("為", "is the"), "MEETS": ("遇", "meets"),
              "STANDS_IN": ("落", "stands in"), "FLYING_STAR": ("飛", "holds"), "PILLAR": ("柱", "pairs with"),
              "NAYIN": ("納音", "sounds as"), "HIDES_AS": ("遁", "hides as"),
              "HEAVEN_STEM": ("天盤", "has on its heaven plate"),
              "EARTH_STEM": ("地盤", "has on its earth plate"), "STAR": ("星", "has the star"),
              "GATE": ("門", "has the gate"), "DEITY": ("神", "has the deity"),
              "HEAVEN_STEM_HOSTED": ("寄天盤", "hosts on its heaven plate"),
              "EARTH_STEM_HOSTED": ("寄地盤", "hosts on its earth plate"), "STAR_HOSTED": ("寄星", "hosts the star")}
LANGS = ("zh", "ko", "en")


def _reader(backend, uri, user, password):
    from leishen.readings import Reader, reader
    if backend == "networkx":
        return reader("networkx")
    return Reader(open_backend(backend, uri, user, password))


def _load_chart(path: str) -> dict:
    try:
        text = sys.stdin.read() if path == "-" else Path(path).read_text(encoding="utf-8")
        data = json.loads(text)
    except (OSError, UnicodeDecodeError) as exc:
        raise ChartError(f"{path}: cannot be read ({exc})") from exc
    except json.JSONDecodeError as exc:
        raise ChartError(f"{path}: not JSON (line {exc.lineno}, column {exc.colno}: {exc.msg})") from exc
    except RecursionError:
        raise ChartError(f"{path}: not a chart (JSON nested too deeply)") from None
    if not isinstance(data, dict):
        raise ChartError(f"{path}: expected a JSON object (a chart), found {type(data).__name__}")
    if not any(isinstance(data.get(s), dict) for s in ("liuren", "qimen", "ninestar")):
        raise ChartError(f"{path}: a chart needs at least one of liuren, qimen, ninestar")
    from leishen.engine.typedcheck import validate_typed_chart
    try:
        return validate_typed_chart(data)
    except ChartError as exc:
        raise ChartError(f"{path}: {exc}") from None


def path_words(path: list, lang: str, schema, names: dict | None = None) -> str:
    """A finding's path in words: names (*names*: the chart's own, by node id) joined by the relations
    (chart hops in brackets)."""
    out, names = [], names or {}
    for hop in path:
        if "node" in hop and hop["node"]["label"] == "Fact":
            continue  # a reified fact: its OBJECT and QUALIFIER hops read as one "-role->"
        if hop.get("rel") == "OBJECT":
            continue
        if hop.get("rel") == "QUALIFIER":
            out.append(f"-{hop['key'].rsplit('/', 1)[-1]}->")
            continue
        if "node" in hop:
            slot = f"{hop['slot']} " if hop.get("slot") else ""
            out.append(f"{slot}{names.get(hop['node']['id'], hop['node']['name'])}")
        elif "value" in hop:
            out.append(f"{hop.get('slot') or ''} {hop['value']}")
        elif hop.get("chart"):
            zh, en = CHART_HOPS.get(hop["rel"], (hop["rel"], hop["rel"].lower()))
            out.append(f"[{zh if lang != 'en' else en}]")
        else:
            rdef = schema.relations.get(hop["rel"])
            word = (rdef.zh if lang == "zh" else rdef.ko if lang == "ko" else rdef.en.split(" (")[0]) if rdef else hop["rel"]
            out.append(f"-{word}->" if hop.get("forward", True) else f"<-{word}-")
    return " ".join(out)


#: the words of the readable reading, by language
WORDS = {"zh": {"topic": "占事", "general": "總占 (無占事)", "every": "諸占事 (*)", "general_rules": "通則",
                "tally": "吉凶統計", "needs": "待斷"},
         "ko": {"topic": "점사", "general": "총점 (점사 없음)", "every": "모든 점사 (*)", "general_rules": "통칙",
                "tally": "길흉 집계", "needs": "판단 필요"},
         "en": {"topic": "topic", "general": "(general reading)", "every": "every topic (*)", "general_rules": "general",
                "tally": "tally", "needs": "needs judgment"}}


def render_reading(reading: dict, lang: str, topic_names: dict | None = None) -> str:
    """Findings grouped by system and topic, one line each; then the tally and the judgment list, in the words
    of *lang* (*topic_names*: a topic's zh name → its names, {"ko", "en"})."""
    from leishen.loaders.schema import load_schema
    schema = load_schema()
    words, names = WORDS[lang], topic_names or {}

    def topic(name):  # a topic's zh name in the chosen language
        return (names.get(name) or {}).get(lang) or name

    asked = reading["topic"]
    shown = words["general"] if asked is None else words["every"] if asked == "*" else topic(asked)
    lines = [f"{(reading.get('moment') or {}).get('local', '')}  {words['topic']}: {shown}"]
    groups: dict = {}
    for f in reading["findings"]:
        groups.setdefault((f["system"], f["topic"] or "general", f["query"]), []).append(f)
    for (system, name, query), items in sorted(groups.items()):
        lines.append(f"\n【{system} · {words['general_rules'] if name == 'general' else topic(name)} · {query}】")
        for f in items:
            mean = (f["meaning"] or {}).get(lang) or (f["meaning"] or {}).get("zh") or ""
            judge = f"  ({words['needs']})" if f["certainty"] == "needs_judgment" else ""
            path = path_words(f["path"], lang, schema, reading.get("names"))
            lines.append(f" {MARKS.get(f['polarity'], ' ')} {mean}{judge}  ⟵ {path}  [{', '.join(f['src'])}]")
    lines.append(f"\n{words['tally']}: " + "; ".join(
        f"{words['general_rules'] if t == 'general' else topic(t)}: " + " ".join(f"{k}{v}" for k, v in row.items())
        for t, row in reading["tally"].items()))
    judged = [f for f in reading["findings"] if f["certainty"] == "needs_judgment"]
    if judged:
        lines.append(f"{words['needs']} ({len(judged)}):")
        lines += [f"  {(f['meaning'] or {}).get(lang) or (f['meaning'] or {}).get('zh')}: {f['judgment']}  "
                  f"[{', '.join(f['src'])}]" for f in judged]
    return "\n".join(lines)


@click.command("read")
@click.argument("moment", required=False)
@click.option("--tz", default=None, help="IANA time zone for a moment without offset")
@click.option("--fold", type=click.IntRange(0, 1), default=None, help="which of an ambiguous local time (DST end)")
@click.option("--topic", default=None, help="a topic in zh, ko or en (射覆, 求財, 占天時 / weather divination …), or '*' for every topic; none: the general reading")
@click.option("--lang", type=click.Choice(LANGS), default="zh", show_default=True, help="language of the meanings")
@click.option("--chart", "typed", type=click.Path(dir_okay=False, allow_dash=True), default=None,
              help="read a chart typed by hand (the JSON shape of `leishen chart --json`)")
@request_options
@backend_options
@click.option("--json", "as_json", is_flag=True, help="machine-readable JSON on stdout")
@handle_errors
def read(moment, tz, fold, topic, lang, typed, backend, uri, user, password, as_json, systems, day_boundary, longitude,
         birth_year, sex, qimen_opt, ninestar_opt, **liuren):
    """Read the chart of MOMENT (default now; or --chart FILE), computed with the options given (as `leishen chart`
    takes them): every rule it meets, with its path and citations."""
    from leishen.engine.chart import ChartRequest
    from leishen.service.charts import chart_of
    if moment is not None and typed is not None:
        raise ChartError("give MOMENT or --chart FILE, not both")
    if typed == "":
        raise ChartError("--chart: the file name is empty")
    request = request_of(systems, day_boundary, longitude, birth_year, sex, qimen_opt, ninestar_opt, liuren)
    if typed and (tz is not None or fold is not None or request != ChartRequest()):
        raise ChartError("--tz, --fold and the chart options set how a MOMENT is charted; a chart from --chart FILE "
                         "carries its own")
    r = _reader(backend, uri, user, password)
    chart = _load_chart(typed) if typed else chart_of(moment, request, tz=tz, fold=fold)
    reading = r.read(chart, topic=topic)
    if as_json:
        click.echo(json.dumps(reading, ensure_ascii=False))
        return
    click.echo(render_reading(reading, lang, {t["zh"]: t for t in r.topics()}))


@click.command("find")
@click.argument("rule")
@click.option("--from", "start", required=True, help="start of the range (ISO, with offset or --tz)")
@click.option("--to", "end", required=True, help="end of the range (inclusive)")
@click.option("--tz", default=None, help="IANA time zone for moments without offset")
@click.option("--step", type=click.Choice(["hour", "day"]), default="hour", show_default=True)
@click.option("--topic", default=None, help="the topic whose rules count")
@backend_options
@click.option("--json", "as_json", is_flag=True, help="JSON lines (the default output is JSON lines too)")
@handle_errors
def find(rule, start, end, tz, step, topic, backend, uri, user, password, as_json):
    """The moments from --from to --to where RULE holds, as JSON lines (progress on stderr)."""
    from leishen.readings.search import find as run_find, moments, range_ends
    r = _reader(backend, uri, user, password)
    t0, t1 = range_ends(start, end, tz, names=("from", "to"))
    total = sum(1 for _ in moments(t0, t1, step, names=("from", "to")))
    with click.progressbar(length=total, label="find", file=sys.stderr) as bar:
        for hit in run_find(r, rule, t0, t1, step=step, topic=topic, progress=lambda _t: bar.update(1)):
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
