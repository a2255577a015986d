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

A reader keeps the sections of the charts it binds (:func:`_section`: the twelve positions of a Liu Ren plate
with its generals, the nine palaces of a Qimen layout, a Nine Star plate), found again by the exact chart fields
they are made from. Bounds are immutable; the local dicts of a section's instances are read-only (every reader of
a Bindings only reads them); each Bindings has its own slot dict, scope lists and maps.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from leishen.engine.calendar import BRANCHES, STEMS, sexagenary_index
from leishen.engine.liuren.tables import STEM_LODGING
from leishen.engine.qimen.plate import xun_of_hour
from leishen.loaders.conditions import TRANSMISSIONS
from leishen.readings.bounds import Bound
from leishen.readings.cache import keep
from leishen.readings.deity_names import DEITY_NAME, deity_name
from leishen.readings.standard import OPTION, bind_shensha, nayin_hop, standard_tables, tables_on

#: the engine's 課體 names that are a case of a pattern the texts name: 進茹 and 退茹 (三傳 of consecutive
#: branches, forwards or backwards) are the two directions of 連茹 (聯茹, 002:91 002:179)
COURSE_PATTERNS = {"進茹": "連茹", "退茹": "連茹"}
#: chart hop types (marked ``chart: true`` in a path; never edges of the graph)
PLATE_OVER = "PLATE_OVER"  # earth position → the heaven branch over it (上神)
RIDDEN_BY = "RIDDEN_BY"  # heaven branch → the general riding it (乘)
LODGES = "LODGES"  # day stem → its 寄宮
HOSTS = {"天": "HEAVEN_STEM", "地": "EARTH_STEM", "星": "STAR", "門": "GATE", "神": "DEITY",
         "天寄": "HEAVEN_STEM_HOSTED", "地寄": "EARTH_STEM_HOSTED", "星寄": "STAR_HOSTED"}
PLATE_STAR = "FLYING_STAR"
PILLAR = "PILLAR"  # a pillar's stem → the branch it is paired with (干支)
NAYIN = "NAYIN"  # a pillar's branch → the phase of the pillar's 納音 (甲子 海中金 → 金)
HIDES_AS = "HIDES_AS"  # a pillar's stem 甲 → the 儀 of its 旬 it stands as on the Qimen plates (六甲遁於六儀)
CHART_HOPS = (PLATE_OVER, RIDDEN_BY, LODGES, PLATE_STAR, "STANDS_IN", "UNDER", PILLAR, NAYIN, HIDES_AS, *HOSTS.values())


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
        return {name: sorted(b.value) if isinstance(b.value, frozenset) else b.value
                for name, b in self.slots.items()}


_EMPTY = frozenset()


class Lexicon:
    """Node ids by (label, name or alias), from the graph records."""

    def __init__(self, nodes, facts):
        self.standard = standard_tables(facts)  # ontology/facts/std/ rows
        self.index: dict[tuple[str, str], str] = {}
        self.props: dict[str, dict] = {}
        self._by_label: dict[str, dict[str, str]] = {}
        for node in nodes:
            if node.label in ("Fact", "Passage"):
                continue
            self.props[node.id] = node.props
            for name in (node.props["name"], *node.props.get("aliases", ())):
                self.index.setdefault((node.label, name), node.id)
        self.branch_order = {self.id("Branch", name): i for i, name in enumerate(BRANCHES)}
        self.palaces = {num: self.id("Palace", name) for num, name in PALACE_NAMES.items()}
        self.qimen_cell = [(local, field_name, self.ids(label), HOSTS[local])
                           for local, (field_name, label) in QIMEN_CELL.items()]

    def id(self, label: str, name: str | None) -> str | None:
        return self.index.get((label, name)) if name else None

    def ids(self, label: str) -> dict[str, str]:
        """name or alias → node id, for one label (cached)."""
        cached = self._by_label.get(label)
        if cached is None:
            cached = self._by_label[label] = {n: i for (lab, n), i in self.index.items() if lab == label}
        return cached


