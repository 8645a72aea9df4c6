"""Junqi protocol transcripts against the installed ``sanqi`` over pipes: our line protocol and CCGC."""

import pytest

from junqi_protocol.board import Board
from junqi_protocol.ccgc import CcgcProtocol
from junqi_protocol.game import full_game
from junqi_protocol.protocol import JunqiProtocol
from junqi_protocol.rules import check_lineup

LINEUP = "abccddeeffggghhhiiijjkklj"


def test_detection_lines():
    assert JunqiProtocol.detect("junqi") and not JunqiProtocol.detect("junqiok")
    assert CcgcProtocol.detect("INFO 1.0") and CcgcProtocol.detect("INFO 1")
    assert not CcgcProtocol.detect("INFO timeout_turn 1000") and not CcgcProtocol.detect("INFO max_memory 0")


def legal_names(variant: str, lineups: list[str], moves: list[str], seat: int) -> set[str]:
    g = full_game(variant, lineups)
    g.start()
    b = g.board
    for m in moves:
        frm, to = m.split("-")
        g.move(b.point(frm), b.point(to))
    assert g.turn == seat
    return {f"{b.names[a]}-{b.names[c]}" for a, c in g.legal_moves()}


def test_line_protocol_four_player_transcript(session_factory):
    s = session_factory()
    s.send("junqi")
    line, before = s.expect("junqiok")
    assert before[0].startswith("id name sanqi") and any(x.startswith("option name player") for x in before)
    s.send("setoption name player value random")
    s.send("setoption name colour value red")
    assert s.expect("error")[0].startswith("error unknown option 'colour'")
    s.send("newgame 4p E nocapture=70 passes=5 info=dark time=600000 movetime=10000")
    s.send("lineup abccddeeffggghhhiiijjkkl")
    assert "25 letters" in s.expect("error")[0]
    s.send("lineup jbccddeeffggghhhiiiajkklj")
    assert "mines go in the last two rows" in s.expect("error")[0]
    s.send("lineup")
    mine = s.expect("lineup ")[0].split()[1]
    assert check_lineup(mine) is None
    s.send("start")
    s.send("move S S01-S11 MOVE")
    s.send("go time 600000 movetime 10000")
    reply = s.expect("move ")[0].split()[1]
    lineups = [LINEUP, mine, LINEUP, LINEUP]
    assert reply in legal_names("4p", lineups, ["S01-S11"], 1)
    g = full_game("4p", lineups)
    g.start()
    for m in ("S01-S11", reply):  # the broadcast carries the true result (E may have attacked)
        frm, to = m.split("-")
        told = [e.text(g.board) for e in g.move(g.board.point(frm), g.board.point(to))]
    for line in told:
        s.send(line)
    s.send("move S S01-S11 MOVE")
    assert "has no piece on S01" in s.expect("error")[0]
    s.send("move S S99-S11 MOVE")
    assert "not a point" in s.expect("error")[0]
    s.send("frobnicate now")
    assert "unknown command" in s.expect("error")[0]
    s.send("isready")
    s.expect("readyok")
    s.send("quit")
    assert s.proc.wait(5) == 0


def test_line_protocol_plays_a_given_lineup(session_factory):
    s = session_factory()
    s.send("junqi")
    s.expect("junqiok")
    s.send("newgame 2p S")
    s.send(f"lineup {LINEUP}")
    assert s.expect("lineup ")[0] == f"lineup {LINEUP}"
    s.send("start")
    s.send("go")
    reply = s.expect("move ")[0].split()[1]
    assert reply in legal_names("2p", [LINEUP, LINEUP], [], 0)
    s.send("go")  # before its move was announced: still answers from what it knows
    s.expect("move ")


