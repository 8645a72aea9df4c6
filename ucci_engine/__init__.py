"""Xiangqi: board, move generation, evaluation, and the UCCI and UCI adapters.

Modules in reading order:

* the game: ``tables`` (board geometry), ``position`` (board, key, incremental score, the rules'
  history), ``movegen`` (moves and attacks), ``perft`` (``go perft``);
* the search's knowledge: ``evaluate`` and ``weights`` (the hand-made evaluation and its fitted
  weights; the optional learned network), ``book`` (the opening book);
* the front object: ``engine`` (game state, options, time and one search at a time);
* the adapters that parse and print: ``protocol`` (UCCI and UCI);
* matches and tools: ``seats`` (an engine process on a seat: ``UcciSeat``, and ``sanqi match``'s
  ``MatchSeat``, UCCI or UCI), ``referee`` (xiangqi's rules for the core's one game loop,
  ``engine_core.referee``: one game between two seats, our ``Position`` as referee),
  ``arena`` (``sanqi match --game xiangqi``), ``match`` (its alias), ``bench`` (``sanqi bench
  xiangqi``), ``tune`` (fitting the evaluation's weights).
"""
