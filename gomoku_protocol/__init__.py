"""Gomoku, renju and caro for sanqi: a Gomocup brain (board, rules, threat search, protocol).

Modules in reading order:

* the game: ``rules`` (winning rules, renju's forbidden points), ``record`` (``.psq`` files and
  ``h8i9j8`` notation);
* the search: ``patterns`` (what a stone makes along a line), ``position`` (the board for the
  core's search), ``evaluate`` and ``weights`` (the static score and its fitted weights),
  ``threats`` (VCF and VCT);
* the front object: ``brain`` (forced replies, threat defence, VCT, alpha-beta: the move to play);
* the adapter that parses and prints: ``protocol`` (Gomocup's brain protocol, Yixin's extensions),
  with ``clock`` (the process's age, for the first move's time);
* matches and tools: ``arena`` and ``match`` (``sanqi match --game gomoku``), ``bench``
  (``sanqi bench gomoku``), ``label``, ``fit`` and ``fit_order`` (fitting the evaluation and the move
  order to a stronger brain), ``data_files`` (the shipped openings and reference positions).
"""
