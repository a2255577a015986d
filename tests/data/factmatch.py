"""Matching exact facts in the export of ``load_facts()`` — shared by the spot tests of every table."""

from __future__ import annotations


def qualifier_matches(fact: dict, key: str, want: str) -> bool:
    """A literal qualifier equals *want*; a node qualifier matches ``Label:name`` or its bare name."""
    got = fact["qualifiers"].get(key)
    if got is None:
        return False
    if isinstance(got, dict):
        label, sep, name = want.partition(":")
        return (got["label"], got["name"]) == (label, name) if sep else got["name"] == want
    return got == want


def find(facts, rel, subj, obj, src, variant=None, *, item=None, **quals) -> list[dict]:
    """Facts matching exactly: subject/object as ``Label:name`` (canonical name); variant None = regular row."""
    sl, _, sn = subj.partition(":")
    ol, _, on = obj.partition(":")
    return [f for f in facts
            if (f["relation"], f["subject"]["label"], f["subject"]["name"], f["object"]["label"], f["object"]["name"])
            == (rel, sl, sn, ol, on)
            and src in f["src"] and f["variant"] == variant and (not item or f["item"] == item)
            and all(qualifier_matches(f, k, v) for k, v in quals.items())]
