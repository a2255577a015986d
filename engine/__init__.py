"""leishen.engine."""
