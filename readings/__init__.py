"""leishen.readings — charts read by graph traversal (see docs/rules.md and docs/readings.md).

A :class:`Reader` reads over the backend it is handed; readers are made (and the default one kept on disk) by
:mod:`leishen.service.book`, and every door reads through :mod:`leishen.service.readings`.

>>> import leishen
>>> reading = leishen.read("2026-12-01T10:00+09:00", topic="射覆")   # doctest: +SKIP
>>> [f["meaning"]["en"] for f in reading["findings"]][:3]                # doctest: +SKIP
"""

from __future__ import annotations

from leishen.readings.read import Reader, TopicError  # noqa: F401
