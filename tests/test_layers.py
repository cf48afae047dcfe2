"""The package's rooms and the one way its imports run.

uno_sim is grouped by job into subpackages stacked in layers, each importing only itself and
the layers below it:

    cli > api > running > output > stats > engine > game

and, beyond the layer order, the command line calls only the API (and may use `output` to
show results and `game` to describe rules); it never reaches into the running layer, the
statistics or the engine. The test reads the imports from the source with `ast` (every
import counts, also those inside functions), so nothing is imported or compiled here.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "uno_sim"
LAYERS = ("game", "engine", "env", "stats", "output", "running", "api", "cli")
# What the command line may import besides itself: the API, and output / game to show
# results and describe rules.
CLI_MAY_IMPORT = {"api", "output", "game", "cli"}


def module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


def modules() -> dict[str, Path]:
    return {module_name(p): p for p in PACKAGE.rglob("*.py")}


def imported(name: str, path: Path, known: dict[str, Path]) -> set[str]:
    """The uno_sim modules `name` imports (a `from package import module` names the module,
    a `from module import thing` the module)."""
    out: set[str] = set()
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names if a.name.split(".")[0] == "uno_sim")
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - (node.level - 1)]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            if target.split(".")[0] != "uno_sim":
                continue
            submodules = [f"{target}.{a.name}" for a in node.names if f"{target}.{a.name}" in known]
            out.update(submodules)
            if len(submodules) < len(node.names):
                out.add(target)
    resolved = set()
    for target in out:
        while target not in known and "." in target:
            target = target.rpartition(".")[0]
        if target != name:
            resolved.add(target)
    return resolved


def graph() -> dict[str, set[str]]:
    known = modules()
    return {name: imported(name, path, known) for name, path in known.items()}


def layer(name: str) -> str | None:
    parts = name.split(".")
    return parts[1] if len(parts) > 1 and parts[1] in LAYERS else None


def test_every_module_lives_in_a_layer():
    """Only the package's front door (`uno_sim`, `python -m uno_sim`) sits outside the rooms."""
    loose = sorted(n for n in modules() if layer(n) is None and n not in ("uno_sim", "uno_sim.__main__"))
    assert not loose, f"modules outside the subpackages {LAYERS}: {loose}"


def test_each_room_says_what_it_is_for():
    for room in LAYERS:
        doc = ast.get_docstring(ast.parse((PACKAGE / room / "__init__.py").read_text(encoding="utf-8")))
        assert doc and len(doc.split()) >= 25, f"uno_sim/{room}/__init__.py needs a paragraph saying what it holds"


def test_imports_only_go_down_the_layers():
    upward = []
    for name, targets in graph().items():
        own = layer(name)
        if own is None:
            continue
        for target in targets:
            other = layer(target)
            if other is None:  # the package's front door imports the API: nothing below may import it
                upward.append(f"{name} -> {target}")
            elif LAYERS.index(other) > LAYERS.index(own):
                upward.append(f"{name} -> {target}")
    assert not upward, "imports that go up the layers:\n" + "\n".join(sorted(upward))


def test_the_engine_imports_only_the_game():
    wrong = [f"{n} -> {t}" for n, ts in graph().items() if layer(n) == "engine"
             for t in ts if layer(t) not in ("engine", "game")]
    assert not wrong, wrong


def test_the_command_line_calls_only_the_api():
    wrong = [f"{n} -> {t}" for n, ts in graph().items() if layer(n) == "cli"
             for t in ts if layer(t) not in CLI_MAY_IMPORT]
    assert not wrong, "the CLI reaches past the API:\n" + "\n".join(sorted(wrong))


def cycle(g: dict[str, set[str]]) -> list[str] | None:
    """One import cycle of g, or None."""
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(g.get(node, ())):
            if state.get(nxt) == 1:
                return stack[stack.index(nxt):] + [nxt]
            if nxt not in state:
                found = visit(nxt)
                if found:
                    return found
        stack.pop()
        state[node] = 2
        return None

    for node in sorted(g):
        if node not in state:
            found = visit(node)
            if found:
                return found
    return None


def test_no_import_cycle():
    """No module imports, directly or through others, a module that imports it (a package's
    `__init__` gathering its modules' names counts as importing them)."""
    g = graph()
    # a module of a package implicitly runs the package's __init__ first: that is not a cycle
    # unless the module itself imports the __init__ (then the edge is in g already)
    found = cycle(g)
    assert found is None, "import cycle: " + " -> ".join(found)


@pytest.mark.parametrize("g, expected", [
    ({"a": {"b"}, "b": {"c"}, "c": {"a"}}, ["a", "b", "c", "a"]),
    ({"a": {"b"}, "b": {"c"}, "c": set()}, None),
])
def test_the_cycle_finder_finds_cycles(g, expected):
    assert cycle(g) == expected


def test_the_import_reader_sees_lazy_and_relative_imports(tmp_path):
    known = {"uno_sim.api.runs": Path(), "uno_sim.output.charts": Path(), "uno_sim.output": Path(),
             "uno_sim.game.rules": Path()}
    source = tmp_path / "runs.py"
    source.write_text("def f():\n    from ..output import charts\n    from ..game.rules import Rules\n")
    assert imported("uno_sim.api.runs", source, known) == {"uno_sim.output.charts", "uno_sim.game.rules"}


def test_the_engine_cache_key_covers_every_game_module_it_reads():
    """numba's cache is keyed by the engine's sources and the game tables it reads
    (engine/jit.py TABLES): a game module the engine imports, directly or through another
    game module, that is not in the key would leave stale compiled code behind."""
    from uno_sim.engine.jit import TABLES

    g = graph()
    reached: set[str] = set()
    todo = [t for n, ts in g.items() if layer(n) == "engine" for t in ts if layer(t) == "game"]
    while todo:
        name = todo.pop()
        if name not in reached:
            reached.add(name)
            todo.extend(t for t in g[name] if layer(t) == "game")
    hashed = {module_name(Path(p)) for p in TABLES}
    assert reached <= hashed, f"add to engine/jit.py TABLES: {sorted(reached - hashed)}"
