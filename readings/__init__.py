"""leishen.readings — charts read by graph traversal (see docs/rules.md and docs/readings.md)."""
