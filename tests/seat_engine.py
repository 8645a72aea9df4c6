"""An engine of any of our protocols that finishes every handshake and then never moves, for the seat tests.

Usage: python seat_engine.py PIDS_FOLDER. It starts a ``sleep`` child in its own process group at once and
leaves a file named after its pid and one after its child's in PIDS_FOLDER, so a test can check that
neither outlives the seat that started them. It answers the handshakes of UCCI, UCI, Gomocup, our junqi
line protocol and CCGC (``ucci``, ``uci``, ``isready``, ``START``, ``junqi``, ``INFO 1.0``) and nothing else.
"""

import os
import subprocess
import sys

REPLIES = {"ucci": "ucciok", "uci": "uciok", "isready": "readyok", "START": "OK", "junqi": "junqiok", "INFO 1.0": "NAME seat"}


def note(folder: str, pid: int) -> None:
    open(os.path.join(folder, str(pid)), "w").close()


def main(folder: str) -> None:
    child = subprocess.Popen(["sleep", "600"], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL)
    note(folder, child.pid)
    note(folder, os.getpid())
    for line in sys.stdin:
        words = line.split()
        reply = REPLIES.get(" ".join(words)) or REPLIES.get(words[0]) if words else None
        if reply:
            print(reply, flush=True)


if __name__ == "__main__":
    main(sys.argv[1])
