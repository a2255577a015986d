"""The readable reading of ``leishen read`` (issue #28 item 7): the chart first — pillars; 四課 and 三傳 with their
天將, 六親 and 遁干; 課體 and the 九宗門 method; the Qimen 局, 值符 and 值使; the three star plates — then per topic
read its judgment: the verdict line and the 用神, each facet with its answer and citations, the 應期 dates and the
conflicts. Every word of the scaffolding is read from ``ontology/readings/ui_words.csv`` in the chosen language."""

from __future__ import annotations

import csv
import io
from functools import lru_cache
from pathlib import Path

WORDS_TABLE = Path(__file__).resolve().parents[1] / "ontology" / "readings" / "ui_words.csv"
TRANSMISSION_SLOTS = ("初傳", "中傳", "末傳")
LESSON_SLOTS = ("課1上", "課2上", "課3上", "課4上")
REASONS_SHOWN = 6
MARKS = {"吉": "○", "凶": "×", "平": "·", "混": "±", "未定": "?"}
AVOID = {"zh": "忌", "ko": "피할 것: ", "en": "avoid: "}  # an AVOIDS line (忌, 怕) says what to avoid


@lru_cache(maxsize=1)
def _table() -> dict[str, dict[str, str]]:
    """key → {zh, ko, en} of the words table (of the ontology folder in use)."""
    from leishen.errors import OntologyError
    from leishen.loaders.regular import read_utf8
    from leishen.loaders.schema import ontology_dir
    text = read_utf8(ontology_dir() / "readings" / WORDS_TABLE.name, f"readings/{WORDS_TABLE.name}", OntologyError)
    return {row["key"]: row for row in csv.DictReader(io.StringIO(text, newline=""))}


def word(key: str, lang: str) -> str:
    """The word *key* in *lang* (the table's en when the language's cell is empty)."""
    row = _table()[key]
    return row.get(lang) or row["en"]


def words(key: str, lang: str) -> list[str]:
    """A row of several words (e.g. the three transmissions' names), split on spaces."""
    return word(key, lang).split()


def kin_from_findings(reading: dict) -> dict[str, str]:
    """slot (初傳 …) → the 六親 its kin finding names (the reading's ``kin`` findings: KIN_BRANCH facts of the day
    stem, 000:23–31), as the web page reads them."""
    out = {}
    for f in reading.get("findings") or ():
        if f.get("query") == "kin":
            for slot in (f.get("bindings") or {}).keys() & set(TRANSMISSION_SLOTS):
                out[slot] = (f.get("meaning") or {}).get("zh") or ""
    return out


def kin_from_graph(reader, day_stem: str, branches: dict[str, str]) -> dict[str, str]:
    """slot → the 六親 of the branch bound to it (*branches*: slot → Branch id) to the day stem node *day_stem*:
    the graph's KIN_BRANCH relations, asked once through the named query ``relations_from`` (no variant row)."""
    rows = reader.backend.run("relations_from", node_ids=[day_stem], types=["KIN_BRANCH"])
    by_branch = {r["target"]["id"]: reader.props.get(r["qualifiers"].get("kin"), {}).get("name", "")
                 for r in rows if not r.get("variant")}
    return {slot: by_branch[b] for slot, b in branches.items() if b in by_branch}


def kin_of_slots(reading: dict, reader=None) -> dict[str, str]:
    """slot (課1上 … 課4上, 初傳 中傳 末傳) → its 六親 to the day stem: a transmission's from the reading's kin
    finding; a slot without one (the 四課) from the graph, when a *reader* is given."""
    out = kin_from_findings(reading)
    bindings = reading.get("bindings") or {}
    missing = {s: bindings[s] for s in (*LESSON_SLOTS, *TRANSMISSION_SLOTS)
               if s not in out and isinstance(bindings.get(s), str)}
    if reader is not None and missing and isinstance(bindings.get("日干"), str):
        out.update(kin_from_graph(reader, bindings["日干"], missing))
    return out


def _width_of(text: str) -> str:
    """*text*'s display width (a CJK character is two columns)."""
    from leishen.cli.options import _width
    return _width(text)


def _pad(text: str, width: int) -> str:
    """*text* padded to *width* display columns (a CJK character is two)."""
    return text + " " * max(0, width - _width_of(text))


def _cells(values: list[str]) -> str:
    return " ".join(_pad(v or "—", 4) for v in values).rstrip()


