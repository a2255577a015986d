"""The HTTP API as clients meet it (issue #39): a named query answers an unknown node id 404 naming the parameter
with close ids; /paths and /symbols name the field at fault; /readings gives MCP's compact form on request;
topics are accepted by their en and ko names and common words, an unknown one listed against every topic; every
parameter of the OpenAPI schema is described."""

from __future__ import annotations

import urllib.parse

import pytest

from leishen.service.book import topics as all_topics
from leishen.service import queries
from leishen.service import readings as door
from leishen.service.requests import ReadingsQuery

MOMENT = "2026-12-01T10:00+09:00"
#: an unknown id per node parameter, and a known one for the others
UNKNOWN = {"node_id": "Branch:zz", "source": "Branch:zz", "target": "Branch:zz", "node_ids": ["Branch:zi", "Stem:nope"]}
KNOWN = {"node_id": "Branch:zi", "source": "Branch:zi", "target": "Branch:wu", "node_ids": ["Branch:zi"],
         "types": ["CLASHES"]}


def id_params() -> list[tuple[str, str]]:
    return [(name, p.name) for name in queries.names() for p in queries.spec(name) if p.name in queries.NODE_PARAMS]


@pytest.mark.parametrize(("name", "param"), id_params())
def test_a_named_query_answers_an_unknown_node_id_404_naming_the_parameter(client, name, param):
    values = {p.name: (UNKNOWN if p.name == param else KNOWN)[p.name] for p in queries.spec(name)
              if p.required or p.name == param}
    answer = client.get(f"/queries/{name}", params=values)
    assert answer.status_code == 404, answer.text
    body = answer.json()
    assert body["field"] == param and body["error"].startswith(f"{param}: no node ")
    assert body["matches"] and all(":" in m for m in body["matches"])  # close node ids
    known = {p.name: KNOWN[p.name] for p in queries.spec(name) if p.required or p.name == param}
    assert client.get(f"/queries/{name}", params=known).status_code == 200


def test_every_named_query_taking_ids_is_covered():
    assert {n for n, _ in id_params()} == {"symbol_relations", "facts", "shortest_path", "relations_among",
                                           "relations_from"}


def test_paths_symbols_and_words_name_the_field_at_fault(client):
    cases = [("/paths", {"source": "子", "target": "nope"}, 404, "target"),
             ("/paths", {"source": "nope", "target": "子"}, 404, "source"),
             ("/symbols/子", {"types": "NOPE"}, 400, "types"),
             ("/symbols/nopex", {}, 404, "name"),
             ("/views/words", {"rels": "NOPE,CLASHES"}, 400, "rels")]
    for path, params, status, field in cases:
        answer = client.get(path, params=params)
        assert (answer.status_code, answer.json()["field"]) == (status, field), (path, answer.text)
    assert client.get("/symbols/子", params={"types": "CLASHE"}).json()["matches"] == ["CLASHES"]


def test_readings_compact_mirrors_mcp_and_fields_shrink_it(client):
    base = {"moment": MOMENT, "topic": "射覆"}
    whole = client.get("/readings", params=base)
    compact = client.get("/readings", params={**base, "compact": "true"})
    some = client.get("/readings", params={**base, "findings": "true", "fields": ["polarity"], "limit": 3})
    korean = client.get("/readings", params={**base, "lang": "ko"})
    assert {a.status_code for a in (whole, compact, some, korean)} == {200}
    assert len(compact.content) * 8 < len(whole.content) and len(compact.content) <= 20_000
    query = ReadingsQuery(**base)
    full = door.read(query.chart(), topic="射覆", reader=door.reader_for(), request=query.request(),
                     options=query.options(), typed=False)
    assert compact.json() == query.compacted(full)  # the form MCP's read gives
    listed = some.json()["findings"]
    assert listed["shown"] == 3 and all(set(item) == {"id", "polarity"} for item in listed["items"])
    assert korean.json()["lang"] == "ko" and "findings" not in korean.json()
    assert "judgments" in whole.json() and isinstance(whole.json()["findings"], list)
    bad = client.get("/readings", params={**base, "fields": ["idx"]})
    assert bad.status_code == 422 and bad.json()["field"] == "fields.0"


@pytest.mark.parametrize(("typed", "topic"), [("wealth", "求財"), ("weather", "天時"), ("travel", "出行"),
                                              ("illness", "疾病"), ("占天時", "天時"), ("재물", "求財"),
                                              ("guessing a hidden object", "射覆"), ("사부", "射覆")])
def test_a_topic_is_read_by_its_en_and_ko_names_and_common_words(client, typed, topic):
    answer = client.get("/readings", params={"moment": MOMENT, "topic": typed, "compact": "true"})
    assert answer.status_code == 200, answer.text
    assert answer.json()["topic"] == topic


def test_an_unknown_topic_lists_every_topic(client):
    answer = client.get("/readings", params={"moment": MOMENT, "topic": "nope"})
    body = answer.json()
    assert answer.status_code == 400 and body["field"] == "topic"
    assert "Value error" not in body["error"] and "characters left out" not in body["error"]
    assert all(t["zh"] in body["error"] for t in all_topics())
    find = {"start": "2026-12-01T00:00+09:00", "end": "2026-12-01T05:00+09:00"}
    answers = [client.get("/find", params={**find, "topic": topic, "verdict": verdict})
               for verdict in ("吉", "凶", "平", "混", "未定") for topic in ("travel", "出行")]
    assert {a.status_code for a in answers} == {200}
    assert answers[0::2] and [a.json() for a in answers[0::2]] == [a.json() for a in answers[1::2]]
    assert sum(len(a.json()) for a in answers[1::2]) == 6  # every hour has one verdict: the same by either name


def test_every_parameter_is_described(app):
    spec = app.openapi()
    undescribed = [(path, p["name"]) for path, ops in spec["paths"].items() for op in ops.values()
                   for p in op.get("parameters", ())
                   if not (p.get("description") or p.get("schema", {}).get("description"))]
    assert undescribed == []
    assert sum(len(op.get("parameters", ())) for ops in spec["paths"].values() for op in ops.values()) > 100


def test_a_passage_answers_its_korean_translation(client, corpus_dir):
    body = client.get(f"/passages/{urllib.parse.quote('003:51')}").json()
    lines = next(corpus_dir.glob("003_*.txt")).read_text(encoding="utf-8").splitlines()
    assert body["ko"] == next(line for line in lines[51:] if line.strip()).strip()
