#!/usr/bin/env python3
"""Build sanqi's standalone executables with PyInstaller, check that they answer, report figures.

    python3 -m pip install pyinstaller .    # compiled core (SANQI_PURE=1 for pure Python)
    python3 build/build.py                  # sanqi and pbrain-sanqi, one-folder and one-file

The executables are built from the sanqi installed in the interpreter running this script (an
editable install bundles the pure-Python source tree; the script says which kind it bundles).
Everything lands in build/dist/:

    sanqi/sanqi                  one-folder sanqi: ship the whole sanqi/ folder
    pbrain-sanqi/pbrain-sanqi    one-folder pbrain-sanqi
    onefile/sanqi                one-file builds (unpack themselves at every start)
    onefile/pbrain-sanqi
    pbrain-sanqi.zip             the one-file pbrain-sanqi zipped, as Gomocup takes it
    pbrain-sanqi-onedir.zip      the one-folder pbrain-sanqi zipped (pbrain-sanqi at its root)

Each built executable is started and must answer ``ucciok`` (sanqi) and Gomocup's ``OK`` (both);
the median start-up times and the zipped sizes are printed at the end (``--speed`` adds the nodes/s
of the installed package over the pure-Python source tree). The exit status is 1 when a build or a
check fails or a zip is over Gomocup's 8 MB.
"""

import argparse
import os
import queue
import re
import statistics
import subprocess
import sys
import threading
import time
import zipfile
from pathlib import Path
from typing import Optional

BUILD = Path(__file__).resolve().parent
ROOT = BUILD.parent
SPEC = BUILD / "sanqi.spec"
DIST = BUILD / "dist"
WORK = BUILD / "work"
SUFFIX = ".exe" if os.name == "nt" else ""
GOMOCUP_LIMIT = 8 * 1024 * 1024  # bytes: Gomocup's limit on a zipped AI
TARGETS = ("sanqi", "pbrain-sanqi")
LAYOUTS = ("onedir", "onefile")
# (what the executable is sent first, the line that answers it, the line that ends the session)
GREETINGS = {"ucci": ("ucci", "ucciok", "quit"), "gomocup": ("START 15", "OK", "END")}
PROTOCOLS = {"sanqi": ("ucci", "gomocup"), "pbrain-sanqi": ("gomocup",)}


def log(message: str) -> None:
    sys.stderr.write(f"build: {message}\n")
    sys.stderr.flush()


def executable(target: str, layout: str) -> Path:
    if layout == "onedir":
        return DIST / target / (target + SUFFIX)
    return DIST / "onefile" / (target + SUFFIX)