def liuren_lines(liuren: dict, lang: str, kin: dict | None = None) -> list[str]:
    """四課 (fourth to first, as the board reads) with 天將, 六親 (*kin*: slot → 六親, :func:`kin_of_slots`) and
    遁干 over each, the lower beneath; 三傳 with the same; 課體 and the 九宗門 method; 月將, 旬空 and 貴人."""
    kin = kin or {}
    generals, dun = liuren.get("generals") or {}, liuren.get("dun") or {}
    lessons = (liuren.get("lessons") or [])[::-1]
    rows = words("lesson_rows", lang)
    names = words("transmission_names", lang)
    width = max(_width_of(x) for x in rows + names) + 1
    out = [f"{word('lessons', lang)}"]
    uppers = [x["upper"] for x in lessons]
    kins = [kin.get(slot, "") for slot in LESSON_SLOTS[:len(lessons)][::-1]]  # 課4上 first, as the board reads
    for label, values in zip(rows, (uppers, [generals.get(u, "") for u in uppers], kins,
                                    [dun.get(u, "") for u in uppers], [x["lower"] for x in lessons])):
        out.append(f"  {_pad(label, width)} {_cells(values)}")
    details = liuren.get("transmission_details") or [{"branch": b} for b in liuren.get("transmissions", [])]
    if details:
        out.append(word("transmissions", lang))
        for name, slot, item in zip(names, TRANSMISSION_SLOTS, details):
            b = item["branch"]
            extra = word("void", lang) if item.get("void") else ""
            cells = [b, item.get("general") or generals.get(b, ""), kin.get(slot, ""), item.get("dun") or dun.get(b, "")]
            out.append(f"  {_pad(name, width)} {_cells(cells)}  {extra}".rstrip())
    facts = []
    if liuren.get("course") or liuren.get("method"):
        facts.append(f"{word('course', lang)} {'・'.join(liuren.get('course') or [])}  "
                     f"{word('method', lang)} {liuren.get('method') or '—'}")
    tail = [f"{word(k, lang)} {v}" for k, v in (("month_general", liuren.get("month_general")),
                                               ("xun_void", "".join(liuren.get("void") or [])))
            if v]
    if "noble" in liuren:
        n = liuren["noble"]
        tail.append(f"{word('noble', lang)} {n['branch']}{'晝' if n['daytime'] else '夜'}{n['direction']}")
    return out + ["  ".join(facts + tail)] if facts or tail else out


def qimen_line(qimen: dict, lang: str) -> str:
    """陰/陽遁 N 局 with its 元, the 值符 star and its palace, the 值使 gate and its palace."""
    return (f"{qimen.get('dun', '')}遁{qimen.get('ju', '')}{word('qimen_ju', lang)} {qimen.get('yuan', '')}  "
            f"{word('duty_star', lang)} {qimen.get('duty_star', '—')}→{qimen.get('duty_star_palace', '—')}  "
            f"{word('duty_gate', lang)} {qimen.get('duty_gate', '—')}→{qimen.get('duty_gate_palace', '—')}")


def ninestar_lines(section: dict, lang: str) -> list[str]:
    """The year, month and day plates, each as its nine stars in the Lo Shu square (three rows)."""
    from leishen.engine.ninestar import fly
    plates = section.get("plates") or {}
    names = words("star_plates", lang)
    grids = []
    for key, name in zip(("year", "month", "day"), names):
        if not section.get(key):
            continue
        plate = plates.get(key) or fly(section[key])
        grids.append((f"{name} {section[key]}", _square(plate)))
    if not grids:
        return []
    out = ["  ".join(_pad(title, 16) for title, _ in grids).rstrip()]
    for k in range(3):
        out.append("  ".join(_pad(rows[k], 16) for _, rows in grids).rstrip())
    return out


def _square(plate) -> list[str]:
    """The nine stars of a plate (palace number → star, or a list by palace) in rows 4 9 2 / 3 5 7 / 8 1 6."""
    at = plate if isinstance(plate, dict) else {i + 1: s for i, s in enumerate(plate)}
    at = {int(k): v for k, v in at.items()}
    return [" ".join(at.get(p) or "—" for p in row) for row in ((4, 9, 2), (3, 5, 7), (8, 1, 6))]


def chart_lines(chart: dict, lang: str, kin: dict | None = None) -> list[str]:
    """The chart part of the readable reading (*kin*: slot → 六親, :func:`kin_of_slots`)."""
    p = chart.get("pillars") or {}
    moment = (chart.get("moment") or {}).get("local", "")
    term = (chart.get("solar_term") or {}).get("name", "")
    out = [f"{moment}  {word('pillars', lang)} {p.get('year', '')} {p.get('month', '')} {p.get('day', '')} "
           f"{p.get('hour', '')}  {word('term', lang) + ' ' + term if term else ''}".rstrip()]
    if "liuren" in chart:
        out += [f"【{word('system.liuren', lang)}】", *liuren_lines(chart["liuren"], lang, kin)]
    if "qimen" in chart:
        out += [f"【{word('system.qimen', lang)}】", qimen_line(chart["qimen"], lang)]
    if "ninestar" in chart:
        out += [f"【{word('system.ninestar', lang)}】", *ninestar_lines(chart["ninestar"], lang)]
    from leishen.cli.chart import birth_line
    asker = birth_line(chart, {k: word(k, lang) for k in ("ben_ming", "xing_nian", "natal")})
    return out + [asker] if asker else out


