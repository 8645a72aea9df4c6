"""Junqi rules that do not depend on whose turn it is: pieces, combat, deployment, move generation.

Piece kinds are ints 0..11 in the competition's letter order ``a``..``l``; among the soldiers
0..8 a smaller number is a higher rank.

>>> RESULTS[combat(ENGINEER, MINE)], RESULTS[combat(MARSHAL, MARSHAL)], RESULTS[combat(PLATOON, BOMB)]
('EAT', 'BOMB', 'BOMB')
>>> check_lineup("abccddeeffggghhhiiijjkklj") is None
True
>>> check_lineup("jbccddeeffggghhhiiiajkklj")
'mine (j) in row 0: mines go in the last two rows'
"""

from typing import Final, Optional

# Compiled, a vec[i64] entry is a plain machine word (see ucci_engine.movegen); interpreted, an ordinary class.
from librt.vecs import vec
from mypy_extensions import i64

from junqi_protocol.board import CAMP_SLOTS, HQ_SLOTS, HOME, Board

LETTERS: Final = "abcdefghijkl"
# Each a Final of its own: compiled, a name unpacked from range() is looked up in the module's
# dict at every use (5 million look-ups in a depth-3 four-player bench, 3 % of its instructions).
MARSHAL: Final = 0
GENERAL: Final = 1
DIVISION: Final = 2
BRIGADE: Final = 3
REGIMENT: Final = 4
BATTALION: Final = 5
COMPANY: Final = 6
PLATOON: Final = 7
ENGINEER: Final = 8
MINE: Final = 9
BOMB: Final = 10
FLAG: Final = 11
COUNTS: Final = (1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 2, 1)
ENGLISH: Final = ("marshal", "general", "division", "brigade", "regiment", "battalion", "company", "platoon",
           "engineer", "mine", "bomb", "flag")

# Results of a move, named as the seed engine named them.
MOVE: Final = 0
EAT: Final = 1
KILLED: Final = 2
BOTH: Final = 3
RESULTS: Final = ("MOVE", "EAT", "KILLED", "BOMB")
NO_ATTACK: Final = -1

# The 25 home slots a lineup fills, front row first, left to right, skipping the camps.
LINEUP_SLOTS: Final = tuple(s for s in range(HOME) if s not in CAMP_SLOTS)


def _duel(att: int, dfn: int) -> int:
    if att in (MINE, FLAG):
        return NO_ATTACK
    if dfn == FLAG:
        return BOTH if att == BOMB else EAT
    if att == BOMB or dfn == BOMB:
        return BOTH
    if dfn == MINE:
        return EAT if att == ENGINEER else KILLED
    if att == dfn:
        return BOTH
    return EAT if att < dfn else KILLED


COMBAT: Final[list[int]] = [_duel(a, d) for a in range(12) for d in range(12)]


def combat(att: int, dfn: int) -> int:
    """Result of ``att`` moving onto ``dfn`` (a bomb taking the flag removes both and captures it)."""
    return COMBAT[att * 12 + dfn]


def parse_lineup(text: str) -> list[int]:
    """Kinds for home slots 0..29 (-1 in camps) from 25 letters, or 30 with ``.`` in the camps."""
    err = check_lineup(text)
    if err is not None:
        raise ValueError(err)
    kinds = [-1] * HOME
    letters = text if len(text) == 25 else "".join(ch for s, ch in enumerate(text) if s not in CAMP_SLOTS)
    for s, ch in zip(LINEUP_SLOTS, letters):
        kinds[s] = LETTERS.index(ch)
    return kinds


def check_lineup(text: str) -> Optional[str]:
    """None for a legal deployment, else the broken rule."""
    if len(text) == 30:
        for s in CAMP_SLOTS:
            if text[s] != ".":
                return f"camp slot {s} holds {text[s]!r}: camps start empty"
        text = "".join(ch for s, ch in enumerate(text) if s not in CAMP_SLOTS)
    if len(text) != 25:
        return f"a lineup has 25 letters (or 30 with '.' in the camps), got {len(text)}"
    for ch in text:
        if ch not in LETTERS:
            return f"{ch!r} is not a piece letter a-l"
    for k in range(12):
        n = text.count(LETTERS[k])
        if n != COUNTS[k]:
            return f"{n} x {LETTERS[k]} ({ENGLISH[k]}), the army has {COUNTS[k]}"
    for s, ch in zip(LINEUP_SLOTS, text):
        row = s // 5
        k = LETTERS.index(ch)
        if k == FLAG and s not in HQ_SLOTS:
            return f"flag (l) in slot {s}: the flag goes in a headquarters (slots 26, 28)"
        if k == MINE and row < 4:
            return f"mine (j) in row {row}: mines go in the last two rows"
        if k == BOMB and row == 0:
            return "bomb (k) in row 0: bombs may not start in the front row"
    return None


def short_lineup(text: str) -> str:
    """The 25-letter form of a lineup written in either form.

    >>> short_lineup("gcfcgi.b.idk.kda.f.ehehigjljhj")
    'gcfcgibidkkdafehehigjljhj'
    """
    return text if len(text) == 25 else text.replace(".", "")


def lineup_text(kinds: list[int]) -> str:
    """The 25-letter form of home-slot kinds."""
    return "".join(LETTERS[kinds[s]] for s in LINEUP_SLOTS)


# keep[kind * 13 + 1 + target's kind] says which targets :func:`add_targets` lists (target's kind -1:
# an empty point); ALL keeps every one.
KEEP_ROW: Final = 13
ALL: Final = bytes([1] * (12 * KEEP_ROW))