def chart_names(chart: dict, lex: Lexicon) -> dict[str, str]:
    """node id → the name the chart gives the node where it is not the node's own: a Qimen deity under the
    naming of 《奇門遁甲演義》 (``qimen_deities = by_dun``: 勾陳 and 朱雀 in 陽遁, the nodes 白虎 and 玄武)."""
    deities, out = lex.ids("Deity"), {}
    for cell in ((chart.get("qimen") or {}).get("palaces") or {}).values():
        name = cell.get("deity") if isinstance(cell, dict) else None
        node = deities.get(name) if isinstance(name, str) else None
        if node is not None and lex.props[node]["name"] != name:
            out[node] = name
    return out


def _root(s: dict, name: str, node) -> None:
    """Bind the chart-level slot *name* to *node* (a node id, number, or non-empty set), if any."""
    if node is not None and node != _EMPTY:
        s[name] = Bound.root(name, node)


def _section(sections: dict, key: tuple, make):
    """``make()``, kept in *sections* under *key* (the section's kind and every chart field *make* reads); a key
    that cannot be hashed (a typed-in chart with a list where a name belongs) is not kept."""
    try:
        return keep(sections, key, make)
    except TypeError:
        return make()


def liuren_bindings(lr: dict, lex: Lexicon, b: Bindings, sections: dict) -> None:
    """Bind the Liu Ren slots and scopes of a chart's ``liuren`` section."""
    br = lex.ids("Branch").get
    stem, branch = lr["day"][0], lr["day"][1]
    s = b.slots
    _root(s, "日干", lex.id("Stem", stem))
    _root(s, "日支", br(branch))
    for slot, key in (("占時", "hour_branch"), ("月將", "month_general"), ("月建", "month_branch"),
                      ("太歲", "tai_sui"), ("驛馬", "horse")):
        _root(s, slot, br(lr.get(key)))
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
    names = (lr.get("method"), *(lr.get("course") or ()))
    course = {lex.id("Pattern", n) for name in names for n in (name, COURSE_PATTERNS.get(name))}
    _root(s, "課體", frozenset(course - {None}))  # the 九宗門 method and 課體 the engine found, as patterns
    plate, generals = lr.get("plate") or {}, lr.get("generals") or {}
    board_key = ("位", tuple(plate), tuple(plate.values()), tuple(generals), tuple(generals.values()))
    board = _section(sections, board_key, lambda: _board(plate, generals, lex))
    above, below, rides, positions = board
    b.above.update(above)
    b.below.update(below)
    b.rides.update(rides)
    lessons, transmissions = lr.get("lessons") or (), lr.get("transmissions") or ()
    key = ("課傳", board_key, tuple((lesson["upper"], lesson["lower"]) for lesson in lessons), tuple(transmissions))
    pairs, lesson_scope, transmission_scope = _section(
        sections, key, lambda: _lessons_and_transmissions(lessons, transmissions, board, lex))
    s.update(pairs)
    b.scopes["課"], b.scopes["傳"], b.scopes["位"] = list(lesson_scope), list(transmission_scope), list(positions)


def _board(plate: dict, generals: dict, lex: Lexicon) -> tuple[dict, dict, dict, list]:
    """The plate's maps (earth → heaven, heaven → earth, heaven → the general riding it) and the
    twelve earth positions (位) in branch order: ``地``, the heaven branch ``上`` over it, its ``將``."""
    br, general = lex.ids("Branch").get, lex.ids("General").get
    above = {br(e): br(h) for e, h in plate.items()}
    below = {h: e for e, h in above.items()}
    rides = {br(h): general(g) for h, g in generals.items()}
    positions = []
    for earth in sorted(above, key=lambda n: lex.branch_order.get(n, 99)):
        ground = Bound.root("地", earth)
        local = {"地": ground, "上": ground.hop(PLATE_OVER, above[earth])}
        if above[earth] in rides:
            local["將"] = local["上"].hop(RIDDEN_BY, rides[above[earth]])
        positions.append((earth, local))
    return above, below, rides, positions


