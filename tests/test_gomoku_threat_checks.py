"""Threat checks where the opponent threatens: positions from the 20x20 games lost to Pela
(docs/results/gomoku.md, "Why 20x20 loses"; found with tests/tools/gomoku_turns.py).

A check is node-bound here (``Brain.max_nodes``) with a deadline far away, so what it decides does
not depend on how busy the machine is.
"""

import time

from gomoku_protocol.brain import LOST, SAFE, UNSURE, Brain
from gomoku_protocol.fit import board_of
from gomoku_protocol.position import Position
from gomoku_protocol.threats import ThreatSearch

# Game 2, move 69, we (white) to move: Pela threatens a VCF; i7, played in the game, holds against
# fours but loses to a VCT (1,453 nodes; 571 with the threat search restricted to related threats); j9 holds
# against both; h11 is not decided within the node limit (h9 was, before the restriction: the restricted
# search proves it safe in 1,713 nodes); e16, a four of
# ours, only delays: the threat search stops at the block (6 nodes), which proves nothing.
GAME2 = ("k11l11m13l12l10j12k12k9m14l13m12m15l14n14k15j16m10m11j14k14n10o10n11n12l16m17m9n8o12p13l15n13"
         "n16l18i15i13m7l9h15j15h16g17h17h18h13h14f16f15j17k16p12o11g16i16m8m6k7j10l7j7k6j5j6l8i6h6i14j13")
# Game 5, move 10, we (white) to move: Pela threatens a VCT; m8 (played) and o9 lose to one
# (2,107 and 549 nodes); k9, Rapfi's move, is not refuted within 5,000 nodes.
GAME5 = "k11l11l12k12m10m13m9l10l9"
# AIWine on 20x20 (docs/results/gomoku.md, 29 November; tests/tools/gomoku_losing_move.py): game 26, move 32,
# we (white) to move, AIWine threatens a VCF; n12 (played) and j8 (Rapfi's move) both hold at the checks'
# depth 6, but after n12 AIWine has a VCT of 13 plies (depth 12, about 20,000 nodes fresh) and won with it.
# Game 37, move 11, we (black) to move: q4 (played) holds at depth 6 and loses to a VCT of 21 plies.
AIWINE26 = "p17q18s20q17q16r15p16o16p15p14o14n13r16s16p13q12o12o11m11m10n10l12n9n8k9p19r17s18l9m9l10"
AIWINE37 = "r5q5t7p4s9t3r6p6o7q3"
# Game 28 of the 12/40 run with main at d55cb52 (29 November), move 18, we (white) to move: AIWine's m7 makes
# two open threes, and every block of it, our fours and its four and three points lose to its VCT (m7, played,
# in 46 nodes); Rapfi's r7 makes an open three of ours, as do o4, l3, n3 and s8, which our checks prove safe
# with 50,000 nodes (compiled, d55cb52's threat search).
AIWINE28 = "t5t3s5q6o8p5p8q7o7o6q8r8n6m5n7n5o5"
# Game 9 of that run, move 26, we (white) to move: AIWine's n12 makes two open threes; n12 (played, the only
# defence the game's checks kept) lost to a VCT of depth 12 (90,210 nodes); Rapfi's g10 makes an open three of ours.
AIWINE9 = "k11k10m10j12i13j10j13l11m12k13i11i10h10l9h11i12j11g11l12m9n9g12h12h13n11"
NODES = 5000
FAR = 600.0  # seconds: the checks here end by their node limit, never by the clock


def board(pos: str) -> Position:
    return board_of(pos, 20)


def point(b: Position, name: str) -> int:
    return next(i for i in b.points if b.name(i) == name)


def verify(pos: str, ranked: list[str], strict: bool, nodes: int = NODES, deep_check: int = 0) -> str:
    """The move the final check picks when the search ranked ``ranked`` best first."""
    b = board(pos)
    brain = Brain()
    brain.max_nodes = nodes
    brain.deep_check = deep_check
    brain.root_lines = [point(b, n) for n in ranked]
    m = brain._verify(b, ThreatSearch(b), time.perf_counter() + FAR, strict, {}, lambda text: None)
    return b.name(m) if m >= 0 else "none"


def verdict(pos: str, name: str, nodes: int = NODES) -> int:
    b = board(pos)
    brain = Brain()
    brain.max_nodes = nodes
    return brain._after(b, ThreatSearch(b), point(b, name), True, 60000)


def test_the_positions_are_what_the_tests_say() -> None:
    assert [verdict(GAME2, m) for m in ("i7", "j9", "e16")] == [LOST, SAFE, UNSURE]
    assert [verdict(GAME5, m) for m in ("m8", "o9", "k9")] == [LOST, LOST, UNSURE]


