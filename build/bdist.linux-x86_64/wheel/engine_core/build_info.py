"""Which build of the package is running: mypyc-compiled or pure Python."""


def build_kind() -> str:
    """'compiled' when the search core is a mypyc extension module, else 'pure Python'."""
    from engine_core import search

    return "compiled" if not search.__file__ or not search.__file__.endswith(".py") else "pure Python"
