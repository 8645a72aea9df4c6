"""The ``>>>`` examples in the packages' docstrings, run against the installed sanqi.

A module compiled by mypyc keeps no docstrings (its functions are builtins), so ``doctest``'s own finder (and
pytest's ``--doctest-modules``) would find no examples there and pass without running them. The examples are
read instead from the ``.py`` source installed beside each module (a compiled install keeps it), and run in
the namespace of the module as imported: compiled or pure, the same examples run against the code that runs.
"""

import ast
import doctest
import importlib
import importlib.util
import pathlib
import pkgutil

import pytest

PACKAGES = ("engine_core", "ucci_engine", "gomoku_protocol", "junqi_protocol")


def modules() -> list[str]:
    names = []
    for package in PACKAGES:
        names.append(package)
        found = importlib.import_module(package)
        for info in pkgutil.walk_packages(found.__path__, f"{package}."):
            if not info.name.endswith(".__main__"):  # importing it would run the command line
                names.append(info.name)
    return sorted(names)


def source(name: str) -> pathlib.Path:
    """The ``.py`` file of installed module ``name``, beside its compiled extension if it has one."""
    spec = importlib.util.find_spec(name)
    assert spec is not None and spec.origin is not None, name
    origin = pathlib.Path(spec.origin)
    if origin.suffix == ".py":
        return origin
    path = origin.parent / (name.rpartition(".")[2] + ".py")
    assert path.is_file(), f"{name} is installed without its source ({origin})"
    return path


def docstrings(path: pathlib.Path, module: str) -> list[tuple[str, int, str]]:
    """(dotted name, line of the docstring, text) of every docstring of the module, its classes and functions."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    found = []

    def visit(node: ast.AST, name: str) -> None:
        body = getattr(node, "body", [])
        if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) \
                and isinstance(body[0].value.value, str):
            found.append((name, body[0].lineno - 1, body[0].value.value))
        for child in body:
            if isinstance(child, (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
                visit(child, f"{name}.{child.name}")

    visit(tree, module)
    return found


def load(name: str) -> object:
    """Module ``name``; the test skips if it needs an optional package that is not installed (``distributed``)."""
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as exc:
        if exc.name and exc.name.partition(".")[0] not in PACKAGES:
            pytest.skip(f"{name} needs {exc.name}, not installed")
        raise


def examples(name: str) -> list[doctest.DocTest]:
    module = load(name)
    path = source(name)
    parser = doctest.DocTestParser()
    tests = []
    for where, line, text in docstrings(path, name):
        test = parser.get_doctest(text, dict(vars(module)), where, str(path), line)
        if test.examples:
            tests.append(test)
    return tests


@pytest.mark.parametrize("name", modules())
def test_the_examples_in_docstrings_hold(name: str) -> None:
    runner = doctest.DocTestRunner()
    report: list[str] = []
    for test in examples(name):
        runner.run(test, out=report.append)  # doctest's own report of each failing example
    assert runner.failures == 0, "".join(report)


def test_every_example_line_is_found_in_every_build() -> None:
    """The reading above finds the examples whether a module is compiled or not: every ``>>>`` line of
    the sources is an example that runs, in the compiled hot modules too."""
    for name in modules():
        if name == "engine_core.cluster":  # no examples; needs the optional distributed
            continue
        lines = sum(line.lstrip().startswith(">>>") for line in source(name).read_text(encoding="utf-8").splitlines())
        assert sum(len(test.examples) for test in examples(name)) == lines, name