def targets(board: Board, owner: list[int], kind: list[int], p: int) -> list[int]:
    """Every point the piece on ``p`` may move to or attack; only its own kind needs to be known."""
    out: list[int] = []
    add_targets(board, vec[i64](owner), vec[i64](kind), p, ALL, vec[i64]([0] * (2 * board.size + 1)), out, 0)
    return out


def add_targets(board: Board, owner: vec[i64], kind: vec[i64], p: int, keep: bytes, marks: vec[i64], out: list[int],
                base: int) -> None:
    """Append ``base + q`` for every point ``q`` the piece on ``p`` may move to or attack (road steps,
    then rail runs as :func:`add_rails` walks them, each point once) that ``keep`` keeps (:data:`ALL`).
    ``marks`` (``2 * board.size + 1`` words, kept between calls) stands for the search's own lists: the
    points listed so far and those the engineer's run has visited; its last entry counts the calls
    (a list's entries would box each new count). With it, quiescence asking for its attacks alone
    (``keep``) and the marks for ``q not in out``, a depth-3 four-player bench's search took 6.1 G
    instructions where it took 14.4 G (callgrind, 29 November 2026; the same tree)."""
    k = kind[p]
    me = owner[p]
    if me < 0 or k == MINE or k == FLAG or board.hq[p]:
        return
    size = board.size
    stamp: i64 = marks[2 * size] + 1
    marks[2 * size] = stamp
    four = board.seats == 4
    team = me % 2 if four else me
    row = k * KEEP_ROW + 1
    camp = board.camp
    for q in board.steps[p]:
        o = owner[q]
        if o < 0:
            marks[q] = stamp
            if keep[row - 1]:
                out.append(base + q)
        elif (o % 2 if four else o) != team and not camp[q]:
            marks[q] = stamp
            if keep[row + kind[q]]:
                out.append(base + q)
    if board.station[p]:
        add_rails(board, owner, kind, p, k == ENGINEER, team, keep, row, marks, stamp, out, base)


def add_rails(board: Board, owner: vec[i64], kind: vec[i64], p: int, engineer: bool, team: int, keep: bytes,
              row: int, marks: vec[i64], stamp: i64, out: list[int], base: int) -> None:
    """The one walk of the railways: append ``base + q`` for every point ``q`` one rail move from
    station ``p`` passes over (an engineer turns at crossings; any other piece keeps to straight
    lines) that no earlier step of this ``stamp`` listed: every empty point reached, and the occupied
    point that ends each run if it holds a piece of another team than ``team`` (-1: any piece) and
    ``keep[row + its kind]`` keeps it (``row - 1`` for the empty points; :data:`ALL`). ``marks`` as in
    :func:`add_targets`. No camp is a station, so a run never ends on a camp's piece."""
    size = board.size
    four = board.seats == 4
    if engineer:
        # Breadth-first over the rails, turning anywhere; an occupied point ends its run.
        marks[size + p] = stamp
        frontier = [p]
        while frontier:
            nxt: list[int] = []
            for a in frontier:
                for q in board.rail_next[a]:
                    if marks[size + q] != stamp:
                        marks[size + q] = stamp
                        o = owner[q]
                        if o < 0:
                            nxt.append(q)
                            if marks[q] != stamp:
                                marks[q] = stamp
                                if keep[row - 1]:
                                    out.append(base + q)
                        elif (o % 2 if four else o) != team and marks[q] != stamp:
                            marks[q] = stamp
                            if keep[row + kind[q]]:
                                out.append(base + q)
            frontier = nxt
        return
    lines = board.lines
    for li, at in board.line_of[p]:
        line = lines[li]
        for direction in range(2):
            # A tuple of the two steps would be built and iterated as objects on every call.
            step = 2 * direction - 1
            i = at + step
            while 0 <= i < len(line):
                q = line[i]
                o = owner[q]
                if o < 0:
                    if marks[q] != stamp:
                        marks[q] = stamp
                        if keep[row - 1]:
                            out.append(base + q)
                else:
                    if (o % 2 if four else o) != team and marks[q] != stamp:
                        marks[q] = stamp
                        if keep[row + kind[q]]:
                            out.append(base + q)
                    break
                i += step


def why_illegal(board: Board, owner: list[int], kind: list[int], seat: int, frm: int, to: int) -> Optional[str]:
    """None if ``seat`` may move ``frm`` to ``to``, else the rule the move breaks."""
    o = owner[frm]
    if o < 0:
        return f"no piece on {board.names[frm]}"
    if o != seat:
        return f"the piece on {board.names[frm]} belongs to seat {board.letters[o]}"
    k = kind[frm]
    if k == MINE or k == FLAG:
        return "a mine never moves" if k == MINE else "the flag never moves"
    if board.hq[frm]:
        return f"nothing leaves a headquarters ({board.names[frm]})"
    d = owner[to]
    if d >= 0 and board.team(d) == board.team(seat):
        return f"{board.names[to]} holds {'your own' if d == seat else 'an allied'} piece"
    if d >= 0 and board.camp[to]:
        return f"{board.names[to]} is a camp: a piece in a camp cannot be attacked"
    if to in targets(board, owner, kind, frm):
        return None
    if board.station[frm] and board.station[to]:
        return f"no clear railway path from {board.names[frm]} to {board.names[to]}"
    return f"{board.names[to]} is not one road step from {board.names[frm]}"



def needs_engineer(board: Board, owner: list[int], kind: list[int], frm: int, to: int) -> bool:
    """Whether only an engineer could have moved ``frm`` to ``to`` on this occupancy (a turn on the rails)."""
    saved = kind[frm]
    kind[frm] = GENERAL
    plain = to in targets(board, owner, kind, frm)
    kind[frm] = saved
    return not plain
