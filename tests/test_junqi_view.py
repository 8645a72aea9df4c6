"""The Junqi view without a browser: what the replay page carries, the command's errors, and the live
server's stream (a browser drives the page itself in test_junqi_view_browser.py)."""

import http.client
import json
import re
import socket
import subprocess

import pytest

from conftest import sanqi_command
from junqi_view_games import GatedGame, pieces_after, played, steps, write_record
from junqi_protocol.board import Board
from junqi_protocol.record import read_games, replay
from junqi_protocol.board import CAMP_SLOTS
from junqi_protocol.rules import check_lineup as check
from junqi_protocol.view import Follower, Watch, page, record_games, watch_address


def shown(game: dict, k: int) -> set[tuple[str, str, str]]:
    """(point, seat, kind) of every piece in the page's frame ``k``."""
    board = Board(game["variant"])
    cells = game["frames"][k]["cells"]
    return {(board.names[p], cells[2 * p], cells[2 * p + 1]) for p in range(board.size) if cells[2 * p] != "."}


@pytest.mark.parametrize("variant,seed", [("4p", 3), ("2p", 5)])
def test_the_page_holds_the_position_after_every_step_as_the_rules_give_it(variant, seed):
    lines = played(variant, seed)
    [game] = record_games([lines])
    assert len(game["frames"]) == len(steps(lines)) + 1  # the start, then one frame per step
    for k in range(len(game["frames"])):
        assert shown(game, k) == pieces_after(lines, k), f"step {k}"
    for k, step in enumerate(steps(lines), 1):
        assert game["frames"][k]["events"] == step["events"]
    assert game["end"]["result"] == lines[-1]["result"]


def test_a_flag_announced_when_its_marshal_dies_is_known_to_every_seat():
    for seed in range(1, 40):
        lines = played("4p", seed)
        marshal = [(k, e) for k, s in enumerate(steps(lines), 1) for e in s["events"] if e.startswith("marshal") and not e.endswith("none")]
        if marshal:
            break
    else:
        pytest.fail("no 司令 died in 39 games")
    k, event = marshal[0]
    [game] = record_games([lines])
    board = Board("4p")
    flag = board.point(event.split()[2])
    assert flag not in game["frames"][k - 1]["known"]
    assert flag in game["frames"][k]["known"]
    assert game["frames"][k]["cells"][2 * flag + 1] == "l"


def test_who_sees_whom_follows_the_information_mode():
    dark = record_games([played("4p", 2, rules="info=dark")])[0]["see"]
    allies = record_games([played("4p", 2, rules="info=allies")])[0]["see"]
    assert dark == {"S": "S", "E": "E", "N": "N", "W": "W"}
    assert allies == {"S": "SN", "E": "EW", "N": "SN", "W": "EW"}


def test_the_page_fetches_nothing_and_the_record_cannot_break_out_of_its_script():
    lines = played("2p", 4)
    lines[0]["players"]["S"] = "</script><script>alert(1)</script>"
    text = page(record_games([lines]), "t")
    assert not re.search(r"<script[^>]*\bsrc=|<link|@import|url\(|XMLHttpRequest|<img|<iframe", text)
    # The one address in it is SVG's namespace; the live page posts a person's moves to where it came from.
    assert set(re.findall(r"\w+://[^\s\"']*", text)) == {"http://www.w3.org/2000/svg"}
    assert text.count("</script>") == 1  # the page's own; the name's is escaped inside the data
    assert "\\u003c/script>\\u003cscript>alert(1)" in text


def run_referee(*args: str, timeout: float = 120) -> subprocess.CompletedProcess:
    return subprocess.run(sanqi_command() + ["referee", *args], capture_output=True, text=True, timeout=timeout)


