"""Install hook: compile the hot modules with mypyc, or install pure Python.

Everything declarative lives in setup.cfg; this file only adds the C extensions. The compiled and
the pure-Python package come from the same typed source, and ``sanqi --version`` says which one is
installed.

* ``SANQI_PURE=1 pip install .`` installs pure Python and needs no compiler.
* Otherwise the modules in :data:`HOT_MODULES` that exist are compiled as one mypyc group. A module
  mypyc rejects is left out (with anything that must be compiled together with it) and the rest is
  tried again; a C compiler failure installs pure Python. Either way the install succeeds and the
  reason is written to stderr (shown by ``pip install -v .``).
"""

import contextlib
import io
import os
import re
import sys
from typing import Any

from setuptools import setup
from setuptools.command.build_ext import build_ext

HERE = os.path.dirname(os.path.abspath(__file__))

# The search's inner loop: the shared search and TT, each game's position, move generation,
# evaluation and pattern tables, and the junqi rules. Listed by path so a game module that does not
# exist yet is simply skipped; protocol, I/O and CLI modules stay interpreted (they are not hot, and
# interpreted they keep start-up cheap and tracebacks readable).
HOT_MODULES = [
    "engine_core/game.py",
    "engine_core/tt.py",
    "engine_core/search.py",
    "ucci_engine/tables.py",
    "ucci_engine/movegen.py",
    "ucci_engine/evaluate.py",
    "ucci_engine/position.py",
    "gomoku_protocol/rules.py",
    "gomoku_protocol/patterns.py",
    "gomoku_protocol/position.py",
    "gomoku_protocol/threats.py",
    "junqi_protocol/board.py",
    "junqi_protocol/rules.py",
]

# A compiled class cannot be subclassed by an interpreted one: SearchPosition (engine_core/game.py)
# is compiled only while every game position that subclasses it is compiled too.
BASE_CLASS_MODULE = "engine_core/game.py"
SUBCLASS_MODULES = ("ucci_engine/position.py", "gomoku_protocol/position.py")

_ERROR = re.compile(r"^([\w./\\-]+\.py):\d+: error:")


def say(message: str) -> None:
    sys.stderr.write(f"sanqi setup: {message}\n")


def closed_under_subclassing(paths: list[str]) -> list[str]:
    if BASE_CLASS_MODULE in paths and any(m not in paths for m in SUBCLASS_MODULES if os.path.isfile(m)):
        return [p for p in paths if p != BASE_CLASS_MODULE]
    return paths


def mypyc_extensions() -> list[Any]:
    """The compiled group, or [] for pure Python (asked for, or nothing left that compiles)."""
    if os.environ.get("SANQI_PURE", "").strip() not in ("", "0"):
        say("SANQI_PURE is set: installing pure Python")
        return []
    try:
        from mypyc.build import mypycify
    except ImportError as exc:
        say(f"mypyc is not available ({exc}): installing pure Python")
        return []
    paths = closed_under_subclassing([m for m in HOT_MODULES if os.path.isfile(m)])
    # Each round drops the modules mypyc reported errors in; the list only shrinks, so this ends.
    while paths:
        out = io.StringIO()
        try:
            with contextlib.redirect_stdout(out):
                # One shared library (separate=False), so calls between the hot modules stay native
                # and can be inlined; a fixed group name lets the PyInstaller spec name it; no C
                # debug info (-g0), which only a C debugger would use, keeps the executables small.
                extensions: list[Any] = mypycify(
                    paths, opt_level="3", debug_level="0", group_name="sanqi", target_dir=os.path.join("build", "mypyc")
                )
            say("compiling with mypyc: " + " ".join(paths))
            return extensions
        except SystemExit:
            report = out.getvalue()
            sys.stderr.write(report)
            failed = {os.path.normpath(m.group(1)) for m in map(_ERROR.match, report.splitlines()) if m}
            kept = closed_under_subclassing([p for p in paths if os.path.normpath(p) not in failed])
            if not failed or kept == paths:
                say("mypyc failed (see above): installing pure Python")
                return []
            say("mypyc rejected " + " ".join(sorted(failed)) + "; these stay pure Python")
            paths = kept
    say("no module left to compile: installing pure Python")
    return []


class OptionalBuildExt(build_ext):
    """Builds the extensions, or leaves the package pure Python when the C compiler fails."""

    def run(self) -> None:
        try:
            super().run()
        except Exception as exc:  # distutils raises several unrelated types for a failed compile
            say(f"C compilation failed ({exc}): installing pure Python")
            # A module shim without its group library would fail at import: drop what was built.
            for ext in self.extensions:
                built = self.get_ext_fullpath(ext.name)
                if os.path.exists(built):
                    os.remove(built)
            self.extensions = []


os.chdir(HERE)  # mypyc and setuptools want paths relative to the project
setup(ext_modules=mypyc_extensions(), cmdclass={"build_ext": OptionalBuildExt})
