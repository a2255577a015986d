"""leishen.ontology."""
