"""Accounts, settings and the operator's view: metrics, its port and request logs."""
