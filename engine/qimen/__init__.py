"""Qimen Dunjia (奇門遁甲) chart engine."""
