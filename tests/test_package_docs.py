"""Each package's doc-comment lists its modules in reading order (issue 42, item 4): a module added
without a place in that list fails here, so the list a new reader starts from stays whole."""

import importlib
import pkgutil
import re

import pytest

PACKAGES = ("engine_core", "ucci_engine", "gomoku_protocol", "junqi_protocol")


@pytest.mark.parametrize("package", PACKAGES)
def test_the_package_doc_comment_names_every_module(package: str) -> None:
    found = importlib.import_module(package)
    doc = found.__doc__ or ""
    named = set(re.findall(r"``(\w+)``", doc))
    modules = {info.name for info in pkgutil.iter_modules(found.__path__) if info.name != "__main__"}
    assert "Modules in reading order:" in doc, package
    assert sorted(modules - named) == [], f"{package}'s doc-comment does not list these modules"
