"""``leishen chart``: a chart from a moment, a batch of moments, or a chart typed by hand."""

from __future__ import annotations

import json
import sys

import click

from leishen.engine.calendar import DAY_BOUNDARIES
from leishen.engine.chart import ChartRequest, parse_systems
from leishen.engine.options import Option, by_system, options
from leishen.errors import ChartError
from leishen.cli.options import EXIT_USAGE, handle_errors
from leishen.service import charts

EXIT_DIFFERS = 1


def _school_flag(spec: Option):
    """The flag of one option of the table: its choices (or bounds), its default, its doc."""
    kind = click.Choice(spec.values) if spec.kind == "choice" else click.IntRange(spec.low, spec.high)
    return click.option(spec.flag, spec.name, type=kind, default=spec.default, show_default=True,
                        help=spec.help(choices=False))


def school_options(func):
    """One flag per school option of engine/options.csv (``--shehai``, ``--qimen-method`` …), in its order."""
    for spec in reversed(options()):
        func = _school_flag(spec)(func)
    return func


def _key_values(pairs: tuple[str, ...], flag: str) -> dict:
    out: dict = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key:
            raise ChartError(f"{flag}: {pair!r} is not KEY=VALUE")
        out[key.strip().replace("-", "_")] = value.strip()
    return out


def request_options(func):
    """The options of a chart's computation (``chart`` and ``read`` take the same): the systems, the calendar,
    every school option of the table as its own flag, the asker's birth, and Qimen / Nine Star options also as
    KEY=VALUE (``--qimen-opt method=zhi_run`` is ``--qimen-method zhi_run``)."""
    options_ = [
        click.option("--system", "systems", default="liuren,qimen,ninestar", show_default=True,
                     help="comma-separated systems: liuren, qimen, ninestar"),
        click.option("--day-boundary", type=click.Choice(DAY_BOUNDARIES), default="23:00", show_default=True,
                     help="子-hour day change: 23:00 (子初換日) or 00:00"),
        click.option("--longitude", type=click.FloatRange(-180.0, 180.0), default=None,
                     help="degrees east: use local true solar time"),
        school_options,
        click.option("--birth-year", type=int, default=None, help="asker's birth year (本命; with --sex also 行年)"),
        click.option("--sex", type=click.Choice(["male", "female"]), default=None, help="asker's sex, for 行年"),
        click.option("--qimen-opt", multiple=True, metavar="KEY=VALUE", help="a Qimen option by its key, as "
                     "--qimen-KEY (e.g. method=zhi_run); overrides that flag"),
        click.option("--ninestar-opt", multiple=True, metavar="KEY=VALUE", help="a Nine Star option by its key, as "
                     "--ninestar-KEY (e.g. day_leap=end_anchored); overrides that flag"),
    ]
    for option in reversed(options_):
        func = option(func)
    return func


def request_of(systems, day_boundary, longitude, birth_year, sex, qimen_opt, ninestar_opt, school: dict) -> ChartRequest:
    """The ChartRequest of the :func:`request_options` given (*school*: the school flags by option name)."""
    per_system = by_system(school)
    per_system["qimen"].update(_key_values(qimen_opt, "--qimen-opt"))
    per_system["ninestar"].update(_key_values(ninestar_opt, "--ninestar-opt"))
    return ChartRequest(parse_systems(systems), day_boundary, longitude, per_system["liuren"], per_system["qimen"],
                        per_system["ninestar"], birth_year, sex)


@click.command("chart")
@click.argument("moment", required=False)
@click.option("--tz", default=None, help="IANA time zone for a moment without offset (e.g. Asia/Shanghai); "
                                         "with --batch, the zone of lines without tz")
@click.option("--fold", type=click.IntRange(0, 1), default=None,
              help="a local time the clocks show twice (DST ends): 0 = the first, 1 = the second")
@request_options
@click.option("--batch", "batch", type=click.Path(dir_okay=False, allow_dash=True), default=None,
              help='JSONL file of {"moment": "...", "tz": "...", "fold": 0|1}, one chart (or '
                   '{"line": n, "error": "..."}) per line out ("-" = stdin)')
@click.option("--chart", "typed", type=click.Path(dir_okay=False, allow_dash=True), default=None,
              help="check a chart typed by hand (same JSON shape): exit 1 if it differs from the computed one")
