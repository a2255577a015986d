"""English glosses name a symbol one way everywhere (issue #8: 青龍 was "Azure Dragon" as a
general and "Green Dragon" in the patterns 青龍返首 / 青龍逃走)."""

from __future__ import annotations

import csv

from leishen.loaders.schema import ontology_dir

# hanja → the one English name every gloss containing it uses
ONE_NAME = {"青龍": "Azure Dragon", "白虎": "White Tiger", "朱雀": "Vermilion Bird", "玄武": "Dark Warrior"}
OTHER_NAMES = {"青龍": ("Green Dragon", "Blue Dragon"), "朱雀": ("Red Bird", "Scarlet Bird"),
               "白虎": ("Pale Tiger",), "玄武": ("Black Tortoise",)}


def _glosses():
    for folder in ("glossary", "entities"):
        for path in sorted((ontology_dir() / folder).glob("*.csv")):
            with path.open(encoding="utf-8", newline="") as fh:
                for n, row in enumerate(csv.DictReader(fh), 2):
                    yield f"{folder}/{path.name} row {n}", row["name"], row["en"]


def test_the_four_emblems_have_one_english_name():
    bad = [f"{where}: {name} {en!r}" for where, name, en in _glosses() for hanja, others in OTHER_NAMES.items()
           if hanja in name and any(o.lower() in en.lower() for o in others)]
    assert bad == []


def test_azure_dragon_in_the_general_and_the_patterns():
    found = {name: en for _, name, en in _glosses() if name in ("青龍", "青龍返首", "青龍逃走")}
    assert set(found) == {"青龍", "青龍返首", "青龍逃走"}
    assert all(ONE_NAME["青龍"] in en for en in found.values())
