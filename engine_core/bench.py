"""``sanqi bench [GAME] [options]``: each game's fixed benchmark: nodes per second and the game's own figures.

The games come from the entry-point group ``sanqi.bench``; ``sanqi bench GAME --help`` shows a game's options.
"""

from importlib.metadata import entry_points
from typing import Optional

from engine_core.args import fail

DEFAULT = "xiangqi"


def main(argv: Optional[list[str]] = None) -> int:
    args = list(argv or [])
    games = {ep.name: ep for ep in entry_points(group="sanqi.bench")}
    if args[:1] in (["-h"], ["--help"]):
        print(f"usage: sanqi bench [GAME] [options]\n\nGAME is one of {', '.join(sorted(games))} "
              f"(default {DEFAULT}); sanqi bench GAME --help shows its options.")
        return 0
    game = args.pop(0) if args and not args[0].startswith("-") else DEFAULT
    if game not in games:
        fail("sanqi bench", f"unknown game {game!r}; choose from {', '.join(sorted(games))}")
    try:
        run = games[game].load()
    except ImportError:
        fail("sanqi bench", f"this build of sanqi has no {game} benchmark")
    result: int = run(args)
    return result
