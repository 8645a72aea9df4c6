"""Junqi evaluation terms: what a piece is worth, and where.

A piece's score is its material plus, for a piece that can move, a bonus that grows as its real
shortest path (:mod:`junqi_protocol.paths`, on the occupancy at the root of the search) to the
nearest enemy flag shrinks; the same bonus on the enemy's side is our flag's danger, so mines,
guards and blocked rails in front of a flag count through the paths they lengthen. A flag not yet
shown (its marshal stands) gives half the bonus, and the marshal is worth what showing it would
give the enemy: all 41 flags we lost to pfysw/JunQi 2.3 in 27 games (docs/junqi.md) fell after our
marshal's death had shown them. A piece in a camp, where it cannot be attacked, earns a little.
A mover on one of the squares that guard its own flag (:data:`GUARDS`) earns :data:`GUARD`: the
path bonus alone pulls every mover forward and empties the back area, and in 315 of the 339 seats
where pfysw's engineer reached our flag's front square our corner on that side was already empty.
Once a seat of the four is out, a team with an engineer or a bomb left counts an enemy mine on
the way as passable at :data:`CLEARED` more moves: two against one (and one against one) often
meets a flag walled in by mines, which no mover but an engineer may cross, and without the toll
only the engineers felt the pull towards it (6 of the 15 two-against-one games of a self-play run
ended in a no-capture draw, 28 November 2026).
The position adds these up incrementally.

>>> from junqi_protocol.board import Board
>>> b = Board("2p")
>>> owner, kind = [-1] * b.size, [-1] * b.size
>>> owner[b.point("A1")], kind[b.point("A1")] = 1, 11
>>> owner[b.point("K0")], kind[b.point("K0")] = 0, 1
>>> t = square_tables(b, owner, kind, [True, True])
>>> piece_score(b, t, 0, 1, b.point("B1")), piece_score(b, t, 0, 1, b.point("K0"))
(610, 510)

With seat 1's marshal on the board its flag is not shown: the bonus halves, and the marshal is
worth its material plus what the general would gain by the flag being shown.

>>> owner[b.point("A3")], kind[b.point("A3")] = 1, 0
>>> t = square_tables(b, owner, kind, [True, True])
>>> piece_score(b, t, 0, 1, b.point("K0")), t.reveal, piece_score(b, t, 1, 0, b.point("A3"))
(480, [0, 30], 630)

With seat 0's flag in the headquarters L1, the corner K0 on its side guards it; K4 does not.

>>> owner[b.point("L1")], kind[b.point("L1")] = 0, 11
>>> t = square_tables(b, owner, kind, [True, True])
>>> t.guard[0][b.point("K0")], t.guard[0][b.point("K4")], piece_score(b, t, 0, 1, b.point("K0"))
(40, 0, 520)
"""

from typing import Final

from junqi_protocol.board import HOME, Board
from junqi_protocol.paths import FAR, TOLL, distances
from junqi_protocol.rules import BOMB, BOTH, EAT, ENGINEER, FLAG, MARSHAL, MINE, combat

# Material by kind a..l. The flag is worth nothing as material: losing it loses the whole army.
VALUE: Final[list[int]] = [600, 450, 330, 240, 180, 130, 80, 55, 120, 90, 250, 0]
# Bonus of a mover by its distance (in moves) to the nearest enemy flag.
ATTACK: Final[list[int]] = [0, 160, 90, 60, 45, 34, 26, 20, 15, 11, 8, 6, 4, 3, 2, 1] + [0] * (FAR + 1 - 16)
CAMP: Final = 12
# A flag not yet shown (its marshal stands) gives its attackers this fraction of the bonus: they
# must guess between two headquarters.
HIDDEN: Final = 2
# The home slots that guard a flag in each headquarters: its three neighbours, the row-4 corner and
# the row-3 side station on its side (the rail into the back), the row-4 middle, and the camp that
# touches its front square.
GUARDS: Final[dict[int, tuple[int, ...]]] = {26: (21, 25, 27, 20, 15, 22, 16), 28: (23, 29, 27, 24, 19, 22, 18)}
GUARD: Final = 40
# Extra moves a mover's path pays for an enemy mine on the way once a seat is out, when its team has
# a piece to clear it (an engineer eats it, a bomb takes it along).
CLEARED: Final = 3
MOBILE: Final = 0
ENGINEERS: Final = 1


def attack_loss(att: int, dfn: int) -> int:
    """What the owner of a piece of kind ``dfn`` loses when an enemy piece of kind ``att`` attacks it:
    all of it when it is beaten, the difference when both die (a bomb on a 司令 costs 350), nothing
    when it wins or ``att`` never moves.

    >>> attack_loss(BOMB, MARSHAL), attack_loss(MARSHAL, 1), attack_loss(1, MARSHAL), attack_loss(MINE, 8)
    (350, 450, 0, 0)
    """
    if mover_class(att) < 0:
        return 0
    result = combat(att, dfn)
    return VALUE[dfn] if result == EAT else max(0, VALUE[dfn] - VALUE[att]) if result == BOTH else 0


def mover_class(kind: int) -> int:
    """Which path table a kind uses; -1 for the pieces that never move."""
    if kind == MINE or kind == FLAG:
        return -1
    return ENGINEERS if kind == ENGINEER else MOBILE


