"""Read models maintained from the event log (pure event-to-row mappings plus their runners)."""
