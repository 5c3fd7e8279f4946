"""Playing games over the API: whole games, time controls, bots, undo, replays and forks."""
