"""Read models kept from the event log with tracking positions (``models.ReadModels``).

* ``models``: ``ReadModels``, catching up in batches and answering the queries;
* ``projections``: each read model's tables and how an entry changes them;
* ``folder``: the public facts of a game before and after each entry (``Step``);
* ``worker``: the background thread that keeps them current in a server process.
"""

from service.readmodels.folder import Folder, Step
from service.readmodels.models import BATCH, TOPICS, ReadModels
from service.readmodels.projections import PROJECTIONS, Projection
from service.readmodels.worker import Worker

__all__ = ["BATCH", "PROJECTIONS", "TOPICS", "Folder", "Projection", "ReadModels", "Step", "Worker"]
