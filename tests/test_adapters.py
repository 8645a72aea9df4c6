"""Adapters only parse and print (issue 42, item 3): each protocol adapter reaches its game only through
the front object's own methods and properties, never an attribute the front keeps (its engine, journal,
searcher, position, hash table, brain), so that the state, its undo, time and every choice stay the
front's."""

import ast
import inspect
import pathlib

import pytest

import gomoku_protocol.engine
import gomoku_protocol.protocol
import junqi_protocol.ccgc
import junqi_protocol.engine
import junqi_protocol.protocol
import ucci_engine.engine
import ucci_engine.protocol
from engine_core.loop import Front, Refusal, Session
from ucci_engine.position import START_FEN

# Each adapter module, and the front class its sessions keep as ``self.engine``.
ADAPTERS = {
    ucci_engine.protocol: ucci_engine.engine.Engine,
    gomoku_protocol.protocol: gomoku_protocol.engine.Engine,
    junqi_protocol.protocol: junqi_protocol.engine.Engine,
    junqi_protocol.ccgc: junqi_protocol.engine.Engine,
}


def is_front(node: ast.expr, aliases: set[str]) -> bool:
    """``self.engine``, or a local name given it (``engine = self.engine``)."""
    if isinstance(node, ast.Name):
        return node.id in aliases
    return (isinstance(node, ast.Attribute) and node.attr == "engine" and isinstance(node.value, ast.Name)
            and node.value.id == "self")


def front_names(source: str) -> list[tuple[int, str, bool]]:
    """Every ``self.engine.NAME`` in ``source`` (or ``NAME`` of a local alias of ``self.engine``):
    (line, NAME, whether it is assigned to)."""
    tree = ast.parse(source)
    aliases = {target.id for node in ast.walk(tree) if isinstance(node, ast.Assign) and is_front(node.value, set())
               for target in node.targets if isinstance(target, ast.Name)}
    return [(node.lineno, node.attr, isinstance(node.ctx, ast.Store)) for node in ast.walk(tree)
            if isinstance(node, ast.Attribute) and is_front(node.value, aliases)]


def operations(front: type) -> set[str]:
    """The front's public methods and properties (what its class defines, not what an instance keeps)."""
    return {name for name, value in inspect.getmembers(front)
            if not name.startswith("_") and (callable(value) or isinstance(value, property))}


@pytest.mark.parametrize("module", list(ADAPTERS), ids=lambda m: m.__name__)
def test_an_adapter_calls_only_the_front_objects_operations(module) -> None:
    allowed = operations(ADAPTERS[module])
    used = front_names(pathlib.Path(inspect.getfile(module)).read_text(encoding="utf-8"))
    assert used, f"{module.__name__} never calls its front object as self.engine"
    wrong = [f"line {line}: self.engine.{name}{' =' if stored else ''}" for line, name, stored in used
             if stored or name not in allowed]
    assert wrong == [], f"{module.__name__} reaches past its front object's operations"


def test_the_check_sees_a_reach_into_the_front() -> None:
    class Front:
        searcher = None

        def go(self) -> None:
            pass

    source = "self.engine.go()\nself.engine.tt.clear()\nself.engine.skill = 3\nengine = self.engine\nengine.position.fen()\n"
    assert sorted(front_names(source)) == [(1, "go", False), (2, "tt", False), (3, "skill", True), (5, "position", False)]
    assert operations(Front) == {"go"}


@pytest.mark.parametrize("module", list(ADAPTERS), ids=lambda m: m.__name__)
def test_no_adapter_keeps_an_undo_of_its_own(module) -> None:
    """A command that fails half-way is undone by the front that holds the state (engine_core.loop.Front,
    by undone_on_failure), before the session prints the error: an adapter has nothing to put back."""
    sessions = [cls for cls in vars(module).values() if isinstance(cls, type) and issubclass(cls, Session)]
    assert sessions and all("recover" not in vars(cls) for cls in sessions)
    assert not hasattr(Session, "recover")


@pytest.mark.parametrize("session, front", [(gomoku_protocol.protocol.GomocupProtocol, gomoku_protocol.engine.Engine),
                                            (junqi_protocol.protocol.JunqiProtocol, junqi_protocol.engine.Engine),
                                            (junqi_protocol.ccgc.CcgcProtocol, junqi_protocol.engine.Engine)])
def test_a_front_with_state_to_put_back_does_it_by_the_cores_one_rule(session: type[Session], front: type[Front]) -> None:
    assert issubclass(front, Front) and "recover" in vars(front)
    assert session.REFUSALS == front.REFUSALS  # what the front refuses unchanged, the session prints as refused


def test_the_xiangqi_front_refuses_by_raising_as_the_others_do() -> None:
    """Xiangqi's front raises the session's Refusal before it changes anything, as gomoku's and junqi's
    fronts do, rather than handing its adapter a reason to raise."""
    engine = ucci_engine.engine.Engine()
    before = engine.position.fen()
    go = ucci_engine.engine.GoRequest()
    go.depth, go.searchmoves = 1, ["h2e2", "a0a5"]  # UCI's searchmoves: the engine checks them, as banmoves

    def answered(answer: object) -> None:
        raise AssertionError("a refused go answered")

    refused = [lambda: engine.set_position("not a fen", []), lambda: engine.set_position(START_FEN, ["a0a5"]),
               lambda: engine.set_banned(["a0a5"]), lambda: engine.set_style("wild"), lambda: engine.set_randomness("lots"),
               lambda: engine.go(go, lambda *info: None, answered)]
    for call in refused:
        with pytest.raises(Refusal):
            call()
    assert (engine.position.fen(), engine.banned, engine.style, engine.noise) == (before, [], "normal", 0)
    assert not engine.busy() and engine.searcher.limits.root_moves == []
    with pytest.raises(Refusal, match="searchmoves: 'a0a5' is not a legal move here"):
        engine.go(go, lambda *info: None, answered)
