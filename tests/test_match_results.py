"""sanqi match --results and --baseline: a row a game as it finishes, and two runs compared game by game."""

import io
import json

import pytest

import gomoku_protocol.arena as gomoku
import junqi_protocol.arena as junqi
import ucci_engine.arena as xiangqi
from engine_core.arena import LocalPool, run_match, schedule
from engine_core.matchcli import main
from engine_core.results import GameRow, compare, read_rows
from test_match_runner import Scripted  # the first engine wins every game but those it is told it loses

GAMES = {"xiangqi": xiangqi, "gomoku": gomoku, "junqi": junqi}


def played(game: Scripted, path: str, games: int = 6, seed: int = 0) -> dict[int, GameRow]:
    summary = run_match(game, schedule(games, game.openings, seed, shuffle=True), LocalPool(2, False), io.StringIO(),
                        concurrency=2, results=path)
    return summary.rows


def test_each_game_is_one_json_line_with_its_opening_seats_score_and_forfeit(tmp_path):
    path = tmp_path / "run.jsonl"
    rows = played(Scripted(losses=(2,), time_forfeits=(5,)), str(path))
    lines = [json.loads(text) for text in path.read_text().splitlines()]
    assert sorted(line["game"] for line in lines) == [1, 2, 3, 4, 5, 6]
    by_game = {line["game"]: line for line in lines}
    assert (by_game[2]["score"], by_game[2]["forfeit"]) == (0.0, False)
    assert (by_game[5]["score"], by_game[5]["forfeit"]) == (0.0, True)
    assert [(j.number, j.opening, j.swapped) for j in schedule(6, 3, 0, shuffle=True)] == [
        (n, by_game[n]["opening"], by_game[n]["swapped"]) for n in range(1, 7)]
    assert read_rows(str(path)) == rows


def test_the_same_games_compare_as_no_difference_and_a_changed_game_counts_alone(tmp_path):
    before = played(Scripted(losses=(1, 4)), str(tmp_path / "a.jsonl"))
    assert compare(before, before).games == 6 and compare(before, before).mean == 0 == compare(before, before).half_width
    after = played(Scripted(losses=(4,)), str(tmp_path / "b.jsonl"))  # game 1 won now
    found = compare(after, before)
    assert (found.games, found.forfeits, found.unmatched) == (6, 0, 0)
    assert found.mean == pytest.approx(1 / 6)


def test_forfeits_on_either_side_and_games_of_another_schedule_are_left_out(tmp_path):
    before = played(Scripted(time_forfeits=(2,)), str(tmp_path / "a.jsonl"))
    after = played(Scripted(time_forfeits=(3,)), str(tmp_path / "b.jsonl"))
    assert (compare(after, before).games, compare(after, before).forfeits) == (4, 2)
    other = played(Scripted(), str(tmp_path / "c.jsonl"), games=8, seed=9)  # other openings in each game number
    found = compare(other, before)
    mismatched = sum(1 for n in before if (before[n].opening, before[n].swapped) != (other[n].opening, other[n].swapped))
    assert found.unmatched == 2 + mismatched  # games 7 and 8 are not in the baseline


def test_a_second_run_on_the_same_schedule_against_the_first_reads_zero(capsys, tmp_path):
    first, second = tmp_path / "first.jsonl", tmp_path / "second.jsonl"
    argv = ["--game", "junqi", "--engine", "cmd=events", "--engine", "cmd=random", "--games", "6", "--seed", "3"]
    assert main([*argv, "--results", str(first)], GAMES) == 0
    assert main([*argv, "--results", str(second), "--baseline", str(first)], GAMES) == 0
    out = capsys.readouterr().out
    assert "against first.jsonl, game by game: +0.0 ± 0.0 points a hundred games (95 %) over 6 games" in out
    assert read_rows(str(first)) == read_rows(str(second))


@pytest.mark.parametrize("text, error", [
    ('{"game": 1}\n', "first.jsonl:1: not a game's results line"),
    ('{"game": 1, "opening": 0, "swapped": false, "score": 0.7, "forfeit": false}\n', "a score is 0, 0.5 or 1, not 0.7"),
    ("game 1: opening 3, a vs b: 1-0\n", "first.jsonl:1: not a game's results line"),
])
def test_a_bad_baseline_is_one_error_line_before_any_game(capsys, tmp_path, text, error):
    (tmp_path / "first.jsonl").write_text(text)
    with pytest.raises(SystemExit) as ended:
        main(["--game", "junqi", "--engine", "cmd=events", "--engine", "cmd=random", "--games", "2",
              "--baseline", str(tmp_path / "first.jsonl")], GAMES)
    assert ended.value.code == 2
    captured = capsys.readouterr()
    assert error in captured.err and "game 1:" not in captured.out


def test_a_results_file_that_holds_games_is_not_appended_to(capsys, tmp_path):
    path = tmp_path / "run.jsonl"
    path.write_text(GameRow(1, 0, False, 1.0, False).line() + "\n")
    with pytest.raises(SystemExit) as ended:
        main(["--game", "junqi", "--engine", "cmd=events", "--engine", "cmd=random", "--games", "2",
              "--results", str(path)], GAMES)
    assert ended.value.code == 2 and "already holds games" in capsys.readouterr().err
    assert path.read_text().count("\n") == 1


def test_a_results_file_that_cannot_be_written_is_one_error_line_before_any_game(capsys, tmp_path):
    with pytest.raises(SystemExit) as ended:
        main(["--game", "junqi", "--engine", "cmd=events", "--engine", "cmd=random", "--games", "2",
              "--results", str(tmp_path / "no-such-folder" / "run.jsonl")], GAMES)
    captured = capsys.readouterr()
    assert ended.value.code == 2 and "cannot write the results file" in captured.err and "game 1:" not in captured.out
