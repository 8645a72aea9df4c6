"""The gomoku match adapter's handshake with a brain process."""

import sys

from gomoku_protocol.seats import GomocupSeat, MatchSettings

CHATTY_BRAIN = """
import sys
for line in sys.stdin:
    if line.startswith("START"):
        print("MESSAGE Load config from config.toml", flush=True)
        print("DEBUG ready", flush=True)
        print("OK", flush=True)
    elif line.startswith("END"):
        break
"""


def test_messages_before_starts_ok_are_skipped(tmp_path) -> None:
    (tmp_path / "brain.py").write_text(CHATTY_BRAIN)
    seat = GomocupSeat(f"{sys.executable} {tmp_path / 'brain.py'}", (), None)
    try:
        seat.open(MatchSettings(turn_ms=1000, match_ms=0, memory=0, rule=0, size=15))
    finally:
        seat.close()
