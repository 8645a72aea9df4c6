"""docs/junqi-protocol.md states the boards and the combat table as the code has them.

Each block below is generated from ``junqi_protocol.board`` and ``junqi_protocol.rules`` and must
appear in the document verbatim, as a fenced block; ``python tests/test_junqi_protocol_doc.py``
prints them all for pasting after a change. The road-step rule the document states in words is
checked against the boards' graphs.
"""

import itertools

from conftest import ROOT
from junqi_protocol.board import HOME, Board, name_diagram
from junqi_protocol.rules import COMBAT, ENGLISH, LETTERS, RESULTS

DOC = ROOT / "docs" / "junqi-protocol.md"
SHORT = {"EAT": "E", "KILLED": "K", "BOMB": "B"}


def kinds_diagram(variant: str) -> str:
    """``=`` railway station, ``c`` camp, ``H`` headquarters, ``.`` road only."""
    b = Board(variant)
    return b.diagram(["H" if b.hq[p] else "c" if b.camp[p] else "=" if b.station[p] else "." for p in range(b.size)])


def rail_lines(variant: str) -> str:
    b = Board(variant)
    return "\n".join(" ".join(b.names[p] for p in line) for line in b.lines)


def area(b: Board, p: int) -> str:
    return b.letters[b.seat_of[p]] if b.seat_of[p] >= 0 else "C"


def crossings(variant: str) -> str:
    """Every step that leaves an area (a home or the centre), one line per point it leaves from."""
    b = Board(variant)
    out = []
    for p in range(b.size):
        far = [b.names[q] for q in sorted(b.steps[p]) if area(b, q) != area(b, p)]
        if far and area(b, p) != "C":
            out.append(f"{b.names[p]}: {' '.join(far)}")
    return "\n".join(out)


def combat_table() -> str:
    rows = ["    " + " ".join(LETTERS)]
    for a in range(12):
        cells = [SHORT.get(RESULTS[COMBAT[a * 12 + d]], "-") if COMBAT[a * 12 + d] >= 0 else "-" for d in range(12)]
        rows.append(f"{LETTERS[a]}   {' '.join(cells)}   {ENGLISH[a]}")
    return "\n".join(rows)


BLOCKS = {
    "four-player names": lambda: name_diagram(Board("4p")),
    "four-player kinds": lambda: kinds_diagram("4p"),
    "two-player names and kinds": lambda: name_diagram(Board("2p")),
    "four-player rail lines": lambda: rail_lines("4p"),
    "two-player rail lines": lambda: rail_lines("2p"),
    "four-player crossings": lambda: crossings("4p"),
    "two-player crossings": lambda: crossings("2p"),
    "combat table": combat_table,
}


def test_every_generated_block_is_in_the_document():
    doc = DOC.read_text(encoding="utf-8")
    for name, make in BLOCKS.items():
        assert f"```\n{make()}\n```" in doc, f"docs/junqi-protocol.md: the {name} block is out of date"


def stated_steps(b: Board) -> list[set[int]]:
    """The document's road-step rule: orthogonal neighbours inside a home area, the four diagonal
    neighbours of every camp, and consecutive points of every rail line."""
    steps: list[set[int]] = [set() for _ in range(b.size)]

    def join(p: int, q: int) -> None:
        steps[p].add(q)
        steps[q].add(p)

    for seat in range(b.seats):
        for slot in range(HOME):
            r, c = divmod(slot, 5)
            p = b.home(seat, r, c)
            for dr, dc in ((0, 1), (1, 0)):
                if r + dr < 6 and c + dc < 5:
                    join(p, b.home(seat, r + dr, c + dc))
            if b.camp[p]:
                for dr in (-1, 1):
                    for dc in (-1, 1):
                        join(p, b.home(seat, r + dr, c + dc))
    for line in b.lines:
        for p, q in itertools.pairwise(line):
            join(p, q)
    return steps


def test_road_steps_follow_the_stated_rule():
    for variant in ("2p", "4p"):
        b = Board(variant)
        assert stated_steps(b) == [set(s) for s in b.steps]


if __name__ == "__main__":
    for name, make in BLOCKS.items():
        print(f"{name}:\n```\n{make()}\n```\n")


def test_the_documented_four_player_session_is_one_our_engine_accepts():
    from junqi_protocol.protocol import JunqiProtocol
    from test_junqi_protocol import Lines

    doc = DOC.read_text(encoding="utf-8")
    block = doc.split("## A complete four-player game")[1].split("```")[1]
    ours = next(line[2:] for line in block.splitlines() if line.startswith("< lineup "))
    told = [line[2:] for line in block.splitlines() if line.startswith("> ") and not line.startswith("> go ")]
    chan = Lines([ours if line == "lineup" else line for line in told])  # deal the lineup the engine chose then
    JunqiProtocol().run(chan)
    assert [line for line in chan.said if line.startswith("error")] == []
    assert f"lineup {ours[7:]}" in chan.said and not chan.todo
