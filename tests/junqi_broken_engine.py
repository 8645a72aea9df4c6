"""A Junqi engine that misbehaves on purpose, for the referee's robustness tests.

Usage: python junqi_broken_engine.py MODE. It plays random legal moves over our line protocol, and
from its third move request on (``ASKED``) misbehaves as MODE says:

=========== ================================================================================
``crash``   exits without answering
``startup`` exits at once, before the handshake
``hang``    stops answering moves (still reads its input, and quits when told)
``illegal`` moves a piece it does not own
``garbage`` sends a line that is no move
``longline`` sends a line of a million bytes
``lineup``  offers an illegal lineup (before any move)
``mute``    answers the handshake, then never a lineup
``own``     answers a dealt lineup with a lineup of its own
``fair``    plays by the rules throughout
``late``    answers the third request after ``LATE`` seconds, then plays on normally
``flood``   sends ``FLOOD`` info lines before its third answer
``twice``   answers every request twice
``straggle`` answers every request, then the same again ``STRAGGLE`` seconds later, unasked
``child``   starts a child that inherits its stdout, then exits without answering
``spawn``   starts a long-lived child at once, then plays normally
``deaf``    plays normally but ignores ``quit`` and SIGTERM
=========== ================================================================================

With ``JUNQI_BROKEN_PIDS`` set to a folder, it leaves a file named after its pid there, and one per
child, so a test can check that nothing is left running.
"""

import os
import signal
import subprocess
import sys
import time

from junqi_protocol.board import Board
from junqi_protocol.game import Rules, parse_event
from junqi_protocol.player import Player

ASKED = 3
LATE = float(os.environ.get("JUNQI_BROKEN_LATE", "4.5"))
FLOOD = 200_000
STRAGGLE = 0.3


def note_pid(pid: int) -> None:
    folder = os.environ.get("JUNQI_BROKEN_PIDS")
    if folder:
        open(os.path.join(folder, str(pid)), "w").close()


def start_child(**streams: object) -> None:
    child = subprocess.Popen(["sleep", "600"], stdin=subprocess.DEVNULL, **streams)  # type: ignore[call-overload]
    note_pid(child.pid)


def say(line: str) -> None:
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def foreign_move(player: Player, board: Board) -> str:
    """A move of a piece that is not ours."""
    pos = player.pos
    enemy = next(p for p in range(board.size) if pos.owner[p] not in (-1, player.seat)
                 and board.team(pos.owner[p]) != board.team(player.seat))
    empty = [q for q in board.steps[enemy] if pos.owner[q] < 0]
    return f"move {board.names[enemy]}-{board.names[(empty or board.steps[enemy])[0]]}"


def main(mode: str) -> None:
    note_pid(os.getpid())
    sys.stderr.write(f"broken engine {mode}: starting\n")
    sys.stderr.flush()
    if mode == "startup":
        sys.exit(4)
    if mode == "spawn":
        start_child(stdout=subprocess.DEVNULL)
    if mode == "deaf":
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
    player = Player("random", 1)
    board = Board("2p")
    asked = 0

    def answer() -> str:
        m = player.choose()
        return "pass" if m is None else f"move {board.names[m[0]]}-{board.names[m[1]]}"

    for raw in sys.stdin:
        words = raw.split()
        if not words:
            continue
        cmd = words[0]
        if cmd == "junqi":
            say("id name broken-" + mode)
            say("junqiok")
        elif cmd == "isready":
            say("readyok")
        elif cmd == "newgame":
            board = Board(words[1])
            player.new_game(words[1], board.letters.index(words[2]), Rules(words[1]))
        elif cmd == "lineup" and mode != "mute":
            given = "" if mode == "own" else " ".join(words[1:])
            say("lineup " + ("abccddeeffggghhhiiijjkklk" if mode == "lineup" else player.lineup(given)))
        elif cmd == "start":
            player.begin({})
        elif cmd == "go":
            asked += 1
            if asked < ASKED or mode in ("lineup", "own", "fair", "spawn", "deaf"):
                say(answer())
            elif mode in ("twice", "straggle"):
                move = answer()
                say(move)
                time.sleep(STRAGGLE if mode == "straggle" else 0)
                say(move)
            elif mode in ("crash", "child"):
                if mode == "child":
                    start_child()  # inherits our stdout and stderr
                sys.exit(3)
            elif mode == "illegal":
                say(foreign_move(player, board))
            elif mode == "garbage":
                say("hello referee, \x01 here is no move")
            elif mode == "longline":
                say("move " + "x" * 1_000_000)
            elif mode == "late":
                move = answer()
                time.sleep(LATE if asked == ASKED else 0)
                say(move)
            elif mode == "flood":
                sys.stdout.write("info string thinking hard\n" * (FLOOD if asked == ASKED else 0))
                say(answer())
        elif cmd in ("move", "pass", "marshal", "flag", "out"):
            player.observe(parse_event(board, raw.strip()))
        elif cmd == "quit":
            if mode == "deaf":
                continue
            return
    if mode == "deaf":
        time.sleep(600)


if __name__ == "__main__":
    main(sys.argv[1])