@click.option("--json", "as_json", is_flag=True, help="machine-readable JSON on stdout")
@handle_errors
def chart(moment, tz, fold, systems, day_boundary, longitude, birth_year, sex, qimen_opt, ninestar_opt, batch,
          typed, as_json, **school):
    """Compute the chart of MOMENT (ISO 8601 with offset, or naive with --tz; none or 'now': now)."""
    if sum(x is not None for x in (moment, batch, typed)) > 1:
        raise click.UsageError("give at most one of MOMENT, --batch FILE or --chart FILE")
    if typed is not None:
        _check_typed(typed, as_json)
        return
    request = request_of(systems, day_boundary, longitude, birth_year, sex, qimen_opt, ninestar_opt, school)
    if batch is not None:
        _run_batch(batch, request, tz, as_json)
        return
    _emit(charts.chart_of(moment, request, tz=tz, fold=fold), as_json, render_chart)


def _emit(value: dict, as_json: bool, renderer) -> None:
    click.echo(json.dumps(value, ensure_ascii=False) if as_json else renderer(value))


def _input(path: str) -> str:
    return charts.read_text(path, sys.stdin.buffer.read() if path == "-" else None)


def _check_typed(path: str, as_json: bool) -> None:
    """Malformed → exit 2 (by the error handler); well-formed but differing → exit 1."""
    data = sys.stdin.buffer.read() if path == "-" else None
    result = charts.check_typed_file(path, data)
    _emit(result, as_json, render_validation)
    if not result["agrees"]:
        sys.exit(EXIT_DIFFERS)


def _run_batch(path: str, request: ChartRequest, tz: str | None, as_json: bool) -> None:
    """One chart per input line, in order; a bad line is reported in its place; exit 2 at the end if any was bad."""
    bad = total = 0
    for number, value, ok in charts.batch(_input(path), request, tz=tz, where=path):
        total += 1
        bad += not ok
        if as_json:
            click.echo(json.dumps(value, ensure_ascii=False))
        else:
            click.echo(render_chart(value) if ok else f"line {number}: error: {value['error']}")
            click.echo("")
    if bad:
        click.echo(f"error: {path}: {bad} of {total} lines could not be charted", err=True)
        sys.exit(EXIT_USAGE)


# ---------------------------------------------------------------- readable rendering

SHORT_GENERALS = {"貴人": "貴", "螣蛇": "蛇", "朱雀": "雀", "六合": "合", "勾陳": "勾", "青龍": "龍", "天空": "空",
                  "白虎": "虎", "太常": "常", "玄武": "玄", "太陰": "陰", "天后": "后"}
#: earth branches of the ring: top row, right side (down), bottom row (right to left), left side (up)
RING_TOP, RING_BOTTOM = "巳午未申", "寅丑子亥"
RING_LEFT, RING_RIGHT = "辰卯", "酉戌"


def _cell(liuren: dict, earth: str) -> str:
    heaven = liuren["plate"][earth]
    general = SHORT_GENERALS.get(liuren.get("generals", {}).get(heaven, ""), "  ")
    return f"{heaven}{general}"


def render_liuren(liuren: dict) -> str:
    """The plate as the usual ring (巳午未申 on top, 辰卯 / 酉戌 at the sides, 寅丑子亥 below):
    each cell shows the heaven branch and the general riding it over the earth branch named outside.
    A typed chart may give only the plate and the lessons: a part it leaves out is left out here too."""
    pad = "    "
    lines = [pad + "  ".join(f" {b}  " for b in RING_TOP),
             pad + "  ".join(_cell(liuren, b) for b in RING_TOP)]
    for left, right in zip(RING_LEFT, RING_RIGHT):
        lines.append(f"{left}   {_cell(liuren, left)}" + " " * 20 + f"{_cell(liuren, right)}   {right}")
    lines.append(pad + "  ".join(_cell(liuren, b) for b in RING_BOTTOM))
    lines.append(pad + "  ".join(f" {b}  " for b in RING_BOTTOM))
    lessons = liuren["lessons"][::-1]
    lines.append("四課  " + "  ".join(x["upper"] for x in lessons))
    lines.append("      " + "  ".join(x["lower"] for x in lessons))
    details = liuren.get("transmission_details") or [{"branch": b} for b in liuren.get("transmissions", [])]
    for label, item in zip(("初傳", "中傳", "末傳"), details):
        extras = " ".join(x for x in (item.get("dun") or "", item.get("general", ""),
                                      "空" if item.get("void") else "") if x)
        lines.append(f"{label}  {item['branch']}  {extras}".rstrip())
    if liuren.get("method") or liuren.get("course"):
        lines.append(f"課體  {liuren.get('method', '')}  {'・'.join(liuren.get('course', []))}".rstrip())
    facts = [f"{label} {value}" for label, value in (("月將", liuren.get("month_general")),
                                                     ("旬空", "".join(liuren.get("void", [])))) if value]
    for key, label in (("xun", "旬"), ("horse", "驛馬"), ("month_branch", "月建"), ("tai_sui", "太歲")):
        if key in liuren:
            facts.append(f"{label} {liuren[key]}")
    if "noble" in liuren:
        noble = liuren["noble"]
        facts.append(f"貴人 {noble['branch']}{'晝' if noble['daytime'] else '夜'}{noble['direction']}")
    if facts:
        lines.append("  ".join(facts))
    return "\n".join(lines)