def test_print_html_writes_one_page_for_every_game_of_the_record(tmp_path):
    record = tmp_path / "games.jsonl"
    first, second = played("4p", 1), played("4p", 2)
    for obj in second:
        obj["game"] = 2
    write_record(record, first + second)
    done = run_referee("--print", str(record), "--html", str(tmp_path / "games.html"))
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith(f"wrote {tmp_path / 'games.html'}: 2 games")
    text = (tmp_path / "games.html").read_text(encoding="utf-8")
    data = json.loads(re.search(r"const DATA = (\{.*?\});\n", text).group(1))
    assert [g["game"] for g in data["games"]] == [1, 2]
    assert [len(g["frames"]) for g in data["games"]] == [len(steps(first)) + 1, len(steps(second)) + 1]


def one_error_line(done: subprocess.CompletedProcess) -> str:
    assert done.returncode != 0
    assert "Traceback" not in done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    return lines[0]


def test_a_record_that_does_not_replay_is_one_error_line_and_no_page(tmp_path):
    lines = played("4p", 6)
    step = steps(lines)[10]
    step["events"] = [step["events"][0].replace("MOVE", "EAT") if "MOVE" in step["events"][0] else step["events"][0].rsplit(" ", 1)[0] + " MOVE"]
    write_record(tmp_path / "bad.jsonl", lines)
    line = one_error_line(run_referee("--print", str(tmp_path / "bad.jsonl"), "--html", str(tmp_path / "bad.html")))
    assert "game 1 does not replay under the rules: step 11" in line and "no page written" in line
    assert not (tmp_path / "bad.html").exists()


def test_an_illegal_move_in_the_record_and_a_file_that_is_no_record_are_one_error_line_each(tmp_path):
    lines = played("2p", 6)
    steps(lines)[3]["move"] = "A0-L4"
    write_record(tmp_path / "illegal.jsonl", lines)
    line = one_error_line(run_referee("--print", str(tmp_path / "illegal.jsonl"), "--html", str(tmp_path / "x.html")))
    assert "step 4" in line and "no page written" in line
    (tmp_path / "text.jsonl").write_text("this is not json\n")
    line = one_error_line(run_referee("--print", str(tmp_path / "text.jsonl"), "--html", str(tmp_path / "x.html")))
    assert "is not a readable game record" in line
    assert not (tmp_path / "x.html").exists()


def test_html_without_a_record_and_a_bad_watch_address_are_usage_errors(tmp_path):
    assert "--html needs --print FILE" in one_error_line(run_referee("--html", str(tmp_path / "x.html"), "random"))
    assert "is not [HOST:]PORT" in one_error_line(run_referee("--watch", "localhost:http", "random"))
    assert watch_address("9000") == ("127.0.0.1", 9000)  # this machine only unless a host is named


def test_a_port_in_use_is_one_line_and_the_game_is_still_played_and_recorded(tmp_path):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = run_referee("--variant", "4p", "--seed", "3", "--record", str(tmp_path / "r.jsonl"),
                           "--watch", f"127.0.0.1:{port}", "random", "events")
    assert done.returncode == 0, done.stderr
    assert done.stderr.strip().splitlines() == [
        (f"sanqi referee: cannot serve the live view on 127.0.0.1:{port}: Address already in use; "
         "the games are played and recorded without it")]
    [game] = read_games((tmp_path / "r.jsonl").read_text().splitlines())
    assert game[-1]["type"] == "end" and replay(game)[1] == []


def read_events(resp: http.client.HTTPResponse, until) -> list[dict]:
    """Server-sent messages from ``resp`` until ``until(messages)`` holds."""
    got: list[dict] = []
    while not until(got):
        line = resp.fp.readline().decode()
        assert line, "the stream ended"
        if line.startswith("data: "):
            got.append(json.loads(line[6:]))
    return got


def frames(messages: list[dict]) -> list[dict]:
    return [m for m in messages if m["kind"] == "frame"]


