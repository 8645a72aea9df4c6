"""Screenshots of a person's page in the Junqi live view, for docs/junqi.md (issue 44).

    PYTHONPATH=. python tests/tools/junqi_view_screenshots.py [OUTDIR]   # default: docs

Plays a four-player game in this process (S a ``human`` seat driven by the browser, the others
built-in players), with headless Chromium (Debian's ``chromium``) through Playwright, and writes
``junqi-view-lineup.png`` (the lineup being arranged, one piece picked for a swap) and
``junqi-view-human.png`` (the person's turn after some moves: a piece chosen and where it can go,
the seat's inference ticked). The replay screenshots are of pages written by ``--print --html``.
"""

import os
import pathlib
import random
import shutil
import sys
import threading

from playwright.sync_api import sync_playwright

from junqi_protocol.seats import BuiltinSeat
from junqi_protocol.record import Recorder
from junqi_protocol.runner import Referee
from junqi_protocol.view import Watch
from junqi_protocol.view_human import HumanSeat

MOVES = 14  # the person's moves before the second screenshot


def main() -> None:
    out = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else "docs")
    watch = Watch("127.0.0.1", 0)
    referee = Referee("4p", "", Recorder(None, [watch.push]), 3_600_000, 600_000)
    watch.keys.add("k")
    players = [HumanSeat(watch, "k", 2), BuiltinSeat("events", 21), BuiltinSeat("random", 22), BuiltinSeat("events", 23)]
    threading.Thread(target=referee.play, args=(1, players), daemon=True).start()
    rng = random.Random(5)
    with sync_playwright() as p:
        args = ["--no-sandbox"] if os.geteuid() == 0 else []
        browser = p.chromium.launch(executable_path=shutil.which("chromium") or "chromium", args=args)
        page = browser.new_page(viewport={"width": 1330, "height": 960})
        page.goto(watch.url + "?play=k")
        page.wait_for_selector("#setupctl:not([hidden])")
        page.click("#another")
        page.click("#pieces g[data-kind=b]")  # picked for a swap
        page.screenshot(path=str(out / "junqi-view-lineup.png"))
        page.click("#pieces g[data-kind=b]")
        page.click("#ready")
        asked = 0
        for n in range(MOVES + 1):
            page.wait_for_function(f"junqiView.ask && junqiView.ask.id > {asked}")
            asked = page.evaluate("junqiView.ask.id")
            moves = page.evaluate("junqiView.ask.moves.map(m => m.map(p => junqiView.games[0].board.names[p]))")
            forward = [m for m in moves if m[1][0] == "C" or m[1][0] != "S"] or moves
            frm, to = rng.choice(forward)
            page.click(f"#pieces g[data-point={frm}]")
            if n == MOVES:
                page.check("#guess")
                page.screenshot(path=str(out / "junqi-view-human.png"))
                break
            page.click(f"#targets circle[data-point={to}]")
        browser.close()
    watch.close()


if __name__ == "__main__":
    main()
