"""Adapters only parse and print (issue 42, item 3): each protocol adapter reaches its game only through
the front object's own methods and properties, never an attribute the front keeps (its engine, journal,
searcher, position, hash table, brain), so that the state, its undo, time and every choice stay the
front's."""

import ast
import inspect
import pathlib

import pytest

import junqi_protocol.ccgc
import junqi_protocol.front
import junqi_protocol.protocol

# Each adapter module, and the front class its sessions keep as ``self.engine``.
ADAPTERS = {
    junqi_protocol.protocol: junqi_protocol.front.Front,
    junqi_protocol.ccgc: junqi_protocol.front.Front,
}


def front_names(module: object) -> list[tuple[int, str, bool]]:
    """Every ``self.engine.NAME`` in ``module``'s source: (line, NAME, whether it is assigned to)."""
    tree = ast.parse(pathlib.Path(inspect.getfile(module)).read_text(encoding="utf-8"))  # type: ignore[arg-type]
    found = []
    for node in ast.walk(tree):
        if (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Attribute) and node.value.attr == "engine"
                and isinstance(node.value.value, ast.Name) and node.value.value.id == "self"):
            found.append((node.lineno, node.attr, isinstance(node.ctx, ast.Store)))
    return found


def operations(front: type) -> set[str]:
    """The front's public methods and properties (what its class defines, not what an instance keeps)."""
    return {name for name, value in inspect.getmembers(front)
            if not name.startswith("_") and (callable(value) or isinstance(value, property))}


@pytest.mark.parametrize("module", list(ADAPTERS), ids=lambda m: m.__name__)
def test_an_adapter_calls_only_the_front_objects_operations(module) -> None:
    allowed = operations(ADAPTERS[module])
    used = front_names(module)
    assert used, f"{module.__name__} never calls its front object as self.engine"
    wrong = [f"line {line}: self.engine.{name}{' =' if stored else ''}" for line, name, stored in used
             if stored or name not in allowed]
    assert wrong == [], f"{module.__name__} reaches past its front object's operations"


def test_the_check_sees_a_reach_into_the_front() -> None:
    class Front:
        searcher = None

        def go(self) -> None:
            pass

    tree = "self.engine.go()\nself.engine.tt.clear()\nself.engine.skill = 3\n"
    names = [(n.attr, isinstance(n.ctx, ast.Store)) for n in ast.walk(ast.parse(tree))
             if isinstance(n, ast.Attribute) and isinstance(n.value, ast.Attribute) and n.value.attr == "engine"]
    assert sorted(names) == [("go", False), ("skill", True), ("tt", False)]
    assert operations(Front) == {"go"}
