"""The named-query registry with typed parameters (``GET /queries``, ``/queries/{name}``, the MCP tools).

Every named query of :mod:`leishen.queries.catalog` appears here once, with the type, bounds and meaning
of each parameter.  :func:`params_model` turns an entry into a pydantic model (unknown parameters are
refused), which the HTTP API uses for its query string and the MCP server for its tool schema, and
:func:`run_query` validates the values and runs the query on a backend — the same rows on both.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, create_model

from leishen.errors import BackendError
from leishen.loaders.corpus import DOCS
from leishen.loaders.schema import load_schema
from leishen.queries.catalog import QUERIES, REIFIED

#: A node id as the rows print it: ``Label:key`` (e.g. ``Branch:zi``, ``General:liu_he``).
NODE_ID = r"^[A-Z][A-Za-z]*:[^\s:]+$"
MAX_TEXT = 200
MAX_IDS = 64
MAX_TYPES = 16


class UnknownQueryError(BackendError):
    """A query name the registry does not hold."""


@dataclass(frozen=True)
class Param:
    """One typed parameter of a named query."""

    name: str
    annotation: Any
    description: str
    required: bool = True
    pattern: str | None = None
    max_length: int | None = None
    min_length: int | None = None
    examples: tuple = ()

    def field(self) -> tuple[Any, Any]:
        """The (annotation, FieldInfo) pair pydantic's ``create_model`` takes."""
        bounds = {k: v for k, v in (("pattern", self.pattern), ("max_length", self.max_length),
                                    ("min_length", self.min_length)) if v is not None}
        kind = Annotated[self.annotation, Field(**bounds)] if bounds else self.annotation
        if self.required:
            return kind, Field(..., description=self.description, examples=list(self.examples) or None)
        return kind | None, Field(None, description=self.description, examples=list(self.examples) or None)


#: A direct relation type of the schema (``CLASHES``, ``LIFE_STAGE`` …; not the reifying SUBJECT, OBJECT …).
RelationType = Literal[tuple(sorted(set(load_schema().relations) - set(REIFIED)))]


def _types(description: str, required: bool) -> Param:
    return Param("types", list[RelationType], description, required, min_length=1, max_length=MAX_TYPES,
                 examples=(["CLASHES", "COMBINES"],))


def _node_ids(description: str) -> Param:
    return Param("node_ids", list[Annotated[str, Field(pattern=NODE_ID, max_length=MAX_TEXT)]], description,
                 min_length=1, max_length=MAX_IDS, examples=(["Branch:zi", "Branch:wu"],))


def _node(name: str, description: str, required: bool = True) -> Param:
    return Param(name, str, description, required, pattern=NODE_ID, max_length=MAX_TEXT, examples=("Branch:zi",))


#: Parameter types of every named query, in the catalog's order of parameters.
PARAMS: dict[str, tuple[Param, ...]] = {
    "stats": (),
    "resolve": (Param("q", str, "a name, alias, Korean or English reading (matched lower-cased)",
                      min_length=1, max_length=MAX_TEXT, examples=("子",)),),
    "symbol_relations": (_node("node_id", "the node whose relations to list"),),
    "facts": (Param("doc", Literal[DOCS], "only facts citing this document", required=False),
              _node("node_id", "only facts naming this node", required=False)),
    "shortest_path": (_node("source", "start node"), _node("target", "end node"),
                      _types("only relations of these types; all when left out", required=False)),
    "relations_among": (_node_ids(f"the nodes (1 to {MAX_IDS}) among which to list direct relations"),),
    "relations_from": (_node_ids(f"the nodes (1 to {MAX_IDS}) whose outgoing relations to list"),
                       _types("the relation types to follow", required=True)),
}


#: Named queries the registry does not offer: their arguments are compiled by another module, not typed
#: by a person (``rule_checks`` takes the ground checks the readings engine compiles from the rules).
INTERNAL = ("rule_checks",)


