"""Korean readings (issue #8.7): word-level hangul, the glossary against the seeds' own Korean
translation (read from the corpus at test time, nothing copied), and a runtime install that
brings no test tools (issue #11).

Korean meanings (issue #31): a glossary ``ko`` is a Korean phrase, not the hangul reading of the
hanja (사록 for 仕祿); the reading is kept in ``ko_hanja``; a ``ko_src`` names the seed line whose
Korean translation gives the gloss; a bare reading is allowed only for the names listed, with a
reason, in ``ontology/readings/ko_hanja_names.csv`` (see docs/conventions-ko.md)."""

from __future__ import annotations

import csv
import re
from collections import defaultdict
from importlib import metadata

import pytest

from leishen.loaders.hangul import hangul_reading, reading_table, word_initial
from leishen.loaders.schema import ontology_dir

# (hanja, reading) pairs whose spelling is settled: the 두음법칙 only at the start of a word.
KNOWN_WORDS = {
    "婦女": "부녀", "子女": "자녀", "玉女守門": "옥녀수문", "青龍返首": "청룡반수", "官祿": "관록",
    "未來": "미래", "不利": "불리", "行年": "행년", "少年": "소년", "隱匿": "은닉", "橋樑": "교량",
    "山林": "산림", "斫輪": "작륜", "地理": "지리", "道路怪": "도로괴", "罵詈": "매리",
    "女子": "여자", "男女": "남녀", "龍虎": "용호", "青龍": "청룡", "來臨": "내림", "利順": "이순",
    "年命": "연명", "流年": "유년", "六合": "육합", "老人": "노인", "樓閣": "누각", "禮物": "예물",
    "勞神": "노신", "雷公": "뇌공", "兩儀": "양의", "歷數": "역수", "旅客": "여객", "良人": "양인",
    "天牢": "천뢰", "安樂": "안락", "草廬": "초려", "刑戮": "형륙", "財利": "재리", "有利": "유리",
    "無利": "무리", "公吏": "공리", "小女": "소녀", "巫女": "무녀", "流離": "유리", "爭鬥": "쟁투",
    "太陰": "태음", "螣蛇": "등사", "貴人": "귀인", "天乙": "천을", "朱雀": "주작", "白虎": "백호",
}


def test_at_least_forty_known_words():
    assert len(KNOWN_WORDS) >= 40


@pytest.mark.parametrize("hanja,hangul", sorted(KNOWN_WORDS.items()))
def test_word_level_reading(hanja, hangul):
    assert hangul_reading(hanja) == hangul


def test_the_initial_sound_rule_and_its_neighbours():
    assert [word_initial(s) for s in ("녀", "력", "량", "로", "뢰", "니", "가")] == ["여", "역", "양", "노", "뇌", "이", "가"]
    assert hangul_reading("女") == "여" and hangul_reading("龍") == "용"
    assert hangul_reading("婦女 子女") == "부녀 자녀"  # each run of hanja is a word
    assert hangul_reading("x女") == "x여"


def _rows(folder: str):
    for path in sorted((ontology_dir() / folder).glob("*.csv")):
        with path.open(encoding="utf-8", newline="") as fh:
            for n, row in enumerate(csv.DictReader(fh), 2):
                yield f"{folder}/{path.name} row {n}", row


HAN = re.compile(r"[\u3400-\u9fff]")
HANGUL = re.compile(r"[\uac00-\ud7a3]")


def _all_hanja(name: str) -> bool:
    return bool(name) and all(HAN.match(c) for c in name)


def _reading(row: dict) -> str:
    """The hangul reading of a row's hanja: the glossary's ``ko_hanja``, an entity's ``ko``."""
    return row.get("ko_hanja") or row["ko"]


def test_every_character_of_the_tables_has_a_reading():
    table = reading_table()
    lacking = sorted({c for _, row in [*_rows("glossary"), *_rows("entities")] for c in row["name"]
                      if HAN.match(c) and c not in table})
    assert lacking == [], "add them with scripts/hangul-table"


