"""Papyrus service: persistence, the application layer, GraphQL, REST and the CLI."""
