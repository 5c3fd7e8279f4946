"""The fleet soak's parts (``bench/soak.py``): a private PostgreSQL and the server replicas
(``cluster``), the clients' side of the API (``client``), honest players and their bots
(``honest``), the hostile mix (``hostile``) and the checks made at the end (``checks``)."""