def _set_options(options) -> dict:
    """A system's school options as a finding shows them: those set (an option left unset, null, is not shown,
    so a chart and its typed copy, which drops nulls, read alike)."""
    return {k: v for k, v in options.items() if v is not None} if isinstance(options, dict) else {}


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


def _nayin_slots(pillars: dict, lex: Lexicon, s: dict) -> None:
    """年納 月納 日納 時納: the 納音 phase of each pillar, chained from the pillar's stem slot through its
    branch and the row of the standard 納音 table (``時干 -PILLAR-> 時支 -NAYIN-> Element``, the last hop the
    table's edge with its src; :mod:`leishen.readings.standard`)."""
    for key, pillar in pillars.items():
        stem = s.get(f"{key}干")
        if pillar and stem is not None and stem.value == lex.id("Stem", pillar[0]):
            if found := nayin_hop(stem.hop(PILLAR, lex.id("Branch", pillar[1])), stem.value, lex.standard):
                s[f"{key}納"] = found


def _plate_stem_slots(pillars: dict, lex: Lexicon, s: dict) -> None:
    """年盤干 月盤干 日盤干 時盤干 本命盤干: each pillar's stem (the asker's natal year too) as it stands on the
    Qimen plates — the stem itself (the
    same Bound as 年干 …), or for 甲, which never stands on a plate, the 儀 of its 旬 (六甲遁於六儀: 甲子 → 戊),
    chained ``日干 -HIDES_AS-> 戊``."""
    jia = lex.id("Stem", "甲")
    for key, pillar in pillars.items():
        stem = s.get(f"{key}干")
        if not pillar or stem is None or stem.value != lex.id("Stem", pillar[0]):
            continue
        if stem.value == jia:
            s[f"{key}盤干"] = stem.hop(HIDES_AS, yi_of(pillar, lex))
        else:
            s[f"{key}盤干"] = stem


def _lessons_and_transmissions(lessons, transmissions, board: tuple, lex: Lexicon) -> tuple[list, list, list]:
    """The four lessons (課: ``上`` ``下`` and the ``將`` riding the upper) and the three transmissions
    (傳: ``上``, the earth ``地`` under it, its ``將``) on the *board* of :func:`_board`, and the
    chart-level slots they also bind (``課1上`` … ``末傳``), in binding order."""
    br, (_, below, rides, _) = lex.ids("Branch").get, board
    pairs, lesson_scope, transmission_scope = [], [], []
    for i, lesson in enumerate(lessons, 1):
        upper, lower = br(lesson["upper"]), br(lesson["lower"]) or lex.id("Stem", lesson["lower"])
        local = {"上": Bound.root(f"課{i}上", upper), "下": Bound.root(f"課{i}下", lower)}
        if upper is not None:
            pairs.append((f"課{i}上", local["上"]))
        if lower is not None:
            pairs.append((f"課{i}下", local["下"]))
        if upper in rides:
            local["將"] = local["上"].hop(RIDDEN_BY, rides[upper])
        lesson_scope.append((f"課{i}", local))
    for name, t in zip(TRANSMISSIONS, transmissions):
        node = br(t)
        local = {"上": Bound.root(name, node)}
        if node is not None:
            pairs.append((name, local["上"]))
        if node in below:
            local["地"] = local["上"].hop("UNDER", below[node])
        if node in rides:
            local["將"] = local["上"].hop(RIDDEN_BY, rides[node])
        transmission_scope.append((name, local))
    return pairs, lesson_scope, transmission_scope


def _palace(lex: Lexicon, num) -> str | None:
    """The Palace node of a palace number (``3`` or ``"3"``); none for a number not given."""
    return lex.palaces[int(num)] if num not in (None, "") else None