def _meaning_key(meaning: dict | None, polarity: str | None, src=()) -> tuple:
    """What makes two lines read the same: the meaning's zh (its id where it has no zh), the polarity and the
    citations (the same meaning from another line is that line's, and is named)."""
    return ((meaning or {}).get("zh") or (meaning or {}).get("id"), polarity, tuple(src or ()))


def _name(item: dict | None, lang: str) -> str:
    """A named thing's name in *lang* (zh as the fallback)."""
    item = item or {}
    return item.get(lang) or item.get("zh") or item.get("name") or item.get("value") or ""


def _src(src) -> str:
    return f"[{', '.join(src)}]" if src else ""


def _why(reason: dict, lang: str, meanings: dict) -> str:
    """A reason as the meaning of its finding (*meanings*: finding id → its meaning) in *lang*, then why it
    weighs (zh where the judgment gives no text in *lang*)."""
    why = reason.get("why") or {}
    why = (why.get(lang) or why.get("zh") or "") if isinstance(why, dict) else str(why)
    meaning = _name(meanings.get(reason.get("finding")), lang)
    return f"{meaning} — {why}" if meaning and why else meaning or why


def _reason(entry: dict, lang: str) -> str:
    """Why an 應期 has no date, in *lang*: its ``judgment_names`` (issue #31), else the notes table's rendering of
    its ``judgment``, else that English reason."""
    from leishen.service.notes import judgment_note
    text = entry.get("judgment") or ""
    return (entry.get("judgment_names") or {}).get(lang) or judgment_note(text, lang) or text


