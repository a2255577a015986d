"""``leishen export``: GraphML, JSON and CSV of the graph or a neighbourhood, read back with the same tools."""

from __future__ import annotations

import csv
import json

import networkx as nx
import pytest
from click.testing import CliRunner

from leishen.backends import export
from leishen.cli.main import main as cli


@pytest.fixture(scope="module")
def relations(nx_backend):
    return export.relation_graph(nx_backend.graph)


def run(*args):
    result = CliRunner().invoke(cli, ["export", *args])
    assert result.exit_code == 0, result.output
    return result.output


def test_relation_graph_has_every_fact_as_an_edge_with_its_citations(nx_backend, relations):
    facts = [n for n, a in nx_backend.graph.nodes(data=True) if a["label"] == "Fact"]
    assert relations.number_of_edges() == len(facts)
    assert not any(a["label"] in ("Fact", "Passage") for _, a in relations.nodes(data=True))
    assert all(d["src"] and d["fact"] for _, _, d in relations.edges(data=True))


def test_graphml_reads_back(tmp_path, relations):
    out = tmp_path / "lore.graphml"
    report = json.loads(run("--format", "graphml", "-o", str(out), "--json"))
    back = nx.read_graphml(out)
    assert report["nodes"] == back.number_of_nodes() == relations.number_of_nodes()
    assert back.number_of_edges() == relations.number_of_edges()
    assert back.nodes["Branch:zi"]["name"] == "子"
    edge = next(d for _, v, d in back.out_edges("Branch:zi", data=True) if d["type"] == "HAS_ELEMENT")
    assert edge["src"] and all(":" in s for s in edge["src"].split("|"))


def test_json_keeps_lists_and_maps(tmp_path, relations):
    out = tmp_path / "lore.json"
    run("--format", "json", "-o", str(out))
    back = nx.node_link_graph(json.loads(out.read_text(encoding="utf-8")), edges="edges")
    assert back.number_of_edges() == relations.number_of_edges()
    stages = [d for _, _, d in back.out_edges("Stem:jia", data=True) if d["type"] == "LIFE_STAGE"]
    assert stages and all(isinstance(d["src"], list) and d["qualifiers"]["stage"].startswith("LifeStage:") for d in stages)


def test_csv_neighbourhood(tmp_path, relations):
    folder = tmp_path / "zi"
    run("--format", "csv", "-o", str(folder), "--symbol", "子", "--depth", "1")
    nodes = list(csv.DictReader((folder / "nodes.csv").open(encoding="utf-8")))
    edges = list(csv.DictReader((folder / "edges.csv").open(encoding="utf-8")))
    ids = {n["id"] for n in nodes}
    assert "Branch:zi" in ids and "Element:water" in ids and len(ids) < relations.number_of_nodes()
    assert all(e["source"] in ids and e["target"] in ids and e["src"] for e in edges)
    assert len(edges) == export.neighbourhood(relations, ["Branch:zi"], 1).number_of_edges()


def test_stdout_and_bad_input(relations):
    text = run("--format", "csv", "--symbol", "Branch:zi", "--depth", "0")
    rows = list(csv.DictReader(text.splitlines()))
    assert rows and all(r["source"] == r["target"] == "Branch:zi" for r in rows)
    result = CliRunner().invoke(cli, ["export", "--format", "csv", "--symbol", "no-such-symbol-x"])
    assert result.exit_code == 2 and "no-such-symbol-x" in result.output
    result = CliRunner().invoke(cli, ["export", "--format", "xlsx"])
    assert result.exit_code == 2
