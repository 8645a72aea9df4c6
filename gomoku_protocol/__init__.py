"""Gomoku, renju and caro for sanqi: a Gomocup brain (board, rules, threat search, protocol).

Modules in reading order:

* the game: ``rules`` (winning rules, renju's forbidden points), ``record`` (``.psq`` files and
  ``h8i9j8`` notation);
* the search: ``patterns`` (what a stone makes along a line), ``position`` (``Position``, the
  board as the core's search plays on it), ``evaluate`` and ``weights`` (the static score and its
  fitted weights), ``threats`` (VCF and VCT);
* choosing a move: ``brain`` (forced replies, threat defence, VCT, alpha-beta);
* the front object: ``engine`` (``Engine``: the game, checked before it is committed, its clock,
  the brain's settings and swap2's choices), with ``process_age`` (how long the process has existed);
* the protocol: ``protocol`` (Gomocup's brain protocol and Yixin's extensions: parses a command into a
  call of the engine and prints its answer);
* matches and tools: ``seats`` (what the referee asks of a seat: ``BaselineSeat``, the in-process
  baseline, and ``GomocupSeat``, a brain process under the referee's discipline), ``referee`` (gomoku's rules
  for the core's one game loop, ``engine_core.referee``: one game between two seats), ``arena`` and ``match`` (``sanqi match --game gomoku``), ``bench``
  (``sanqi bench gomoku``), ``label``, ``fit`` and ``fit_order`` (fitting the evaluation and the move
  order to a stronger brain), ``data_files`` (the shipped openings and reference positions).
"""
