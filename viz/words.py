"""The names a finding's path is labelled with on the web page, in zh, ko and en: its nodes (from the graph's
own ``name``/``ko``/``en``) and its relation types (the schema's, and ``chart_hops.csv`` for the hops read
from the chart, which are not stored relations)."""

from __future__ import annotations

import csv
from functools import lru_cache
from pathlib import Path

CHART_HOPS = Path(__file__).with_name("chart_hops.csv")


@lru_cache(maxsize=1)
def chart_hop_words() -> dict[str, dict[str, str]]:
    """relation type → {zh, ko, en} of each chart hop (``chart_hops.csv``)."""
    with CHART_HOPS.open(encoding="utf-8", newline="") as handle:
        return {row["rel"]: {k: row[k] for k in ("zh", "ko", "en")} for row in csv.DictReader(handle)}


def relation_words(rels) -> dict[str, dict[str, str]]:
    """{type: {zh, ko, en}} for the relation types *rels* (the schema's English up to its first bracket);
    a type named nowhere is left out (the page then shows the type itself)."""
    from leishen.loaders.schema import load_schema
    schema, hops, out = load_schema().relations, chart_hop_words(), {}
    for rel in rels:
        if rel in hops:
            out[rel] = hops[rel]
        elif rel in schema:
            found = schema[rel]
            out[rel] = {"zh": found.zh, "ko": found.ko, "en": found.en.split(" (")[0]}
    return out


def node_words(ids) -> dict[str, dict[str, str]]:
    """{node id: {zh, ko, en}} for the graph nodes *ids* (an unknown id is left out)."""
    from leishen.service.lore import readings
    return {node: {"zh": found["name"], "ko": found["ko"] or found["name"], "en": found["en"] or found["name"]}
            for node, found in readings(ids).items()}


def path_words(ids, rels) -> dict:
    """What the page needs to label a path in each language: ``{"nodes": {…}, "relations": {…}}``."""
    return {"nodes": node_words(ids), "relations": relation_words(rels)}
