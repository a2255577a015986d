"""Da Liu Ren (大六壬) chart engine."""
