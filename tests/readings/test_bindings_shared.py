"""Charts share bound sections (readings.bindings._section) without changing a binding: on random computed
charts and typed-in variants of them (one field changed, a field dropped, a hosted field added, a list where
nothing is read), the bindings made with the reader's warm ``sections`` store (readings/cache.py) equal, slot for
slot and in order, the bindings made with no store; each Bindings keeps its own lists and maps."""

from __future__ import annotations

import copy
import random

import leishen
from leishen.service.book import reader
from leishen.readings.bindings import chart_bindings

from fired import random_moments


def _layout(b) -> tuple:
    """Everything a Bindings holds, in order (dict order included)."""
    return (b.systems, list(b.slots.items()),
            [(scope, [(key, list(local.items())) for key, local in instances])
             for scope, instances in b.scopes.items()],
            list(b.rides.items()), list(b.above.items()), list(b.below.items()), list(b.stem_palace.items()),
            b.options, b.as_ids())


def _variants(chart: dict, rng: random.Random) -> list[dict]:
    """Typed-in charts that differ from *chart* in one field a section binding reads (or a field it does not)."""
    out = []

    def variant(edit):
        c = copy.deepcopy(chart)
        edit(c)
        out.append(c)

    lr, qm, ns = chart["liuren"], chart["qimen"], chart["ninestar"]
    earth = rng.choice(sorted(lr["plate"]))
    variant(lambda c: c["liuren"]["plate"].update({earth: rng.choice("子丑寅卯辰巳午未申酉戌亥")}))
    variant(lambda c: c["liuren"]["generals"].update({earth: rng.choice(["貴人", "白虎", "天后", "青龍"])}))
    variant(lambda c: c["liuren"]["generals"].pop(earth))
    variant(lambda c: c["liuren"]["lessons"][rng.randrange(4)].update(lower=rng.choice("甲乙丙丁子丑寅")))
    variant(lambda c: c["liuren"].update(transmissions=[*lr["transmissions"][:2], rng.choice("子午卯酉")]))
    variant(lambda c: c["liuren"].update(lessons=lr["lessons"][:3], transmissions=lr["transmissions"][:1]))
    num = rng.choice(sorted(qm["palaces"]))
    variant(lambda c: c["qimen"]["palaces"][num].update(star=rng.choice(["天蓬", "天英", "天禽", None])))
    variant(lambda c: c["qimen"]["palaces"][num].update(heaven_hosted=rng.choice("戊己庚")))
    variant(lambda c: c["qimen"]["palaces"][num].update(notes=["a list no binding reads"]))
    variant(lambda c: c["qimen"].update(palaces={int(k): v for k, v in qm["palaces"].items()}))
    variant(lambda c: c["ninestar"]["plates"]["day"].update({num: rng.choice(["一白", "五黃", "九紫"])}))
    variant(lambda c: c["ninestar"]["plates"].pop(rng.choice(sorted(ns["plates"]))))
    variant(lambda c: c.pop(rng.choice(["qimen", "ninestar"])))
    return out


def test_shared_bindings_equal_bindings_made_anew():
    r = reader()
    rng = random.Random(3)
    charts = [leishen.chart(m) for m in random_moments(160, seed=21)]
    charts += [v for c in charts[:30] for v in _variants(c, rng)]
    rng.shuffle(charts)
    for chart in charts + charts[::3]:  # the second time, every section is found in the tables
        kept = chart_bindings(chart, r.lex, r.seasons, r.kept.sections)
        assert _layout(kept) == _layout(chart_bindings(chart, r.lex, r.seasons))
    assert r.kept.sections


def test_each_bindings_has_its_own_lists_and_maps():
    r = reader()
    chart = leishen.chart("2026-12-01T10:00+09:00")
    first, again = (chart_bindings(chart, r.lex, r.seasons, r.kept.sections) for _ in range(2))
    assert _layout(first) == _layout(again) and first.slots is not again.slots
    for scope in ("課", "傳", "位", "宮", "年盤"):
        assert first.scopes[scope] == again.scopes[scope] and first.scopes[scope] is not again.scopes[scope]
    for part in ("rides", "above", "below", "stem_palace"):
        assert getattr(first, part) and getattr(first, part) is not getattr(again, part)
    first.scopes["宮"].clear()
    first.above.clear()
    assert _layout(chart_bindings(chart, r.lex, r.seasons, r.kept.sections)) == _layout(again)
