"""leishen.loaders."""