def test_no_glossary_reading_applies_the_initial_sound_rule_inside_a_word():
    """A syllable after the first written with the word-initial form (婦女 부여) is the old defect."""
    table, bad = reading_table(), []
    for where, row in [*_rows("glossary"), *_rows("entities")]:
        name, ko = row["name"], _reading(row)
        if not _all_hanja(name) or len(ko) != len(name):
            continue
        for i in range(1, len(name)):
            base = table.get(name[i], "")
            if base and ko[i] != base and ko[i] == word_initial(base) and hangul_reading(name)[i] == base:
                bad.append(f"{where}: {name} {ko} (word reading {hangul_reading(name)})")
                break
    assert bad == []


def _translations(corpus_dir):
    """(Chinese paragraph, its Korean translation) pairs of the seeds: a Korean paragraph follows its Chinese one."""
    out = []
    for path in sorted(corpus_dir.glob("*.txt")):
        chinese = None
        for line in path.read_text(encoding="utf-8").splitlines():
            if HAN.search(line) and not HANGUL.search(line):
                chinese = line
            elif HANGUL.search(line) and chinese:
                out.append((chinese, line))
    return out


def _readings():
    terms = defaultdict(set)
    for where, row in [*_rows("glossary"), *_rows("entities")]:
        if _all_hanja(row["name"]) and _reading(row):
            terms[row["name"]].add((_reading(row), where))
    return terms


def _keeps_the_first_sound(ko: str, written: str) -> bool:
    """The translation writes the 本音 at the start of the word (년명 for 연명): the glossary
    follows the standard orthography's 두음법칙 there (a documented choice)."""
    return len(ko) == len(written) and ko[1:] == written[1:] and word_initial(written[0]) == ko[0] != written[0]


# Parenthesised glosses of the translation that are not readings of the hanja they follow.
NOT_READINGS = {"井泉": "우천 — the translator's word for a well-spring", "盔甲": "갑개 — a translation (armour)"}


def test_glossary_readings_agree_with_the_translation_s_parenthesised_readings(corpus_dir):
    terms, checked, wrong = _readings(), 0, []
    for _, korean in _translations(corpus_dir):
        for written, hanja in re.findall(r"([\uac00-\ud7a3]+)\(([\u3400-\u9fff]+)\)", korean):
            if hanja not in terms or len(hanja) < 2 or hanja in NOT_READINGS:
                continue  # one character in parentheses is an explanation (水 → 해자), not a reading
            written = written[-len(hanja):]
            for ko, where in terms[hanja]:
                checked += 1
                if ko != written and not _keeps_the_first_sound(ko, written):
                    wrong.append(f"{where}: {hanja} {ko}, the translation writes {written}")
    assert checked >= 100 and sorted(set(wrong)) == []


# Terms the translation always renders by a paraphrase, never by their reading.
PARAPHRASED = {"可食", "奸私", "官祿", "干支三傳占時本命", "時納", "求財", "災疫", "物死", "異怪", "遂心", "遷官",
               "買貨"}  # 買貨: 물건을 사는 것 / 사들임 (004:23, 27, 43)


def test_a_frequent_term_s_reading_is_found_in_its_translations(corpus_dir):
    """Each term named in three or more paragraphs has its reading in one of their translations
    (值符 must read 직부 as the translation writes it 51 times, not 치부)."""
    terms, seen = _readings(), defaultdict(list)
    pairs = _translations(corpus_dir)
    for name in terms:
        if len(name) >= 2:
            seen[name] = [korean for chinese, korean in pairs if name in chinese]
    missing = []
    for name, koreans in seen.items():
        if len(koreans) < 3 or name in PARAPHRASED:
            continue
        for ko, where in terms[name]:
            plain = ko if ko[0] == word_initial(ko[0]) else None
            if not any(ko in k or (plain and _found_with_first_sound(ko, k)) for k in koreans):
                missing.append(f"{where}: {name} {ko}")
    assert sorted(set(missing)) == []
    assert [ko for ko, _ in terms["值符"]] == ["직부"] and [ko for ko, _ in terms["值使"]] == ["직사"]


def _found_with_first_sound(ko: str, korean: str) -> bool:
    return any(_keeps_the_first_sound(ko, korean[i:i + len(ko)]) for i in range(len(korean) - len(ko) + 1))


