"""A read-only dict for the parts of a chart that are shared between calls.

The 1,080 plates are computed once; a chart returned by :func:`.chart.qimen_chart` is a fresh
top-level ``dict`` whose nested ``palaces`` and ``options`` are :class:`FrozenDict` objects
shared with every other chart of the same plate. They are real ``dict`` subclasses (JSON,
equality and ``isinstance(x, dict)`` work); writing to them raises ``TypeError``, and
``copy.deepcopy`` / ``thaw`` give plain, writable dicts.
"""

from __future__ import annotations

import copy
from typing import Any

__all__ = ["FrozenDict", "freeze", "thaw"]


def _read_only(self, *args, **kwargs):
    raise TypeError("this part of a chart is shared and read-only; copy.deepcopy(chart) gives a writable copy")


class FrozenDict(dict):
    """A dict that refuses writes after construction."""

    __slots__ = ()
    __setitem__ = __delitem__ = __ior__ = _read_only
    clear = pop = popitem = setdefault = update = _read_only

    def __copy__(self) -> dict:
        return dict(self)

    def __deepcopy__(self, memo: dict) -> dict:
        return {key: copy.deepcopy(value, memo) for key, value in self.items()}

    def __reduce__(self):
        return (FrozenDict, (dict(self),))


def freeze(value: Any) -> Any:
    """Nested dicts → FrozenDict (lists and tuples are kept, their dicts frozen)."""
    if isinstance(value, dict):
        return FrozenDict({key: freeze(item) for key, item in value.items()})
    if isinstance(value, list):
        return [freeze(item) for item in value]
    return value


def thaw(value: Any) -> Any:
    """A writable deep copy with plain dicts."""
    return copy.deepcopy(value)