def test_ccgc_transcript(session_factory):
    s = session_factory()
    s.send("INFO 1.0")
    assert s.expect("NAME")[0].startswith("NAME ")
    s.send("START 1 1800 31")
    array = s.expect("ARRAY ")[0].split()[1]
    assert check_lineup(array) is None
    s.send("GO F1E1 3 00")
    best = s.expect("BESTMOVE ")[0].split()[1]
    # The opponent is seat N in our frame and moved first; we are seat S in rows G-L.
    g = full_game("2p", [array, LINEUP])
    b: Board = g.board
    g.turn = 1
    g.move(b.point("F1"), b.point("E1"))
    assert f"{best[:2]}-{best[2:]}" in {f"{b.names[a]}-{b.names[c]}" for a, c in g.legal_moves()}
    s.send("RESULT 3 00")
    s.send("GO E1D2 3 00")
    s.expect("BESTMOVE ")
    s.send("GO E1D1 3 00")  # D1 holds the mover's own piece: nonsense, yet a move is still owed
    s.expect("BESTMOVE ")
    s.send("END 1")
    assert s.proc.wait(5) == 0


def test_forced_ccgc_protocol(session_factory):
    s = session_factory(["--protocol", "ccgc"])
    s.send("INFO 1.0")
    s.expect("NAME")
    s.send("START 0 1800 31")
    s.expect("ARRAY ")
    s.send("GO 0000 3 00")
    best = s.expect("BESTMOVE ")[0].split()[1]
    assert best[0] in "GHIJK"


def refuses(s, line: str, named: str) -> None:
    """The engine answers ``line`` with an error naming ``named``."""
    s.send(line)
    answer = s.expect("error")[0]
    assert named in answer, (line, answer)


def started_2p(s, seat: str = "S"):
    s.send("junqi")
    s.expect("junqiok")
    s.send(f"newgame 2p {seat}")
    s.send(f"lineup {LINEUP}")
    s.expect("lineup ")
    s.send("start")


def test_reports_that_contradict_the_board_are_refused_and_change_nothing(session_factory):
    s = session_factory()
    started_2p(s)
    for bad, named in (("move N G0-L1 EAT", "N has no piece on G0"),
                       ("move N F1-L1 EAT", "F1-L1: L1 is not one road step"),  # a jump into S's headquarters
                       ("marshal N L1", "L1 is not one of N's headquarters"),
                       ("marshal S L1", "S's flag cannot stand on L1"),
                       ("move S G0-F0 MOVE", "MOVE does not fit an occupied F0"),
                       ("flag S S", "no opponent")):
        refuses(s, bad, named)
    s.send("move S G2-F2 EAT")  # a true report after the false ones
    refuses(s, "move N F0-F1 MOVE", "F1 holds an ally of N")  # nothing above changed the board
    s.send("go")
    reply = s.expect("move ")[0].split()[1]
    g = full_game("2p", [LINEUP, LINEUP])
    g.start()
    g.pos.apply(g.board.point("G2"), g.board.point("F2"), 1)
    g.turn = 0
    assert reply in {f"{g.board.names[a]}-{g.board.names[c]}" for a, c in g.legal_moves()}


def test_bad_visible_line_is_refused_when_it_arrives(session_factory):
    s = session_factory()
    s.send("junqi")
    s.expect("junqiok")
    s.send("newgame 4p E info=open")
    for bad, named in (("visible N abc", "25 letters"), ("visible E " + LINEUP, "our own seat"),
                       ("visible X " + LINEUP, "SEAT one of"), ("visible N", "visible SEAT LINEUP")):
        refuses(s, bad, named)
    s.send("visible N " + LINEUP)
    s.send("lineup")
    s.expect("lineup ")
    s.send("start")
    s.send("move S S01-S11 MOVE")
    s.send("go")
    assert s.expect("move ")[0].startswith("move E")
    refuses(s, "visible W " + LINEUP, "the game has started")


def test_refused_lineup_leaves_start_refused_too(session_factory):
    s = session_factory()
    s.send("junqi")
    s.expect("junqiok")
    s.send("newgame 2p N")
    refuses(s, "lineup jbccddeeffggghhhiiiajkklj", "mines go in the last two rows")
    refuses(s, "start", "no lineup")
    refuses(s, "go", "has not started")
    letters = iter(LINEUP)
    thirty = "".join("." if slot in (6, 8, 12, 16, 18) else next(letters) for slot in range(30))
    s.send("lineup " + thirty)
    assert s.expect("lineup ")[0] == f"lineup {LINEUP}"  # a dealt 30-letter lineup is answered in 25
    s.send("start")
    s.send("move S G0-F0 EAT")
    s.send("go")
    s.expect("move ")