class Tables:
    """What the path bonus gives, fixed at the root of a search: ``path[seat][cls][p]``, a mover of
    that seat and class on point ``p``; ``reveal[seat]``, what the seat's marshal is worth beyond
    its material, because its death shows the flag and every enemy's bonus towards it grows to the
    full amount; ``guard[seat][p]``, what a mover of that seat earns on ``p`` for guarding its flag."""

    def __init__(self, path: list[list[list[int]]], reveal: list[int], guard: list[list[int]]) -> None:
        self.path: list[list[list[int]]] = path
        self.reveal: list[int] = reveal
        self.guard: list[list[int]] = guard


def square_tables(board: Board, owner: list[int], kind: list[int], alive: list[bool]) -> Tables:
    """Per seat and mover class, the path bonus of each point towards the enemies' flags.

    A flag whose marshal still stands is not shown: its attackers must guess between two
    headquarters, so they get 1/:data:`HIDDEN` of the bonus. Paths may take enemy pieces on the
    way (:func:`_beaten`), at :data:`junqi_protocol.paths.TOLL`."""
    flags = [-1] * board.seats
    shown = [True] * board.seats
    for p in range(board.size):
        if owner[p] >= 0 and kind[p] == FLAG:
            flags[owner[p]] = p
        if owner[p] >= 0 and kind[p] == MARSHAL:
            shown[owner[p]] = False
    reveal = [0] * board.seats
    by_team: dict[int, list[list[int]]] = {}
    for seat in range(board.seats):
        team = board.team(seat)
        if team not in by_team:
            enemies = [e for e in range(board.seats) if alive[e] and flags[e] >= 0 and board.team(e) != team]
            clear = not all(alive) and any(owner[p] >= 0 and board.team(owner[p]) == team and kind[p] in (ENGINEER, BOMB)
                                  for p in range(board.size))
            by_team[team] = _team_tables(board, owner, kind, team, enemies, flags, shown, reveal, clear)
    guard = [[0] * board.size for _ in range(board.seats)]
    for seat, f in enumerate(flags):
        if f >= 0:
            for slot in GUARDS.get(f - seat * HOME, ()):
                guard[seat][seat * HOME + slot] = GUARD
    return Tables([by_team[board.team(seat)] for seat in range(board.seats)], reveal, guard)


def _team_tables(board: Board, owner: list[int], kind: list[int], team: int, enemies: list[int], flags: list[int],
                 shown: list[bool], reveal: list[int], clear: bool) -> list[list[int]]:
    """One team's bonus tables (the best over the enemy flags, each scaled by whether it is shown);
    adds to ``reveal`` what showing each hidden enemy flag would give this team's movers. With
    ``clear`` the movers' paths cross mines at :data:`CLEARED`."""
    out: list[list[int]] = []
    for cls in (MOBILE, ENGINEERS):
        through = [0 if owner[p] < 0 or board.team(owner[p]) == team
                   else TOLL if _beaten(kind[p], cls) else CLEARED if clear and kind[p] == MINE else 0
                   for p in range(board.size)]
        full = [[ATTACK[d] for d in distances(board, owner, [flags[e]], cls == ENGINEERS, through)] for e in enemies]
        seen = [f if shown[e] else [b // HIDDEN for b in f] for e, f in zip(enemies, full)]
        best = [max((s[p] for s in seen), default=0) for p in range(board.size)]
        movers = [p for p in range(board.size)
                  if owner[p] >= 0 and board.team(owner[p]) == team and mover_class(kind[p]) == cls]
        for i, e in enumerate(enemies):
            if not shown[e]:
                others = [s for j, s in enumerate(seen) if j != i]
                reveal[e] += sum(max([full[i][p]] + [s[p] for s in others]) - best[p] for p in movers)
        out.append(best)
    return out


def _beaten(kind: int, cls: int) -> bool:
    """Whether a path of class ``cls`` may take a piece of ``kind`` on its way: an engineer only a
    mine; the other movers anything but a mine or a bomb, whose rank against theirs the toll
    stands for."""
    return kind == MINE if cls == ENGINEERS else kind != MINE and kind != BOMB and kind != FLAG


def piece_score(board: Board, tables: Tables, seat: int, kind: int, p: int) -> int:
    """Everything one piece adds to its team's score."""
    score = VALUE[kind]
    if kind == MARSHAL:
        score += tables.reveal[seat]
    cls = mover_class(kind)
    if cls >= 0:
        score += place_bonus(board, tables, seat, cls, p)
    return score


def place_bonus(board: Board, tables: Tables, seat: int, cls: int, p: int) -> int:
    """What a mover of ``seat`` and class ``cls`` earns on ``p``: its path bonus, guarding, the camp."""
    return tables.path[seat][cls][p] + tables.guard[seat][p] + (CAMP if board.camp[p] else 0)


# Rows of :func:`place_bonuses`: a kind's mover class, the pieces that never move last.
STILL: Final = 2
ROW_OF: Final[list[int]] = [STILL if mover_class(k) < 0 else mover_class(k) for k in range(12)]


def place_bonuses(board: Board, tables: Tables) -> list[int]:
    """:func:`place_bonus` of every seat, row (:data:`ROW_OF`; the still pieces' row is all 0) and
    point, at ``(seat * 3 + row) * board.size + p``: so :func:`piece_score` is ``VALUE[kind]``, that
    entry for ``ROW_OF[kind]``, and ``tables.reveal[seat]`` for a marshal."""
    return [place_bonus(board, tables, seat, row, p) if row != STILL else 0
            for seat in range(board.seats) for row in range(STILL + 1) for p in range(board.size)]
