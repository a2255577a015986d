"""leishen.mcpserver — the MCP server (``leishen mcp``; named to leave the ``mcp`` SDK unshadowed)."""