def qimen_bindings(qm: dict, lex: Lexicon, b: Bindings, sections: dict) -> None:
    """Bind the Qimen slots and the nine palaces of a chart's ``qimen`` section."""
    s = b.slots
    _root(s, "遁", lex.id("Polarity", qm.get("dun")))
    if qm.get("ju") is not None:
        _root(s, "局", int(qm["ju"]))
    _root(s, "值符", lex.id("QimenStar", qm.get("duty_star")))
    _root(s, "值使", lex.id("Gate", qm.get("duty_gate")))
    _root(s, "值符宮", _palace(lex, qm.get("duty_star_palace")))
    _root(s, "值使宮", _palace(lex, qm.get("duty_gate_palace")))
    _root(s, "馬星宮", _palace(lex, qm.get("horse_palace")))
    _root(s, "馬星", lex.id("Branch", qm.get("horse")))
    _root(s, "空亡", frozenset(filter(None, (lex.id("Branch", v) for v in qm.get("void") or ()))))
    for key, pillar in (("時", qm.get("hour_pillar")), ("日", qm.get("day_pillar"))):
        if pillar:
            _root(s, f"{key}干", lex.id("Stem", pillar[0]))
            _root(s, f"{key}支", lex.id("Branch", pillar[1]))
    palaces = qm.get("palaces") or {}
    key = ("宮", tuple(palaces), tuple(tuple(map(cell.get, CELL_FIELDS)) for cell in palaces.values()))
    instances, stem_palace = _section(sections, key, lambda: _palaces(palaces, lex))
    b.scopes["宮"], b.stem_palace = list(instances), dict(stem_palace)
    _hidden_jia(qm, lex, b)


def _palaces(palaces: dict, lex: Lexicon) -> tuple[list, dict]:
    """The nine palaces (宮: the palace and what stands in it, each a chart hop from the palace) and
    the palace of each stem on the heaven plate (the first palace holding it, hosted stems too)."""
    instances, stem_palace = [], {}
    for num, cell in sorted(palaces.items()):
        pid = _palace(lex, num)
        root = Bound.root("宮", pid)
        local = {"宮": root}
        for local_name, field_name, ids, rel in lex.qimen_cell:
            name = cell.get(field_name)
            node = ids.get(name) if name else None
            if node:
                local[local_name] = root.hop(rel, node)
                if local_name in ("天", "天寄"):
                    stem_palace.setdefault(node, pid)
                elif local_name == "神":
                    local[DEITY_NAME] = root.hop("NAMED", deity_name(name))
        instances.append((pid, local))
    return instances, stem_palace


def yi_of(pillar: str, lex: Lexicon) -> str | None:
    """The Stem node of the 儀 a pillar's 旬 hides its 甲 under (六甲遁於六儀: 甲子旬 戊, 甲戌旬 己 …)."""
    return lex.id("Stem", xun_of_hour(sexagenary_index(pillar))[1])


def _hidden_jia(qm: dict, lex: Lexicon, b: Bindings) -> None:
    """A 甲 day or hour stem stands where its 旬's 儀 stands (六甲遁於六儀): ``日干.宮`` / ``時干.宮``."""
    jia = lex.id("Stem", "甲")
    for pillar in (qm.get("day_pillar"), qm.get("hour_pillar")):
        if pillar and pillar[0] == "甲":
            yi = yi_of(pillar, lex)
            if yi in b.stem_palace:
                b.stem_palace.setdefault(jia, b.stem_palace[yi])


QIMEN_CELL = {"天": ("heaven", "Stem"), "地": ("earth", "Stem"), "星": ("star", "QimenStar"),
              "門": ("gate", "Gate"), "神": ("deity", "Deity"), "天寄": ("heaven_hosted", "Stem"),
              "地寄": ("earth_hosted", "Stem"), "星寄": ("star_hosted", "QimenStar")}
