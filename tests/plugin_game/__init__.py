"""A game plug-in outside the shipped distribution: ``scarab`` and its ``scarab-1.0.dist-info``.

This folder is a package so that pytest imports its tests as ``tests.plugin_game.…`` and never
puts the folder itself on ``sys.path`` (which would register Scarab for every other test); the
tests add it themselves, for as long as they need it."""
