"""What an API process is configured with: the backend, the corpus and the limits.

Every worker reads the same settings (``leishen serve`` passes them to its workers through
``LEISHEN_API_*`` environment variables), so N workers or N replicas answer alike.
"""

from __future__ import annotations

import difflib
import os
from dataclasses import MISSING, dataclass, field, fields

from leishen.errors import SettingError
from leishen.service.readings import SERVER, Limits
from leishen.settings import Setting, max_in_flight, parse

ENV_PREFIX = "LEISHEN_API_"
BACKENDS = ("networkx", "neo4j")
#: the range of each numeric setting (inclusive)
RANGES = {"max_body": (1, 1_000_000_000), "max_rows": (1, 10_000_000), "cypher_rows": (1, 100_000),
          "cypher_timeout": (0.01, 120), "cypher_max_timeout": (0.01, 120), "cypher_max_chars": (1, 10_000_000),
          "find_max_steps": (1, 10_000_000), "find_timeout": (0.01, 3600), "max_in_flight": (1, 10_000),
          "compute_processes": (0, 256)}
#: the longest request URL (path and query string together) ``leishen serve`` reads, in bytes: a longer one is
#: answered 414 before the app sees it (:mod:`leishen.api.protocol`); every query field has a far smaller bound
MAX_URL_BYTES = 1_048_576
#: the most bytes of request headers ``leishen serve`` reads, all told: more is answered 431
MAX_HEADER_BYTES = 65_536
#: the kind of a setting whose default does not tell it
KINDS = {"corpus": "path", "compute_processes": "int"}


def _spec(f) -> Setting:
    """The :class:`~leishen.settings.Setting` of the dataclass field *f* (its kind from its default)."""
    default = f.default if f.default is not MISSING else f.default_factory()
    kind = KINDS.get(f.name) or {bool: "bool", int: "int", float: "float"}.get(type(default), "text")
    low, high = RANGES.get(f.name, (None, None))
    return Setting(ENV_PREFIX + f.name.upper(), kind, None, f.name, low, high)


@dataclass(frozen=True)
class Settings:
    """Backend, corpus and the limits every request is held to."""

    backend: str = "networkx"
    uri: str | None = None
    user: str | None = None
    password: str | None = None
    corpus: str | None = None
    #: serve without the source texts (then /passages and /coverage answer 404, saying so)
    use_corpus: bool = True
    #: largest request body in bytes (413 beyond)
    max_body: int = 1_000_000
    #: largest row count a client may ask for (422 beyond); the default page size of list answers
    max_rows: int = 5000
    #: the row cap of /cypher when the client gives none
    cypher_rows: int = 1000
    #: the time limit of /cypher in seconds when the client gives none, and the most it may ask for
    cypher_timeout: float = 10.0
    cypher_max_timeout: float = 60.0
    #: longest Cypher text in characters (422 beyond)
    cypher_max_chars: int = 20_000
    #: most moments /find may scan in one request (a month of hours), and its time limit in seconds: the server
    #: doors' limits, :data:`leishen.service.readings.SERVER` (MCP find is held to the same)
    find_max_steps: int = SERVER.max_moments
    find_timeout: float = SERVER.seconds
    #: computing requests (/readings, /find, /views/reading, /cypher) run at once; one more is answered 429 with
    #: Retry-After at once (``LEISHEN_MAX_IN_FLIGHT``, else the CPUs, at least 2)
    max_in_flight: int = field(default_factory=max_in_flight)
    #: worker processes computing those requests (:class:`leishen.api.pool.ComputePool`, each with its own graph or
    #: Neo4j driver); 0 computes in the server's own threads. Unset (None): ``leishen serve`` runs one per in-flight
    #: slot, at most the CPUs (at least 2); an app made by ``create_app`` computes in its threads
    compute_processes: int | None = None

    def find_limits(self) -> Limits:
        """The limits of one /find request."""
        return Limits(self.find_max_steps, self.find_timeout)

    @classmethod
    def from_env(cls, environ=None) -> Settings:
        """Settings from ``LEISHEN_API_<FIELD>`` variables (NEO4J_URI/USER/PASSWORD as fallbacks), each parsed by
        :func:`leishen.settings.parse` with its kind and range: SettingError naming a bad one."""
        env = os.environ if environ is None else environ
        known = {ENV_PREFIX + f.name.upper() for f in fields(cls)}
        for name in sorted(n for n in env if n.startswith(ENV_PREFIX) and n not in known):
            close = difflib.get_close_matches(name[len(ENV_PREFIX):], [k[len(ENV_PREFIX):] for k in known], n=1)
            raise SettingError(f"{name}={env[name]!r}: not a setting of leishen serve" + (
                f" (did you mean {ENV_PREFIX}{close[0]}?)" if close else f" (they are {', '.join(sorted(known))})"),
                variable=name)
        values = {}
        for f in fields(cls):
            raw = env.get(ENV_PREFIX + f.name.upper())
            if raw is not None and raw.strip():
                value = parse(_spec(f), raw)
                values[f.name] = str(value) if f.name == "corpus" else value
        if values.get("backend", "networkx") not in BACKENDS:
            raise SettingError(f"{ENV_PREFIX}BACKEND={values['backend']!r}: not one of {', '.join(BACKENDS)}",
                               variable=f"{ENV_PREFIX}BACKEND")
        for key in ("uri", "user", "password"):
            values.setdefault(key, env.get(f"NEO4J_{key.upper()}"))
        return cls(**values)

    def to_env(self) -> dict[str, str]:
        """The ``LEISHEN_API_*`` variables that reproduce these settings in a worker."""
        return {ENV_PREFIX + f.name.upper(): str(getattr(self, f.name)) for f in fields(self)
                if getattr(self, f.name) is not None}
