"""Junqi protocol transcripts against the installed ``sanqi`` over pipes: our line protocol and CCGC."""

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
