"""``python -m leishen.mcpserver``: the MCP server on stdio with the default backend."""

from leishen.mcpserver.server import main

main()
