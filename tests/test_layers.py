"""The package is a house of layers: every import, function-local and type-only ones included, goes to the
same layer or one below, and no module reaches itself again through its imports.

Layers, bottom up: errors and palette; problem; runtime; formats; solvers; methods; viz; bench; inside; apps and
course; cli; the package's own ``__init__`` (lazy re-exports) and ``__main__``.  The root package's
``__version__``, a constant it defines before anything is imported, may be read from anywhere.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "nqueens_kit"
LAYERS = {"errors": 0, "palette": 0, "problem": 1, "runtime": 2, "formats": 3, "solvers": 4, "methods": 5,
          "viz": 6, "bench": 7, "inside": 8, "apps": 9, "course": 9, "cli": 10, "": 11, "__main__": 12}


def _module(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {_module(path): path for path in PACKAGE.rglob("*.py")}


def _layer(module: str) -> int:
    first = module.split(".")[1] if "." in module else ""
    return LAYERS[first]


def _imports(module: str) -> list[tuple[str, int]]:
    """``(imported module of the kit, line)`` for every import statement anywhere in ``module``."""
    path = MODULES[module]
    package = module.split(".") if path.name == "__init__.py" else module.split(".")[:-1]
    found = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom):
            base = package[: len(package) - node.level + 1] if node.level else []
            target = ".".join(base + ([node.module] if node.module else []))
            names = [f"{target}.{alias.name}" for alias in node.names]
            if not node.level and not target.startswith("nqueens_kit"):
                continue
            if target == "nqueens_kit" and [alias.name for alias in node.names] == ["__version__"]:
                continue
            found += [(name if name in MODULES else target, node.lineno) for name in names]
        elif isinstance(node, ast.Import):
            found += [(alias.name, node.lineno) for alias in node.names if alias.name.startswith("nqueens_kit")]
    resolved = []
    for target, line in found:
        while target and target not in MODULES:
            target = target.rpartition(".")[0]
        if target and target != module:
            resolved.append((target, line))
    return resolved


GRAPH = {module: _imports(module) for module in MODULES}


def test_no_import_runs_up_the_layers() -> None:
    up = [f"{module}:{line} imports {target}" for module, targets in GRAPH.items() for target, line in targets
          if _layer(target) > _layer(module)]
    assert not up, up


def test_no_module_imports_itself_back() -> None:
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    circles: list[list[str]] = []

    def visit(module: str) -> None:  # Tarjan's strongly connected components
        index[module] = low[module] = len(index)
        stack.append(module)
        for target, _ in GRAPH[module]:
            if target not in index:
                visit(target)
                low[module] = min(low[module], low[target])
            elif target in stack:
                low[module] = min(low[module], index[target])
        if low[module] == index[module]:
            component = []
            while True:
                member = stack.pop()
                component.append(member)
                if member == module:
                    break
            if len(component) > 1:
                circles.append(sorted(component))

    for module in MODULES:
        if module not in index:
            visit(module)
    assert not circles, circles


def test_the_check_sees_what_it_checks() -> None:
    """The scan finds the imports a module really has, function-local ones included."""
    assert "nqueens_kit.methods.base" in {t for t, _ in GRAPH["nqueens_kit.methods.cp.method"]}
    assert "nqueens_kit.methods.search.backtrack" in {t for t, _ in GRAPH["nqueens_kit.methods.verbs"]}  # local
    assert set(LAYERS) - {"", "__main__"} <= {m.split(".")[1] for m in MODULES if "." in m}
