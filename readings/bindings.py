"""Chart → bindings: every slot of the condition vocabulary bound to a node id of the graph.

A chart (the JSON of :func:`leishen.engine.chart.build_chart`, or a typed-in chart of the same shape)
becomes a :class:`Bindings`: the chart-level slots (``初傳`` → ``Branch:wu``), the instances of each
scope (the twelve earth positions, the four lessons, the three transmissions, the nine Qimen
palaces, the Nine Star plates) with their local slots, and the maps the slot suffixes follow
(``.將`` the general riding a heaven branch, ``.上`` the heaven branch over an earth position,
``.下`` the earth under a heaven branch, ``.宮`` the palace of a stem on the Qimen heaven plate).

Each bound value keeps its *chain*: the chart hops from the slot it was derived from, so a finding's
path can start at a chart slot and show every hop the chart supplied. Nothing is written into the
graph.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from lunar_python.util import LunarUtil

from leishen.engine.calendar import BRANCHES, STEMS
from leishen.engine.liuren.tables import STEM_LODGING

#: chart hop types (marked ``chart: true`` in a path; never edges of the graph)
PLATE_OVER = "PLATE_OVER"  # earth position → the heaven branch over it (上神)
RIDDEN_BY = "RIDDEN_BY"  # heaven branch → the general riding it (乘)
LODGES = "LODGES"  # day stem → its 寄宮
HOSTS = {"天": "HEAVEN_STEM", "地": "EARTH_STEM", "星": "STAR", "門": "GATE", "神": "DEITY",
         "天寄": "HEAVEN_STEM_HOSTED", "地寄": "EARTH_STEM_HOSTED", "星寄": "STAR_HOSTED"}
PLATE_STAR = "FLYING_STAR"
PILLAR = "PILLAR"  # a pillar's stem → the branch it is paired with (干支)
NAYIN = "NAYIN"  # a pillar's branch → the phase of the pillar's 納音 (甲子 海中金 → 金)
CHART_HOPS = (PLATE_OVER, RIDDEN_BY, LODGES, PLATE_STAR, "STANDS_IN", "UNDER", PILLAR, NAYIN, *HOSTS.values())


@dataclass(frozen=True, slots=True)
class Bound:
    """A slot's value (node id, number or set of node ids) and the chart hops that derived it:
    ``chain[0]`` is ``(root node, root slot)``, each later item ``(hop type, node)``."""

    value: str | int | frozenset
    chain: tuple

    def hop(self, rel: str, node: str) -> "Bound":
        return Bound(node, self.chain + ((rel, node),))


@dataclass
class Bindings:
    """Everything a rule can test in one chart."""

    systems: tuple[str, ...]
    slots: dict[str, Bound] = field(default_factory=dict)
    scopes: dict[str, list[tuple[str, dict[str, Bound]]]] = field(default_factory=dict)
    rides: dict[str, str] = field(default_factory=dict)  # heaven branch id → general id
    above: dict[str, str] = field(default_factory=dict)  # earth branch id → heaven branch id
    below: dict[str, str] = field(default_factory=dict)  # heaven branch id → earth branch id
    stem_palace: dict[str, str] = field(default_factory=dict)  # stem id → palace id (heaven plate)
    options: dict = field(default_factory=dict)

    def as_ids(self) -> dict[str, object]:
        """The chart-level slots as plain JSON (slot → node id, number, or sorted list)."""
        out = {}
        for name, b in self.slots.items():
            out[name] = sorted(b.value) if isinstance(b.value, frozenset) else b.value
        return out


class Lexicon:
    """Node ids by (label, name or alias), from the graph records."""

    def __init__(self, nodes):
        self.index: dict[tuple[str, str], str] = {}
        self.props: dict[str, dict] = {}
        self._by_label: dict[str, dict[str, str]] = {}
        for node in nodes:
            if node.label in ("Fact", "Passage"):
                continue
            self.props[node.id] = node.props
            for name in (node.props["name"], *node.props.get("aliases", ())):
                self.index.setdefault((node.label, name), node.id)

    def id(self, label: str, name: str | None) -> str | None:
        return self.index.get((label, name)) if name else None

    def ids(self, label: str) -> dict[str, str]:
        """name or alias → node id, for one label (cached)."""
        cached = self._by_label.get(label)
        if cached is None:
            cached = self._by_label[label] = {n: i for (lab, n), i in self.index.items() if lab == label}
        return cached


def _root(slots: dict, name: str, node: str | int | frozenset | None) -> None:
    if node is not None and node != _EMPTY:
        slots[name] = Bound(node, ((node, name),))


_EMPTY = frozenset()


def liuren_bindings(lr: dict, lex: Lexicon, b: Bindings) -> None:
    """Bind the Liu Ren slots and scopes of a chart's ``liuren`` section."""
    br = lex.ids("Branch").get
    stem, branch = lr["day"][0], lr["day"][1]
    s = b.slots
    _root(s, "日干", lex.id("Stem", stem))
    _root(s, "日支", br(branch))
    _root(s, "占時", br(lr.get("hour_branch")))
    _root(s, "月將", br(lr.get("month_general")))
    _root(s, "月建", br(lr.get("month_branch")))
    _root(s, "太歲", br(lr.get("tai_sui")))
    _root(s, "驛馬", br(lr.get("horse")))
    _root(s, "旬空", frozenset(filter(None, (br(v) for v in lr.get("void") or ()))))
    xun = lr.get("xun")
    if xun:
        _root(s, "旬", lex.id("Xun", f"{xun}旬"))
        head = BRANCHES.index(xun[1])
        _root(s, "旬首", br(xun[1]))
        _root(s, "旬尾", br(BRANCHES[(head + 9) % 12]))
    noble = lr.get("noble") or {}
    _root(s, "貴人", br(noble.get("branch")))
    if "日干" in s:
        s["寄宮"] = s["日干"].hop(LODGES, br(BRANCHES[STEM_LODGING[STEMS.index(stem)]]))
    _birth_slots(lr.get("birth") or {}, lex, s)
    course = {lex.id("Pattern", name) for name in (lr.get("method"), *(lr.get("course") or ()))}
    _root(s, "課體", frozenset(course - {None}))  # the 九宗門 method and 課體 the engine found, as patterns
    plate = {br(e): br(h) for e, h in (lr.get("plate") or {}).items()}
    b.above.update(plate)
    b.below.update({h: e for e, h in plate.items()})
    general = lex.ids("General").get
    b.rides.update({br(h): general(g) for h, g in (lr.get("generals") or {}).items()})
    _lessons_and_transmissions(lr, lex, b)
    _positions(b)


