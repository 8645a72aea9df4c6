"""Gomoku, renju and caro for sanqi: a Gomocup brain (board, rules, threat search, protocol).

Modules in reading order:

* the game: ``rules`` (winning rules, renju's forbidden points), ``record`` (``.psq`` files and
  ``h8i9j8`` notation);
* the search: ``patterns`` (what a stone makes along a line), ``position`` (``Position``, the
  board as the core's search plays on it), ``evaluate`` and ``weights`` (the static score and its fitted weights),
  ``threats`` (VCF and VCT);
* choosing a move: ``brain`` (forced replies, threat defence, VCT, alpha-beta);
* the protocol: ``protocol`` (Gomocup's brain protocol, Yixin's extensions; it still keeps the game's
  state and time, which issue 42 moves to a front object), with ``clock`` (the process's age);
* matches and tools: ``arena`` and ``match`` (``sanqi match --game gomoku``), ``bench``
  (``sanqi bench gomoku``), ``label``, ``fit`` and ``fit_order`` (fitting the evaluation and the move
  order to a stronger brain), ``data_files`` (the shipped openings and reference positions).
"""
