"""Junqi boards as explicit graphs: points, road steps, railway lines, camps, headquarters, names.

Every point has an integer id. Home points come first, ``seat * 30 + row * 5 + col`` in owner
coordinates (row 0 = front, row 5 = back, column 0 = the owner's left), so a lineup means the same
thing for every seat; the four-player centre follows as ids 120..128.

Notation (printed by :func:`name_diagram`):

* four players: seat letter + row + column in that seat's own frame, ``S04`` = seat S, front row,
  its right-hand corner; centre points ``C<row><col>`` seen from S (``C00`` touches ``S00``).
* two players: the competition's letters, rows ``A``..``L`` top to bottom and columns ``0``..``4``
  seen from seat S, who owns rows G..L (``G0`` is S's front-left corner).

>>> b = Board("4p")
>>> b.size, sum(b.station), sum(b.camp), sum(b.hq)
(129, 73, 20, 8)
>>> b.names[b.index["S00"]], b.names[b.home(1, 0, 0)]
('S00', 'E00')
"""

from typing import Final

SEAT_LETTERS_4: Final = "SENW"
SEAT_LETTERS_2: Final = "SN"
ROW_LETTERS: Final = "ABCDEFGHIJKL"
HOME: Final = 30
CAMP_SLOTS: Final = (6, 8, 12, 16, 18)
HQ_SLOTS: Final = (26, 28)


def is_station_slot(row: int, col: int) -> bool:
    """Railway points of a home area: rows 0 and 4, and the side columns of rows 0-4."""
    return row <= 4 and (row in (0, 4) or col in (0, 4))


def _xy4(seat: int, row: int, col: int) -> tuple[int, int]:
    # A 17x17 diagram grid with the centre on x, y in {6, 8, 10}; each seat faces the centre and
    # its column 0 is on its own left, which makes the seat order S, E, N, W counter-clockwise.
    if seat == 0:
        return 6 + col, 11 + row
    if seat == 1:
        return 11 + row, 10 - col
    if seat == 2:
        return 10 - col, 5 - row
    return 5 - row, 6 + col


def _xy2(seat: int, row: int, col: int) -> tuple[int, int]:
    if seat == 0:
        return col, 6 + row
    return 4 - col, 5 - row


