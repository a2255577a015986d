"""leishen.neo4jserver."""
