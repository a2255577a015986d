"""Colours and shapes of the graph pages (by node label, by system, by polarity)."""

from __future__ import annotations

import zlib

# the closed vocabularies get fixed colours; open labels take one from PALETTE by name
LABEL_COLOURS = {
    "Stem": "#e6550d", "Branch": "#3182bd", "Element": "#31a354", "Polarity": "#636363",
    "General": "#756bb1", "Deity": "#9e9ac8", "QimenStar": "#d6616b", "Gate": "#8c6d31",
    "Palace": "#bd9e39", "Trigram": "#843c39", "FlyingStar": "#e7969c", "Direction": "#6baed6",
    "Season": "#74c476", "Month": "#a1d99b", "Shensha": "#de9ed6", "Xun": "#fdae6b",
    "Vigour": "#c7e9c0", "LifeStage": "#9ecae1", "Mansion": "#c6dbef", "Pattern": "#fd8d3c",
    "Topic": "#fdd0a2", "Concept": "#bdbdbd", "Outcome": "#969696",
    "Fact": "#ffffff", "Passage": "#fff7bc",
}
PALETTE = ("#a6cee3", "#b2df8a", "#fb9a99", "#fdbf6f", "#cab2d6", "#ffff99", "#8dd3c7", "#bebada",
           "#fb8072", "#80b1d3", "#fccde5", "#d9d9d9")

SYSTEM_COLOURS = {"liuren": "#3182bd", "qimen": "#d6616b", "ninestar": "#e7ba52"}
SYSTEM_NAMES = {"liuren": "大六壬", "qimen": "奇門遁甲", "ninestar": "九星"}
POLARITY_COLOURS = {"吉": "#2ca02c", "凶": "#d62728", "平": "#7f7f7f", "混": "#ff7f0e"}
CHART_HOP = "#444444"
QUALIFIER = "#aaaaaa"


def label_colour(label: str) -> str:
    """The colour of a node label (a stable palette colour for labels without their own)."""
    if label in LABEL_COLOURS:
        return LABEL_COLOURS[label]
    return PALETTE[zlib.crc32(label.encode()) % len(PALETTE)]


def label_shape(label: str) -> str:
    """Fact nodes are small squares, passages notes; every symbol is a dot."""
    return {"Fact": "square", "Passage": "box"}.get(label, "dot")
