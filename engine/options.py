"""The school options of the three chart engines, declared once: ``options.csv`` beside this module.

One row per option (``value`` empty: its system, the engine's keyword ``key``, ``type`` choice or int, default,
bounds, zh/ko/en label, doc, src) and one row per choice (its label, doc, the school it follows and its src).
Everything else is made from the table: the engines' option enumerations (:func:`choice_enum`) and option
records (:func:`options_class`), the CLI flags, the HTTP and MCP request fields (:mod:`leishen.service.requests`)
and the web page's option panel (:mod:`leishen.viz.options`). A bad value is refused naming the option and its
choices (:meth:`Option.parse`).
"""

from __future__ import annotations

import csv
from dataclasses import dataclass, make_dataclass
from enum import StrEnum
from functools import lru_cache
from pathlib import Path

from leishen.errors import ChartError, OntologyError

TABLE = Path(__file__).with_name("options.csv")
SYSTEMS = ("liuren", "qimen", "ninestar")
KINDS = ("choice", "int")
LANGS = ("zh", "ko", "en")


@dataclass(frozen=True, slots=True)
class Choice:
    """One value of a choice option: its labels (zh, ko, en), what it does, the school it follows, its src."""

    value: str
    names: tuple[tuple[str, str], ...]
    doc: str
    school: str
    src: str


@dataclass(frozen=True, slots=True)
class Option:
    """One school option of one system: ``name`` at the doors (``qimen_method``), ``key`` in the engine
    (``method``), its kind, default, bounds (int), labels and docs by language, src, and its choices."""

    name: str
    system: str
    key: str
    kind: str
    default: str | int
    low: int | None
    high: int | None
    names: tuple[tuple[str, str], ...]
    docs: tuple[tuple[str, str], ...]
    src: str
    choices: tuple[Choice, ...]

    @property
    def values(self) -> tuple[str, ...]:
        """The allowed values of a choice option (empty for an int)."""
        return tuple(c.value for c in self.choices)

    @property
    def doc(self) -> str:
        """The English doc of the option."""
        return dict(self.docs)["en"]

    @property
    def flag(self) -> str:
        """The CLI flag (``--qimen-method``)."""
        return "--" + self.name.replace("_", "-")

    def help(self, choices: bool = True) -> str:
        """One English line: the system, the doc, and (*choices*) the allowed values or bounds and the default."""
        allowed = ", ".join(self.values) if self.kind == "choice" else f"{self.low}-{self.high}"
        told = f" ({allowed}; left out: {self.default})" if choices else ""
        return f"{_SYSTEM_NAMES[self.system]}: {self.doc}{told}"

    def parse(self, value) -> str | int:
        """*value* (text, an enum member, an int) as the option's plain value, or ChartError naming
        ``system.options.key``, the value and the choices (or bounds)."""
        where = f"{self.system}.options.{self.key}"
        if self.kind == "int":
            number = _whole(value)
            if number is None or not self.low <= number <= self.high:
                raise ChartError(f"{where}: {value!r} is not a whole number {self.low}-{self.high}")
            return number
        plain = getattr(value, "value", value)
        if plain not in self.values:
            raise ChartError(f"{where}: {plain!r} is not one of {', '.join(self.values)}")
        return plain


_SYSTEM_NAMES = {"liuren": "Liu Ren", "qimen": "Qimen", "ninestar": "Nine Stars"}


def _whole(value) -> int | None:
    """*value* as an int when it is one (or its decimal text), else None (a bool is not a number)."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    text = str(value).strip()
    return int(text) if text.lstrip("-").isdigit() else None


@lru_cache(maxsize=1)
def options() -> tuple[Option, ...]:
    """Every option of engine/options.csv, in its order (read and checked once, :func:`read_table`)."""
    return read_table(TABLE)


def read_table(path: Path) -> tuple[Option, ...]:
    """The options of the table at *path*; a bad row is an OntologyError naming the file, the row and the column."""
    with path.open(encoding="utf-8", newline="") as handle:
        rows = list(enumerate(csv.DictReader(handle), start=2))
    heads: list[Option] = []  # each option row, checked, its choices not yet given
    choices: list[list[Choice]] = []  # the choices of each, in order
    for number, row in rows:
        where = f"{path.name} row {number}"
        wanted = ("src", *LANGS, *(("doc_" + lang for lang in LANGS) if not row["value"] else ("doc_en", "school")))
        empty = next((column for column in wanted if not row[column]), None)
        if empty:
            raise OntologyError(f"{where}, column {empty}: empty (every row has src and zh/ko/en labels; an option "
                                "its doc in each language, a choice its doc and school)")
        if not row["value"]:
            heads.append(_option(row, where))
            choices.append([])
        elif not heads or heads[-1].name != row["option"]:
            raise OntologyError(f"{where}, column option: a choice of {row['option']!r} before its option row")
        elif heads[-1].kind != "choice" or any(c.value == row["value"] for c in choices[-1]):
            raise OntologyError(f"{where}, column value: {row['value']!r} is not a new choice of a choice option")
        else:
            choices[-1].append(Choice(row["value"], _langs(row, ""), row["doc_en"], row["school"], row["src"]))
    out = tuple(Option(*(getattr(head, f) for f in _OPTION_HEAD), tuple(found)) for head, found in zip(heads, choices))
    for option in out:
        if option.kind == "choice" and option.default not in option.values:
            raise OntologyError(f"{path.name}, option {option.name}, column default: {option.default!r} is not one "
                                f"of its choices {', '.join(option.values)}")
    return out


#: the fields of an Option before its choices
_OPTION_HEAD = ("name", "system", "key", "kind", "default", "low", "high", "names", "docs", "src")


def _langs(row: dict, prefix: str) -> tuple[tuple[str, str], ...]:
    return tuple((lang, row[prefix + lang]) for lang in LANGS)


def _option(row: dict, where: str) -> Option:
    """The option of an option row, without its choices yet."""
    if row["system"] not in SYSTEMS:
        raise OntologyError(f"{where}, column system: {row['system']!r} is not one of {', '.join(SYSTEMS)}")
    if row["type"] not in KINDS:
        raise OntologyError(f"{where}, column type: {row['type']!r} is not one of {', '.join(KINDS)}")
    whole = row["type"] == "int"
    low, high, default = (_whole(row[c]) for c in ("low", "high", "default")) if whole else (None, None, None)
    if whole and None in (low, high, default) or whole and not low <= default <= high:
        raise OntologyError(f"{where}, columns low, high, default: an int option has whole-number bounds and a "
                            "default between them")
    return Option(row["option"], row["system"], row["key"], row["type"], default if whole else row["default"],
                  low, high, _langs(row, ""), _langs(row, "doc_"), row["src"], ())


def option(name: str) -> Option:
    """The option called *name* at the doors (``qimen_method``); KeyError when the table has none."""
    for found in options():
        if found.name == name:
            return found
    raise KeyError(name)


def system_options(system: str) -> tuple[Option, ...]:
    """The options of one system, in the table's order."""
    return tuple(o for o in options() if o.system == system)


