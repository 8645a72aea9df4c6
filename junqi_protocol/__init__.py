"""Junqi (军棋): two-player and four-player Siguo, engine and referee.

Modules in reading order:

* the game: ``board`` (the board as a graph), ``rules`` (pieces, combat, deployment, moves),
  ``game`` (``Pieces``, the pieces as the referee or one player knows them, and ``Game``: turns
  and how a game ends), ``lineups`` (deployments in strong players' style, and the yardsticks');
* what a player cannot see: ``beliefs`` (the kinds a hidden piece may be, and sampled deployments);
* the search: ``position`` (``Position``, one sampled world for the core's search), ``evaluate``
  and ``paths`` (what a piece is worth, and where: its way to the enemy flags), ``worlds`` (the
  move that does best over the sampled worlds, on one or more processes);
* the player: ``player`` (``Player``: one player's knowledge, time and choice of move as its
  kind of player, ``search`` or a yardstick), ``yardsticks`` (the ``events`` player's scored rules);
* the front object: ``engine`` (``Engine``, as in the other games: the player, what a game allows
  when, and the undo of a failed command, which the adapters call), ``journal`` (what rebuilds the
  player after one);
* adapters that parse and print: ``protocol`` (our line protocol), ``ccgc`` (CCGC 1.0);
* the referee and its tools: ``seats`` (a seat: in process or an engine over pipes), ``seating``
  (the seat for an ENGINE argument), ``referee`` (``JunqiRules``: the rules on the core's game loop),
  ``runner`` (``Referee``: game after game, a signal recorded as an abort), ``match`` (``sanqi
  referee``'s command line), ``record`` and ``replays`` (game records), ``arena`` (``sanqi match
  --game junqi``), ``bench`` (``sanqi bench junqi``);
* watching in a browser: ``view`` (a record's replay page, and the referee's games live), ``view_page``
  (the page's HTML and script), ``view_human`` (a seat played by a person on the live page), ``play``
  (``sanqi play junqi``: the referee's command line for a person against sanqi).
"""
