"""The hangul reading of a hanja term, word by word (used where a table writes no ``ko`` gloss).

Each character's Sino-Korean reading is data (``ontology/readings/hanja_hangul.csv``: the 本音,
e.g. 女 녀, 龍 룡, 利 리).  A run of hanja is read as one word, with the spelling rules of
한글 맞춤법 (1988):

- 제10항/제12항 두음법칙 — only at the start of a word: 녀 뇨 뉴 니 → 여 요 유 이;
  랴 려 례 료 류 리 → 야 여 예 요 유 이; 라 래 로 뢰 루 르 → 나 내 노 뇌 누 느
  (婦女 부녀 but 女子 여자; 青龍 청룡 but 龍虎 용호);
- 제11항 붙임1 — 렬 률 after a vowel or ㄴ are written 열 율 (比率 비율, 先烈 선열).

A character without a reading in the table is kept as it is.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

from leishen.errors import OntologyError
from leishen.loaders.csvfile import read_dicts
from leishen.loaders.schema import ontology_dir

_BASE, _VOWELS, _FINALS = 0xAC00, 21, 28
_N, _R, _NG = 2, 5, 11  # initial consonants ㄴ ㄹ ㅇ
_Y_OR_I = {2, 6, 7, 12, 17, 20}  # medials ㅑ ㅕ ㅖ ㅛ ㅠ ㅣ


def reading_table() -> dict[str, str]:
    """{hanja: its 本音 in hangul}, read from ``readings/hanja_hangul.csv`` of the ontology folder."""
    return _table_at(ontology_dir() / "readings" / "hanja_hangul.csv")


@cache
def _table_at(path: Path) -> dict[str, str]:
    errors: list[str] = []
    rows = read_dicts(path, "readings/hanja_hangul.csv", errors, columns=("char", "reading"))
    if errors:
        raise OntologyError(errors[0])
    return {row["char"]: row["reading"] for _, row in rows}


def _parts(syllable: str) -> tuple[int, int, int] | None:
    code = ord(syllable) - _BASE
    if not 0 <= code < 19 * _VOWELS * _FINALS:
        return None
    return code // (_VOWELS * _FINALS), code // _FINALS % _VOWELS, code % _FINALS


def _join(initial: int, medial: int, final: int) -> str:
    return chr(_BASE + (initial * _VOWELS + medial) * _FINALS + final)


def word_initial(syllable: str) -> str:
    """두음법칙 (제10항, 제12항) on the first syllable of a word: 녀→여, 리→이, 로→노 …"""
    p = _parts(syllable)
    if p is None:
        return syllable
    initial, medial, final = p
    if initial in (_N, _R) and medial in _Y_OR_I:
        return _join(_NG, medial, final)
    if initial == _R:
        return _join(_N, medial, final)
    return syllable


def after(previous: str, syllable: str) -> str:
    """제11항 붙임1: 렬 률 after a vowel or ㄴ are written 열 율; any other syllable is unchanged."""
    p = _parts(previous)
    if syllable in ("렬", "률") and p is not None and p[2] in (0, 4):  # no final, or final ㄴ
        return word_initial(syllable)
    return syllable


def hangul_reading(name: str) -> str:
    """The hangul reading of *name*: each run of hanja read as one word (두음법칙 on its first
    syllable only, 렬/률 after a vowel or ㄴ as 열/율); other characters are kept."""
    table, out, previous = reading_table(), [], None
    for char in name:
        syllable = table.get(char)
        if syllable is None:
            out.append(char)
            previous = None
            continue
        out.append(word_initial(syllable) if previous is None else after(previous, syllable))
        previous = syllable
    return "".join(out)