TEST_TOOLS = {"pytest", "pytest-cov", "coveralls", "typer", "rich", "requests", "hypothesis", "coverage"}


def _runtime_closure(dist: str, seen: set[str]) -> set[str]:
    """The names of *dist* and of every distribution its runtime requirements pull, recursively."""
    name = dist.lower().replace("_", "-")
    if name in seen:
        return seen
    seen.add(name)
    for req in metadata.requires(dist) or []:
        spec, _, marker = req.partition(";")
        if "extra" in marker:
            continue
        dep = re.split(r"[\s\[<>=!~;(]", spec.strip(), maxsplit=1)[0]
        try:
            metadata.distribution(dep)
        except metadata.PackageNotFoundError:
            continue  # a platform-only dependency not installed here
        _runtime_closure(dep, seen)
    return seen


def test_the_runtime_install_pulls_no_test_tools():
    pulled = _runtime_closure("leishen", set())
    assert "networkx" in pulled and "click" in pulled
    assert pulled & TEST_TOOLS == set(), f"the plain install pulls {sorted(pulled & TEST_TOOLS)}"
    assert "hanja" not in pulled


# --- Korean meanings (issue #31) -------------------------------------------------------------

def _allowed_readings() -> dict[tuple[str, str], str]:
    """(label, name) → why a bare hanja reading is the right Korean for it; name ``*`` covers a label."""
    with (ontology_dir() / "readings" / "ko_hanja_names.csv").open(encoding="utf-8", newline="") as fh:
        return {(row["label"], row["name"]): row["reason"] for row in csv.DictReader(fh)}


def _bare(ko: str) -> str:
    """The hangul of *ko* alone (사록(仕祿) → 사록), to compare with a reading."""
    return "".join(HANGUL.findall(ko))


def _is_reading(row: dict) -> bool:
    bare = _bare(row["ko"])
    return bool(bare) and bare in {_bare(row["ko_hanja"]), _bare(hangul_reading(row["name"]))}


def test_a_meaning_is_a_korean_phrase_not_the_reading_of_its_hanja():
    """Every glossary row names a node a finding can mean; its ko is not merely the hangul of the
    hanja (뇌 for 雷, 사록 for 仕祿) unless the list says why practitioners say the reading."""
    allowed = _allowed_readings()
    bare = [f"{where}: {row['name']} ko={row['ko']}" for where, row in _rows("glossary")
            if HAN.search(row["name"]) and _is_reading(row)
            and (row["label"], row["name"]) not in allowed and (row["label"], "*") not in allowed]
    assert bare == [], f"{len(bare)} glosses are bare readings: " + "; ".join(bare[:20])


def test_the_list_of_readings_said_in_hanja_is_live():
    """Each listed name has a reason and is a glossary row whose ko is its reading (no stale entry)."""
    rows = {(row["label"], row["name"]): row for _, row in _rows("glossary")}
    labels = {label for label, _ in rows}
    stale = []
    for (label, name), reason in _allowed_readings().items():
        if not reason.strip():
            stale.append(f"{label}:{name} has no reason")
        elif name == "*":
            stale += [] if label in labels else [f"{label}:* names no glossary label"]
        elif (label, name) not in rows:
            stale.append(f"{label}:{name} is no glossary row")
        elif not _is_reading(rows[label, name]):
            stale.append(f"{label}:{name} has the Korean phrase {rows[label, name]['ko']!r}: drop it from the list")
    assert stale == []


def test_every_gloss_keeps_its_hanja_reading():
    """ko_hanja is the hangul reading, one syllable per hanja (삼기입묘 for 三奇入墓)."""
    bad = [f"{where}: {row['name']} ko_hanja={row['ko_hanja']!r}" for where, row in _rows("glossary")
           if _all_hanja(row["name"]) and (len(row["ko_hanja"]) != len(row["name"])
                                           or not all(HANGUL.match(c) for c in row["ko_hanja"]))]
    assert bad == []


def _paragraphs(corpus_dir):
    """{doc:line of a Chinese paragraph: (the paragraph, its Korean translation)}."""
    out = {}
    for path in sorted(corpus_dir.glob("*.txt")):
        doc, chinese = path.name[:3], None
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if HAN.search(line) and not HANGUL.search(line):
                chinese = (f"{doc}:{n}", line)
            elif HANGUL.search(line) and chinese:
                out[chinese[0]] = (chinese[1], line)
                chinese = None
    return out


