"""Game records: Piskvork's ``.psq`` files and the compact ``h8i9j8`` position notation.

Both store moves as 0-based ``(x, y)`` pairs in move order (black first).

>>> parse_pos("h8i9j10")
[(7, 7), (8, 8), (9, 9)]
>>> format_pos([(7, 7), (8, 8), (9, 9)])
'h8i9j10'
>>> game = read_psq(write_psq(15, 15, [(7, 7), (8, 6)], [120, 80]))
>>> game.width, game.moves, game.times
(15, [(7, 7), (8, 6)], [120, 80])
"""

import re

_POS = re.compile(r"([a-z])(\d{1,2})")
_PSQ_HEAD = re.compile(r"^\s*Piskvorky\s+(\d+)\s*x\s*(\d+)", re.IGNORECASE)
_PSQ_MOVE = re.compile(r"^\s*(-?\d+)\s*,\s*(-?\d+)\s*(?:,\s*(-?\d+))?\s*$")


def parse_pos(text: str) -> list[tuple[int, int]]:
    """Moves from ``h8i9…`` (letter = x from a = 0, number = y + 1); ValueError if malformed."""
    s = text.strip().lower()
    moves: list[tuple[int, int]] = []
    at = 0
    for m in _POS.finditer(s):
        if m.start() != at:
            break
        moves.append((ord(m.group(1)) - 97, int(m.group(2)) - 1))
        at = m.end()
    if at != len(s):
        raise ValueError(f"bad position notation at {s[at:at + 6]!r}")
    for _, y in moves:
        if y < 0:
            raise ValueError("rows are numbered from 1")
    return moves


def format_pos(moves: list[tuple[int, int]]) -> str:
    return "".join(f"{chr(97 + x)}{y + 1}" for x, y in moves)


class PsqGame:
    def __init__(self, width: int, height: int, moves: list[tuple[int, int]], times: list[int]) -> None:
        self.width = width
        self.height = height
        self.moves = moves
        self.times = times


def read_psq(text: str) -> PsqGame:
    """Parse a ``.psq`` record: a ``Piskvorky WxH, …`` header, then ``x,y,ms`` lines (1-based).

    What follows the moves (player names, result lines) is ignored.
    """
    lines = text.splitlines()
    if not lines:
        raise ValueError("empty record")
    head = _PSQ_HEAD.match(lines[0])
    if head is None:
        raise ValueError("not a psq record: no 'Piskvorky WxH' header")
    width, height = int(head.group(1)), int(head.group(2))
    moves: list[tuple[int, int]] = []
    times: list[int] = []
    for line in lines[1:]:
        m = _PSQ_MOVE.match(line)
        if m is None:
            break
        x, y = int(m.group(1)) - 1, int(m.group(2)) - 1
        if not (0 <= x < width and 0 <= y < height):
            break  # e.g. the "-1" result marker some managers write after the moves
        moves.append((x, y))
        times.append(int(m.group(3)) if m.group(3) is not None else 0)
    return PsqGame(width, height, moves, times)


def write_psq(width: int, height: int, moves: list[tuple[int, int]], times: list[int], names: tuple[str, ...] = ()) -> str:
    """A ``.psq`` record Piskvork can open; ``names`` (brain file names) follow the moves."""
    out = [f"Piskvorky {width}x{height}, 11:11, 0"]
    for n, (x, y) in enumerate(moves):
        ms = times[n] if n < len(times) else 0
        out.append(f"{x + 1},{y + 1},{ms}")
    out.extend(names)
    out.append("-1")
    return "\n".join(out) + "\n"


class SgfGame:
    def __init__(self, size: int, rule: int, moves: list[tuple[int, int]], opening: int, winner: int) -> None:
        self.size = size
        self.rule = rule
        self.moves = moves
        self.opening = opening  # how many of the moves were the opening's, not the players'
        self.winner = winner  # 1 black, 2 white, 0 draw or unknown


_SGF_GAME = re.compile(r"\(;(.*?)\)", re.S)
_SGF_MOVE = re.compile(r";([BW])\[([a-z])([a-z])\](C\[([^\]]*)\])?")


def read_sgf_games(text: str) -> list[SgfGame]:
    """The games of an SGF file as c-gomoku-cli writes them (``SZ``, ``RU``, ``RE[B+1]``, moves
    ``B[hh]`` with x then y as letters from ``a``, opening moves commented ``opening move``).

    >>> g = read_sgf_games("(;FF[4]GM[4]SZ[15]RU[0]RE[W+1];B[hh]C[opening move];W[ih]C[9ms])")[0]
    >>> g.size, g.rule, g.moves, g.opening, g.winner
    (15, 0, [(7, 7), (8, 7)], 1, 2)
    """
    games: list[SgfGame] = []
    for body in _SGF_GAME.findall(text):
        size = re.search(r"SZ\[(\d+)\]", body)
        rule = re.search(r"RU\[(\d+)\]", body)
        result = re.search(r"RE\[([BW])\+", body)
        moves: list[tuple[int, int]] = []
        opening = 0
        for m in _SGF_MOVE.finditer(body):
            moves.append((ord(m.group(2)) - 97, ord(m.group(3)) - 97))
            if m.group(5) == "opening move":
                opening = len(moves)
        winner = 0 if result is None else (1 if result.group(1) == "B" else 2)
        games.append(SgfGame(int(size.group(1)) if size else 15, int(rule.group(1)) if rule else 0, moves, opening, winner))
    return games