def test_the_live_stream_sends_each_move_as_it_is_played_and_a_browser_leaving_changes_nothing(tmp_path):
    watch = Watch("127.0.0.1", 0)
    port = watch.server.server_address[1]
    try:
        game = GatedGame(tmp_path / "live.jsonl", [watch.push])
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        conn.request("GET", "/events")
        resp = conn.getresponse()
        assert resp.getheader("Content-Type").startswith("text/event-stream")
        got = read_events(resp, lambda ms: len(frames(ms)) >= 1)  # the start: no move allowed yet
        assert got[0]["kind"] == "game" and got[0]["players"]["S"] == "builtin random"
        assert [f["ply"] for f in frames(got)] == [0]
        game.allow(3)
        got += read_events(resp, lambda ms: len(frames(ms)) >= 3)
        assert [f["ply"] for f in frames(got)] == [0, 1, 2, 3]
        conn.close()  # the browser goes away in mid-game
        lines = game.finish()
        assert lines[-1]["type"] == "end" and replay(lines)[1] == []
        # A browser that comes later is sent the whole game, then told the referee is done.
        later = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        later.request("GET", "/events")
        again = read_events(later.getresponse(), lambda ms: bool(ms) and ms[-1]["kind"] == "end")
        assert len(frames(again)) == len(steps(lines)) + 1
        assert again[-1]["result"] == lines[-1]["result"]
        later.close()
    finally:
        watch.close()


def test_the_live_page_is_served_on_the_address_asked_and_takes_nothing_from_a_page_without_a_seats_key():
    watch = Watch("127.0.0.1", 0)
    try:
        host, port = watch.server.server_address[:2]
        assert host == "127.0.0.1" and watch.url == f"http://127.0.0.1:{port}/"
        conn = http.client.HTTPConnection(host, port, timeout=30)
        conn.request("GET", "/")
        resp = conn.getresponse()
        body = resp.read().decode()
        assert resp.status == 200 and '"live":true' in body
        conn.request("POST", "/move", body="move S00-S10")
        resp = conn.getresponse()
        assert (resp.status, resp.read()) == (400, b"a JSON object is expected\n")
        conn.request("POST", "/move", body=json.dumps({"id": 1, "move": "S00-S10"}))
        assert conn.getresponse().status == 403
        conn.close()
    finally:
        watch.close()


def test_a_line_the_view_cannot_follow_becomes_a_warning_not_an_error():
    watch = Watch("127.0.0.1", 0)
    try:
        watch.push({"type": "game", "game": 1, "variant": "9p"})
        assert json.loads(watch.log[-1][0])["kind"] == "warning"
    finally:
        watch.close()
    assert Follower().feed({"type": "step", "game": 1}) == []  # no game line yet: nothing to show


def test_the_referee_announces_where_to_watch(tmp_path):
    done = run_referee("--variant", "2p", "--seed", "1", "--watch", "127.0.0.1:0", "random", "random")
    assert done.returncode == 0, done.stderr
    assert re.fullmatch(r"sanqi referee: watch the games at http://127\.0\.0\.1:\d+/", done.stderr.strip())


def test_only_the_page_holding_a_seats_key_may_send_it_a_move_and_only_in_its_turn():
    from junqi_protocol.view_human import HumanSeat

    watch = Watch("127.0.0.1", 0)
    try:
        watch.keys.add("the-key")  # as the referee does when it prints the key
        HumanSeat(watch, "the-key")
        port = watch.server.server_address[1]

        def post(path: str, body: dict) -> tuple[int, str]:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
            conn.request("POST", path, body=json.dumps(body), headers={"Content-Type": "application/json"})
            resp = conn.getresponse()
            out = resp.status, resp.read().decode()
            conn.close()
            return out

        assert post("/move", {"play": "a-guess", "id": 1, "move": "G0-F0"})[0] == 403
        assert post("/move", {"play": "the-key", "id": 1, "move": "G0-F0"}) == (409, "it is not your turn")
        assert post("/lineup", {"play": "the-key", "lineup": "abc"}) == (409, "there is no lineup to choose now")
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        conn.request("GET", "/events?play=a-guess")
        assert conn.getresponse().status == 403
        conn.close()
        # A key is good from when the referee prints it, before its seat's player exists: a page that
        # comes at once is served (and told to wait), not refused.
        watch.keys.add("printed")
        assert post("/lineup", {"play": "printed", "lineup": "abc"}) == (409, "the seat is not asking anything yet")
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        conn.request("GET", "/events?play=printed")
        resp = conn.getresponse()
        assert resp.status == 200
        resp.close()
        conn.close()
    finally:
        watch.close()


