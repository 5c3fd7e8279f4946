"""Papyrus domain: pure game rules and the generic table lifecycle.

Nothing in this package performs I/O, reads a clock or draws randomness on its own:
the service hands in a random source and timestamps.  Only the standard library is imported.
"""