class Board:
    """One board variant, ``"4p"`` (Siguo, 129 points) or ``"2p"`` (60 points)."""

    def __init__(self, variant: str) -> None:
        if variant not in ("2p", "4p"):
            raise ValueError(f"unknown variant {variant!r}; use 2p or 4p")
        self.variant: str = variant
        self.seats: int = 4 if variant == "4p" else 2
        self.letters: str = SEAT_LETTERS_4 if variant == "4p" else SEAT_LETTERS_2
        self.size: int = self.seats * HOME + (9 if variant == "4p" else 0)
        self.names: list[str] = []
        self.xy: list[tuple[int, int]] = []
        self.seat_of: list[int] = []
        self.row: list[int] = []
        self.col: list[int] = []
        self.camp: list[bool] = []
        self.hq: list[bool] = []
        self.station: list[bool] = []
        for seat in range(self.seats):
            for slot in range(HOME):
                r, c = divmod(slot, 5)
                x, y = _xy4(seat, r, c) if variant == "4p" else _xy2(seat, r, c)
                self.xy.append((x, y))
                self.names.append(f"{self.letters[seat]}{r}{c}" if variant == "4p" else f"{ROW_LETTERS[y]}{x}")
                self.seat_of.append(seat)
                self.row.append(r)
                self.col.append(c)
                self.camp.append(slot in CAMP_SLOTS)
                self.hq.append(slot in HQ_SLOTS)
                self.station.append(is_station_slot(r, c))
        if variant == "4p":
            for i in range(9):
                r, c = divmod(i, 3)
                self.xy.append((6 + 2 * c, 10 - 2 * r))
                self.names.append(f"C{r}{c}")
                self.seat_of.append(-1)
                self.row.append(-1)
                self.col.append(-1)
                self.camp.append(False)
                self.hq.append(False)
                self.station.append(True)
        self.index: dict[str, int] = {n: i for i, n in enumerate(self.names)}
        self.lines: list[list[int]] = self._rail_lines()
        # (line, position on it) for every line through a point: straight and arc moves walk these.
        self.line_of: list[list[tuple[int, int]]] = [[] for _ in range(self.size)]
        self.rail_next: list[list[int]] = [[] for _ in range(self.size)]
        self.steps: list[list[int]] = [[] for _ in range(self.size)]
        for li, line in enumerate(self.lines):
            for pos, p in enumerate(line):
                self.line_of[p].append((li, pos))
                if pos > 0:
                    self._join(self.rail_next, p, line[pos - 1])
                    self._join(self.steps, p, line[pos - 1])
        for seat in range(self.seats):
            for slot in range(HOME):
                r, c = divmod(slot, 5)
                p = self.home(seat, r, c)
                if r < 5:
                    self._join(self.steps, p, self.home(seat, r + 1, c))
                if c < 4:
                    self._join(self.steps, p, self.home(seat, r, c + 1))
                if slot in CAMP_SLOTS:
                    for dr in (-1, 1):
                        for dc in (-1, 1):
                            self._join(self.steps, p, self.home(seat, r + dr, c + dc))

    def home(self, seat: int, row: int, col: int) -> int:
        return seat * HOME + row * 5 + col

    def team(self, seat: int) -> int:
        """Opposite seats are allies in the four-player game."""
        return seat % 2 if self.seats == 4 else seat

    @staticmethod
    def _join(adj: list[list[int]], a: int, b: int) -> None:
        if b not in adj[a]:
            adj[a].append(b)
            adj[b].append(a)

    def _rail_lines(self) -> list[list[int]]:
        lines: list[list[int]] = []
        at = {xy: i for i, xy in enumerate(self.xy)}
        for seat in range(self.seats):
            for r in (0, 4):
                lines.append([self.home(seat, r, c) for c in range(5)])
        if self.variant == "2p":
            # Side columns from B to K, and the middle pair F2-G2 across the front.
            for x in (0, 4):
                lines.append([at[(x, y)] for y in range(1, 11)])
            lines.append([at[(2, 5)], at[(2, 6)]])
            return lines
        # Long lines: a side column, three centre points, the opposite seat's side column.
        for fixed in (6, 10):
            lines.append([at[(fixed, y)] for y in range(1, 16) if (fixed, y) in at and self.station[at[(fixed, y)]]])
            lines.append([at[(x, fixed)] for x in range(1, 16) if (x, fixed) in at and self.station[at[(x, fixed)]]])
        # Middle lines: front middle point, the centre column/row, the opposite front middle point.
        lines.append([at[(8, y)] for y in (5, 6, 8, 10, 11)])
        lines.append([at[(x, 8)] for x in (5, 6, 8, 10, 11)])
        # Corner arcs: seat d's right column (back to front) curving into seat d+1's left column.
        for d in range(4):
            lines.append([self.home(d, r, 4) for r in range(4, -1, -1)] + [self.home((d + 1) % 4, r, 0) for r in range(5)])
        return lines

    def point(self, name: str) -> int:
        """The id of a point name; raises ValueError naming the bad square."""
        p = self.index.get(name.upper())
        if p is None:
            raise ValueError(f"{name!r} is not a point of the {self.variant} board")
        return p

    def diagram(self, cells: list[str]) -> str:
        """Lay out one short text per point (at most 3 characters) on the board's grid."""
        width = max(x for x, _ in self.xy) + 1
        height = max(y for _, y in self.xy) + 1
        grid = [["   "] * width for _ in range(height)]
        for p, (x, y) in enumerate(self.xy):
            grid[y][x] = f"{cells[p]:<3}"[:3]
        rows = [" ".join(row).rstrip() for row in grid]
        if self.variant == "2p":
            rows.insert(6, "  (mountain between F1-G1 and F3-G3)")
        return "\n".join(rows)


def name_diagram(board: Board) -> str:
    """Every point's name; railway stations end in ``=``, camps ``c``, headquarters ``H`` in 2p style.

    >>> print(name_diagram(Board("2p")).splitlines()[0])
    A0  A1H A2  A3H A4
    """
    cells = []
    for p, n in enumerate(board.names):
        mark = "H" if board.hq[p] else "c" if board.camp[p] else "=" if board.station[p] else ""
        cells.append(n + mark if board.variant == "2p" else n)
    return board.diagram(cells)
