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

from junqi_protocol.board import CAMP_SLOTS, HQ_SLOTS, HOME, Board

LETTERS: Final = "abcdefghijkl"
MARSHAL, GENERAL, DIVISION, BRIGADE, REGIMENT, BATTALION, COMPANY, PLATOON, ENGINEER, MINE, BOMB, FLAG = range(12)
COUNTS: Final = (1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 2, 1)
ENGLISH: Final = ("marshal", "general", "division", "brigade", "regiment", "battalion", "company", "platoon",
           "engineer", "mine", "bomb", "flag")

# Results of a move, named as the seed engine named them.
MOVE, EAT, KILLED, BOTH = range(4)
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


def targets(board: Board, owner: list[int], kind: list[int], p: int) -> list[int]:
    """Every point the piece on ``p`` may move to or attack; only its own kind needs to be known."""
    k = kind[p]
    me = owner[p]
    if me < 0 or k == MINE or k == FLAG or board.hq[p]:
        return []
    team = board.team(me)
    out: list[int] = []
    for q in board.steps[p]:
        o = owner[q]
        if o < 0 or (board.team(o) != team and not board.camp[q]):
            out.append(q)
    if not board.station[p]:
        return out
    for q in rail_reach(board, owner, p, k == ENGINEER):
        o = owner[q]
        if (o < 0 or (board.team(o) != team and not board.camp[q])) and q not in out:
            out.append(q)
    return out


def rail_reach(board: Board, owner: list[int], p: int, engineer: bool) -> list[int]:
    """The points one rail move from station ``p`` passes over: every empty point reached, and the
    occupied point that ends each run (whether it may be attacked is the caller's to judge). An
    engineer turns at crossings; any other piece keeps to straight lines."""
    out: list[int] = []
    if engineer:
        seen = [False] * board.size
        seen[p] = True
        frontier = [p]
        while frontier:
            nxt: list[int] = []
            for a in frontier:
                for q in board.rail_next[a]:
                    if not seen[q]:
                        seen[q] = True
                        out.append(q)
                        if owner[q] < 0:
                            nxt.append(q)
            frontier = nxt
        return out
    for li, pos in board.line_of[p]:
        line = board.lines[li]
        for step in (-1, 1):
            i = pos + step
            while 0 <= i < len(line):
                q = line[i]
                out.append(q)
                if owner[q] >= 0:
                    break
                i += step
    return out


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