def judgment_lines(j: dict, lang: str, topic_name: str, meanings: dict | None = None) -> list[str]:
    """One judgment: the verdict line, the 用神, each facet with its answer, the 應期 dates and the conflicts."""
    by = j.get("verdict_by") or {}
    head = f"{MARKS.get(j['verdict'], ' ')} {word('verdict', lang)} {j['verdict']}"
    if by.get("convention") and by.get(lang):  # a 平 no facet gave (J3, J4): why, in the reader's language
        head += f"  ({by[lang]})"
    elif by.get("facet"):
        facet = next((f for f in j.get("facets", []) if f["facet"] == by["facet"]), {})
        head += f"  ({word('verdict_by', lang)} {_name(facet.get('names'), lang) or by['facet']} {_src(by.get('src'))})"
    out = [f"== {topic_name} =="]
    if (j.get("summary") or {}).get(lang):
        out.append(f"» {j['summary'][lang]}")
    out.append(head)
    gods = list(dict.fromkeys(f"{g.get('slot', '')} {_name(g.get('node'), 'zh')}" for g in j.get("use_god", [])))
    if gods:
        src = sorted({s for g in j["use_god"] for s in g.get("src") or []})
        out.append(f"{word('use_god', lang)}: " + "; ".join(gods) + f" {_src(src)}")
    for f in j.get("facets", []):
        if f["status"] == "not asked":
            continue
        answers = "、".join(_name(a, lang) + (f"@{a['place']}" if a.get("place") else "") for a in f.get("answer", []))
        status = {"decided": "", "open": word("open", lang), "未定": word("undecided", lang)}.get(f["status"], f["status"])
        out.append(f"  {_name(f.get('names'), lang) or f['facet']}: {answers or '—'} {status} "
                   f"{_src(f.get('src') or f.get('heading_src'))}".rstrip().replace("  ", " "))
        asked = (f.get("questions") or ())[:None if f.get("verdict") else 2]  # every question on the verdict
        out += [f"    ? {q['ask'][lang]} {_src(q.get('src'))}" for q in asked]
    gods_found = {g.get("finding") for g in j.get("use_god", []) if g.get("finding")}
    reasons = [r for r in j.get("reasons") or [] if r.get("finding") not in gods_found]
    if reasons:
        out.append(f"{word('reasons', lang)}:")
        out += list(dict.fromkeys(  # two rows of one line giving the same meaning read the same: shown once
            f"  {MARKS.get(r.get('polarity'), ' ')} {AVOID[lang] if r.get('avoid') else ''}{_why(r, lang, meanings or {})} "
            f"{_src(r.get('src'))}"
            for r in reasons[:REASONS_SHOWN]))
    meanings = meanings or {}
    answered = {fid for f in j.get("facets", []) if f["status"] != "not asked" for fid in f.get("findings") or ()}
    shown = {_meaning_key(meanings.get(r["finding"]), r.get("polarity"), r.get("src")) for r in reasons[:REASONS_SHOWN]}
    rest = [{"meaning": meanings.get(r["finding"]) or {}, "polarity": r.get("polarity"), "src": r.get("src"),
             "avoid": r.get("avoid")}
            for r in reasons[REASONS_SHOWN:] if r["finding"] not in answered
            and _meaning_key(meanings.get(r["finding"]), r.get("polarity"), r.get("src")) not in shown] \
        + list(j.get("also") or ())
    if rest:  # every other line that holds, on one line: nothing the text says of this chart is hidden
        out.append(f"{word('also', lang)}: " + "; ".join(dict.fromkeys(
            f"{MARKS.get(a.get('polarity'), '')}{AVOID[lang] if a.get('avoid') else ''}{_name(a.get('meaning'), lang)} "
            f"{_src(a.get('src'))}" for a in rest)))
    if j.get("beside"):  # the other art's class symbols of the same question: named, never weighed
        out.append(f"{word('beside', lang)}: " + "; ".join(dict.fromkeys(
            f"{'·'.join(b.get('at') or ())} → {_name(b.get('meaning'), lang)} {_src(b.get('src'))}" for b in j["beside"])))
    dates = [f"{w['date']} {w.get('pillar') or ''} ({_name(w.get('for'), lang)}{' ' + w['speed'] if w.get('speed') else ''}) "
             f"{_src(w.get('src'))}" if w.get("date") else
             f"{_name(w.get('for'), lang)}: {word('undated', lang)} ({_reason(w, lang)}) {_src(w.get('src'))}"
             for w in j.get("when", [])]
    dates += [f"{_name(u.get('for'), lang) + ': ' if u.get('for') else ''}{u['why'][lang]} {_src(u.get('src'))}".strip()
              for u in j.get("undated", [])]
    if dates:
        out.append(f"{word('when', lang)}: " + "; ".join(dates))
    for c in j.get("conflicts", []):
        sides = " / ".join(f"{_name(a.get('answer') or a, lang)} {_src(a.get('src'))}" for a in c.get("answers", []))
        facet = next((f for f in j.get("facets", []) if f["facet"] == c["facet"]), {})
        out.append(f"{word('conflicts', lang)} {_name(facet.get('names'), lang) or c['facet']}: {sides}")
    if j.get("overridden"):
        out.append(f"{word('overridden', lang)}: " + "; ".join(dict.fromkeys(  # what is set aside ← what sets it aside
            f"{_name(meanings.get(o['finding']), lang)} {_src(o['src'])} ← "
            f"{_name(meanings.get(o['by']), lang)} {_src(o['by_src'])}".strip() for o in j["overridden"])))
    read_on = j.get("read_on") or {}
    if read_on.get("term"):
        out.append(f"{word('read_on', lang)}: {read_on['term']} {read_on['moment']['local']} {_src(read_on.get('src'))}")
    return out


def render_judged(reading: dict, lang: str, topic_names: dict | None = None, reader=None) -> str:
    """The chart, then the judgment of each topic asked (the general reading's when none is), then the count of
    findings and the tally (``--all`` shows every finding). *reader*: the graph the 四課's 六親 are asked of
    (the 三傳's come from the reading's kin findings); without one those cells stay empty."""
    names = topic_names or {}
    lines = chart_lines(reading.get("chart") or {}, lang, kin_of_slots(reading, reader))
    judged = reading.get("judgments") or []
    asked = [j for j in judged if j.get("topic") is not None] or judged[:1]
    meanings = {f["id"]: f.get("meaning") for f in reading.get("findings") or []}
    for j in asked:
        title = word("general", lang) if j.get("topic") is None else \
            (names.get(j["topic"]) or {}).get(lang) or _name(j.get("names"), lang) or j["topic"]
        lines += ["", *judgment_lines(j, lang, title, meanings)]
    tally = reading.get("tally") or {}
    count = len(reading.get("findings") or [])
    marks = "; ".join((word("general_rules", lang) if t == "general" else (names.get(t) or {}).get(lang) or t)
                      + " " + " ".join(f"{k}{v}" for k, v in row.items()) for t, row in tally.items())
    lines += ["", f"{word('findings', lang)} {count}  {word('tally', lang)}: {marks}  {word('all_hint', lang)}"]
    return "\n".join(lines)