def test_a_human_seat_needs_the_live_view(tmp_path):
    assert "add --watch" in one_error_line(run_referee("human", "random"))
    # One key, one seat: a person does not play both seats of a team (two engines for four seats).
    line = one_error_line(run_referee("--variant", "4p", "--watch", "127.0.0.1:0", "human", "random"))
    assert "a person plays one seat a game: name 4 engines (e.g. human sanqi sanqi sanqi)" in line
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        line = one_error_line(run_referee("--watch", f"127.0.0.1:{port}", "--record", str(tmp_path / "r.jsonl"), "human", "random"))
    assert "a human seat is played there" in line


def test_a_seats_guesses_cover_the_pieces_hidden_from_it_and_never_call_a_moved_piece_a_mine_or_the_flag():
    lines = played("4p", 9, styles=("events", "events"))
    [game] = record_games([lines])
    board = Board("4p")
    assert set(game["guesses"]) == {"S", "E", "N", "W"}
    guessed_far = 0
    for k, frame in enumerate(game["frames"]):
        guesses = game["guesses"]["S"][k]
        cells = frame["cells"]
        hidden = {p for p in range(board.size) if cells[2 * p] not in ".S"}  # info=dark: all the others'
        assert {p for p in range(board.size) if guesses[2 * p] != "."} == hidden, f"step {k}"
        for p in hidden & set(frame["known"]):  # a flag its 司令's death gave away
            assert guesses[2 * p:2 * p + 2] == "l9", f"step {k}: {board.names[p]}"
        for p in hidden:
            owner = board.letters.index(cells[2 * p])
            if board.seat_of[p] != owner or board.row[p] < 4:  # it moved: no mine, no flag
                assert guesses[2 * p] not in "jl", f"step {k}: {board.names[p]}"
                guessed_far += 1
    assert guessed_far > 0


def test_a_persons_stream_carries_no_kind_its_seat_may_not_see(tmp_path):
    import threading

    from junqi_protocol.seats import BuiltinSeat
    from junqi_protocol.record import Recorder
    from junqi_protocol.runner import Referee
    from junqi_protocol.view_human import HumanSeat

    watch = Watch("127.0.0.1", 0)
    port = watch.server.server_address[1]
    try:
        out = open(tmp_path / "h.jsonl", "w", encoding="utf-8")  # noqa: SIM115 - closed below
        referee = Referee("2p", "", Recorder(out, [watch.push]), 600_000, 120_000)
        watch.keys.add("k")
        players = [HumanSeat(watch, "k"), BuiltinSeat("random", 3)]
        thread = threading.Thread(target=referee.play, args=(1, players), daemon=True)
        thread.start()

        def post(path: str, body: dict) -> int:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
            conn.request("POST", path, body=json.dumps(dict(body, play="k")))
            status = conn.getresponse().status
            conn.close()
            return status

        stream = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        stream.request("GET", "/events?play=k")
        resp = stream.getresponse()
        got = read_events(resp, lambda ms: any(m["kind"] == "setup" for m in ms))
        assert post("/lineup", {"lineup": got[-1]["proposals"][0]}) == 200
        got += read_events(resp, lambda ms: any(m["kind"] == "ask" for m in ms))
        [start] = frames(got)
        cells = start["cells"]
        seats_kinds = {(cells[i], cells[i + 1] == "?") for i in range(0, len(cells), 2) if cells[i] != "."}
        assert seats_kinds == {("S", False), ("N", True)}
        ask = next(m for m in got if m["kind"] == "ask")
        assert post("/move", {"id": ask["id"], "move": "pass"}) == 200
        stream.close()
        thread.join(60)
        assert not thread.is_alive()
        out.close()
        [lines] = read_games((tmp_path / "h.jsonl").read_text().splitlines())
        assert [s["action"] for s in steps(lines)] == ["pass"] and lines[-1]["result"] == "N"
    finally:
        watch.close()


