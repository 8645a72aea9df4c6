"""No import circle among the packages' modules.

The edges are the imports a module runs when it is imported: its module-level imports, those in ``if``,
``try`` and ``with`` blocks and class bodies at module level, but not those inside functions (run later) or
under ``if TYPE_CHECKING:`` (never run). Further tests count the imports inside functions too, so that no
circle is only deferred, and those under ``if TYPE_CHECKING:``, so that none is only hidden from the
interpreter.
"""

import ast
import importlib.util
import pathlib

PACKAGES = ("engine_core", "ucci_engine", "gomoku_protocol", "junqi_protocol")


def sources() -> dict[str, pathlib.Path]:
    """Each module of the installed packages and its ``.py`` source (beside it when it is compiled)."""
    found = {}
    for package in PACKAGES:
        spec = importlib.util.find_spec(package)
        assert spec is not None and spec.submodule_search_locations, package
        folder = pathlib.Path(next(iter(spec.submodule_search_locations)))
        for path in sorted(folder.glob("*.py")):
            name = package if path.stem == "__init__" else f"{package}.{path.stem}"
            found[name] = path
    return found


def is_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or \
        (isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def imported(name: str, path: pathlib.Path, known: set[str], deferred: bool = False, typed: bool = False) -> set[str]:
    """The modules among ``known`` that importing module ``name`` imports; with ``deferred``, those its
    functions import when they run too; with ``typed``, those only the type checker reads too."""
    package = name if path.stem == "__init__" else name.rpartition(".")[0]
    found: set[str] = set()

    def add(module: str) -> None:
        while module:  # importing a.b.c imports a and a.b first
            if module in known:
                found.add(module)
            module = module.rpartition(".")[0]

    def visit(body: list[ast.stmt]) -> None:
        for node in body:
            if isinstance(node, ast.Import):
                for alias in node.names:
                    add(alias.name)
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    parts = package.split(".")
                    base = ".".join(parts[: len(parts) - node.level + 1] + ([base] if base else []))
                add(base)
                for alias in node.names:
                    add(f"{base}.{alias.name}")  # from a package import a module
            elif isinstance(node, ast.If):
                if typed or not is_type_checking(node):
                    visit(node.body)
                visit(node.orelse)
            elif isinstance(node, ast.Try):
                visit(node.body)
                for handler in node.handlers:
                    visit(handler.body)
                visit(node.orelse)
                visit(node.finalbody)
            elif isinstance(node, (ast.With, ast.ClassDef)):
                visit(node.body)
            elif deferred and isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                visit([inner for inner in ast.walk(node) if isinstance(inner, (ast.Import, ast.ImportFrom))])

    visit(ast.parse(path.read_text(encoding="utf-8"), str(path)).body)
    found.discard(name)
    return found


def graph(deferred: bool = False, typed: bool = False) -> dict[str, set[str]]:
    found = sources()
    return {name: imported(name, path, set(found), deferred, typed) for name, path in found.items()}


def circles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def connect(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(edges.get(v, ())):
            if w not in index:
                connect(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(edges):
        if v not in index:
            connect(v)
    return found


def test_the_circle_finder_finds_circles() -> None:
    assert circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert circles({"a": {"b"}, "b": set()}) == []


def test_the_graph_sees_the_imports() -> None:
    edges = graph()
    assert "ucci_engine.position" in edges["ucci_engine.engine"]
    assert "gomoku_protocol.patterns" in edges["gomoku_protocol.position"]  # from gomoku_protocol import patterns
    assert sum(len(e) for e in edges.values()) > 200


def test_an_import_under_type_checking_counts_only_for_the_types(tmp_path: pathlib.Path) -> None:
    path = tmp_path / "m.py"
    path.write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from p.q import Q\n", encoding="utf-8")
    assert imported("p.m", path, {"p", "p.m", "p.q"}) == set()
    assert imported("p.m", path, {"p", "p.m", "p.q"}, typed=True) == {"p", "p.q"}


def test_no_module_imports_itself_through_others() -> None:
    assert circles(graph()) == []


def test_no_circle_is_dodged_by_an_import_inside_a_function() -> None:
    """An import moved into a function breaks no circle, it only defers it (as ``ucci_engine.bench`` and
    ``tune`` once did): counted as edges too, the imports that functions run close no circle either."""
    edges = graph(deferred=True)
    assert "engine_core.cluster" in edges["engine_core.matchcli"]  # imported when --cluster is given
    assert circles(edges) == []


def test_no_circle_is_hidden_under_type_checking() -> None:
    """A circle closed by an import only the type checker reads is one all the same: each module needs the
    other to be understood (issue 63: ``gomoku_protocol.evaluate`` named the ``Position`` that imports it;
    it now reads a board through its own ``ShapeBoard`` trait, which ``Position`` takes on)."""
    assert circles(graph(deferred=True, typed=True)) == []
