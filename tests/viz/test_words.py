"""The names the web page labels a finding's path with (/views/words) and the school options it offers
(/views/options): every relation a real reading's paths use is named in zh, ko and en; the judgment's options
are offered with their declared defaults and labels of their own."""

from __future__ import annotations

import pytest

from leishen.viz.options import labels, option_table
from leishen.viz.words import chart_hop_words, path_words, relation_words


def test_every_relation_of_a_real_reading_is_named_in_three_languages(chart, nx_backend):
    from leishen.service.book import read
    reading = read(chart, topic="*", backend=nx_backend)
    rels = {h["rel"] for f in reading["findings"] for hops in [f["path"], *(f.get("evidence") or [])]
            for h in hops if "rel" in h}
    named = relation_words(rels)
    assert set(named) == rels and len(rels) > 20
    assert all(w["zh"] and w["ko"] and w["en"] and " (" not in w["en"] for w in named.values())
    assert named["PLATE_OVER"] == chart_hop_words()["PLATE_OVER"]  # a chart hop: not a stored relation


def test_node_names_come_from_the_graph_and_unknown_names_are_left_out():
    found = path_words(["Branch:wu", "Pattern:三奇入墓", "Branch:no_such"], ["CLASHES", "NO_SUCH_TYPE"])
    assert found["nodes"]["Branch:wu"] == {"zh": "午", "ko": "오", "en": "Wu (Horse)"}
    assert set(found["nodes"]) == {"Branch:wu", "Pattern:三奇入墓"}
    assert found["relations"] == {"CLASHES": {"zh": "沖", "ko": "충", "en": "clashes with"}}


def test_the_words_route_answers_names_and_refuses_too_many(client):
    answer = client.get("/views/words", params={"ids": "Branch:wu,Stem:yi", "rels": "PLATE_OVER"})
    assert answer.status_code == 200
    assert set(answer.json()["nodes"]) == {"Branch:wu", "Stem:yi"} and "PLATE_OVER" in answer.json()["relations"]
    refused = client.get("/views/words", params={"ids": ",".join(["Branch:wu"] * 401)})
    assert refused.status_code == 400 and refused.json()["field"] == "ids"
    assert refused.json()["error"] == "ids: at most 400 names at once (got 401)"


def test_the_judgment_options_are_offered_with_their_defaults_and_labels():
    from leishen.api.models import ReadingQuery
    from leishen.judgments.procedure import DEFAULT_OPTIONS, OPTIONS
    table = {o["name"]: o for o in option_table(ReadingQuery)}
    for name, default in DEFAULT_OPTIONS.items():
        assert table[name]["default"] == default
        assert [c["value"] for c in table[name]["choices"]] == list(OPTIONS[name])
    for option in table.values():  # every option and choice has its own labels (engine/options.csv for the
        names = [option["names"], *(c["names"] for c in option["choices"])]  # chart's, else option_labels.csv)
        if not option.get("system"):
            assert (option["name"], "") in labels(), option["name"]
            assert all((option["name"], str(c["value"])) in labels() for c in option["choices"]), option["name"]
        assert all(n["zh"] and n["ko"] and n["en"] for n in names), option["name"]
        assert option["help"]["zh"] and option["help"]["ko"] and option["help"]["en"]


@pytest.fixture
def client():
    from fastapi.testclient import TestClient

    from leishen.api import Settings, create_app
    with TestClient(create_app(Settings(use_corpus=False))) as found:
        yield found
