"""Gomoku, renju and caro for sanqi: a Gomocup brain (board, rules, threat search, protocol)."""
