"""Install hook: compile the hot modules with mypyc, or install pure Python.

Everything declarative lives in setup.cfg; this file only adds the C extensions. The compiled and
the pure-Python package come from the same typed source, and ``sanqi --version`` says which one is
installed.

* ``SANQI_PURE=1 pip install .`` installs pure Python and needs no compiler.
* Otherwise the hot modules (:data:`HOT_NAMES`) that exist are compiled as one mypyc group. A module
  mypyc rejects is left out (with anything that must be compiled together with it) and the rest is
  tried again; a C compiler failure installs pure Python. Either way the install succeeds and the
  reason is written to stderr (shown by ``pip install -v .``).
* With GCC the group is built guided by a profile: built once counting what the benchmarks of
  :data:`TRAINING` run, then again laid out by those counts (``SANQI_PGO=0`` skips the first build).
  Any failure there falls back to one build without a profile.
"""

import ast
import contextlib
import io
import os
import re
import shutil
import subprocess
import sys
from typing import Any

from setuptools import setup
from setuptools.command.build_ext import build_ext

HERE = os.path.dirname(os.path.abspath(__file__))

# The search's inner loop, by module name in every package: the shared search and TT, each game's
# position, move generation, evaluation, pattern tables and rules (junqi's board, rules and game
# state). Chosen by name so a game module written later is compiled too; protocol, I/O and CLI
# modules stay interpreted (they are not hot, and interpreted they keep tracebacks readable).
PACKAGES = ("engine_core", "ucci_engine", "gomoku_protocol", "junqi_protocol")
HOT_NAMES = ("board", "evaluate", "game", "movegen", "paths", "patterns", "position", "rules", "search", "tables", "threats",
             "tt")

# With a Unix compiler (GCC, Clang): export only the module inits, so calls between the library's own
# functions are direct (no PLT) and may be inlined, and call libpython through the GOT.
UNIX_FLAGS = ["-fvisibility=hidden", "-fno-semantic-interposition", "-fno-plt"]
# What the profile-guided build counts: each game's fixed-depth benchmark (module, arguments of its run()).
# Junqi's benchmark plays whole games for seconds; its search is the shared one these train.
TRAINING = [("ucci_engine.bench", ["--depth", "7"]), ("gomoku_protocol.bench", ["--depth", "8", "--repeat", "1"])]
TRAINING_SECONDS = 600

_ERROR = re.compile(r"^([\w./\\-]+\.py):\d+: error:")


def say(message: str) -> None:
    sys.stderr.write(f"sanqi setup: {message}\n")


def module_name(path: str) -> str:
    return path[: -len(".py")].replace("/", ".")


def subclassed_modules(path: str) -> set[str]:
    """Modules whose classes a class in ``path`` derives from (as far as the imports tell)."""
    with open(path, encoding="utf-8") as f:
        tree = ast.parse(f.read(), path)
    names: dict[str, str] = {}  # local name -> what it was imported as (a module or module.attribute)
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and not node.level:
            for alias in node.names:
                names[alias.asname or alias.name] = f"{node.module}.{alias.name}"
        elif isinstance(node, ast.Import):
            for alias in node.names:
                names[alias.asname or alias.name] = alias.name
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef):
            for base in node.bases:
                if isinstance(base, ast.Name) and base.id in names:
                    found.add(names[base.id].rpartition(".")[0])  # module of the imported class
                elif isinstance(base, ast.Attribute) and isinstance(base.value, ast.Name) and base.value.id in names:
                    found.add(names[base.value.id])  # module.Class
    return found


def safe_to_compile(paths: list[str]) -> list[str]:
    """``paths`` less what cannot be compiled apart from the rest of the class hierarchy.

    mypyc lets neither side of an inheritance cross the compiled/interpreted border: SearchPosition
    (engine_core/game.py) is compiled only while every game position deriving from it is, and a
    position is compiled only while SearchPosition is. Each module dropped can expose another, so
    this repeats until nothing changes.
    """
    every = sorted(os.path.join(p, f) for p in PACKAGES if os.path.isdir(p) for f in os.listdir(p) if f.endswith(".py"))
    ours = {module_name(p) for p in every}
    compiled = set(paths)
    changed = True
    while changed:
        changed = False
        for path in every:
            for base in subclassed_modules(path) & ours:
                base_path = base.replace(".", "/") + ".py"
                if path in compiled and base_path not in compiled:
                    drop, why = path, f"it subclasses a class from {base_path}, which is not compiled"
                elif path not in compiled and base_path in compiled:
                    drop, why = base_path, f"{path} (not compiled) subclasses a class from it"
                else:
                    continue
                say(f"{drop} stays pure Python: {why}")
                compiled.discard(drop)
                changed = True
    return [p for p in paths if p in compiled]


