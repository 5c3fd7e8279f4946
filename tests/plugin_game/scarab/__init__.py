"""Scarab: a small card game of hidden hands and a shuffled deck (rules: ``RULES.md``), written
as a game plug-in: its own package and distribution, found through ``papyrus.games``."""