@pytest.mark.parametrize("variant,seed,rules,seat", [("2p", 5, "", "N"), ("4p", 2, "info=allies", "E")])
def test_a_persons_stream_is_masked_by_the_seat_the_referee_gave_it_even_when_it_reconnects_mid_game(variant, seed, rules, seat):
    from junqi_protocol.game import Rules
    from junqi_protocol.view_human import HumanSeat

    lines = played(variant, seed, rules=rules)
    board = Board(variant)
    watch = Watch("127.0.0.1", 0)
    try:
        watch.keys.update(("k", "watcher"))
        person = HumanSeat(watch, "k")
        HumanSeat(watch, "watcher")  # a key the referee seated nowhere: it is shown no kind at all
        person.open(board, board.letters.index(seat), Rules(variant, rules), 600_000, 10_000)  # as the referee does, before the game line
        for obj in lines:
            watch.push(obj)
        port = watch.server.server_address[1]
        everything = len(steps(lines)) + 1

        def stream(key: str, last_id: str = "") -> list[dict]:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
            conn.request("GET", f"/events?play={key}", headers={"Last-Event-ID": last_id} if last_id else {})
            got = read_events(conn.getresponse(), lambda ms: bool(ms) and ms[-1]["kind"] == "end")
            conn.close()
            return frames(got)

        sees = record_games([lines])[0]["see"][seat]
        whole, later = stream("k"), stream("k", "12")  # from the start; and a page whose connection dropped mid-game
        assert len(whole) == everything and 0 < len(later) < everything
        for f in whole + later:
            assert f["you"] == seat and set(f["guesses"]) == {seat}  # its own inference, no one else's
            truth = pieces_after(lines, [g["ply"] for g in whole].index(f["ply"]) if variant == "2p" else 0)
            for p in range(board.size):
                owner, kind = f["cells"][2 * p:2 * p + 2]
                if owner != ".":
                    assert (kind != "?") == (owner in sees or p in f["known"]), (f["ply"], board.names[p])
            if variant == "2p":
                assert {t for t in truth if t[1] in sees} <= shown({"variant": variant, "frames": [f]}, 0)
        for f in stream("watcher"):
            assert {f["cells"][i + 1] for i in range(0, len(f["cells"]), 2) if f["cells"][i] != "."} <= {"?", "l"}
    finally:
        watch.close()


def test_a_masked_frame_keeps_only_what_its_seat_was_shown():
    from junqi_protocol.view import masked

    frame = json.dumps({"kind": "frame", "game": 1, "cells": "SaNbNl", "known": [2], "seat": "N", "action": "out",
                        "note": "illegal move N10-N20: a mine never moves", "guesses": {"S": "..a5..", "N": "b3...."}})
    see = {"S": "S", "N": "N"}
    assert json.loads(masked(frame, "S", see)) == {"kind": "frame", "game": 1, "cells": "SaN?Nl", "known": [2], "seat": "N",
                                                   "action": "out", "guesses": {"S": "..a5.."}, "you": "S"}
    assert json.loads(masked(frame, "N", see))["note"].endswith("a mine never moves")
    assert json.loads(masked(frame, "", see))["cells"] == "S?N?Nl"  # no seat: nothing shown but the announced flag


def test_the_live_frames_carry_what_each_seat_could_infer_as_the_replay_page_does():
    lines = played("4p", 9, styles=("events", "events"))
    watch = Watch("127.0.0.1", 0)
    try:
        for obj in lines:
            watch.push(obj)
        conn = http.client.HTTPConnection("127.0.0.1", watch.server.server_address[1], timeout=60)
        conn.request("GET", "/events")
        live = frames(read_events(conn.getresponse(), lambda ms: bool(ms) and ms[-1]["kind"] == "end"))
        conn.close()
    finally:
        watch.close()
    replayed = record_games([lines])[0]["guesses"]
    assert len(live) == len(replayed["S"])
    for k, f in enumerate(live):
        assert f["guesses"] == {seat: replayed[seat][k] for seat in "SENW"}, f"step {k}"


