"""The readable text of a reading (``leishen read``): every finding grouped by system and topic (``--all``)."""

from __future__ import annotations

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
            out.append(f"-{_label('edge', hop['key'].rsplit('/', 1)[-1], lang)}->")
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


def evidence_words(finding: dict, lang: str, schema, names: dict | None = None) -> list[str]:
    """The other conditions the rule tested, each a walk of its evidence in words (issue #29 item 10: 火 死 → 白
    shows the vigour 死 beside 火 -colour-> 白); a walk of one node (a slot the path reads already) says nothing
    new and is left out, and so is a walk whose words the path or an earlier walk already shows."""
    shown, out = {path_words(finding.get("path") or [], lang, schema, names)}, []
    for walk in finding.get("evidence") or ():
        if sum(1 for hop in walk if "rel" in hop) == 0:
            continue
        words = path_words(walk, lang, schema, names)
        if words and not any(words in seen for seen in shown):
            shown.add(words)
            out.append(words)
    return out


def _words(lang: str) -> dict:
    """The scaffolding words of the readable reading in *lang*, from ``ontology/readings/ui_words.csv``."""
    from leishen.cli.render_judged import word
    return {k: word(k, lang) for k in ("topic", "general", "every", "general_rules", "tally", "needs")}


def _label(kind: str, key: str, lang: str) -> str:
    """A system, query or edge name (``system.liuren``, ``query.kin``, ``edge.stage``) in *lang*; the key itself
    when the words table has no row for it."""
    from leishen.cli.render_judged import _table, word
    return word(f"{kind}.{key}", lang) if f"{kind}.{key}" in _table() else key


def needs_note(f: dict, lang: str) -> str:
    """Why a finding needs judgment in *lang*: the tables' reason (written in English) as
    ``ontology/readings/judgment_notes.csv`` renders it (:func:`leishen.service.notes.judgment_note`); where it
    has no rendering yet, in zh and ko the reason's own Chinese term before its colon, if it has one, else "…"
    (and the list's header points to ``--lang en`` once, see :func:`untranslated`)."""
    from leishen.service.notes import judgment_note
    note = f.get("judgment") or ""
    shown = judgment_note(note, lang)
    if shown is not None:
        from leishen.judgments.tables import plain_note
        return plain_note(shown)  # no project references (conventions §, row ids) before a user
    head = note.split(":", 1)[0] if ":" in note else ""
    return head if head and not any("a" <= c.lower() <= "z" for c in head) else "…"


def untranslated(judged: list[dict], lang: str) -> bool:
    """Whether some of the needs-judgment findings *judged* have no rendering of their reason in *lang*."""
    from leishen.service.notes import judgment_note
    return lang != "en" and any(judgment_note(f.get("judgment") or "", lang) is None for f in judged)


def render_reading(reading: dict, lang: str, topic_names: dict | None = None) -> str:
    """Findings grouped by system and topic, one line each; then the tally and the judgment list, in the words
    of *lang* (*topic_names*: a topic's zh name → its names, {"ko", "en"})."""
    from leishen.loaders.schema import load_schema
    schema = load_schema()
    words, names = _words(lang), topic_names or {}

    def topic(name):  # a topic's zh name in the chosen language
        return (names.get(name) or {}).get(lang) or name

    asked = reading["topic"]
    shown = words["general"] if asked is None else words["every"] if asked == "*" else topic(asked)
    lines = [f"{(reading.get('moment') or {}).get('local', '')}  {words['topic']}: {shown}"]
    groups: dict = {}
    for f in reading["findings"]:
        groups.setdefault((f["system"], f["topic"] or "general", f["query"]), []).append(f)
    for (system, name, query), items in sorted(groups.items()):
        lines.append(f"\n【{_label('system', system, lang)} · {words['general_rules'] if name == 'general' else topic(name)}"
                     f" · {_label('query', query, lang)}】")
        for f in items:
            mean = (f["meaning"] or {}).get(lang) or (f["meaning"] or {}).get("zh") or ""
            judge = f"  ({words['needs']})" if f["certainty"] == "needs_judgment" else ""
            if f.get("alternative"):  # the other school's finding (issue #29 item 5)
                judge += f"  ({_label('word', 'alternative', lang)}: " + ", ".join(
                    f"{k}={v}" for k, v in f["alternative"].items()) + ")"
            path = " ＋ ".join([path_words(f["path"], lang, schema, reading.get("names"))] +
                              evidence_words(f, lang, schema, reading.get("names")))
            lines.append(f" {MARKS.get(f['polarity'], ' ')} {mean}{judge}  ⟵ {path}  [{', '.join(f['src'])}]")
    lines.append(f"\n{words['tally']}: " + "; ".join(
        f"{words['general_rules'] if t == 'general' else topic(t)}: " + " ".join(f"{k}{v}" for k, v in row.items())
        for t, row in reading["tally"].items()))
    judged = [f for f in reading["findings"] if f["certainty"] == "needs_judgment"]
    if judged:
        from leishen.cli.render_judged import word
        pointer = f" {word('needs_untranslated', lang)}" if untranslated(judged, lang) else ""
        lines.append(f"{words['needs']} ({len(judged)}):{pointer}")
        lines += [f"  {(f['meaning'] or {}).get(lang) or (f['meaning'] or {}).get('zh')}: {needs_note(f, lang)}  "
                  f"[{', '.join(f['src'])}]" for f in judged]
    return "\n".join(lines)
