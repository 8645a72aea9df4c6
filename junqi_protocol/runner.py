"""Junqi games one after another: :class:`Referee` plays each on the core's loop under
:class:`junqi_protocol.referee.JunqiRules`, writes every record line the moment it happens and ends
each game's record whatever happens. A signal (SIGINT, SIGTERM) is :class:`Aborted` once
:func:`abort_on_signals` is called: the game in progress is recorded as aborted and its seats stopped.
"""

import signal
import sys
import traceback
from typing import Optional

import engine_core.referee as core
from engine_core.referee import Result
from junqi_protocol.board import Board
from junqi_protocol.game import Game, Rules
from junqi_protocol.record import Recorder
from junqi_protocol.referee import JunqiRules, MoveTime
from junqi_protocol.seats import ABORTED, Seat


class Aborted(BaseException):
    """SIGINT or SIGTERM reached the referee: the game in progress is recorded as aborted."""

    def __init__(self, signum: int) -> None:
        super().__init__(signal.Signals(signum).name)
        self.signum = signum


def abort_on_signals() -> None:
    """Turn SIGINT and SIGTERM into :class:`Aborted`; later ones are ignored so the cleanup can finish."""

    def handler(signum: int, frame: object) -> None:
        for s in (signal.SIGINT, signal.SIGTERM):
            signal.signal(s, signal.SIG_IGN)
        raise Aborted(signum)

    for s in (signal.SIGINT, signal.SIGTERM):
        signal.signal(s, handler)


class Referee:
    """Runs games between players on the core's loop under :class:`JunqiRules`; every record line is
    written the moment it happens."""

    def __init__(self, variant: str, rules_text: str, recorder: Recorder, time_ms: int = 600_000,
                 movetime_ms: int = 10_000, lineup_timeout: float = 10.0) -> None:
        self.variant = variant
        self.rules_text = rules_text
        Rules(variant, rules_text)  # reject bad options before any game starts
        self.recorder = recorder
        self.time_ms = time_ms
        self.movetime_ms = movetime_ms
        self.lineup_timeout = lineup_timeout
        self.deals: list[list[str]] = []  # fixed lineups by seat (--lineups), one deal per round of seats
        self.deal_every = 1  # games per deal: one for each engine's turn in every seat

    def dealt(self, number: int, seat: int) -> str:
        """The lineup game ``number`` deals to ``seat``; empty when the engines choose their own."""
        if not self.deals:
            return ""
        return self.deals[(number - 1) // self.deal_every % len(self.deals)][seat]

    def play(self, number: int, players: list[Seat]) -> tuple[Result, Game]:
        """Play one game: its result (the winner a team) and the game, its ``ply`` the plies played; the
        record ends with an ``end`` line whatever happens, even on a signal."""
        game = Game(Board(self.variant), Rules(self.variant, self.rules_text))
        dealt = [self.dealt(number, seat) for seat in range(game.board.seats)]
        rules = JunqiRules(game, number, players, self.recorder, dealt, self.time_ms, self.movetime_ms, self.lineup_timeout)
        try:
            result = core.play(rules, MoveTime(self.time_ms, 0, self.movetime_ms))
            rules.end_line()
            for player in players:
                player.finish(game.winner)
        except Exception:  # noqa: BLE001 - a referee bug must still leave a complete record
            sys.stderr.write(traceback.format_exc())
            if not game.over:
                game.over = True
                game.winner = -1
                game.reason = "referee-error"
            rules.end_line()
            result = rules.result()
        except Aborted as exc:
            rules.end_line(f"aborted by {exc}")
            for player in players:
                player.finish(ABORTED)
            raise
        finally:
            self._stop(players)
        return result, game

    @staticmethod
    def _stop(players: list[Seat]) -> None:
        """Stop every seat; a signal that arrives meanwhile waits until all are stopped."""
        signalled: Optional[Aborted] = None
        for player in players:
            player.quit()
        for player in players:
            for _ in range(2):  # once more if a signal broke the first try (later signals are ignored)
                try:
                    player.close()
                    break
                except Aborted as exc:
                    signalled = exc
                except Exception:  # noqa: BLE001 - closing one engine must not stop the others
                    sys.stderr.write(traceback.format_exc())
                    break
        if signalled is not None:
            raise signalled
