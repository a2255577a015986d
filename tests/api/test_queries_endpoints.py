"""/queries lists the registry with typed parameters; /queries/{name} runs one, checking every parameter."""

from __future__ import annotations

import pytest

from leishen.queries.catalog import QUERIES
from leishen.service import queries

from apicheck import assert_error


def test_registry_lists_every_named_query_with_typed_parameters(client):
    listed = client.get("/queries").json()
    assert [q["name"] for q in listed] == queries.names()
    assert set(queries.names()) | set(queries.INTERNAL) == set(QUERIES) == set(queries.PARAMS) | set(queries.INTERNAL)
    for entry in listed:
        assert [p["name"] for p in entry["parameters"]] == list(QUERIES[entry["name"]].params)
        for param in entry["parameters"]:
            assert param["schema"] and param["description"]
    resolve = next(q for q in listed if q["name"] == "resolve")
    assert resolve["parameters"][0]["required"] is True and resolve["parameters"][0]["schema"]["maxLength"] == 200


def test_every_named_query_has_its_own_operation(client):
    paths = client.get("/openapi.json").json()["paths"]
    for name in queries.names():
        operation = paths[f"/queries/{name}"]["get"]
        assert {p["name"] for p in operation.get("parameters", ())} == set(QUERIES[name].params)
        assert {"400", "422"} <= set(operation["responses"])


def test_named_queries_answer_the_backend_rows(client, app):
    store = app.state.store
    assert client.get("/queries/stats").json()["rows"] == store.run("stats")
    resolved = client.get("/queries/resolve", params={"q": "神后"}).json()
    assert resolved["rows"][0]["id"] == "Branch:zi" and resolved["params"] == {"q": "神后"}
    among = client.get("/queries/relations_among", params={"node_ids": ["Branch:zi", "Branch:wu"]}).json()
    assert among["rows"] == store.run("relations_among", node_ids=["Branch:zi", "Branch:wu"])
    assert {r["type"] for r in among["rows"]} >= {"CLASHES"}
    typed = client.get("/queries/shortest_path", params={"source": "Branch:zi", "target": "Branch:wu",
                                                         "types": ["CLASHES"]}).json()["rows"]
    assert typed == store.run("shortest_path", source="Branch:zi", target="Branch:wu", types=["CLASHES"])
    assert typed[0]["types"] == ["CLASHES"]
    leaving = client.get("/queries/relations_from", params={"node_ids": ["Branch:zi"], "types": ["CLASHES"]}).json()
    assert leaving["rows"] == store.run("relations_from", node_ids=["Branch:zi"], types=["CLASHES"])
    assert [r["target"]["id"] for r in leaving["rows"]] == ["Branch:wu"]
    facts = client.get("/queries/facts", params={"doc": "002", "node_id": "General:liu_he"}).json()["rows"]
    assert facts and facts == store.run("facts", doc="002", node_id="General:liu_he")


@pytest.mark.parametrize("path, params, field", [
    ("/queries/resolve", {}, "q"),
    ("/queries/resolve", {"q": "x" * 201}, "q"),
    ("/queries/facts", {"doc": "999"}, "doc"),
    ("/queries/symbol_relations", {"node_id": "MATCH (n) DETACH DELETE n"}, "node_id"),
    ("/queries/stats", {"bogus": "1"}, "bogus"),
    ("/queries/shortest_path", {"source": "Branch:zi", "target": "Branch:wu", "types": ["clashes; DROP"]}, "types"),
    ("/queries/relations_from", {"node_ids": ["Branch:zi"], "types": ["SUBJECT"]}, "types"),
    ("/queries/relations_from", {"node_ids": ["Branch:zi"]}, "types"),
    ("/queries/relations_among", {"node_ids": [f"Branch:b{i}" for i in range(65)]}, "node_ids"),
])
def test_named_query_bad_parameters_name_the_field(client, path, params, field):
    body = assert_error(client.get(path, params=params), 422, field)
    assert body["field"] == field or body["field"].startswith(field)


def test_unknown_named_query_is_404_listing_the_known(client):
    assert_error(client.get("/queries/drop_everything"), 404, "drop_everything", "resolve")
    assert_error(client.get("/queries/rule_checks"), 404, "rule_checks")


def test_service_validation_names_the_field():
    from leishen.errors import BackendError

    with pytest.raises(BackendError, match="parameter doc"):
        queries.validate("facts", {"doc": "001"})
    with pytest.raises(BackendError, match="parameter extra"):
        queries.validate("stats", {"extra": 1})
