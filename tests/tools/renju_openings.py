"""Print renju's 26 openings in the format of ``gomoku_protocol/data/openings.txt``.

By the rules' convention (the Renju International Federation's opening rules) black's first stone is
at the centre, white's second touches it, directly (beside it on a line) or indirectly (beside it on a
diagonal), and black's third lies within the 5x5 square round the centre. Two openings are the same
when the mirror that keeps the first two stones in place maps one third stone onto the other, so each
kind of second stone leaves 23 points in 13 classes: 13 direct and 13 indirect openings, 26 in all.
This script works them out instead of listing them (the names the federation gives them, kansei to
zuisei, are not used), one a line as ``dx,dy`` offsets from the centre, in the order of the third
stone's point read row by row, direct ones first. A match reads the file with ``--openings``; white is
to move after each::

    python tests/tools/renju_openings.py > renju26.txt
    sanqi match --game gomoku --rule 4 --openings renju26.txt --random-openings --seed 1 ...

>>> lines = openings()
>>> len(lines), lines[0], lines[13]
(26, '0,0, 0,-1, -2,-2  # direct 1', '0,0, 1,-1, -2,-2  # indirect 1')
"""

Point = tuple[int, int]

SECOND = {"direct": (0, -1), "indirect": (1, -1)}


def mirror(kind: str, p: Point) -> Point:
    """The reflection that keeps the centre and the second stone of ``kind`` where they are."""
    x, y = p
    return (-x, y) if kind == "direct" else (-y, -x)


def thirds(kind: str) -> list[Point]:
    """One third stone of each class, the first of its class in row order (y, then x)."""
    taken = {(0, 0), SECOND[kind]}
    square = [(x, y) for y in range(-2, 3) for x in range(-2, 3) if (x, y) not in taken]
    return [p for p in square if row_order(p) <= row_order(mirror(kind, p))]


def row_order(p: Point) -> tuple[int, int]:
    return p[1], p[0]


def openings() -> list[str]:
    out = []
    for kind, (sx, sy) in SECOND.items():
        for n, (x, y) in enumerate(thirds(kind), 1):
            out.append(f"0,0, {sx},{sy}, {x},{y}  # {kind} {n}")
    return out


if __name__ == "__main__":
    print("# Renju's 26 openings (tests/tools/renju_openings.py): black centre, white beside it, black within the 5x5 square")
    print("\n".join(openings()))
