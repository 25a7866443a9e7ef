"""`inflect`, imported without typeguard's run-time instrumentation.

inflect decorates its public methods with typeguard's `@typechecked`, which recompiles each
one with run-time type checks while the module is imported: about half of every Hearth
process's start (5 of 9 s for `import service.cli` on a busy 2-core machine; every worker, API
and test subprocess pays it). Our calls are checked by mypy, so the decorator is replaced by
the identity for inflect's import alone (what it is anyway under `python -O`). Import
`inflect` from here, never directly, or the first direct import pays the cost.
"""

from __future__ import annotations

from typing import Any

import typeguard


def _unchecked(target: Any = None, **_options: Any) -> Any:
    """`@typechecked` and `@typechecked(...)`, both leaving the function as written."""
    return target if target is not None else (lambda function: function)


_checked = typeguard.typechecked
typeguard.typechecked = _unchecked
try:
    import inflect
finally:
    typeguard.typechecked = _checked

__all__ = ["inflect"]
