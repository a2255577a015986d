"""leishen.queries."""
