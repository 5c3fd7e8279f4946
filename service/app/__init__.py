"""The application layer: commands and queries on games, players and their logs."""