def render_qimen(qimen: dict) -> str:
    """The nine palaces as the 3×3 grid 巽4 離9 坤2 / 震3 中5 兌7 / 艮8 坎1 乾6 (the Qimen engine's renderer)."""
    from leishen.engine.qimen.render import render_qimen_grid
    return render_qimen_grid(qimen)


def render_chart(chart: dict) -> str:
    """A readable rendering of a whole chart."""
    p = chart["pillars"]
    lines = [f"{chart['moment']['local']}  ({chart['moment']['utc']})",
             f"四柱 {p['year']} {p['month']} {p['day']} {p['hour']}   節氣 {chart['solar_term']['name']}"]
    if "liuren" in chart:
        lines += ["", "【大六壬】", render_liuren(chart["liuren"])]
    if "qimen" in chart:
        lines += ["", "【奇門遁甲】", render_qimen(chart["qimen"])]
    if "ninestar" in chart:
        from leishen.engine.ninestar import render_ninestar
        lines += ["", "【九星】", render_ninestar(chart["ninestar"])]
    asker = birth_line(chart)
    if asker:
        lines += ["", asker]
    return "\n".join(lines)


def birth_of(chart: dict) -> dict:
    """The asker's 本命, 行年 and 命星 from a chart cast with a birth year (empty without one): the Liu Ren
    section's (or the chart's own) birth, and the Nine Star section's natal star."""
    birth = (chart.get("liuren") or {}).get("birth") or chart.get("birth") or {}
    natal = (chart.get("ninestar") or {}).get("natal")
    out = {k: birth[k] for k in ("ben_ming", "xing_nian") if birth.get(k)}
    return {**out, "natal": natal} if natal else out


def birth_line(chart: dict, labels: dict | None = None) -> str:
    """本命 … 行年 … 命星 … of a chart cast with a birth year, or "" (*labels*: key → the word shown)."""
    labels = labels or {"ben_ming": "本命", "xing_nian": "行年", "natal": "命星"}
    return "  ".join(f"{labels[k]} {v}" for k, v in birth_of(chart).items())


#: header fields of the Qimen grid a typed chart may leave out (shown as not given)
QIMEN_HEADER = ("xun_head", "duty_star", "duty_gate")


def _render_typed_qimen(qimen: dict) -> str:
    """The typed Qimen grid; a header field it leaves out shows as "—" (the check lists it as not given)."""
    return render_qimen({**{key: "—" for key in QIMEN_HEADER}, **qimen})


def render_validation(result: dict) -> str:
    """A checked hand-typed chart: the rendering, then per system what differs, agrees, was not given."""
    chart, lines = result["chart"], []
    for system, title, render in (("liuren", "【大六壬】", render_liuren), ("qimen", "【奇門遁甲】", _render_typed_qimen),
                                  ("ninestar", "【九星】", _render_ninestar)):
        if system not in chart:
            continue
        check = result["checks"][system]
        lines += [title, render(chart[system])]
        if check["computed_from"] is None:
            lines.append(f"not recomputed: {check['note']}")
        else:
            lines.append(f"recomputed from {check['computed_from']}: {len(check['agrees'])} fields agree, "
                         f"{len(check['differences'])} differ")
        for item in check["differences"]:
            lines.append(f"differs {item['field']}: typed {_show(item['typed'])} computed {_show(item['computed'])}")
        if check["not_given"]:
            lines.append("not given: " + ", ".join(check["not_given"]))
        if check["not_checked"]:
            lines.append("not checked: " + ", ".join(check["not_checked"]))
    lines.append("the typed chart agrees with the computed one" if result["agrees"]
                 else "the typed chart differs from the computed one")
    return "\n".join(lines)


def _show(value) -> str:
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)


def _render_ninestar(section: dict) -> str:
    from leishen.engine.ninestar import fly, render_ninestar
    plates = {key: section.get("plates", {}).get(key) or fly(section[key]) for key in ("year", "month", "day")}
    return render_ninestar({**section, "plates": plates})
