"""The Junqi view in a real browser: headless Chromium (Debian's ``chromium``, or $JUNQI_CHROMIUM) driven by
Playwright without Playwright's own browser downloads. Skipped, saying why, where either is missing."""

import itertools
import os
import shutil
import threading

import pytest

from junqi_view_games import GatedGame, pieces_after, played, steps, write_record
from junqi_protocol.record import read_games, replay
from junqi_protocol.board import Board
from junqi_protocol.view import Watch, record_games, seat_guesses, write_html

sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed (pip install -r tests/requirements.txt)")


def chromium_path() -> str:
    for name in (os.environ.get("JUNQI_CHROMIUM", ""), "chromium", "chromium-browser"):
        found = shutil.which(name) if name else None
        if found:
            return found
    pytest.skip("no Chromium to drive (apt-get install chromium, or set JUNQI_CHROMIUM to a Chromium binary)")


@pytest.fixture(scope="module")
def browser():
    path = chromium_path()
    with sync_api.sync_playwright() as p:
        args = ["--no-sandbox"] if hasattr(os, "geteuid") and os.geteuid() == 0 else []  # root in a container
        b = p.chromium.launch(executable_path=path, args=args)
        yield b
        b.close()


@pytest.fixture()
def page(browser):
    context = browser.new_context(viewport={"width": 1400, "height": 900})
    pg = context.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda exc: errors.append(str(exc)))
    yield pg
    context.close()
    assert errors == [], "the page's script failed"


def on_board(pg) -> set[tuple[str, str, str]]:
    return {tuple(x) for x in pg.eval_on_selector_all(
        "#pieces g.piece", "gs => gs.map(g => [g.dataset.point, g.dataset.seat, g.dataset.kind])")}