def test_a_persons_lineup_is_refused_for_each_rule_it_breaks_and_the_seat_waits_on_until_the_game_clock():
    import time

    from junqi_protocol.game import Rules
    from engine_core.ends import Forfeit
    from junqi_protocol.view_human import HumanSeat

    def swap(text: str, i: int, j: int) -> str:
        letters = list(text)
        letters[i], letters[j] = letters[j], letters[i]
        return "".join(letters)

    legal = "abccddeeffggghhhiiijjkklj"
    watch = Watch("127.0.0.1", 0)
    try:
        person, thread, got = _person_choosing_a_lineup(watch, 0, "")
        in_camp = list(legal)
        for slot in CAMP_SLOTS:
            in_camp.insert(slot, ".")
        in_camp[CAMP_SLOTS[0]] = "a"
        # The rules' words, with the person's points named (the rules count slots; a person sees points).
        refusals = {
            swap(legal, 0, legal.index("l")): "flag (l) in G0: the flag goes in a headquarters (L1, L3)",
            swap(legal, 0, legal.index("j")): "mine (j) in row 0, the front row: mines go in the last two rows",
            swap(legal, 0, legal.index("k")): "bomb (k) in row 0: bombs may not start in the front row",
            "b" + legal[1:]: "0 x a (marshal), the army has 1",
            legal[:24]: "a lineup has 25 letters (or 30 with '.' in the camps), got 24",
            "z" + legal[1:]: "'z' is not a piece letter a-l",
            "".join(in_camp): "camp H1 holds 'a': camps start empty",
        }
        for text, rule in refusals.items():
            assert check(text) is not None
            assert person.offer_lineup(text) == f"lineup refused: {rule}", text
            assert person.settling and not got  # refused: still waiting
        assert person.offer_lineup(legal) is None
        thread.join(10)
        assert got == [legal]
        # Nobody at the page: the seat waits as long as its game clock, then gives no lineup.
        late = HumanSeat(watch, "late")
        late.open(Board("2p"), 1, Rules("2p", ""), 300, 10_000)
        t0 = time.monotonic()
        with pytest.raises(Forfeit, match="no lineup from the browser within 300 ms"):
            late.lineup("", 10.0)
        assert time.monotonic() - t0 < 5
    finally:
        watch.close()


