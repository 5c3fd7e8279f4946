"""The web client (issue #16): static ES modules served by ``service.asgi`` at ``/app``.

No build step, no CDN: the files under ``static/`` are what the browser runs. ``/`` and
``/games/<id>`` answer ``index.html`` to a browser (client-side routing in ``app.js``).
"""

from __future__ import annotations

from pathlib import Path

STATIC = Path(__file__).parent / "static"
INDEX = STATIC / "index.html"