def test_a_move_that_loses_to_a_vct_our_search_finds_is_not_played_when_a_defence_exists() -> None:
    for strict in (True, False):
        assert verify(GAME2, ["i7", "j9"], strict) == "j9"
        assert verify(GAME5, ["m8", "o9", "k9"], strict) == "k9"


def test_under_a_threat_a_cut_short_check_is_no_pass_when_a_move_is_proven_safe() -> None:
    assert verdict(GAME2, "h11") == UNSURE  # not decided within the node limit
    assert verify(GAME2, ["h11", "j9"], True) == "j9"
    assert verify(GAME5, ["k9", "m8"], True) == "k9"  # nothing proven: the undecided move stands


def test_in_a_quiet_position_the_search_best_move_not_found_losing_stands() -> None:
    # Without a threat seen before the search, a check cut short still lets the search's choice
    # stand: in a quiet position a full VCT proof rarely fits, and the search knows better.
    assert verify(GAME2, ["h11", "j9"], False) == "h11"


def test_a_four_that_only_delays_is_not_proven_safe() -> None:
    assert verify(GAME2, ["h11", "e16", "j9"], True) == "j9"


def test_when_every_move_loses_the_search_keeps_its_own() -> None:
    assert verify(GAME5, ["m8", "o9"], True) == "none"


def judge_defences(pos: str, vct: bool, nodes: int, counter_threes: bool = True) -> tuple[Position, list[int], list[int], dict[int, int]]:
    """The board, the defences against the opponent's threat (a VCT one with ``vct``, else a VCF), the
    threat and the verdicts, every search node-bound."""
    b = board(pos)
    brain = Brain()
    brain.max_nodes = nodes
    brain.counter_threes = counter_threes
    ts = ThreatSearch(b)
    threat = brain._opponent_threat(b, ts, vct, 60000)
    assert threat is not None
    verdicts: dict[int, int] = {}
    roots = brain._defences(b, ts, threat, vct, time.perf_counter() + FAR, verdicts, lambda text: None)
    return b, roots, threat, verdicts


def test_against_a_vcf_threat_the_defences_are_checked_against_a_vct_too() -> None:
    # In the game, i7 was proven against fours only and played; it lost to a VCT.
    b, roots, _, verdicts = judge_defences(GAME2, False, 2000)
    assert point(b, "i7") not in roots and point(b, "j9") in roots
    assert verdicts[point(b, "i7")] == LOST


def test_with_a_deep_check_a_defence_safe_at_depth_6_that_loses_deeper_gives_way() -> None:
    assert verdict(AIWINE26, "n12", 20000) == SAFE and verdict(AIWINE37, "q4", 20000) == SAFE  # at the checks' depth
    assert verify(AIWINE26, ["n12", "j8"], True, 20000) == "n12"  # without it
    assert verify(AIWINE26, ["n12", "j8"], True, 20000, 12) == "j8"
    assert verify(AIWINE37, ["q4", "p7", "r4", "r3"], True, 20000, 12) == "p7"
    # In a quiet position the search's move not found losing at depth 6 still stands.
    assert verify(AIWINE26, ["n12", "j8"], False, 20000, 12) == "n12"


def defences(pos: str, counter_threes: bool = True) -> tuple[Position, list[int], set[int], dict[int, int]]:
    """:func:`judge_defences` against a VCT, and the candidates that were all there were before our own threes."""
    b, roots, threat, verdicts = judge_defences(pos, True, NODES, counter_threes)
    s, o = b.side, 3 - b.side
    return b, roots, set(threat) | b.fours(s) | b.fours(o) | b.threes(o), verdicts


def test_against_a_vct_our_own_threes_are_defences_too() -> None:
    # An open three of ours answers a VCT: the opponent's next three lets us make an open four first.
    b, roots, blocks, verdicts = defences(AIWINE28)
    assert all(verdicts[m] == LOST for m in blocks)
    assert roots and set(roots) <= b.threes(b.side) - blocks and point(b, "r7") in roots
    # A counter-three proves nothing (it may only delay), so the block not refuted stays beside them.
    b, roots, blocks, verdicts = defences(AIWINE9)
    assert point(b, "n12") in roots and point(b, "g10") in roots
    # Without them: no defence in game 28 (the search gets every move), n12 alone in game 9.
    assert defences(AIWINE28, False)[1] == []
    b, roots, blocks, verdicts = defences(AIWINE9, False)
    assert roots == [point(b, "n12")]
