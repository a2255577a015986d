"""Read a data file only when it is a regular file of bounded size: a FIFO, a device (a link to /dev/zero) or
a folder in place of a table is never opened, so a damaged ontology cannot block a command or fill memory."""

from __future__ import annotations

import os
import stat
from pathlib import Path

#: the largest ontology table read, in bytes (the largest shipped is under 1 MB)
TABLE_MAX_BYTES = 64_000_000


class NotRegular(Exception):
    """Why a file was not read, as words that follow its name ("is a directory where a file belongs"); ``kind``
    says which: ``unreadable``, ``directory``, ``special`` (a FIFO, socket or device) or ``large``."""

    def __init__(self, kind: str, words: str):
        super().__init__(words)
        self.kind = kind


def read_regular(path: Path, limit: int = TABLE_MAX_BYTES) -> bytes:
    """The bytes of *path* when it is a regular file (a link followed) of at most *limit* bytes; NotRegular
    saying why otherwise. The open does not block (O_NONBLOCK) and is checked again (fstat), so a file swapped
    for a FIFO after the first look is refused too; a file grown past *limit* meanwhile likewise."""
    try:
        info = path.stat()
    except OSError as exc:
        raise NotRegular("unreadable", f"cannot be read: {exc.strerror or exc}") from None
    if stat.S_ISDIR(info.st_mode):
        raise NotRegular("directory", "is a directory where a file belongs")
    too_big = NotRegular("large", f"is larger than {limit:,} bytes, the most a table may hold")
    if not stat.S_ISREG(info.st_mode):
        raise NotRegular("special", "is not a regular file (a FIFO, socket or device); it is not read")
    if info.st_size > limit:
        raise too_big
    try:
        with os.fdopen(os.open(path, os.O_RDONLY | os.O_NONBLOCK), "rb") as fh:
            if not stat.S_ISREG(os.fstat(fh.fileno()).st_mode):
                raise NotRegular("special", "is not a regular file; it is not read")
            raw = fh.read(limit + 1)
    except OSError as exc:
        raise NotRegular("unreadable", f"cannot be read: {exc.strerror or exc}") from None
    if len(raw) > limit:
        raise too_big
    return raw


def read_utf8(path: Path, rel: str, error) -> str:
    """The UTF-8 text of the regular file *path*; ``error(message)`` raised naming *rel* (and the row and byte
    of the first byte that is not UTF-8) otherwise."""
    try:
        raw = read_regular(path)
    except NotRegular as exc:
        raise error(f"{rel}: {exc}") from None
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        row = raw.count(b"\n", 0, exc.start) + 1
        raise error(f"{rel} row {row}: not UTF-8 (byte 0x{raw[exc.start]:02x} at byte offset {exc.start})") from None
