"""The README is a front door (issue 42, item 7): short, the two commands first, and every doc, so every
figure, one link away."""

import re

from conftest import ROOT

README = (ROOT / "README.md").read_text(encoding="utf-8")
# "At most ~150 lines": the layout's module list may take a line or two more as modules come.
MOST_LINES = 155


def test_the_readme_is_short() -> None:
    assert len(README.splitlines()) <= MOST_LINES


def test_the_first_block_is_the_two_commands_ci_runs() -> None:
    """.ci/run runs the first ``sh`` block's two lines, exactly as written: set up and ask for a move, then the tests."""
    first = README.split("```sh\n", 1)[1].split("\n```", 1)[0].splitlines()
    assert len(first) == 2 and "build/install.py" in first[0]
    assert "go depth" in first[0] and "pytest" in first[1]
    assert README.index("```sh") < README.index("\n## ")


def test_every_doc_is_linked_from_the_readme() -> None:
    linked = set(re.findall(r"\]\((docs/[^)#]+\.md)", README))
    docs = {path.relative_to(ROOT).as_posix() for path in (ROOT / "docs").rglob("*.md")}
    assert sorted(docs - linked) == []