def by_system(values: dict) -> dict[str, dict]:
    """Option name → value (``{"qimen_method": "zhi_run", "shehai": "depth"}``) as system → engine key →
    value, each system present (what :class:`leishen.engine.chart.ChartRequest` takes)."""
    out: dict[str, dict] = {system: {} for system in SYSTEMS}
    for spec in options():
        if spec.name in values and values[spec.name] is not None:
            out[spec.system][spec.key] = values[spec.name]
    return out


def choice_enum(name: str, class_name: str, module: str) -> type[StrEnum]:
    """The enumeration of the choice option *name*: one member per choice (``middle_term`` → ``MIDDLE_TERM``),
    documented from the table (bind it to *class_name* in *module*, so that it pickles)."""
    spec = option(name)
    enum = StrEnum(class_name, [(c.value.upper(), c.value) for c in spec.choices], module=module)
    bullets = "\n".join(f"* ``{c.value}``{' (default)' if c.value == spec.default else ''} — {c.doc} "
                        f"[{c.school}; {c.src}]" for c in spec.choices)
    enum.__doc__ = f"{spec.doc[:1].upper()}{spec.doc[1:]} (engine/options.csv).\n\n{bullets}"
    return enum


class SchoolOptions:
    """The options of one system as a frozen record (made by :func:`options_class`): hashable (a cache key),
    built from plain text by :meth:`from_mapping`, shown by :meth:`to_dict`."""

    __slots__ = ()
    SYSTEM = ""
    ENUMS: tuple = ()  # (key, enumeration) of the fields that hold enum members
    ENUM_KEYS: frozenset = frozenset()

    @classmethod
    def from_mapping(cls, values) -> SchoolOptions:
        """Build from plain values (CLI, JSON, a door's fields), naming an unknown key or a bad value."""
        if not values:
            return cls()
        if isinstance(values, cls):
            return values
        specs = {o.key: o for o in system_options(cls.SYSTEM)}
        kinds = dict(cls.ENUMS)
        parsed = {}
        for key, raw in dict(values).items():
            if key not in specs:
                raise ChartError(f"{cls.SYSTEM}.options.{key}: unknown option; known: {', '.join(specs)}")
            plain = specs[key].parse(raw)
            parsed[key] = kinds[key](plain) if kinds.get(key) else plain
        return cls(**parsed)

    def to_dict(self) -> dict:
        """Plain-value form (for the chart JSON and the engines' keywords)."""
        out = {}
        for key in self.__dataclass_fields__:
            value = getattr(self, key)
            out[key] = value.value if key in self.ENUM_KEYS else value
        return out


def options_class(system: str, class_name: str, module: str, kinds: dict | None = None) -> type:
    """The frozen record of *system*'s options: one field per option of the table, holding the member of its
    enumeration in *kinds* (key → enum), else its plain value; each field defaults to the table's default."""
    kinds = kinds or {}
    specs = system_options(system)
    doc = f"The {_SYSTEM_NAMES[system]} school options (engine/options.csv): " + ", ".join(o.key for o in specs) + "."
    made = make_dataclass(class_name, [(o.key, kinds.get(o.key, type(o.default)),
                                        kinds[o.key](o.default) if o.key in kinds else o.default) for o in specs],
                          bases=(SchoolOptions,), frozen=True, slots=True,
                          namespace={"__doc__": doc, "SYSTEM": system, "ENUMS": tuple(kinds.items()),
                                     "ENUM_KEYS": frozenset(kinds)})
    made.__module__ = module
    return made


#: The Qimen and Nine Star options as records of plain values (the engines take text; Liu Ren's record,
#: which holds enum members, is :class:`leishen.engine.liuren.options.LiurenOptions`).
QimenOptions = options_class("qimen", "QimenOptions", __name__)
NinestarOptions = options_class("ninestar", "NinestarOptions", __name__)
