"""One line that answers the question, in zh, ko and en (``summary`` on every judgment): the verdict and the line
that decides it; for a topic the texts ask *what* (射覆, 天時, 穿地 …) its first decided answers (射覆: the guessed
object first; 天時: rain or fine, and when); a conflict names both sides; nothing internal (no row id, no
convention number) is shown. Made from the judgment itself and the reading's findings, never from a rule."""

from __future__ import annotations

LANGS = ("zh", "ko", "en")
SEP = {"zh": "；", "ko": "; ", "en": "; "}
COLON = {"zh": "：", "ko": ": ", "en": ": "}
WHAT_FIRST = ("物類", "雨否", "晴否", "雪", "地下之物")  # the answer a what-topic is asked for, shown first
WHAT_MAX = 4  # the descriptive answers a summary line names at most
NO_ANSWER = {"zh": "此局無文可斷", "ko": "이 국에는 판단할 글이 없다", "en": "no line of the text answers it on this chart"}
UNDECIDED = {"zh": "未定", "ko": "미정", "en": "undecided"}
AGAINST = {"zh": "對", "ko": "대", "en": "against"}
PLACES_DIFFER = {"zh": "各宮不同", "ko": "궁마다 다르다", "en": "the places differ"}
ON = {"zh": "應期", "ko": "응기", "en": "on"}
SYSTEM_NAMES = {"大六壬": {"zh": "大六壬", "ko": "대육임", "en": "Liu Ren"},
                "奇門": {"zh": "奇門", "ko": "기문", "en": "Qimen"},
                "九星": {"zh": "九星", "ko": "구성", "en": "Nine Stars"}}  # the general reading's facets


def _name(names: dict | None, lang: str, fallback: str = "") -> str:
    """A name in *lang*, else zh, else *fallback*."""
    names = names or {}
    return names.get(lang) or names.get("zh") or fallback


def _cite(src) -> str:
    return f" [{', '.join(src)}]" if src else ""


def _line(fid: str, by_id: dict, lang: str) -> str:
    """What a finding says (its meaning) in *lang*, with its citation."""
    f = by_id.get(fid) or {}
    return _name(f.get("meaning"), lang, fid) + _cite(f.get("src"))


def _answer_text(answer: dict, lang: str) -> str:
    return answer.get(lang) or answer.get("zh") or answer.get("value") or ""


def _conflict_text(facet: dict, lang: str) -> str:
    """Both sides of a conflict, each with its first deciding line."""
    sides = [f"{_answer_text(a, lang)}{_cite((a.get('src') or [])[:2])}" for a in facet["conflict"] or ()]
    return f" {AGAINST[lang]} ".join(sides)


def _dates(j: dict, lang: str) -> str:
    """The first 應期 dates of a judgment (at most two), or ""."""
    days = [f"{w['date']} {w['pillar']}" for w in j.get("when") or () if w.get("date")][:2]
    return f"{SEP[lang]}{ON[lang]} {', '.join(days)}" if days else ""


def verdict_line(j: dict, by_id: dict, lang: str) -> str:
    """A whether-topic: the verdict and the line that decides it, or both sides of its conflict."""
    facet = next((f for f in j["facets"] if f["verdict"]), None)
    head = f"{_name(j['names'], lang)}{COLON[lang]}"
    if facet is None or facet["status"] == "open":
        return head + NO_ANSWER[lang]
    if facet["status"] == "未定":
        return f"{head}{UNDECIDED[lang]} — {_conflict_text(facet, lang)}"
    verdict = _name(j["verdict_names"], lang, j["verdict"])
    if len({a["value"] for a in facet["answer"]}) > 1:
        return f"{head}{verdict} — {PLACES_DIFFER[lang]}"
    return f"{head}{verdict} — {_line(facet['findings'][0], by_id, lang)}{_dates(j, lang)}"


def what_line(j: dict, by_id: dict, lang: str) -> str:
    """A what-topic: its first decided answers (the thing asked for first), a conflict as both sides."""
    facets = sorted(j["facets"], key=lambda f: f["facet"] not in WHAT_FIRST)
    parts = []
    for f in facets:
        if f["status"] == "decided":
            values = "、".join(_answer_text(a, lang) for a in f["answer"][:2])
            parts.append(f"{_name(f['names'], lang)}{COLON[lang]}{values}")
        elif f["status"] == "未定" and f["facet"] in WHAT_FIRST:
            parts.append(f"{_name(f['names'], lang)}{COLON[lang]}{UNDECIDED[lang]} ({_conflict_text(f, lang)})")
        if len(parts) == WHAT_MAX:
            break
    body = SEP[lang].join(parts) if parts else NO_ANSWER[lang]
    return f"{_name(j['names'], lang)}{COLON[lang]}{body}{_dates(j, lang)}"


def general_summary(j: dict, by_id: dict, lang: str) -> str:
    """The general reading: each system's 吉凶 and its deciding line."""
    parts = []
    for f in j["facets"]:
        name = _name(SYSTEM_NAMES.get(f["facet"]) or f["names"], lang)
        if f["status"] == "decided":
            parts.append(f"{name} {_answer_text(f['answer'][0], lang)}{_cite(f['src'][:2])}")
        elif f["status"] == "未定":
            parts.append(f"{name} {UNDECIDED[lang]}")
    return SEP[lang].join(parts) or NO_ANSWER[lang]


def summary_of(j: dict, by_id: dict) -> dict:
    """The judgment's one-line answer in zh, ko and en (*by_id*: the reading's findings by id)."""
    if j["topic"] is None:
        make = general_summary
    elif any(f["verdict"] for f in j["facets"]):
        make = verdict_line
    else:
        make = what_line
    return {lang: make(j, by_id, lang) for lang in LANGS}
