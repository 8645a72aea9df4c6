"""Won games won: how the four-player games of match records (``sanqi referee --record``) ended once a
seat went out while its partner played on, for the engine named by ``--us`` (a substring of the
players' names) and its opponent, pooled over every record given.

A game counts for the side whose enemy's seat went out first (``record.first_out``: flag taken, no
moves, a crash, a forfeit or a seat out from the start), whatever happened after. Per side, the
games by how that seat went out and by how the game ended for the side a seat up (``won flag``,
``drawn nocapture``, ``lost nomoves``, ...), and with ``--rows`` one line a game (file, game, the
ply and seat of the first out, the plies the game lasted).

    python tests/tools/junqi_seat_up.py [--us sanqi] [--rows] RECORD.jsonl [RECORD.jsonl ...]
"""

import argparse
import collections
from typing import Any, NamedTuple, Optional

from junqi_protocol.match import read_record
from junqi_protocol.record import first_out, short_handed


class SeatUp(NamedTuple):
    path: str
    game: int
    us_up: bool  # the seat out first is the opponent's
    ply: int
    seat: str
    why: str
    ended: str  # for the side a seat up: won/lost and the end's reason, or drawn and its reason
    plies: int


def seat_up(path: str, lines: list[dict[str, Any]], us: str) -> Optional[SeatUp]:
    """The game's first out and how it ended for the side left a seat up; None when no seat went
    out while its partner played on, or the game was not finished."""
    fared, out = short_handed(lines), first_out(lines)
    if fared is None or out is None:
        return None
    end = lines[-1]
    ended = fared[2] if fared[2].startswith("drawn") else f"{fared[2]} {end['reason']}"
    return SeatUp(path, int(lines[0]["game"]), us not in lines[0]["players"][out[1]], out[0], out[1], out[2], ended,
                  int(end["plies"]))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("records", nargs="+")
    ap.add_argument("--us", default="sanqi", help="a substring of our engine's name in the records")
    ap.add_argument("--rows", action="store_true", help="one line a game")
    opts = ap.parse_args()
    found = [s for path in opts.records for lines in read_record(path)
             if (s := seat_up(path, lines, opts.us)) is not None]
    for mine, side in ((True, f"{opts.us} a seat up (an opponent's seat out first)"),
                       (False, f"the opponent a seat up ({opts.us}'s seat out first)")):
        games = [s for s in found if s.us_up == mine]
        ended = collections.Counter(s.ended for s in games)
        why = collections.Counter(s.why for s in games)
        print(f"{side}: {len(games)} games; ended {dict(sorted(ended.items()))}; the seat went out by {dict(sorted(why.items()))}")
        for s in games if opts.rows else []:
            print(f"  {s.path} game {s.game}: {s.seat} out at ply {s.ply} ({s.why}), {s.ended} at ply {s.plies}")


if __name__ == "__main__":
    main()
