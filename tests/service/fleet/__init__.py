"""Processes on one store: the store, notification order, caches, read models, outages."""
