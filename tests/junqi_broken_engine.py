"""A Junqi engine that misbehaves on purpose, for the referee's robustness tests.

Usage: python junqi_broken_engine.py MODE. It plays random legal moves over our line protocol until
its third move request, then: ``crash`` exits, ``hang`` stops answering, ``illegal`` moves a piece
it does not own, ``garbage`` sends a line that is no move; ``lineup`` offers an illegal lineup.
"""

import sys

from junqi_protocol.board import Board
from junqi_protocol.game import Rules, parse_event
from junqi_protocol.players import Engine


def main(mode: str) -> None:
    engine = Engine("random", 1)
    board = Board("2p")
    asked = 0

    def say(line: str) -> None:
        sys.stdout.write(line + "\n")
        sys.stdout.flush()

    for raw in sys.stdin:
        words = raw.split()
        if not words:
            continue
        cmd = words[0]
        if cmd == "junqi":
            say("id name broken-" + mode)
            say("junqiok")
        elif cmd == "newgame":
            board = Board(words[1])
            engine.new_game(words[1], board.letters.index(words[2]), Rules(words[1]))
        elif cmd == "lineup":
            say("lineup " + ("abccddeeffggghhhiiijjkklk" if mode == "lineup" else engine.lineup("")))
        elif cmd == "start":
            engine.begin({})
        elif cmd == "go":
            asked += 1
            if asked < 3 or mode == "lineup":
                m = engine.choose()
                say("pass" if m is None else f"move {board.names[m[0]]}-{board.names[m[1]]}")
            elif mode == "crash":
                sys.exit(3)
            elif mode == "illegal":
                enemy = next(p for p in range(board.size) if engine.pos.owner[p] not in (-1, engine.seat)
                             and board.team(engine.pos.owner[p]) != board.team(engine.seat))
                target = next(q for q in board.steps[enemy] if engine.pos.owner[q] < 0) if any(
                    engine.pos.owner[q] < 0 for q in board.steps[enemy]) else board.steps[enemy][0]
                say(f"move {board.names[enemy]}-{board.names[target]}")
            elif mode == "garbage":
                say("hello referee, \x01 here is no move")
        elif cmd in ("move", "pass", "marshal", "flag", "out"):
            engine.observe(parse_event(board, raw.strip()))
        elif cmd == "quit":
            return


if __name__ == "__main__":
    main(sys.argv[1])
