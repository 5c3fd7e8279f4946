"""Imhotep (Kosmos 2016), base game with A/B sides and Wrath of the Pharaoh: ``rules.RULES``.

Spec: ``imhotep.md`` and ``imhotep-data.json`` (copied as ``data.json``); readings in ``NOTES.md``.
"""