def _birth_slots(birth: dict, lex: Lexicon, s: dict) -> None:
    """本命 / 行年 (and their stems) from the asker's birth: the pillars ``ben_ming`` and ``xing_nian``."""
    for key, part in (("本命", "ben_ming"), ("行年", "xing_nian")):
        pillar = birth.get(part)
        if pillar:
            _root(s, key, lex.id("Branch", pillar[1]))
            _root(s, f"{key}干", lex.id("Stem", pillar[0]))


def _pillar_slots(pillars: dict, lex: Lexicon, s: dict, branches: bool) -> None:
    """年干 月干 (and, when *branches*, 年支 月支) from the chart's four pillars."""
    for key, part in (("年", "year"), ("月", "month")):
        pillar = pillars.get(part)
        if pillar:
            _root(s, f"{key}干", lex.id("Stem", pillar[0]))
            if branches:
                _root(s, f"{key}支", lex.id("Branch", pillar[1]))


def nayin_phase(pillar: str) -> str:
    """The phase of a pillar's 納音 (六十甲子納音): the last character of lunar_python's name for it
    (甲子 → 海中金 → 金)."""
    return LunarUtil.NAYIN[pillar][-1]


def _nayin_slots(pillars: dict, lex: Lexicon, s: dict) -> None:
    """年納 月納 日納 時納: the 納音 phase of each pillar, chained from the pillar's stem slot through its
    branch (``時干 -PILLAR-> 時支 -NAYIN-> Element``)."""
    for key, pillar in pillars.items():
        stem = s.get(f"{key}干")
        if pillar and stem is not None and stem.value == lex.id("Stem", pillar[0]):
            element = lex.id("Element", nayin_phase(pillar))
            s[f"{key}納"] = stem.hop(PILLAR, lex.id("Branch", pillar[1])).hop(NAYIN, element)


