"""The schema (labels and relation types) read from ``ontology/schema/*.toml``."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path

from leishen.errors import OntologyError
from leishen.loaders.csvfile import read_text

ANY = "*"


@dataclass(frozen=True, slots=True)
class LabelDef:
    name: str
    zh: str
    ko: str
    en: str
    closed: bool
    file: str


@dataclass(frozen=True, slots=True)
class RelationDef:
    name: str
    zh: str
    ko: str
    en: str
    subject: tuple[str, ...]
    object: tuple[str, ...]
    symmetric: bool
    file: str

    def allows(self, subject_label: str, object_label: str) -> bool:
        """Whether the endpoints' labels are allowed for this relation type."""
        ok_s = ANY in self.subject or subject_label in self.subject
        ok_o = ANY in self.object or object_label in self.object
        return ok_s and ok_o


@dataclass(frozen=True, slots=True)
class Schema:
    labels: dict[str, LabelDef]
    relations: dict[str, RelationDef]


def ontology_dir() -> Path:
    """The ontology folder: ``$LEISHEN_ONTOLOGY`` when set (tests, forks) and holding every table the installed
    one holds (:func:`check_ontology`), else the installed ``leishen.ontology`` package (the repo's ``ontology/``)."""
    from leishen import settings
    override = settings.get("LEISHEN_ONTOLOGY")  # an existing folder, else SettingError naming the variable
    installed = Path(str(resources.files("leishen.ontology")))
    if override:
        check_ontology(override, installed)
    return override if override else installed


@cache
def installed_tables(installed: Path) -> tuple[str, ...]:
    """The data files (.csv, .toml, .tsv) of the installed ontology, as paths relative to it (one walk of a
    folder that never changes)."""
    found = (path.relative_to(installed) for path in installed.rglob("*")
             if path.is_file() and path.suffix in (".csv", ".toml", ".tsv"))
    return tuple(sorted(str(rel) for rel in found))


def check_ontology(folder: Path, installed: Path) -> None:
    """SettingError naming ``LEISHEN_ONTOLOGY`` when *folder* lacks a table of the installed ontology, or holds a
    FIFO, a device or a folder in its place (looked at with stat only). A fork may add tables and edit rows, but
    not delete a table: one gone would silently change readings (a deleted facts table turned a 凶 into a 吉)."""
    from leishen.errors import SettingError
    missing = [rel for rel in installed_tables(installed) if not (folder / rel).is_file()]
    if missing:
        more = f" and {len(missing) - 3} more" if len(missing) > 3 else ""
        raise SettingError(f"LEISHEN_ONTOLOGY={str(folder)!r}: not an ontology folder: it lacks "
                           f"{', '.join(missing[:3])}{more} (or they are not regular files); copy the installed "
                           f"folder {installed} and edit the copy (tables may be added, not deleted)",
                           variable="LEISHEN_ONTOLOGY")


def _require(table: dict, key: str, where: str):
    if key not in table:
        raise OntologyError(f"{where}: missing field {key!r}")
    return table[key]


def _label(name: str, table: dict, file: str) -> LabelDef:
    where = f"{file}: [labels.{name}]"
    if not name.isascii() or not name[:1].isupper():
        raise OntologyError(f"{where}: a label must be PascalCase ASCII")
    return LabelDef(name, _require(table, "zh", where), _require(table, "ko", where),
                    _require(table, "en", where), bool(table.get("closed", False)), file)


def _relation(name: str, table: dict, file: str) -> RelationDef:
    where = f"{file}: [relations.{name}]"
    if not name.isascii() or name.upper() != name:
        raise OntologyError(f"{where}: a relation type must be UPPER_SNAKE ASCII")
    return RelationDef(name, _require(table, "zh", where), _require(table, "ko", where),
                       _require(table, "en", where), tuple(_require(table, "subject", where)),
                       tuple(_require(table, "object", where)), bool(table.get("symmetric", False)), file)


def read_schema(folder: Path) -> Schema:
    """Read and merge every ``*.toml`` of *folder*; a name defined twice is an error."""
    labels: dict[str, LabelDef] = {}
    relations: dict[str, RelationDef] = {}
    for path in sorted(folder.glob("*.toml")):
        file = f"schema/{path.name}"
        errors: list[str] = []
        text = read_text(path, file, errors)
        if text is None:
            raise OntologyError(errors[0])
        try:
            data = tomllib.loads(text)
        except tomllib.TOMLDecodeError as exc:
            raise OntologyError(f"{file}: not valid TOML: {exc}") from None
        if not data.get("labels") and not data.get("relations"):
            raise OntologyError(f"{file}: defines no labels and no relations (an empty or truncated schema file)")
        for name, table in data.get("labels", {}).items():
            if name in labels:
                raise OntologyError(f"{file}: label {name!r} is already defined in {labels[name].file}")
            labels[name] = _label(name, table, file)
        for name, table in data.get("relations", {}).items():
            if name in relations:
                raise OntologyError(f"{file}: relation {name!r} is already defined in {relations[name].file}")
            relations[name] = _relation(name, table, file)
    for rel in relations.values():
        for end in rel.subject + rel.object:
            if end != ANY and end not in labels:
                raise OntologyError(f"{rel.file}: relation {rel.name} names unknown label {end!r}")
    return Schema(labels, relations)


def load_schema() -> Schema:
    """The schema of the current ontology folder (cached per folder)."""
    return _schema_at(ontology_dir())


@cache
def _schema_at(folder: Path) -> Schema:
    return read_schema(folder / "schema")
