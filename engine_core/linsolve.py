"""A small dense linear solver for the evaluation fitters (``ucci_engine.tune``, ``gomoku_protocol.fit``).

Their systems have a few dozen unknowns, so plain Python serves and no numeric library is needed.
"""

PIVOT_EPS = 1e-12  # a pivot this small is taken as zero: that unknown is left at 0


def solve(a: list[list[float]], b: list[float]) -> list[float]:
    """x with a·x = b, by Gauss-Jordan elimination with partial pivoting.

    >>> solve([[2.0, 0.0], [1.0, 4.0]], [3.0, 5.5])
    [1.5, 1.0]
    >>> solve([[1.0, 0.0], [0.0, 0.0]], [2.0, 7.0])  # a singular direction stays 0
    [2.0, 0.0]
    """
    n = len(b)
    m = [row[:] + [b[i]] for i, row in enumerate(a)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(m[r][col]))
        m[col], m[pivot] = m[pivot], m[col]
        if abs(m[col][col]) < PIVOT_EPS:
            continue
        for r in range(n):
            if r != col:
                f = m[r][col] / m[col][col]
                if f:
                    m[r] = [x - f * y for x, y in zip(m[r], m[col])]
    return [m[i][n] / m[i][i] if abs(m[i][i]) >= PIVOT_EPS else 0.0 for i in range(n)]