def _lessons_and_transmissions(lr: dict, lex: Lexicon, b: Bindings) -> None:
    br = lex.ids("Branch").get
    lessons = []
    for i, lesson in enumerate(lr.get("lessons") or (), 1):
        upper, lower = br(lesson["upper"]), br(lesson["lower"]) or lex.id("Stem", lesson["lower"])
        _root(b.slots, f"課{i}上", upper)
        _root(b.slots, f"課{i}下", lower)
        local = {"上": Bound(upper, ((upper, f"課{i}上"),)), "下": Bound(lower, ((lower, f"課{i}下"),))}
        if upper in b.rides:
            local["將"] = local["上"].hop(RIDDEN_BY, b.rides[upper])
        lessons.append((f"課{i}", local))
    b.scopes["課"] = lessons
    transmissions = []
    for name, t in zip(("初傳", "中傳", "末傳"), lr.get("transmissions") or ()):
        node = br(t)
        _root(b.slots, name, node)
        local = {"上": Bound(node, ((node, name),))}
        if node in b.below:
            local["地"] = local["上"].hop("UNDER", b.below[node])
        if node in b.rides:
            local["將"] = local["上"].hop(RIDDEN_BY, b.rides[node])
        transmissions.append((name, local))
    b.scopes["傳"] = transmissions


def _positions(b: Bindings) -> None:
    positions = []
    for earth in sorted(b.above, key=lambda n: BRANCH_ORDER.get(n, 99)):
        ground = Bound(earth, ((earth, "地"),))
        local = {"地": ground, "上": ground.hop(PLATE_OVER, b.above[earth])}
        if b.above[earth] in b.rides:
            local["將"] = local["上"].hop(RIDDEN_BY, b.rides[b.above[earth]])
        positions.append((earth, local))
    b.scopes["位"] = positions


BRANCH_ORDER: dict[str, int] = {}


def qimen_bindings(qm: dict, lex: Lexicon, b: Bindings) -> None:
    """Bind the Qimen slots and the nine palaces of a chart's ``qimen`` section."""
    palace = lambda n: lex.id("Palace", PALACE_NAMES[int(n)]) if n not in (None, "") else None  # noqa: E731
    s = b.slots
    _root(s, "遁", lex.id("Polarity", qm.get("dun")))
    if qm.get("ju") is not None:
        _root(s, "局", int(qm["ju"]))
    _root(s, "值符", lex.id("QimenStar", qm.get("duty_star")))
    _root(s, "值使", lex.id("Gate", qm.get("duty_gate")))
    _root(s, "值符宮", palace(qm.get("duty_star_palace")))
    _root(s, "值使宮", palace(qm.get("duty_gate_palace")))
    _root(s, "馬星宮", palace(qm.get("horse_palace")))
    _root(s, "馬星", lex.id("Branch", qm.get("horse")))
    _root(s, "空亡", frozenset(filter(None, (lex.id("Branch", v) for v in qm.get("void") or ()))))
    for key, pillar in (("時", qm.get("hour_pillar")), ("日", qm.get("day_pillar"))):
        if pillar:
            _root(s, f"{key}干", lex.id("Stem", pillar[0]))
            _root(s, f"{key}支", lex.id("Branch", pillar[1]))
    palaces = []
    for num, cell in sorted((qm.get("palaces") or {}).items()):
        pid = palace(num)
        root = Bound(pid, ((pid, "宮"),))
        local = {"宮": root}
        for local_name, (field_name, label) in QIMEN_CELL.items():
            node = lex.id(label, cell.get(field_name))
            if node:
                local[local_name] = root.hop(HOSTS[local_name], node)
                if local_name in ("天", "天寄"):
                    b.stem_palace.setdefault(node, pid)
        palaces.append((pid, local))
    b.scopes["宮"] = palaces
    _hidden_jia(qm, lex, b)


