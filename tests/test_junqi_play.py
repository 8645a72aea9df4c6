"""``sanqi play junqi`` (issue 60, item 5): a person in the browser against sanqi in the other seats, the
record kept. The browser test drives Debian's Chromium with Playwright, as ``test_junqi_view_browser.py``
does, and skips, saying why, where either is missing; the others need no browser."""

import os
import queue
import re
import signal
import subprocess
import threading
import time

import pytest

from conftest import sanqi_command
from junqi_protocol.record import read_games, replay

PAGE = re.compile(r"engine \d+ \(human\) is played at (http://\S+\?play=\S+)$")


class Play:
    """``sanqi play`` ARGS as a process: its stderr read line by line as it comes."""

    def __init__(self, args: list[str], cwd, env=None) -> None:
        self.proc = subprocess.Popen(sanqi_command() + ["play", *args], cwd=cwd, env=env, stdin=subprocess.DEVNULL,
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        self.lines: queue.Queue = queue.Queue()
        self.said: list[str] = []
        threading.Thread(target=self._pump, daemon=True).start()

    def _pump(self) -> None:
        for line in self.proc.stderr:
            self.lines.put(line.rstrip("\n"))
        self.lines.put(None)

    def said_line(self, pattern: re.Pattern, timeout: float = 30.0) -> re.Match:
        """The first stderr line that matches ``pattern`` (a generous wait, for a busy machine)."""
        deadline = time.monotonic() + timeout
        while True:
            line = self.lines.get(timeout=max(0.01, deadline - time.monotonic()))
            assert line is not None, f"sanqi play ended before {pattern.pattern!r}: {self.said}"
            self.said.append(line)
            found = pattern.search(line)
            if found:
                return found

    def stop(self) -> int:
        """SIGTERM, as a person's Ctrl-C would: the game in progress is recorded as aborted."""
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
        try:
            return self.proc.wait(30)
        finally:
            if self.proc.poll() is None:
                self.proc.kill()
                self.proc.wait()


def record(path) -> list[dict]:
    with open(path, encoding="utf-8") as fh:
        games = read_games(fh.readlines())
    return games[0] if games else []


@pytest.mark.parametrize("args, says", [
    (["chess"], "sanqi play: error: unknown game 'chess'; choose from junqi"),
    (["--seat", "X"], "sanqi play junqi: error: --seat 'X': the 4p seats are S E N W"),  # junqi by default
    (["junqi", "--variant", "2p", "--seat", "E"], "sanqi play junqi: error: --seat 'E': the 2p seats are S N"),
    (["junqi", "--engine", "human"], "sanqi play junqi: error: --engine human: one person plays; the other seats are engines"),
    (["junqi", "--engine-movetime", "-1"], "sanqi play junqi: error: argument --engine-movetime: '-1' is not a number of at least 0"),
    (["junqi", "--no-browser", "--movetime", "0"], "sanqi referee: error: argument --movetime: '0' is not a number above 0"),
    (["junqi", "--no-browser", "--games", "0"], "sanqi referee: error: argument --games: '0' is not a whole number of at least 1"),
])
def test_mistakes_are_one_line_and_status_2(tmp_path, args, says):
    done = subprocess.run(sanqi_command() + ["play", *args], capture_output=True, text=True, timeout=60, cwd=tmp_path)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.strip().splitlines() == [says]
    assert list(tmp_path.iterdir()) == []  # no record begun


def test_the_persons_page_is_opened_in_the_browser_and_the_record_named(tmp_path):
    """Without --no-browser the person's address goes to Python's webbrowser ($BROWSER here: a script that
    writes down what it was asked to open); the record file is in the folder it was started in."""
    opened = tmp_path / "opened.txt"
    browser = tmp_path / "browser.sh"
    browser.write_text(f"#!/bin/sh\necho \"$1\" > {opened}\n")
    browser.chmod(0o755)
    play = Play(["--engine", "search", "--seed", "1"], tmp_path, dict(os.environ, BROWSER=str(browser)))  # junqi by default
    try:
        named = play.said_line(re.compile(r"the games are recorded in (\S+)$"))[1]
        url = play.said_line(PAGE)[1]
        for _ in range(300):  # the browser is started in a thread of its own
            if opened.exists() and opened.read_text().strip():
                break
            time.sleep(0.1)
        assert opened.read_text().strip() == url
    finally:
        code = play.stop()
    assert code == 128 + signal.SIGTERM
    assert re.fullmatch(re.escape(str(tmp_path)) + r"/junqi-\d{8}-\d{6}\.jsonl", named)
    assert os.path.isfile(named)  # begun; the game itself is in it once the lineups are in (the next test)


def test_a_person_plays_sanqi_in_the_browser_and_the_record_keeps_the_game(tmp_path):
    sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed (pip install -r tests/requirements.txt)")
    from test_junqi_view_browser import chromium_path

    path = chromium_path()
    play = Play(["junqi", "--no-browser", "--engine-movetime", "0.05", "--record", "game.jsonl"], tmp_path)
    try:
        url = play.said_line(PAGE)[1]
        with sync_api.sync_playwright() as p:
            args = ["--no-sandbox"] if hasattr(os, "geteuid") and os.geteuid() == 0 else []  # root in a container
            browser = p.chromium.launch(executable_path=path, args=args)
            page = browser.new_page(viewport={"width": 1400, "height": 900})
            errors: list[str] = []
            page.on("pageerror", lambda exc: errors.append(str(exc)))
            page.goto(url)
            page.wait_for_selector("#setupctl:not([hidden])", timeout=60_000)
            lineup = page.input_value("#lineuptext")
            page.click("#ready")
            page.wait_for_selector("#movectl:not([hidden])", timeout=60_000)  # S, the person, moves first
            frm, to = page.evaluate("(() => { const b = junqiView.games[0].board, m = junqiView.ask.moves[0];"
                                    " return [b.names[m[0]], b.names[m[1]]]; })()")
            page.click(f"#pieces g[data-point={frm}]")
            page.click(f"#targets circle[data-point={to}]")
            # E, N and W (sanqi, three processes) answer, and the person's turn comes round again.
            page.wait_for_function("Number(document.body.dataset.step) >= 4", timeout=60_000)
            page.wait_for_selector("#movectl:not([hidden])", timeout=60_000)
            browser.close()
        assert errors == [], "the page's script failed"
    finally:
        code = play.stop()
    assert code == 128 + signal.SIGTERM
    lines = record(tmp_path / "game.jsonl")
    head = lines[0]
    assert head["variant"] == "4p" and head["rules"].endswith("info=allies") and head["players"]["S"] == "human"
    assert all(head["players"][s].startswith("sanqi ") for s in "ENW")  # their id name
    assert [o["lineup"] for o in lines if o["type"] == "lineup" and o["seat"] == "S"] == [lineup]
    steps = [(o["seat"], o["action"], o.get("move")) for o in lines if o["type"] == "step"]
    assert steps[0] == ("S", "move", f"{frm}-{to}") and [s[:2] for s in steps[1:4]] == [("E", "move"), ("N", "move"), ("W", "move")]
    assert lines[-1]["type"] == "end" and lines[-1]["reason"] == "aborted by SIGTERM"
    assert replay(lines)[1] == []
    assert any("the record is" in line for line in play.said + drain(play))


def drain(play: Play) -> list[str]:
    """What the process wrote on stderr after the lines read so far."""
    out = []
    while True:
        try:
            line = play.lines.get(timeout=5)
        except queue.Empty:
            return out
        if line is None:
            return out
        out.append(line)
