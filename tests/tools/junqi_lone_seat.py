"""Run a line-protocol Junqi engine whose partner is out from the start (the referee's engine word `out`),
for engines that cannot start a game without their partner's lineup.

pfysw/JunQi 2.3's bridge (the peers kit's `junqi-pfysw`) needs its partner's lineup under `info=allies`;
a partner out from the start has none (the referee sends no `visible` line for it), so the bridge refuses
the game ("pfysw's engine needs its partner's lineup"), and with `PFYSW_DARK_PARTNER=1` pfysw's engine
aborts (SIGABRT) when it moves first. This wrapper passes every line through and, when `start` comes
without a `visible` line for the partner, first sends one with a stand-in lineup (:data:`STAND_IN`); the
`out PARTNER absent` event that follows `start` makes the bridge surrender that seat, and pfysw's engine
destroys all its pieces (`DestroyAllChess`) before any move: the game is then the lone pfysw seat against
two, from the start. Used as an ENGINE of `sanqi referee`:

    sanqi referee --variant 4p --rules info=allies --movetime 1 --lineups deals.txt \\
      "sanqi --protocol junqi" "python tests/tools/junqi_lone_seat.py junqi-pfysw" "sanqi --protocol junqi" out

The engine's replies go straight to the referee (the wrapper does not read them); when the referee closes
the pipe, the wrapper closes the engine's and waits for it.
"""

import subprocess
import sys

# Any legal lineup (the project's generator, seed 6060): its pieces never move, they leave the board at once.
STAND_IN = "hfecabkkcgdfgeiijhdijljhg"
PARTNER = {"S": "N", "N": "S", "E": "W", "W": "E"}


def main(argv: list[str]) -> int:
    if not argv:
        print("usage: junqi_lone_seat.py ENGINE [ARG...]", file=sys.stderr)
        return 2
    engine = subprocess.Popen(argv, stdin=subprocess.PIPE, text=True, bufsize=1)
    assert engine.stdin is not None
    partner = ""
    shown = False
    try:
        for line in sys.stdin:
            words = line.split()
            if words[:1] == ["newgame"]:
                partner = PARTNER.get(words[2], "") if len(words) > 2 else ""
                shown = False
            elif words[:1] == ["visible"] and len(words) > 1 and words[1] == partner:
                shown = True
            elif words[:1] == ["start"] and partner and not shown:
                print(f"junqi_lone_seat: {partner} is out: its stand-in lineup sent", file=sys.stderr)
                engine.stdin.write(f"visible {partner} {STAND_IN}\n")
            engine.stdin.write(line)
            engine.stdin.flush()
    except (BrokenPipeError, KeyboardInterrupt):
        pass
    try:
        engine.stdin.close()
    except BrokenPipeError:
        pass
    return engine.wait()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