def hot_modules() -> list[str]:
    return [f"{p}/{n}.py" for p in PACKAGES for n in HOT_NAMES if os.path.isfile(f"{p}/{n}.py")]


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
    paths = safe_to_compile(hot_modules())
    say(f"mypyc: type-checking {len(paths)} hot modules and writing their C code")
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
            kept = safe_to_compile([p for p in paths if os.path.normpath(p) not in failed])
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
        if self.extensions:
            say("compiling the generated C code (most of the install's time; SANQI_PURE=1 skips it)")
        try:
            super().run()
        except Exception as exc:  # noqa: BLE001 - distutils raises several unrelated types for a failed compile
            say(f"C compilation failed ({exc}): installing pure Python")
            # A module shim without its group library would fail at import: drop what was built.
            for ext in self.extensions:
                built = self.get_ext_fullpath(ext.name)
                if os.path.exists(built):
                    os.remove(built)
            self.extensions = []

    def build_extensions(self) -> None:
        if not self.extensions or self.compiler.compiler_type != "unix":
            super().build_extensions()
            return
        plain = [(ext, list(ext.extra_compile_args), list(ext.extra_link_args)) for ext in self.extensions]

        def build(compile_flags: list[str], link_flags: list[str]) -> None:
            for ext, compile_args, link_args in plain:
                ext.extra_compile_args = compile_args + compile_flags
                ext.extra_link_args = link_args + link_flags
            self.force = True  # each build replaces the last one's objects and libraries
            super(OptionalBuildExt, self).build_extensions()

        if os.environ.get("SANQI_PGO", "").strip() != "0" and is_gcc(self.compiler.compiler_so):
            profile = os.path.abspath(os.path.join(self.build_temp, "profile"))
            shutil.rmtree(profile, ignore_errors=True)
            try:
                say("profile-guided build, 1 of 2: compiling with counters")
                build(UNIX_FLAGS + [f"-fprofile-generate={profile}", "-fprofile-update=single"],
                      [f"-fprofile-generate={profile}"])
                say("profile-guided build: running the benchmarks to count what they run")
                self.train(profile)
                say("profile-guided build, 2 of 2: compiling by the counts")
                build(UNIX_FLAGS + [f"-fprofile-use={profile}", "-fprofile-partial-training", "-fprofile-correction",
                                    "-Wno-missing-profile", "-Wno-coverage-mismatch"], [])
                return
            except Exception as exc:  # noqa: BLE001 - any failure falls back to a build without a profile
                say(f"the profile-guided build failed ({exc}): building without a profile")
        try:
            build(UNIX_FLAGS, [])
        except Exception as exc:  # noqa: BLE001 - any failure falls back to plain flags
            say(f"compiling with {' '.join(UNIX_FLAGS)} failed ({exc}): compiling without them")
            build([], [])

    def train(self, profile: str) -> None:
        """Run :data:`TRAINING` on the build with counters, imported from where it was built."""
        run_training(HERE if self.inplace else os.path.abspath(self.build_lib), os.path.abspath(self.build_temp))
        if not any(name.endswith(".gcda") for _, _, names in os.walk(profile) for name in names):
            raise RuntimeError(f"the benchmarks left no counts in {profile}")


def run_training(built: str, workdir: str) -> None:
    """Run each benchmark of :data:`TRAINING` on the package in folder ``built``; RuntimeError if one fails."""
    # The build ahead of whatever the path held: pip's isolated build environment reaches its own packages
    # (mypy's librt, which the compiled modules import) through PYTHONPATH.
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [built, os.environ.get("PYTHONPATH", "")])))
    for module, args in TRAINING:
        # -P and a working folder of its own: the source tree's pure modules must not shadow the build.
        done = subprocess.run([sys.executable, "-P", "-c", f"import {module}; {module}.run({args!r})"], cwd=workdir,
                              env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                              timeout=TRAINING_SECONDS)
        if done.returncode != 0:
            last = (done.stderr.strip().splitlines() or ["no message"])[-1]
            raise RuntimeError(f"{module} exited with {done.returncode}: {last}")


def is_gcc(command: list[str]) -> bool:
    """Whether the C compiler ``command`` (its argv) is GCC: Clang, even named ``gcc``, reads profiles otherwise."""
    try:
        answer = subprocess.run([command[0], "--version"], capture_output=True, text=True, timeout=60).stdout
    except (OSError, subprocess.SubprocessError, IndexError):
        return False
    return "Free Software Foundation" in answer


def clear_stale_builds() -> None:
    """Remove setuptools' build folder (``build/setuptools``, setup.cfg) left by an earlier install.

    pip builds in the source tree; a shared library left there by an install that compiled a
    different set of modules would be packed again and fail at import (``sanqi__mypyc`` lacking a
    module's init), so every build starts from an empty build folder.
    """
    shutil.rmtree(os.path.join("build", "setuptools"), ignore_errors=True)


# The setup.py commands that build code. pip also runs this file for its build requirements
# (egg_info) and the metadata (dist_info); those need no extensions, so mypyc runs once per install.
BUILDS = ("bdist_wheel", "build", "build_ext", "install", "develop", "editable_wheel")

if __name__ == "__main__":  # pip and setuptools run this file as a script; the tests import it
    os.chdir(HERE)  # mypyc and setuptools want paths relative to the project
    building = any(cmd in sys.argv for cmd in BUILDS)
    if building:
        clear_stale_builds()
    setup(ext_modules=mypyc_extensions() if building else [], cmdclass={"build_ext": OptionalBuildExt})
