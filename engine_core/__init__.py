"""Game-agnostic engine core: search, transposition table, time manager, protocol loop and CLI.

The core imports no game. Games subclass :class:`engine_core.game.SearchPosition` and register their
protocols and commands as entry points (groups ``sanqi.protocols`` and ``sanqi.commands``).

Modules in reading order:

* the search contract and search: ``game`` (what a game's position gives the search), ``search``
  (iterative deepening alpha-beta), ``tt`` (transposition table), ``timeman`` (clock requests,
  soft and hard limits, the lag meter), ``pool`` (worker processes for a search that splits its work);
* serving a protocol: ``loop`` (reader thread, writer, the command loop every protocol is, the undo
  the games' front objects share, worker),
  ``cli`` (the ``sanqi`` command),
  ``args`` (checked command-line values), ``build_info`` (compiled or pure);
* playing engines against each other: ``process`` (an engine process), ``seat`` (one engine seat),
  ``ends`` (why a game ended), ``referee`` (the one game loop, over each game's rules object),
  ``arena`` and ``matchcli`` (``sanqi match``), ``stats`` (Elo, SPRT),
  ``results`` (per-game lines), ``cluster`` (games on a Dask cluster);
* tools: ``bench`` (``sanqi bench``), ``linsolve`` (the evaluation fitters' solver).
"""

__version__ = "0.1.0"
