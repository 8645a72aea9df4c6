"""Xiangqi: board, move generation, evaluation, and the UCCI and UCI adapters."""
