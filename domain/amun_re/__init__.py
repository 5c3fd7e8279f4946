"""Amun-Re (Reiner Knizia) for 3-5 players with the 20th Anniversary Expanded Pack modules
(Afterlife, Statues, Pharaoh, Promo Favour cards): the rules on the Papyrus contract.

The entry point is ``domain.amun_re.rules.RULES``; see ``NOTES.md`` for the readings of the spec
(``amun-re.md``) and where each Expanded Pack module lives.
"""
