"""``sanqi bench [GAME] [options]``: each game's fixed benchmark (entry-point group ``sanqi.bench``)."""

import sys
from importlib.metadata import entry_points
from typing import Optional


def main(argv: Optional[list[str]] = None) -> int:
    args = list(argv or [])
    games = {ep.name: ep for ep in entry_points(group="sanqi.bench")}
    game = "xiangqi"
    if args and not args[0].startswith("-"):
        game = args.pop(0)
    if game not in games:
        sys.stderr.write(f"sanqi bench: unknown game {game!r}; choose from {sorted(games)}\n")
        return 2
    result: int = games[game].load()(args)
    return result