def _hidden_jia(qm: dict, lex: Lexicon, b: Bindings) -> None:
    """A 甲 day or hour stem stands where its 旬's 儀 stands (六甲遁於六儀): ``日干.宮`` / ``時干.宮``."""
    from leishen.engine.calendar import sexagenary_index
    from leishen.engine.qimen.plate import xun_of_hour
    jia = lex.id("Stem", "甲")
    for pillar in (qm.get("day_pillar"), qm.get("hour_pillar")):
        if pillar and pillar[0] == "甲":
            yi = lex.id("Stem", xun_of_hour(sexagenary_index(pillar))[1])
            if yi in b.stem_palace:
                b.stem_palace.setdefault(jia, b.stem_palace[yi])


QIMEN_CELL = {"天": ("heaven", "Stem"), "地": ("earth", "Stem"), "星": ("star", "QimenStar"),
              "門": ("gate", "Gate"), "神": ("deity", "Deity"), "天寄": ("heaven_hosted", "Stem"),
              "地寄": ("earth_hosted", "Stem"), "星寄": ("star_hosted", "QimenStar")}
PALACE_NAMES = {1: "坎一", 2: "坤二", 3: "震三", 4: "巽四", 5: "中五", 6: "乾六", 7: "兌七", 8: "艮八", 9: "離九"}


def ninestar_bindings(ns: dict, lex: Lexicon, b: Bindings) -> None:
    """Bind the Nine Star centre stars and the nine palaces of each plate."""
    for slot, key in (("年星", "year"), ("月星", "month"), ("日星", "day")):
        _root(b.slots, slot, lex.id("FlyingStar", ns.get(key)))
    for scope, key in (("年盤", "year"), ("月盤", "month"), ("日盤", "day")):
        cells = []
        for num, star in sorted(((ns.get("plates") or {}).get(key) or {}).items()):
            pid = lex.id("Palace", PALACE_NAMES[int(num)])
            root = Bound(pid, ((pid, "宮"),))
            cells.append((pid, {"宮": root, "星": root.hop(PLATE_STAR, lex.id("FlyingStar", star))}))
        b.scopes[scope] = cells


def season_of(month_branch: str | None, graph_season: dict[str, str]) -> str | None:
    """The chart's 季節: the season the month branch belongs to (the graph's IN_SEASON edges)."""
    return graph_season.get(month_branch) if month_branch else None


def chart_bindings(chart: dict, lex: Lexicon, seasons: dict[str, str]) -> Bindings:
    """The bindings of a whole chart; *seasons* maps a branch id to its Season id (IN_SEASON)."""
    if not BRANCH_ORDER:
        BRANCH_ORDER.update({lex.id("Branch", name): i for i, name in enumerate(BRANCHES)})
    systems = tuple(s for s in ("liuren", "qimen", "ninestar") if chart.get(s))
    b = Bindings(systems)
    month = lex.id("Branch", (chart.get("pillars") or {}).get("month", "  ")[1:2] or None)
    season = season_of(month, seasons)
    _pillar_slots(chart.get("pillars") or {}, lex, b.slots, branches="qimen" in systems)
    if "liuren" in systems:
        liuren_bindings(chart["liuren"], lex, b)
        hour = (chart.get("pillars") or {}).get("hour")
        if hour:
            _root(b.slots, "時干", lex.id("Stem", hour[0]))
        b.options["liuren"] = chart["liuren"].get("options", {})
    if "qimen" in systems:
        qimen_bindings(chart["qimen"], lex, b)
        _birth_slots((chart.get("liuren") or {}).get("birth") or chart.get("birth") or {}, lex, b.slots)
        qm, pillars = chart["qimen"], chart.get("pillars") or {}
        _nayin_slots({"年": pillars.get("year"), "月": pillars.get("month"), "日": qm.get("day_pillar"),
                      "時": qm.get("hour_pillar")}, lex, b.slots)
        b.options["qimen"] = chart["qimen"].get("options", {})
    if "ninestar" in systems:
        ninestar_bindings(chart["ninestar"], lex, b)
        b.options["ninestar"] = chart["ninestar"].get("options", {})
    _root(b.slots, "季節", season)
    return b
