"""Which school a void-dependent finding follows (issue #29 item 5).

The Liu Ren option ``void_exception`` decides whether the day stem's 祿 stays void (``none``, 000:75: every
旬 leaves its two branches void) or not (``lu_not_void``, 002:147: 甲日寅不空 …). The chart's 旬空 is computed
under the option, so the rules that test the void follow it by construction; but the rows of 002:147 that
*state* the exception (``NOT_VOID``: X日Y不空) hold on any chart of that day and 旬. Read side by side under
``none`` they would say 寅 is void (斬首, 000:15) and 寅 is not void (002:147) at once.

So, through the readings door:

- a finding that read the void (a hop to ``Shensha:旬空`` in its path or evidence) says the school it follows:
  ``"school": {"void_exception": <the chart's choice>}``;
- a ``NOT_VOID`` finding follows ``lu_not_void``; under ``none`` it is the other school's finding, shown as
  the alternative (``"alternative": {"void_exception": "lu_not_void"}``), not as a second truth: the judgments
  read no alternative finding.

The reader's own findings are never changed (it reuses them across readings): the reading gets copies.
"""

from __future__ import annotations

VOID_NODE = "Shensha:旬空"
EXCEPTION = "lu_not_void"


def _walks(finding: dict):
    yield finding.get("path") or ()
    yield from finding.get("evidence") or ()


def reads_void(finding: dict) -> bool:
    """Whether *finding* read the Liu Ren void: a hop of its path or evidence is the 旬空 node."""
    return any((hop.get("node") or {}).get("id") == VOID_NODE for walk in _walks(finding) for hop in walk)


def states_exception(finding: dict) -> bool:
    """Whether *finding* is a 002:147 exception row (a ``NOT_VOID`` hop: X日Y不空)."""
    return any(hop.get("rel") == "NOT_VOID" for walk in _walks(finding) for hop in walk)


def void_school(finding: dict) -> dict:
    """The keys to add to a Liu Ren *finding*: its ``school`` (and ``alternative`` when it is the other
    school's) under the chart's ``void_exception``; empty when it does not depend on the void."""
    if finding.get("system") != "liuren":
        return {}
    chosen = (finding.get("options") or {}).get("void_exception", "none")
    if states_exception(finding):
        school = {"void_exception": EXCEPTION}
        return {"school": school, "alternative": school} if chosen != EXCEPTION else {"school": school}
    if reads_void(finding):
        return {"school": {"void_exception": chosen}}
    return {}


def with_void_schools(reading: dict) -> dict:
    """*reading* with each void-dependent finding marked by :func:`void_school` (copies of those findings)."""
    findings = []
    for f in reading.get("findings") or ():
        extra = void_school(f)
        findings.append({**f, **extra} if extra else f)
    return {**reading, "findings": findings}
