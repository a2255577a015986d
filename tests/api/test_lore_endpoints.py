"""The lore endpoints answer what the service (and so the CLI's --json) answers, and bad input is a 4xx."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from leishen.cli.main import main as cli
from leishen.service import lore

from apicheck import assert_error


@pytest.fixture(scope="module")
def store(app, client):
    return app.state.store


def cli_json(*args: str):
    result = CliRunner().invoke(cli, [*args, "--json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


def test_health(client, bare_client):
    body = client.get("/health").json()
    assert body["status"] == "ok" and body["backend"] == "networkx" and body["corpus"] is True
    assert body["nodes"] > 2000 and body["relations"] > body["nodes"]
    assert bare_client.get("/health").json()["corpus"] is False


def test_symbol_is_the_cli_json(client, store):
    answer = client.get("/symbols/神后")
    assert answer.status_code == 200
    assert answer.json() == lore.symbol(store, "神后") == cli_json("symbol", "神后")
    assert answer.json()["matches"][0]["node"]["id"] == "Branch:zi"
    assert all(r["src"] for r in answer.json()["matches"][0]["relations"])


def test_symbol_types_filter(client):
    rows = client.get("/symbols/子", params={"types": ["HAS_ELEMENT"]}).json()["matches"][0]["relations"]
    assert rows and {r["type"] for r in rows} == {"HAS_ELEMENT"}


def test_symbol_bad_input(client):
    body = assert_error(client.get("/symbols/no-such-thing-here"), 404, "no-such-thing-here")
    assert body["type"] == "UnknownSymbolError"
    assert assert_error(client.get("/symbols/" + "子" * 201), 422)["field"] == "name"
    bad_type = client.get("/symbols/子", params={"types": ["NOT_A_TYPE"]})
    assert bad_type.status_code in (400, 404, 422) and "NOT_A_TYPE" in bad_type.json()["error"]


def test_facts_pages_and_total(client, store):
    everything = lore.facts(store)
    first = client.get("/facts")
    assert first.status_code == 200 and first.json() == everything == cli_json("facts")
    assert first.headers["X-Total-Count"] == str(len(everything))
    page = client.get("/facts", params={"limit": 10, "offset": 20}).json()
    assert page == everything[20:30]
    by_doc = client.get("/facts", params={"doc": "000", "symbol": "子"}).json()
    assert by_doc == lore.facts(store, "000", "子") and by_doc
    assert all(any(s.startswith("000:") for s in f["src"]) for f in by_doc)


@pytest.mark.parametrize("params, field", [({"limit": 0}, "limit"), ({"limit": 10**9}, "limit"),
                                           ({"offset": -1}, "offset"), ({"doc": "009"}, "doc")])
def test_facts_bad_input(client, params, field):
    assert assert_error(client.get("/facts", params=params), 422, field)["field"] == field


def test_path_is_the_cli_json(client, store):
    answer = client.get("/paths", params={"source": "子", "target": "午"})
    assert answer.status_code == 200
    assert answer.json() == lore.path(store, "子", "午") == cli_json("path", "子", "午")
    assert answer.json()["length"] >= 1 and all(h["relations"] for h in answer.json()["hops"])


def test_path_bad_input(client):
    assert assert_error(client.get("/paths", params={"source": "子"}), 422, "target")["field"] == "target"
    assert_error(client.get("/paths", params={"source": "子", "target": "nothing-of-that-name"}), 404, "nothing-of-that-name")
    ambiguous = assert_error(client.get("/paths", params={"source": "白虎", "target": "子"}), 400, "白虎")
    assert len(ambiguous["matches"]) >= 2


def test_passage(client, store):
    src = lore.facts(store)[0]["src"][0]
    doc, line = src.split(":")
    answer = client.get(f"/passages/{doc}:{line}")
    assert answer.status_code == 200
    body = answer.json()
    assert body == lore.passage(src) and body["text"] and body["facts"]


def test_passage_without_a_corpus_is_404_saying_so(bare_client):
    assert_error(bare_client.get("/passages/000:35"), 404, "corpus")


@pytest.mark.parametrize("path, status, field", [("/passages/009:3", 422, "doc"), ("/passages/000:0", 422, "line"),
                                                 ("/passages/000:x", 422, "line"), ("/passages/000:2", 404, None)])
def test_passage_bad_input(client, path, status, field):
    assert assert_error(client.get(path), status)["field"] == field


def test_coverage(client, bare_client, settings):
    answer = client.get("/coverage")
    assert answer.status_code == 200 and answer.json() == lore.coverage(settings.corpus)
    assert answer.json()["total"]["present"] > 0
    assert_error(bare_client.get("/coverage"), 404, "corpus")


def test_unknown_route_and_method_are_json_errors(client):
    assert_error(client.get("/nothing/here"), 404)
    assert_error(client.delete("/health"), 405)
