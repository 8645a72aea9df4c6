"""Following a recorded game from one seat's point of view, as that seat's player saw it.

The belief test and ``sanqi bench junqi`` both walk records this way: at every step they compare
what a seat believed about each hidden piece with the kind the record says it was.
"""

import random
from typing import Any, Iterator, Optional

from junqi_protocol.beliefs import Beliefs, Deployments
from junqi_protocol.board import Board
from junqi_protocol.game import Rules, parse_event
from junqi_protocol.player import Player
from junqi_protocol.rules import parse_lineup


def true_kinds(board: Board, lines: list[dict[str, Any]]) -> list[int]:
    """The kind that started on every point (-1 where nothing did)."""
    kinds = [-1] * board.size
    for obj in lines:
        if obj["type"] == "lineup" and "lineup" in obj:
            seat = board.letters.index(obj["seat"])
            for slot, k in enumerate(parse_lineup(obj["lineup"])):
                if k >= 0:
                    kinds[seat * 30 + slot] = k
    return kinds


def follow(lines: list[dict[str, Any]], seat: int, joint: bool = True, samples: int = 0, seed: int = 0,
           prior: Optional[list[list[float]]] = None) -> Iterator[tuple[Player, Deployments]]:
    """The player of ``seat`` (and its sampled deployments) after the start and after every step;
    ``prior`` replaces the beliefs' deployment prior."""
    head = lines[0]
    board = Board(head["variant"])
    rules = Rules(head["variant"], head["rules"])
    lineups = {obj["seat"]: obj["lineup"] for obj in lines if obj["type"] == "lineup" and "lineup" in obj}
    player = Player("events", seed)
    player.new_game(board.variant, seat, rules)
    player.lineup(lineups[board.letters[seat]])
    visible: dict[int, str] = {}
    for s in range(board.seats):
        shown = rules.info == "open" or (rules.info == "allies" and board.team(s) == board.team(seat))
        if s != seat and shown and board.letters[s] in lineups:
            visible[s] = lineups[board.letters[s]]
    player.begin(visible)
    player.beliefs = Beliefs(board, seat, joint)
    if prior is not None:
        player.beliefs.prior = prior
    player.beliefs.start(player.pos)
    deployments = Deployments(player.beliefs, random.Random(seed), samples)
    for obj in lines:
        if obj["type"] not in ("start", "step"):
            continue
        for text in obj["events"]:
            if not text.startswith("gameover"):
                player.observe(parse_event(board, text))
        player.beliefs.settle(player.pos)
        if samples:
            deployments.refresh(player.pos)
        yield player, deployments