def names() -> list[str]:
    """Every named query the registry offers, sorted."""
    return sorted(n for n in QUERIES if n not in INTERNAL)


def spec(name: str) -> tuple[Param, ...]:
    """The typed parameters of *name*; UnknownQueryError naming the known ones."""
    if name not in PARAMS or name in INTERNAL:
        raise UnknownQueryError(f"no named query {name!r}; known: {', '.join(names())}")
    return PARAMS[name]


@cache
def params_model(name: str) -> type[BaseModel]:
    """A pydantic model of the parameters of *name* (extra parameters are refused)."""
    fields = {p.name: p.field() for p in spec(name)}
    title = "".join(part.title() for part in name.split("_")) + "Params"
    return create_model(title, __config__=ConfigDict(extra="forbid"), **fields)


def describe(name: str) -> dict:
    """A named query as the registry lists it: name, description, parameters with their JSON schema."""
    schema = params_model(name).model_json_schema()
    required = set(schema.get("required", ()))
    return {"name": name, "description": QUERIES[name].doc,
            "parameters": [{"name": p.name, "required": p.name in required, "description": p.description,
                            "schema": {k: v for k, v in schema["properties"][p.name].items() if k != "description"}}
                           for p in spec(name)]}


def registry() -> list[dict]:
    """Every named query with its typed parameters."""
    return [describe(n) for n in names()]


def validate(name: str, values: dict | None) -> dict:
    """*values* checked against the parameters of *name*; BackendError naming the first bad field."""
    model = params_model(name)
    try:
        checked = model.model_validate(values or {})
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(part) for part in first["loc"]) or "parameters"
        raise BackendError(f"query {name}: parameter {where}: {first['msg']}") from exc
    return checked.model_dump()


#: the parameters of the named queries that take node ids
NODE_PARAMS = ("node_id", "source", "target", "node_ids")
#: labels the resolve query never returns (reified facts and passages): their ids are not checked
UNCHECKED_LABELS = ("Fact", "Passage")


def unknown_node(store, node_id: str) -> bool:
    """Whether *node_id* (``Label:key``) names no node of *store* (ids of facts and passages are not checked)."""
    label, _, key = node_id.partition(":")
    if label in UNCHECKED_LABELS:
        return False
    return not any(row["id"] == node_id for row in store.run("resolve", q=key.lower()))


def close_ids(node_id: str, n: int = 4) -> list[str]:
    """Node ids of the graph like *node_id* (those of its own label first)."""
    import difflib

    from leishen.loaders.build import build_graph
    ids = [node.id for node in build_graph(check=False).nodes]
    label = node_id.partition(":")[0]
    same = difflib.get_close_matches(node_id, [i for i in ids if i.startswith(label + ":")], n, 0.5)
    return (same + [i for i in difflib.get_close_matches(node_id, ids, n, 0.6) if i not in same])[:n]


def check_node_ids(store, values: dict, hint: str = "the resolve query finds a node's id") -> None:
    """UnknownSymbolError (``field``: the parameter; ``matches``: close node ids) for the first node id of
    *values* that names no node, the message naming the parameter and the id; the query itself would answer no
    rows."""
    from leishen.errors import UnknownSymbolError
    for param in NODE_PARAMS:
        given = values.get(param)
        for node_id in ([given] if isinstance(given, str) else given or ()):
            if isinstance(node_id, str) and unknown_node(store, node_id):
                near = close_ids(node_id)
                more = f"; close ids: {', '.join(near)}" if near else ""
                error = UnknownSymbolError(f"{param}: no node {node_id!r} ({hint}){more}", near)
                error.field = param
                raise error


def run_query(store, name: str, values: dict | None = None) -> dict:
    """Run the named query *name* with *values* on *store*: ``{"query", "params", "rows"}``."""
    params = validate(name, values)
    if name == "resolve":
        params["q"] = params["q"].strip().lower()
    return {"query": name, "params": params, "rows": store.run(name, **params)}
