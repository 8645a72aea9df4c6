"""The threat search's dependency restriction (gomoku_protocol/threats.py): after its first threat the
attacker plays only threes related to its last gains (and any four); inside a VCF only fours related
to one of the last two. A win it reports is still forced: every defence is searched."""

from gomoku_protocol.fit import board_of
from gomoku_protocol.position import Position
from gomoku_protocol.threats import ThreatSearch
from tools.gomoku_tss_nodes import replays  # tests/tools: the check a reported line is forced

# 20x20, game a11 of the study (docs/results/gomoku.md, 2026-11-27), after our o10 (move 24): Pela
# (black) to move has a 15-ply VCT. Unrestricted, the search needed 18,947 nodes (depth 12).
A11 = "k11l12j12l10k13k10l9m10n10l14l11i10j10j11k14k15l13m13n12n9l8o11m9o10"
# 20x20, game b13 after our m8 and a19 after our l13: Pela has no VCT in the model, which the unrestricted
# search proved in 24 and 120 nodes.
NO_VCT = ["k11k10k13l10m10l9l8m8",
          ("k11j11m11j12i13k13l14j10j9k9i11i10k12k10h10m10l10j14j13i14g14h16i15h13l9l8j16h15h14k17j15i17k19f14"
           "g15g16f17e17d16f12h17f11f13e16l12l13")]
BUDGET = 5000
# 15x15: black's k8 makes two fours at once (h8 i8 j8, closed at g8; l9 m10 n11, closed at o12); with
# white on k8 black has no VCT (the unrestricted search proved it in 16 nodes).
KILLED = "h8g8i8o12j8a1l9a15m10o1n11o15"


def point(b: Position, name: str) -> int:
    return next(i for i in b.points if b.name(i) == name)


def test_related_threats_find_a_deep_win_the_unrestricted_search_misses_in_the_budget() -> None:
    b = board_of(A11, 20)
    ts = ThreatSearch(b)
    line = ts.vct(12, 600_000, BUDGET)
    assert line is not None and len(line) >= 13
    assert replays(b, line)
    free = ThreatSearch(b)
    free.vcf_chain = free.vct_chain = 0  # no restriction: every threat everywhere
    assert free.vct(12, 600_000, BUDGET) is None and free.stopped


def test_no_vct_is_reported_where_there_is_none() -> None:
    for pos in NO_VCT:
        b = board_of(pos, 20)
        ts = ThreatSearch(b)
        assert ts.vct(12, 600_000, 200_000) is None and not ts.stopped


def test_a_four_unrelated_to_the_gains_is_not_tried_and_that_failure_hides_nothing() -> None:
    b = board_of(KILLED)
    ts = ThreatSearch(b)
    far = point(b, "c3")
    ts._begin(60_000, 0)
    assert ts._vcf(10, (far,)) is None  # under a restriction to c3's lines: nothing
    line = ts.vcf(10, 60_000)  # the same search from the root: the failure was remembered apart
    assert line is not None and b.name(line[0]) == "k8" and replays(b, line)
    assert ts.vct(4, 60_000) is not None


def test_a_win_remembered_is_not_reported_after_the_defence_that_kills_it() -> None:
    b = board_of(KILLED)
    ts = ThreatSearch(b)
    assert ts.vct(4, 60_000) is not None  # remembered as won
    b.make_null()
    assert b.make(point(b, "k8"))  # white takes the point
    assert ts.vcf(10, 60_000) is None
    assert ts.vct(6, 60_000) is None
    b.unmake()
    b.unmake_null()


def test_a_vct_that_needs_fours_unrelated_to_the_last_three_is_found() -> None:
    # tests/test_gomoku_threat_checks.py's game 2 after i7: Pela's win plays the fours j9 and i11,
    # on no common line, and the three h10 between them.
    from test_gomoku_threat_checks import GAME2
    b = board_of(GAME2, 20)
    assert b.make(point(b, "i7"))
    ts = ThreatSearch(b)
    line = ts.vct(6, 600_000, BUDGET)
    assert line is not None and replays(b, line)