#: the fields of a palace cell its binding reads
CELL_FIELDS = tuple(field_name for field_name, _ in QIMEN_CELL.values())
PALACE_NAMES = {1: "坎一", 2: "坤二", 3: "震三", 4: "巽四", 5: "中五", 6: "乾六", 7: "兌七", 8: "艮八", 9: "離九"}


def ninestar_bindings(ns: dict, lex: Lexicon, b: Bindings, sections: dict) -> None:
    """Bind the Nine Star centre stars and the nine palaces of each plate."""
    for slot, key in (("年星", "year"), ("月星", "month"), ("日星", "day"), ("命星", "natal")):
        if ns.get(key):  # 命星 only with the asker's birth year
            _root(b.slots, slot, lex.id("FlyingStar", ns.get(key)))
    plates = ns.get("plates") or {}
    for scope, key in (("年盤", "year"), ("月盤", "month"), ("日盤", "day")):
        plate = plates.get(key) or {}
        b.scopes[scope] = list(_section(sections, ("盤", tuple(plate), tuple(plate.values())),
                                        lambda: _star_plate(plate, lex)))


def _star_plate(plate: dict, lex: Lexicon) -> list:
    """The nine palaces of one Nine Star plate: the palace ``宮`` and the star ``星`` flying to it."""
    cells = []
    for num, star in sorted(plate.items()):
        root = Bound.root("宮", lex.palaces[int(num)])
        cells.append((root.value, {"宮": root, "星": root.hop(PLATE_STAR, lex.id("FlyingStar", star))}))
    return cells


def chart_bindings(chart: dict, lex: Lexicon, seasons: dict[str, str], sections: dict | None = None) -> Bindings:
    """The bindings of a whole chart; *seasons* maps a branch id to its Season id (IN_SEASON); *sections*: the
    reader's store of the sections of the charts it bound (:func:`_section`)."""
    sections = {} if sections is None else sections
    systems = tuple(s for s in ("liuren", "qimen", "ninestar") if chart.get(s))
    b = Bindings(systems)
    month = lex.id("Branch", (chart.get("pillars") or {}).get("month", "  ")[1:2] or None)
    _pillar_slots(chart.get("pillars") or {}, lex, b.slots, branches="qimen" in systems)
    if "liuren" in systems:
        liuren_bindings(chart["liuren"], lex, b, sections)
        hour = (chart.get("pillars") or {}).get("hour")
        if hour:
            _root(b.slots, "時干", lex.id("Stem", hour[0]))
        b.options["liuren"] = _set_options(chart["liuren"].get("options"))
    if "qimen" in systems:
        qimen_bindings(chart["qimen"], lex, b, sections)
        _birth_slots((chart.get("liuren") or {}).get("birth") or chart.get("birth") or {}, lex, b.slots)
        qm, pillars = chart["qimen"], chart.get("pillars") or {}
        qimen_pillars = {"年": pillars.get("year"), "月": pillars.get("month"), "日": qm.get("day_pillar"),
                         "時": qm.get("hour_pillar")}
        if tables_on(chart):
            _nayin_slots(qimen_pillars, lex, b.slots)
        natal = ((chart.get("liuren") or {}).get("birth") or chart.get("birth") or {}).get("ben_ming")
        _plate_stem_slots({**qimen_pillars, "本命": natal}, lex, b.slots)  # (本命盤干: a 甲 year as its 儀)
        b.options["qimen"] = _set_options(chart["qimen"].get("options"))
    if tables_on(chart):  # 月厭 生氣 死氣 喪門 弔客 (readings/standard.py)
        bind_shensha(b.slots, lex.standard, systems)
    elif "qimen" in systems:
        b.options["qimen"] = {**b.options["qimen"], OPTION: "off"}
    if "ninestar" in systems:
        ninestar_bindings(chart["ninestar"], lex, b, sections)
        b.options["ninestar"] = _set_options(chart["ninestar"].get("options"))
    _root(b.slots, "季節", seasons.get(month) if month else None)  # the month branch's season (IN_SEASON)
    return b
