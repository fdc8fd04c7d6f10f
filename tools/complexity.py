"""The complexity bound of the code (``make lint``, and a test in tests/architecture): no function
or method above a cyclomatic complexity of 15 as radon counts it (branches, loops, boolean
operators, comprehensions), so no screen builder or rule grows into a wall of conditions.

    python -m tools.complexity [path ...]
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

from radon.complexity import cc_visit
from radon.visitors import Class, Function

LIMIT = 15
DEFAULT_PATHS = ("apps", "skirmish")
SKIPPED_PARTS = frozenset({"migrations"})


def _blocks(blocks: list[Function | Class]) -> Iterator[Function]:
    for block in blocks:
        if isinstance(block, Class):
            yield from _blocks(list(block.methods))
        else:
            yield block
            yield from _blocks(list(block.closures))


def too_complex(paths: tuple[str, ...] = DEFAULT_PATHS, limit: int = LIMIT) -> list[str]:
    """Every function above ``limit``, as "path:line name (complexity)"."""
    found = []
    for root in paths:
        for path in sorted(Path(root).rglob("*.py")):
            if SKIPPED_PARTS & set(path.parts):
                continue
            for block in _blocks(cc_visit(path.read_text(encoding="utf-8"))):
                if block.complexity > limit:
                    found.append(f"{path}:{block.lineno} {block.name} ({block.complexity})")
    return found


def main(argv: list[str]) -> int:
    found = too_complex(tuple(argv) or DEFAULT_PATHS)
    for line in found:
        print(line)
    if found:
        print(f"{len(found)} functions above a cyclomatic complexity of {LIMIT} (radon)")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