def test_a_person_plays_a_four_player_seat_from_the_command_line_and_a_page_that_leaves_costs_only_time(tmp_path):
    """The issue's command line (``--variant 4p --watch … human …``) end to end: the key printed, the
    lineup and a move sent from the seat's stream, then the page gone: one line says so, its turns
    time out on the same movetime as an engine's, it is out at its fifth, and the game is played out
    and recorded whole."""
    proc = subprocess.Popen(sanqi_command() + ["referee", "--variant", "4p", "--seed", "4", "--watch", "127.0.0.1:0",
                                               "--movetime", "0.4", "--time", "60", "--record", str(tmp_path / "h.jsonl"),
                                               "human", "random", "random", "random"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        watching = proc.stderr.readline()
        played_at = proc.stderr.readline()
        port = int(re.fullmatch(r"sanqi referee: watch the games at http://127\.0\.0\.1:(\d+)/\n", watching).group(1))
        key = re.fullmatch(rf"sanqi referee: engine 1 \(human\) is played at http://127\.0\.0\.1:{port}/\?play=(\S+)\n",
                           played_at).group(1)

        def post(path: str, body: dict) -> tuple[int, str]:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
            conn.request("POST", path, body=json.dumps(dict(body, play=key)))
            resp = conn.getresponse()
            out = resp.status, resp.read().decode()
            conn.close()
            return out

        stream = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        stream.request("GET", f"/events?play={key}")
        resp = stream.getresponse()
        got = read_events(resp, lambda ms: any(m["kind"] == "setup" for m in ms))
        lineup = got[-1]["proposals"][0]
        assert got[-1]["seat"] == "S" and post("/lineup", {"lineup": lineup}) == (200, "ok")
        got += read_events(resp, lambda ms: any(m["kind"] == "ask" for m in ms))
        [start] = frames(got)
        assert {start["cells"][i + 1] for i in range(0, len(start["cells"]), 2) if start["cells"][i] in "ENW"} == {"?"}
        ask = next(m for m in got if m["kind"] == "ask")
        move = "-".join(Board("4p").names[p] for p in ask["moves"][0])
        assert post("/move", {"id": ask["id"], "move": move}) == (200, "ok")
        resp.close()  # the person's browser goes away
        stream.close()
        err = proc.communicate(timeout=300)[1]
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    assert proc.returncode == 0, err
    assert err.splitlines() == [(f"sanqi referee: the page playing seat S (human) lost its connection; the seat's turns "
                                 f"time out until http://127.0.0.1:{port}/?play={key} is opened again")]
    [lines] = read_games((tmp_path / "h.jsonl").read_text().splitlines())
    assert replay(lines)[1] == [] and lines[-1]["type"] == "end"
    assert lines[0]["players"]["S"] == "human" and lines[0]["movetime"] == 400
    assert next(o["lineup"] for o in lines if o["type"] == "lineup" and o["seat"] == "S") == lineup
    mine = [s for s in steps(lines) if s["seat"] == "S"]
    assert (mine[0]["action"], mine[0]["move"]) == ("move", move)
    assert [s["action"] for s in mine[1:]] == ["timeout"] * 5 and mine[-1]["events"] == ["pass S timeout", "out S passes"]


def test_the_junqi_package_view_server_and_human_seat_included_imports_only_the_standard_library_and_librt():
    """What a junqi install needs at run time: the standard library and librt, the engine's one dependency
    (its native vectors hold the search's position, as in the other games) with its own dependency
    mypy_extensions (the native integer types' names)."""
    import ast
    import pathlib
    import sys

    import junqi_protocol

    ours = {"junqi_protocol", "engine_core", "ucci_engine", "gomoku_protocol", "librt", "mypy_extensions"}
    folder = pathlib.Path(junqi_protocol.__file__).parent
    names = {"view", "view_page", "view_human", "record", "referee"}
    for path in sorted(folder.glob("*.py")):
        names.discard(path.stem)
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):  # every import, those in functions too
            found = [a.name for a in node.names] if isinstance(node, ast.Import) else \
                [node.module or ""] if isinstance(node, ast.ImportFrom) and node.level == 0 else []
            for name in found:
                top = name.split(".")[0]
                assert top in sys.stdlib_module_names or top in ours, f"{path.name} imports {name}"
    assert not names  # the view's modules were among those read


def _person_choosing_a_lineup(watch, seat, dealt):
    """A person's seat (key "k") of a two-player game, waiting in its own thread for a lineup from
    the page: the player, that thread, and the list the lineup it returns will be put in."""
    import threading
    import time

    from junqi_protocol.game import Rules
    from junqi_protocol.view_human import HumanSeat

    person = HumanSeat(watch, "k", 1)
    person.open(Board("2p"), seat, Rules("2p", ""), 600_000, 10_000)
    got: list[str] = []
    thread = threading.Thread(target=lambda: got.append(person.lineup(dealt, 10.0)), daemon=True)
    thread.start()
    for _ in range(200):
        if person.settling:
            break
        time.sleep(0.05)
    return person, thread, got


def test_a_dealt_lineup_is_the_only_one_a_person_is_offered():
    dealt = "gcfcgibidkkdafehehigjljhj"
    watch = Watch("127.0.0.1", 0)
    try:
        person, thread, got = _person_choosing_a_lineup(watch, 1, dealt)
        setup = json.loads(watch.log[-1][0])
        assert watch.log[-1][1] == "k"  # for the seat's page only
        assert (setup["kind"], setup["seat"], setup["proposals"], setup["dealt"]) == ("setup", "N", [dealt], True)
        assert setup["points"] == [30 + s for s in range(30) if s not in CAMP_SLOTS]
        other = "abccddeeffggghhhiiijjkklj"
        assert person.offer_lineup(other) == "lineup refused: this game deals your lineup (--lineups); it is played as dealt"
        assert person.offer_lineup(dealt) is None
        thread.join(10)
        assert got == [dealt]
    finally:
        watch.close()
