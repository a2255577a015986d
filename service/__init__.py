"""leishen.service — the one service layer behind the three doors (CLI, HTTP API, MCP).

Every door calls these functions and prints/returns the same JSON-able dicts:

- ``service.lore``     — build, stats, symbol, facts, path, passage, check, coverage (the graph commands)
- ``service.charts``   — chart from a moment or a typed-in chart, with every school option, validated
- ``service.cypher``   — read-only ad-hoc Cypher on either backend (guard, time limit, row cap)
- ``service.queries``  — the named-query registry with typed parameters
- ``service.readings`` — read and find, the one readings door; ``service.book`` makes its readers (the readings
  engine, ``leishen.readings``, is its own package and imports no backend)
"""
