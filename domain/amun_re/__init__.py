"""Amun-Re (Reiner Knizia), base game for 3-5 players: the rules on the Papyrus contract.

The entry point is ``domain.amun_re.rules.RULES``; see ``NOTES.md`` for the readings of the spec
(``amun-re.md``) and where the Expanded Pack modules will hook in.
"""
