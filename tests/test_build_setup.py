"""The install hook (setup.py) and what it installed: which modules are compiled, and who says so.

The checks of an installed package look at the one a subprocess imports from outside the source
tree, and at the engine under test (``$SANQI_EXE`` or the installed ``sanqi``); they skip with the
reason when the install is pure Python or was built from other sources.
"""

import importlib.util
import json
import os
import re
import subprocess
import sys
import warnings
from pathlib import Path
from types import ModuleType

import pytest

from conftest import ROOT, sanqi_command

VERSION = re.compile(r"^sanqi \S+ \((compiled|pure Python)\)$")


@pytest.fixture
def setup_py(monkeypatch: pytest.MonkeyPatch) -> ModuleType:
    """setup.py as a module (it only calls setup() when run as a script), from the project folder."""
    monkeypatch.chdir(ROOT)
    spec = importlib.util.spec_from_file_location("sanqi_setup", ROOT / "setup.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_search_core_and_every_games_position_are_hot(setup_py: ModuleType) -> None:
    hot = setup_py.hot_modules()
    for path in ("engine_core/search.py", "engine_core/tt.py", "engine_core/game.py", "ucci_engine/movegen.py",
                 "ucci_engine/position.py", "gomoku_protocol/position.py", "junqi_protocol/rules.py"):
        assert path in hot
    assert not any(p.endswith(("protocol.py", "cli.py", "loop.py")) for p in hot)


def test_the_whole_hot_set_is_compilable_today(setup_py: ModuleType) -> None:
    """No interpreted class derives from a hot module's class, and no hot class from an interpreted one."""
    assert setup_py.safe_to_compile(setup_py.hot_modules()) == setup_py.hot_modules()


def test_a_position_left_interpreted_takes_searchposition_and_its_other_subclasses_with_it(setup_py: ModuleType) -> None:
    hot = [p for p in setup_py.hot_modules() if p != "ucci_engine/position.py"]
    kept = setup_py.safe_to_compile(hot)
    assert "engine_core/game.py" not in kept  # an interpreted Position cannot derive from a compiled class
    assert "gomoku_protocol/position.py" not in kept  # nor a compiled Position from an interpreted one
    assert "engine_core/search.py" in kept and "ucci_engine/movegen.py" in kept


def installed_modules(names: list[str]) -> dict[str, str]:
    """Where each module is imported from by an interpreter that does not see the source tree."""
    code = "import importlib, json, sys; print(json.dumps({m: importlib.import_module(m).__file__ for m in sys.argv[1:]}))"
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    done = subprocess.run([sys.executable, "-P", "-c", code, *names], cwd=ROOT / "tests", env=env,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    found: dict[str, str] = json.loads(done.stdout)
    return found


def test_a_compiled_install_splits_no_class_hierarchy_and_names_what_it_left_out(setup_py: ModuleType) -> None:
    search = installed_modules(["engine_core.search"])["engine_core.search"]
    if search.endswith(".py"):
        pytest.skip("the installed sanqi is pure Python (editable, SANQI_PURE=1 or a failed compile)")
    site = os.path.dirname(os.path.dirname(search))
    hot = setup_py.hot_modules()
    for path in hot:
        copy = os.path.join(site, path)
        if not os.path.exists(copy) or Path(copy).read_bytes() != (ROOT / path).read_bytes():
            pytest.skip(f"the installed sanqi was built from other sources ({path}): `pip install .` again")
    where = installed_modules([p[: -len(".py")].replace("/", ".") for p in hot])
    compiled = [p for p in hot if not where[p[: -len(".py")].replace("/", ".")].endswith(".py")]
    # An interpreted class deriving from a compiled one (or the reverse) fails at import time.
    assert setup_py.safe_to_compile(compiled) == compiled
    left_out = [p for p in hot if p not in compiled]
    if left_out:
        # mypyc rejected these (or what they must be compiled with): the package works, slower.
        warnings.warn(f"hot modules installed as pure Python: {', '.join(left_out)}; "
                      "`pip install -v .` prints mypyc's reasons", stacklevel=1)


def test_version_and_ucci_id_name_the_build_kind() -> None:
    cmd = sanqi_command()
    version = subprocess.run(cmd + ["--version"], capture_output=True, text=True, timeout=30).stdout.strip()
    match = VERSION.match(version)
    assert match, version
    if os.path.basename(cmd[-1]).startswith("pbrain-"):
        return  # pbrain-sanqi speaks Gomocup only
    session = subprocess.run(cmd, input="ucci\nquit\n", capture_output=True, text=True, timeout=30).stdout
    assert f"id name {version}" in session.splitlines()


def test_only_gcc_gets_the_profile_guided_build(setup_py: ModuleType, tmp_path: Path) -> None:
    """Clang reads profiles in another format, even when installed as ``gcc`` (macOS)."""
    def compiler(name: str, answer: str) -> list[str]:
        path = tmp_path / name
        path.write_text(f"#!/bin/sh\necho '{answer}'\n")
        path.chmod(0o755)
        return [str(path), "-fPIC"]

    assert setup_py.is_gcc(compiler("gcc", "gcc (Debian 12.2.0-14) 12.2.0\nCopyright (C) 2022 Free Software Foundation, Inc."))
    assert not setup_py.is_gcc(compiler("cc", "Apple clang version 15.0.0 (clang-1500.3.9.4)"))
    assert not setup_py.is_gcc([str(tmp_path / "missing-cc")])
    assert not setup_py.is_gcc([])


def test_the_profile_training_runs_each_benchmark_as_the_build_does(setup_py: ModuleType, tmp_path: Path) -> None:
    """The benchmarks the profile-guided build counts run from a package folder (here the source tree, pure
    Python: 10-20 s); a renamed option would otherwise only show as a build without a profile."""
    setup_py.run_training(str(ROOT), str(tmp_path))
    setup_py.TRAINING = [("ucci_engine.bench", ["--depth", "0"])]
    with pytest.raises(RuntimeError, match="ucci_engine.bench exited with 2"):
        setup_py.run_training(str(ROOT), str(tmp_path))