def step_to(pg, k: int) -> None:
    """Step with the page's own controls: Home, then PageDown by tens and → by ones."""
    pg.keyboard.press("Home")
    for _ in range(k // 10):
        pg.keyboard.press("PageDown")
    for _ in range(k % 10):
        pg.keyboard.press("ArrowRight")
    assert pg.evaluate("document.body.dataset.step") == str(k)


@pytest.mark.parametrize("variant,seed", [("4p", 3), ("2p", 5)])
def test_replay_page_shows_the_pieces_of_the_record_at_chosen_steps(page, tmp_path, variant, seed):
    lines = played(variant, seed)
    write_record(tmp_path / "game.jsonl", lines)
    write_html(str(tmp_path / "game.jsonl"), str(tmp_path / "game.html"))
    page.goto((tmp_path / "game.html").as_uri())
    last = len(steps(lines))
    for k in (0, 1, 2, 17, last // 2, last - 1, last):
        step_to(page, k)
        assert on_board(page) == pieces_after(lines, k), f"step {k}"
        if k:
            assert page.eval_on_selector_all("#now .ev", "es => es.map(e => e.textContent)") == steps(lines)[k - 1]["events"]
    assert "Result: " in page.inner_text("#result") and lines[-1]["reason"] in page.inner_text("#result")
    page.click("#prev")
    assert page.evaluate("document.body.dataset.step") == str(last - 1)
    page.click("#first")
    assert on_board(page) == pieces_after(lines, 0)
    page.click("#next")
    assert on_board(page) == pieces_after(lines, 1)
    page.click("#last")
    assert on_board(page) == pieces_after(lines, last)
    # The board as players know it: every camp a circle, every headquarters a rounded box, every
    # railway segment a thick line (the 4p corner arcs curved), the other points stations or road points.
    board = Board(variant)
    drawn = page.evaluate("""(() => { const n = (s) => document.querySelectorAll(s).length;
        return [n("#points .pt-c"), n("#points .pt-h"), n("#points .pt-s"), n("#lines path.rail"),
                n("#lines path.rail[d*=Q]"), n("#lines line.road")]; })()""")
    rails = {(min(a, b), max(a, b)) for line in board.lines for a, b in itertools.pairwise(line)}
    roads = {(a, b) for a in range(board.size) for b in board.steps[a] if a < b} - rails
    stations = sum(1 for p in range(board.size) if board.station[p] and not board.camp[p] and not board.hq[p])
    assert drawn[:4] == [sum(board.camp), sum(board.hq), stations, len(rails)]
    assert (drawn[4] > 0) == (variant == "4p") and drawn[5] == len(roads)


def test_a_seat_sees_its_own_pieces_and_backs_for_the_rest(page, tmp_path):
    lines = played("4p", 3, rules="info=allies")
    write_record(tmp_path / "game.jsonl", lines)
    write_html(str(tmp_path / "game.jsonl"), str(tmp_path / "game.html"))
    page.goto((tmp_path / "game.html").as_uri())
    step_to(page, 12)
    truth = pieces_after(lines, 12)
    page.keyboard.press("e")  # E's view: E and its partner W shown, S and N as backs
    assert on_board(page) == {(pt, s, k if s in "EW" else "?") for pt, s, k in truth}
    # Each back carries what E could infer about it: the likeliest kind, as computed for the page.
    board = Board("4p")
    guesses = record_games([lines])[0]["guesses"]["E"][12]
    backs = page.eval_on_selector_all("#pieces g.back", "gs => gs.map(g => [g.dataset.point, g.dataset.guess])")
    assert sorted(backs) == sorted([board.names[p], guesses[2 * p]] for p in range(board.size) if guesses[2 * p] != ".")
    page.uncheck("#guess")
    assert page.eval_on_selector_all("#pieces g.back", "gs => gs.filter(g => g.dataset.guess).length") == 0
    page.click("#views button[data-view=open]")
    assert on_board(page) == truth


def test_the_slider_and_the_log_step_too(page, tmp_path):
    lines = played("2p", 8)
    write_record(tmp_path / "game.jsonl", lines)
    write_html(str(tmp_path / "game.jsonl"), str(tmp_path / "game.html"))
    page.goto((tmp_path / "game.html").as_uri())
    page.eval_on_selector("#slider", "s => { s.value = 9; s.dispatchEvent(new Event('input')); }")
    assert on_board(page) == pieces_after(lines, 9)
    page.click("#log li[data-f='4']")
    assert on_board(page) == pieces_after(lines, 4)


def test_live_page_sees_moves_arrive_and_closing_it_leaves_the_game_whole(browser, tmp_path):
    watch = Watch("127.0.0.1", 0)
    try:
        game = GatedGame(tmp_path / "live.jsonl", [watch.push])
        context = browser.new_context()
        pg = context.new_page()
        pg.goto(watch.url)
        pg.wait_for_function("document.body.dataset.step === '0'")
        game.allow(2)
        pg.wait_for_function("document.body.dataset.step === '2'")
        game.allow(3)
        pg.wait_for_function("document.body.dataset.step === '5'")
        assert pg.inner_text("#live") == "live"
        with open(tmp_path / "live.jsonl", encoding="utf-8") as fh:
            so_far = read_games(fh.readlines())[0]
        assert on_board(pg) == pieces_after(so_far, 5)
        # A seat's view, live: its backs labelled with what it could infer, as the replay page does.
        pg.keyboard.press("s")
        board, guesses = Board("4p"), seat_guesses(so_far)["S"][5]
        backs = pg.eval_on_selector_all("#pieces g.back", "gs => gs.map(g => [g.dataset.point, g.dataset.guess])")
        assert sorted(backs) == sorted([board.names[p], guesses[2 * p]] for p in range(board.size) if guesses[2 * p] != ".")
        pg.keyboard.press("o")
        context.close()  # the browser leaves in mid-game
        lines = game.finish()
        assert lines[-1]["type"] == "end" and replay(lines)[1] == []
        # Another browser, after the game: the whole game, the result, and word that the referee is done.
        context = browser.new_context()
        pg = context.new_page()
        pg.goto(watch.url)
        last = len(steps(lines))
        pg.wait_for_function(f"document.body.dataset.step === '{last}'")
        assert on_board(pg) == pieces_after(lines, last)
        watch.close()
        pg.wait_for_function("document.getElementById('live').textContent === 'the referee has finished'")
        context.close()
    finally:
        watch.close()


class HumanGame:
    """A two-player game refereed in a thread: S is a person's seat (``human``), N the built-in random player."""

    def __init__(self, tmp_path, watch: Watch, key: str) -> None:
        from junqi_protocol.seats import BuiltinSeat
        from junqi_protocol.record import Recorder
        from junqi_protocol.runner import Referee
        from junqi_protocol.view_human import HumanSeat

        self.path = tmp_path / "human.jsonl"
        self.out = open(self.path, "w", encoding="utf-8")  # noqa: SIM115 - closed when the game is over
        self.referee = Referee("2p", "", Recorder(self.out, [watch.push]), 600_000, 120_000)
        watch.keys.add(key)
        self.players = [HumanSeat(watch, key, 1), BuiltinSeat("random", 5)]
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self) -> None:
        try:
            self.referee.play(1, self.players)
        finally:
            self.out.close()

    def record(self) -> list[dict]:
        with open(self.path, encoding="utf-8") as fh:
            games = read_games(fh.readlines())
        return games[0] if games else []


def test_a_person_plays_a_seat_legal_moves_only_and_a_lineup_the_rules_accept(page, tmp_path):
    watch = Watch("127.0.0.1", 0)
    try:
        game = HumanGame(tmp_path, watch, "key-of-S")
        page.goto(watch.url + "?play=key-of-S")
        page.wait_for_selector("#setupctl:not([hidden])")
        # A mine swapped into the front row: the rules refuse the lineup, and the seat still waits.
        mine = page.get_attribute("#pieces g[data-kind=j]", "data-point")
        front = "G0" if mine != "G0" else "G1"
        page.click(f"#pieces g[data-point={mine}]")
        page.click(f"#pieces g[data-point={front}]")
        page.click("#ready")
        page.wait_for_function("document.getElementById('refusal').textContent !== ''")
        assert page.inner_text("#refusal") == "lineup refused: mine (j) in row 0, the front row: mines go in the last two rows"
        page.click(f"#pieces g[data-point={mine}]")
        page.click(f"#pieces g[data-point={front}]")
        # A lineup typed by hand is drawn as typed and judged by the rules: the flag out of its headquarters.
        legal = page.input_value("#lineuptext")
        points = page.evaluate("junqiView.setup.points.map(p => junqiView.setup.board.names[p])")
        assert on_board(page) == {(points[k], "S", legal[k]) for k in range(25)}
        i = legal.index("l")
        page.fill("#lineuptext", "l" + legal[1:i] + legal[0] + legal[i + 1:])
        page.click("#uselineup")
        assert page.get_attribute(f"#pieces g[data-point={points[0]}]", "data-kind") == "l"
        page.click("#ready")
        page.wait_for_function("document.getElementById('refusal').textContent.includes('flag')")
        assert page.inner_text("#refusal") == f"lineup refused: flag (l) in {points[0]}: the flag goes in a headquarters (L1, L3)"
        page.fill("#lineuptext", "abc")
        page.click("#uselineup")
        assert "a lineup is 25 letters a-l" in page.inner_text("#refusal")
        page.fill("#lineuptext", legal.upper())
        page.press("#lineuptext", "Enter")
        assert on_board(page) == {(points[k], "S", legal[k]) for k in range(25)} and page.inner_text("#refusal") == ""
        page.click("#ready")
        page.wait_for_selector("#movectl:not([hidden])")  # S moves first
        assert [o["lineup"] for o in game.record() if o["type"] == "lineup" and o["seat"] == "S"] == [legal]
        # The person sees its own pieces and N's as backs.
        seats = {(s, k == "?") for _, s, k in on_board(page)}
        assert seats == {("S", False), ("N", True)}
        # Its inference is there when asked for (the check box), not shown unasked.
        assert not page.is_checked("#guess") and page.eval_on_selector_all("#pieces g[data-guess]", "gs => gs.length") == 0
        page.check("#guess")
        assert page.eval_on_selector_all("#pieces g.back[data-guess]", "gs => gs.length") == 25
        assert page.is_hidden("#views")
        # An illegal move is refused with the rule's reason, and nothing is played.
        page.fill("#movetext", "G0-A0")
        page.click("#sendmove")
        page.wait_for_function("document.getElementById('refusal').textContent !== ''")
        assert page.inner_text("#refusal").startswith("refused: ")
        assert steps(game.record()) == []
        # A legal move, by clicking the piece and then where it goes.
        frm, to = page.evaluate("(() => { const b = junqiView.games[0].board, m = junqiView.ask.moves[0];"
                                " return [b.names[m[0]], b.names[m[1]]]; })()")
        page.click(f"#pieces g[data-point={frm}]")
        page.click(f"#targets circle[data-point={to}]")
        page.wait_for_function("document.body.dataset.step === '2'")  # S's move and N's reply
        page.wait_for_selector("#movectl:not([hidden])")
        page.click("#passbtn")  # two players: the first pass loses
        game.thread.join(60)
        assert not game.thread.is_alive()
        lines = game.record()
        assert replay(lines)[1] == []
        assert [(s["seat"], s["action"], s.get("move")) for s in steps(lines)][::2] == [("S", "move", f"{frm}-{to}"), ("S", "pass", None)]
        assert lines[-1]["result"] == "N"
    finally:
        watch.close()
