"""leishen.cli."""