class Lines:
    """A Channel stand-in: feeds lines, collects what the engine says; every line arrived now (a move's
    time counts from ``arrived``, 0: now)."""

    arrived = 0.0

    def __init__(self, lines: list[str]) -> None:
        self.todo = list(lines)
        self.said: list[str] = []
        self.logged: list[str] = []

    def get(self, timeout=None):
        return self.todo.pop(0) if self.todo else None

    def send(self, line: str) -> None:
        self.said.append(line)

    def log(self, line: str) -> None:
        self.logged.append(line)


@pytest.mark.parametrize("bug", [RuntimeError, ValueError])  # a bug's ValueError is ours too, not a refusal
def test_unexpected_failure_is_an_error_line_and_the_state_is_rebuilt(monkeypatch, bug):
    from junqi_protocol.player import Player

    proto = JunqiProtocol()
    setup = ["junqi", "setoption name player value random", "newgame 2p S", f"lineup {LINEUP}", "start",
             "move S G0-F0 EAT"]
    proto.run(Lines(setup))
    before = list(proto.engine._player.pos.owner)  # the state the front must keep
    real = Player.observe

    failures = [bug("boom")]

    def broken(self, ev):
        real(self, ev)  # changes the board, then fails once, like a bug would
        if failures:
            raise failures.pop()

    monkeypatch.setattr(Player, "observe", broken)
    chan = Lines(["move N F1-E1 MOVE"])
    proto.run(chan)
    assert chan.said == [f"error internal error {bug.__name__}: boom"]
    monkeypatch.setattr(Player, "observe", real)
    assert proto.engine._player.pos.owner == before and proto.engine.kind == "random"
    chan = Lines(["move N F1-E1 MOVE", "isready"])
    proto.run(chan)
    assert chan.said == ["readyok"]


def ccgc_started(s) -> str:
    s.send("INFO 1.0")
    s.expect("NAME")
    s.send("START 0 1800 31")
    return s.expect("ARRAY ")[0].split()[1]


def our_moves_after(array: str, ours: list[tuple[str, int]]) -> set[str]:
    """Our legal moves after our own moves with the given results (the opponent's kinds do not matter)."""
    g = full_game("2p", [array, LINEUP])
    b = g.board
    for move, result in ours:
        g.pos.apply(b.point(move[:2]), b.point(move[2:]), result)
    g.turn = 0
    return {f"{b.names[a]}{b.names[c]}" for a, c in g.legal_moves()}


@pytest.mark.parametrize("result_line", ["RESULT 7 00", "RESULT 3 Q9", None])
def test_ccgc_unusable_or_missing_result_keeps_the_board_in_step(session_factory, result_line):
    s = session_factory(["--protocol", "ccgc"])
    array = ccgc_started(s)
    s.send("GO 0000 3 00")
    first = s.expect("BESTMOVE ")[0].split()[1]
    if result_line:
        s.send(result_line)
    s.send("GO F0E0 3 00")
    second = s.expect("BESTMOVE ")[0].split()[1]
    contested = first[2] == "F"
    # What we settle on: a plain move to an empty point; a contested move taken as lost.
    assert second in our_moves_after(array, [(first, 2 if contested else 0)]) - {first}
    s.send("END 2")
    assert s.proc.wait(5) == 0
    assert "END 2: abnormal end" in s.proc.stderr.read().decode()


@pytest.mark.parametrize("bug", [RuntimeError, ValueError])
def test_ccgc_unexpected_failure_is_logged_and_the_board_stays_in_step(monkeypatch, bug):
    from junqi_protocol.player import Player

    proto = CcgcProtocol()
    chan = Lines(["INFO 1.0", "START 0 1800 31", "GO 0000 3 00"])
    proto.run(chan)
    array, first = chan.said[1].split()[1], chan.said[2].split()[1]
    real = Player.observe
    failures = [bug("boom")]

    def broken(self, ev):
        real(self, ev)
        if failures:
            raise failures.pop()

    monkeypatch.setattr(Player, "observe", broken)
    chan = Lines(["RESULT 3 00", "GO F0E0 3 00"])
    proto.run(chan)
    assert any(f"internal error {bug.__name__}: boom" in line for line in chan.logged)
    second = chan.said[0].split()[1]
    contested = first[2] == "F"
    assert second in our_moves_after(array, [(first, 2 if contested else 0)]) - {first}