def bundled_kind() -> str:
    """Which sanqi PyInstaller will see: run from build/ without the current folder on sys.path."""
    probe = "import engine_core, engine_core.build_info as b; print(b.build_kind()); print(engine_core.__file__)"
    done = subprocess.run([sys.executable, "-P", "-c", probe], cwd=BUILD, capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(f"build: sanqi is not installed in {sys.executable}: run `python build/install.py` with it first\n"
                 + done.stderr)
    kind, where = done.stdout.split("\n")[:2]
    package = Path(where).resolve()
    # A virtual environment may live inside the checkout (.venv): only the tree outside it is the source.
    if package.is_relative_to(ROOT) and not package.is_relative_to(Path(sys.prefix).resolve()):
        log(f"bundling the source tree ({where}, an editable install?): {kind}")
    else:
        log(f"bundling the installed package ({Path(where).parent.parent}): {kind}")
    return kind


def pyinstaller(target: str, layout: str) -> bool:
    dist = DIST if layout == "onedir" else DIST / "onefile"
    cmd = [sys.executable, "-P", "-m", "PyInstaller", "--noconfirm", "--log-level", "WARN",
           "--distpath", str(dist), "--workpath", str(WORK / f"{target}-{layout}"), str(SPEC),
           "--", "--target", target] + (["--onefile"] if layout == "onefile" else [])
    log(f"{target} ({layout}): " + " ".join(cmd))
    start = time.perf_counter()
    # Run from build/ and with -P so that the source tree never shadows the installed package.
    ok = subprocess.run(cmd, cwd=BUILD).returncode == 0
    log(f"{target} ({layout}): {'built' if ok else 'FAILED'} in {time.perf_counter() - start:.0f} s")
    return ok


def answer_ms(exe: Path, protocol: str, timeout: float = 30.0) -> Optional[float]:
    """Milliseconds from starting ``exe`` to its answer to the protocol's first line; None if none."""
    first, answer, last = GREETINGS[protocol]
    lines: queue.Queue[Optional[str]] = queue.Queue()
    start = time.perf_counter()
    proc = subprocess.Popen([str(exe)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    assert proc.stdin is not None and proc.stdout is not None
    out = proc.stdout

    def pump() -> None:
        for raw in out:
            lines.put(raw.decode("utf-8", "replace").strip())
        lines.put(None)

    threading.Thread(target=pump, daemon=True).start()
    took: Optional[float] = None
    try:
        proc.stdin.write((first + "\n").encode())
        proc.stdin.flush()
        deadline = start + timeout
        while took is None:
            line = lines.get(timeout=max(0.0, deadline - time.perf_counter()))
            if line is None:
                break
            if line == answer:
                took = (time.perf_counter() - start) * 1000
        proc.stdin.write((last + "\n").encode())
        proc.stdin.close()
        proc.wait(10)
    except (queue.Empty, OSError, subprocess.TimeoutExpired):
        proc.kill()
        proc.wait()
    return took


def measure(exe: Path, protocol: str, runs: int) -> Optional[float]:
    """Median start-up time over ``runs`` starts (after one unmeasured start that warms the disk cache)."""
    if answer_ms(exe, protocol) is None:
        return None
    times = [answer_ms(exe, protocol) for _ in range(runs)]
    if any(t is None for t in times):
        return None
    return statistics.median(t for t in times if t is not None)


# What each game's ``sanqi bench`` is asked, and where its output gives the overall nodes per second.
BENCHES = {
    "xiangqi": (["--depth", "5"], re.compile(r"^Nodes/second\s*:\s*(\d+)", re.M)),
    "gomoku": (["--ms", "2000"], re.compile(r"^search: (\d+) nodes/s overall", re.M)),
}


def bench(pure: bool, game: str) -> Optional[int]:
    """Nodes/s of ``sanqi bench GAME``, by the installed package or (``pure``) the source tree."""
    env = dict(os.environ)
    if pure:
        env["PYTHONPATH"] = str(ROOT)  # the source tree before the installed package
    else:
        env.pop("PYTHONPATH", None)
    args, pattern = BENCHES[game]
    done = subprocess.run([sys.executable, "-P", "-m", "engine_core", "bench", game, *args], cwd=BUILD, env=env,
                          capture_output=True, text=True)
    found = pattern.search(done.stdout)
    if done.returncode != 0 or not found:
        log(f"sanqi bench {game} ({'pure' if pure else 'installed'}) gave no nodes/s:\n{done.stdout}{done.stderr}")
        return None
    return int(found.group(1))


def compare_speed(rounds: int) -> list[str]:
    """Compiled (installed) against pure Python (the source tree), both measured here and now.

    The two alternate, and each keeps its best round: on a shared machine the other processes only
    ever slow a round down, so the best round is the one closest to the build's own speed.
    """
    lines = []
    for game in BENCHES:
        compiled: list[int] = []
        pure: list[int] = []
        for _ in range(rounds):
            for side, found in ((False, compiled), (True, pure)):
                nps = bench(side, game)
                if nps is not None:
                    found.append(nps)
        if not compiled or not pure:
            lines.append(f"{game:8} no figure (see above)")
        else:
            best_c, best_p = max(compiled), max(pure)
            lines.append(f"{game:8} installed {best_c:8d} nodes/s, pure Python {best_p:8d} nodes/s: {best_c / best_p:.2f}x"
                         f"  (best of {rounds}; all: {compiled} / {pure})")
    return lines


def zip_pbrain(layout: str) -> Path:
    """The Gomocup submission: the executable at the root of the zip (with its _internal/ folder
    for the one-folder build, which starts faster and runs as one process a manager can suspend)."""
    exe = executable("pbrain-sanqi", layout)
    archive = DIST / ("pbrain-sanqi.zip" if layout == "onefile" else "pbrain-sanqi-onedir.zip")
    with zipfile.ZipFile(archive, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as z:
        for path in sorted([exe] if layout == "onefile" else exe.parent.rglob("*")):
            z.write(path, path.relative_to(exe.parent).as_posix())
    return archive


def main(argv: Optional[list[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--target", choices=TARGETS, action="append", help="build only this (repeatable)")
    parser.add_argument("--layout", choices=LAYOUTS, action="append", help="only this layout (repeatable)")
    parser.add_argument("--runs", type=int, default=5, help="starts per start-up time (median)")
    parser.add_argument("--no-build", action="store_true", help="check and measure the existing builds")
    parser.add_argument("--speed", type=int, nargs="?", const=3, default=0, metavar="ROUNDS",
                        help="also compare the installed package's nodes/s (sanqi bench) with the source "
                        "tree's, best of ROUNDS alternating rounds (default 3)")
    opts = parser.parse_args(argv)
    targets = opts.target or list(TARGETS)
    layouts = opts.layout or list(LAYOUTS)

    kind = bundled_kind()
    failed = False
    report: list[str] = []
    for target in targets:
        for layout in layouts:
            if not opts.no_build and not pyinstaller(target, layout):
                failed = True
                continue
            exe = executable(target, layout)
            if not exe.exists():
                log(f"{exe} is missing")
                failed = True
                continue
            for protocol in PROTOCOLS[target]:
                ms = measure(exe, protocol, opts.runs)
                answer = GREETINGS[protocol][1]
                if ms is None:
                    log(f"{exe.relative_to(ROOT)} did not answer {answer!r}")
                    failed = True
                    report.append(f"{target:13} {layout:8} {answer:7} no answer")
                else:
                    report.append(f"{target:13} {layout:8} {answer:7} {ms:6.0f} ms")
    for layout in layouts:
        if "pbrain-sanqi" in targets and executable("pbrain-sanqi", layout).exists():
            archive = zip_pbrain(layout)
            size = archive.stat().st_size
            over = size > GOMOCUP_LIMIT
            failed = failed or over
            report.append(f"{archive.relative_to(ROOT)}: {size / 1024 / 1024:.2f} MB"
                          + (" -- OVER Gomocup's 8 MB" if over else " (Gomocup's limit: 8 MB)"))
    print(f"sanqi executables ({kind}), median start-up to the first answer over {opts.runs} starts:")
    for line in report:
        print("  " + line)
    if opts.speed:
        print(f"nodes/s, installed ({kind}) over pure Python, in this run:")
        for line in compare_speed(opts.speed):
            print("  " + line)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