def _forms(ko: str) -> list[str]:
    """The gloss and, for a noun form in -ㅁ/-음, the verb stem the translation conjugates
    (돌아옴 → 돌아오, 있음 → 있, 쇠함 → 쇠하): the gloss names what the translation says."""
    out, last = [ko], ko[-1:]
    if last == "음" and len(ko) > 1:
        out.append(ko[:-1])
    elif last and HANGUL.match(last) and (ord(last) - 0xAC00) % 28 == 16:  # a final ㅁ
        out.append(ko[:-1] + chr(ord(last) - 16))
    return [f for f in out if len(f) >= 2]


def test_the_noun_form_of_a_gloss_is_its_stem():
    assert _forms("떠나갔다가 다시 돌아옴") == ["떠나갔다가 다시 돌아옴", "떠나갔다가 다시 돌아오"]
    assert _forms("늙어 쇠함") == ["늙어 쇠함", "늙어 쇠하"] and _forms("소식") == ["소식"] and _forms("함") == []


def test_each_ko_src_cites_a_translation_that_gives_the_gloss(corpus_dir):
    """A ko_src is the doc:line of a Chinese paragraph naming the term whose Korean paragraph holds the
    gloss (or, for a noun form, its stem)."""
    paragraphs, cited, bad = _paragraphs(corpus_dir), 0, []
    for where, row in _rows("glossary"):
        for cite in filter(None, (c.strip() for c in row["ko_src"].split("|"))):
            cited += 1
            found = paragraphs.get(cite)
            if found is None:
                bad.append(f"{where}: ko_src {cite} is not the line of a translated Chinese paragraph")
            elif row["name"] not in found[0] or not any(f in found[1] for f in _forms(row["ko"])):
                bad.append(f"{where}: {cite} does not render {row['name']} as {row['ko']!r}")
    assert bad == [] and cited >= 150


def test_a_bare_reading_never_carries_a_ko_src():
    assert [where for where, row in _rows("glossary") if row["ko_src"] and _is_reading(row)] == []


def test_the_graph_carries_the_meaning_and_the_reading(nx_backend):
    from leishen.loaders.build import build_graph
    nodes = {n.id: n.props for n in build_graph().nodes}
    office = nodes["Concept:仕祿"]
    assert (office["ko"], office["ko_hanja"], office["ko_src"]) == ("벼슬하여 녹을 먹음", "사록", "000:39")
    assert "사록" in office["lookup"] and "벼슬하여 녹을 먹음" in office["lookup"]
    assert (nodes["Weather:雷"]["ko"], nodes["Weather:雷"]["ko_hanja"]) == ("천둥", "뇌")
    assert nodes["Pattern:三奇入墓"]["ko_hanja"] == "삼기입묘"


def test_a_korean_reading_s_meanings_are_korean():
    """The meanings of every finding of one moment, every topic: none is a bare reading unless listed."""
    import leishen
    allowed, glossary = _allowed_readings(), {(r["label"], r["name"]): r for _, r in _rows("glossary")}
    reading, bare, meant = leishen.read("2026-12-01T10:00+09:00", topic="*"), [], 0
    for finding in reading["findings"]:
        node = (finding.get("meaning") or {}).get("id") or ""
        label, _, name = node.partition(":")
        row = glossary.get((label, name))
        if row is None:
            continue  # an entity (Branch, Kin …): its ko is the entities' table's
        meant += 1
        if _is_reading(row) and (label, name) not in allowed and (label, "*") not in allowed:
            bare.append(f"{node} {finding['meaning']['ko']}")
        one_of = finding["meaning"].get("one_of")  # a row's alternatives, the walk not showing which held
        if one_of:
            rows = [glossary.get(tuple(n.partition(":")[::2])) for n in one_of]
            assert finding["meaning"]["ko"] == " 또는 ".join(r["ko"] for r in rows if r), node
            continue
        assert finding["meaning"]["ko"] == row["ko"], node
    assert meant >= 100 and sorted(set(bare)) == []
