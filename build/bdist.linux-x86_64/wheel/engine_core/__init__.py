"""Game-agnostic engine core: search, transposition table, time manager, protocol loop and CLI.

The core imports no game. Games subclass :class:`engine_core.game.SearchPosition` and register their
protocols and commands as entry points (groups ``sanqi.protocols`` and ``sanqi.commands``).
"""

__version__ = "0.1.0"
