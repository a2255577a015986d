"""Every rule an audit mended fires where the text says and not where it must not, and every rule it made a
judgment is reported so: the ``MENDED`` rows ``(rule, topic, a moment it holds, a moment it must not, why)`` and
the ``JUDGED`` rows ``(rule, topic, a moment where the old row held as decided, why)`` of the audit files
(``test_audit*.py``, one per audit and part, each with its reasoning) run here."""

from __future__ import annotations

import importlib
from pathlib import Path

import pytest

from fired import assert_mended, findings

AUDITS = sorted(p.stem for p in Path(__file__).parent.glob("test_audit*.py"))
MENDED = [(name, *row) for name in AUDITS for row in getattr(importlib.import_module(name), "MENDED", ())]
JUDGED = [(name, *row) for name in AUDITS for row in getattr(importlib.import_module(name), "JUDGED", ())]


def test_every_audit_file_is_read():
    assert len(AUDITS) >= 12 and len(MENDED) >= 60 and len(JUDGED) >= 2


@pytest.mark.parametrize("audit, rule, topic, holds, fails, why", MENDED,
                         ids=[f"{a}:{r}" for a, r, *_ in MENDED])
def test_mended_rules(audit, rule, topic, holds, fails, why):
    assert_mended(rule, topic, holds, fails, why)


@pytest.mark.parametrize("audit, rule, topic, moment, why", JUDGED, ids=[f"{a}:{r}" for a, r, *_ in JUDGED])
def test_judged_rules(audit, rule, topic, moment, why):
    assert findings(moment, topic).get(rule) == "needs_judgment", why
