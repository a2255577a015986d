"""The request models of the HTTP API: those of every door, kept in :mod:`leishen.service.requests` (the MCP
server and the CLI read the same), named here for the API's modules."""

from leishen.service.requests import (ChartQuery, FindQuery, JudgmentQuery, ReadingQuery,  # noqa: F401
                                      ReadingsQuery, TypedReadingQuery)
