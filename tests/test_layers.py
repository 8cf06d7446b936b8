"""The layers of the project point one way, checked on the source with ``ast``.

The arrows (a layer may import itself and any layer below it, never one above it or a
peer of its own rank)::

    cli, server           the interfaces; not each other, except that cli's ``serve``
                          command (cli/serve_commands.py) starts the server
      -> application      use cases and persistence: event store, settings, migration,
                          transcoder, final-score read model, storing and ingesting games
        -> analytics, bots    analytics tables and queries / players and simulation;
                              not each other
          -> replays      the game-log format, audit, replay, rerun
            -> projections    scoring, renderings
              -> domain   the rules alone

``domain`` also imports no persistence library: none of the ``eventsourcing`` library's
persistence modules (``eventsourcing.persistence``, ``.application``, ``.sqlite``,
``.postgres``), nor ``sqlite3``, ``psycopg``, ``duckdb``, ``pyarrow``.

``server`` adapts HTTP to the application's use cases: of ``domain`` it imports types,
errors and catalogues only (:data:`SERVER_DOMAIN`; the ``Game`` aggregate at most for
type checking), and it never plays a game itself (no ``Game.start``, ``execute``,
``play_turn``, ``bot_for_turn`` call).

The server's HTTP adapters (its routes, their dependencies, the event streams) import
nothing from ``domain``: they talk to the server's services and schemas only.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = "cascadia"
RANKS: dict[str, int] = {
    "domain": 0,
    "projections": 1,
    "replays": 2,
    "analytics": 3,
    "bots": 3,
    "application": 4,
    "cli": 5,
    "server": 5,
}
"""Each layer's height: imports go to a lower height, or stay within the layer."""
ALLOWED: dict[str, set[str]] = {"cascadia.cli.serve_commands": {"server"}}
"""The one module allowed to import a peer layer: ``cascadia serve`` runs the server."""
DOMAIN_FORBIDDEN = (
    "eventsourcing.persistence",
    "eventsourcing.application",
    "eventsourcing.sqlite",
    "eventsourcing.postgres",
    "sqlite3",
    "psycopg",
    "duckdb",
    "pyarrow",
)
"""Persistence libraries the rules must not use (a module or any of its submodules)."""
SERVER_DOMAIN = frozenset(
    {"events", "options", "state", "errors", "commands", "achievement_map", "components"}
)
"""The domain modules the server may import: event, option and state types, errors, the
commands' wire form, the map's facts and errors, the tile catalogue."""
SERVER_CALLS = frozenset({"start", "execute", "play_turn", "bot_for_turn"})
"""What the server never calls: the use cases of ``application/`` play the games."""
HTTP_ADAPTERS = ("server/routes", "server/dependencies.py", "server/streams.py")
"""The server's modules (folders or files) that adapt HTTP to its services and import
no module of ``domain``."""


@dataclass(frozen=True)
class Violation:
    file: str
    line: int
    arrow: str

    def __str__(self) -> str:
        return f"{self.file}:{self.line}: {self.arrow}"


def _resolve(node: ast.Import | ast.ImportFrom, module: str, is_package: bool) -> list[str]:
    """The absolute module names an import statement names (``from X import y`` gives
    ``X.y`` too, since ``y`` may be a submodule)."""
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    base = node.module or ""
    if node.level:
        parts = module.split(".")
        package = parts if is_package else parts[:-1]
        keep = len(package) - (node.level - 1)
        if keep <= 0:
            return []
        base = ".".join([*package[:keep], *([base] if base else [])])
    return [base, *(f"{base}.{alias.name}" for alias in node.names if alias.name != "*")]


def _layer_of(name: str) -> str | None:
    parts = name.split(".")
    if len(parts) >= 2 and parts[0] == PACKAGE and parts[1] in RANKS:
        return parts[1]
    return None


def check_source(
    source: str, layer: str, module: str, file: str, is_package: bool = False
) -> list[Violation]:
    """The forbidden imports of one module's ``source`` (``module``: its dotted name,
    e.g. ``cascadia.domain.game``; ``layer``: the folder it belongs to)."""
    found: list[Violation] = []
    for node in ast.walk(ast.parse(source, filename=file)):
        if not isinstance(node, ast.Import | ast.ImportFrom):
            continue
        arrows: dict[str, str] = {}  # one violation per forbidden target and statement
        for name in _resolve(node, module, is_package):
            target = _layer_of(name)
            allowed = target in ALLOWED.get(module, ())
            if target is not None and target != layer and RANKS[target] >= RANKS[layer] and not allowed:
                arrows.setdefault(target, f"{layer} -> {target} ({name})")
            library = next(
                (lib for lib in DOMAIN_FORBIDDEN if name == lib or name.startswith(f"{lib}.")), None
            )
            if layer == "domain" and library is not None:
                arrows.setdefault(library, f"domain -> persistence library {name}")
        found += [Violation(file, node.lineno, arrow) for arrow in arrows.values()]
    return found


def check_tree(root: Path = ROOT) -> list[Violation]:
    """The forbidden imports of every module of every layer folder under ``root``."""
    found: list[Violation] = []
    for layer in RANKS:
        folder = root / layer
        if not folder.is_dir():
            continue
        for path, module, is_package in _modules(folder, root):
            found += check_source(path.read_text(), layer, module, str(path.relative_to(root)), is_package)
    return found


def domain_imports(source: str, module: str, file: str, is_package: bool = False) -> list[Violation]:
    """The import statements of one module's ``source`` that name a module of ``domain``."""
    found: list[Violation] = []
    for node in ast.walk(ast.parse(source, filename=file)):
        if isinstance(node, ast.Import | ast.ImportFrom):
            names = [name for name in _resolve(node, module, is_package) if _layer_of(name) == "domain"]
            if names:
                found.append(Violation(file, node.lineno, f"{module} -> {names[0]}"))
    return found


def _modules(path: Path, root: Path) -> list[tuple[Path, str, bool]]:
    """The Python files at ``path`` (a file, or every file under a folder), each with
    its dotted module name and whether it is a package's ``__init__``."""
    found = []
    for file in [path] if path.is_file() else sorted(path.rglob("*.py")):
        parts = list(file.relative_to(root).with_suffix("").parts)
        is_package = parts[-1] == "__init__"
        found.append((file, ".".join([PACKAGE, *(parts[:-1] if is_package else parts)]), is_package))
    return found


def _type_checking_imports(tree: ast.AST) -> set[ast.AST]:
    """The import statements under ``if TYPE_CHECKING:`` (for annotations only)."""
    return {
        node
        for block in ast.walk(tree)
        if isinstance(block, ast.If) and isinstance(block.test, ast.Name) and block.test.id == "TYPE_CHECKING"
        for statement in block.body
        for node in ast.walk(statement)
        if isinstance(node, ast.Import | ast.ImportFrom)
    }


def check_server_source(source: str, module: str, file: str) -> list[Violation]:
    """What a server module must not do: import a domain module beyond
    :data:`SERVER_DOMAIN` (but for type checking), or call one of :data:`SERVER_CALLS`."""
    tree = ast.parse(source, filename=file)
    for_types = _type_checking_imports(tree)
    found: list[Violation] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import | ast.ImportFrom) and node not in for_types:
            beyond = [
                name
                for name in _resolve(node, module, False)
                if name.split(".")[:2] == [PACKAGE, "domain"]
                and len(name.split(".")) > 2
                and name.split(".")[2] not in SERVER_DOMAIN
            ]
            if beyond:  # one violation per statement
                found.append(
                    Violation(file, node.lineno, f"server -> {beyond[0]} (a use case's, not a type)")
                )
        elif isinstance(node, ast.Call):
            called = (
                node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", None)
            )
            if called in SERVER_CALLS:
                found.append(Violation(file, node.lineno, f"server calls {called}() (a use case's work)"))
    return found


def test_the_server_adapts_http_to_the_use_cases_and_plays_no_game_itself():
    found: list[Violation] = []
    for path in sorted((ROOT / "server").rglob("*.py")):
        relative = path.relative_to(ROOT)
        module = ".".join([PACKAGE, *relative.with_suffix("").parts])
        found += check_server_source(path.read_text(), module, str(relative))
    assert not found, "the server doing a use case's work:\n" + "\n".join(map(str, found))


def test_the_server_check_catches_the_aggregate_and_its_moves():
    source = (
        "from cascadia.domain.game import Game\n"
        "from cascadia.domain.events import GameEvent\n"
        "from cascadia.domain import game\n"
        "if TYPE_CHECKING:\n    from cascadia.domain.game import Game\n"
        "Game.start(1, 2)\ngame.execute(command)\nbot_for_turn(state)\nstore.save_events(events)\n"
    )
    found = check_server_source(source, "cascadia.server.x", "server/x.py")
    assert [v.line for v in found] == [1, 3, 6, 7, 8]


def test_every_layer_imports_only_layers_below_it():
    violations = check_tree()
    assert not violations, "forbidden imports:\n" + "\n".join(map(str, violations))


def test_the_http_adapters_import_nothing_from_the_domain():
    violations = [
        violation
        for adapter in HTTP_ADAPTERS
        for file, module, is_package in _modules(ROOT / adapter, ROOT)
        for violation in domain_imports(file.read_text(), module, str(file.relative_to(ROOT)), is_package)
    ]
    assert all((ROOT / adapter).exists() for adapter in HTTP_ADAPTERS)
    assert not violations, "the HTTP adapters import the domain:\n" + "\n".join(map(str, violations))


def test_the_domain_import_check_catches_every_spelling():
    source = (
        "import cascadia.domain.game\nfrom cascadia.domain import options\n"
        "from cascadia.server.games import GameService\nfrom ...domain.state import GameState\n"
        "from cascadia import bots, domain\n"
    )
    module = "cascadia.server.routes.games"
    violations = domain_imports(source, module, "server/routes/games.py")
    assert [v.line for v in violations] == [1, 2, 4, 5]


def test_the_tree_has_every_layer():
    assert all((ROOT / layer).is_dir() for layer in RANKS)


def test_the_checker_catches_an_upward_absolute_import():
    source = (
        "import os\nfrom cascadia.domain.game import Game\nfrom cascadia.application.store import GameStore\n"
    )
    [violation] = check_source(source, "replays", "cascadia.replays.export", "replays/export.py")
    assert (violation.file, violation.line) == ("replays/export.py", 3)
    assert violation.arrow.startswith("replays -> application")


def test_the_checker_resolves_relative_imports():
    source = "from ..application import store\nfrom . import events\nfrom .. import bots\n"
    violations = check_source(source, "domain", "cascadia.domain.game", "domain/game.py")
    assert [(v.line, v.arrow.split(" (")[0]) for v in violations] == [
        (1, "domain -> application"),
        (3, "domain -> bots"),
    ]


def test_the_checker_forbids_peers_and_lets_a_layer_import_itself():
    assert check_source("import cascadia.bots.registry\n", "analytics", "cascadia.analytics.x", "x.py")
    assert check_source("from cascadia.cli import app\n", "server", "cascadia.server.x", "x.py")
    assert check_source("from cascadia.server import app\n", "cli", "cascadia.cli.x", "x.py")
    assert not check_source(
        "from cascadia.server import app\n", "cli", "cascadia.cli.serve_commands", "cli/serve_commands.py"
    )
    assert not check_source(
        "from cascadia.analytics import rows\n", "analytics", "cascadia.analytics.x", "x.py"
    )
    assert not check_source("from cascadia.analytics import rows\n", "cli", "cascadia.cli.x", "x.py")


def test_the_checker_keeps_persistence_libraries_out_of_the_domain():
    source = "import sqlite3\nfrom eventsourcing.postgres import Factory\nimport eventsourcing.domain\n"
    violations = check_source(source, "domain", "cascadia.domain.x", "domain/x.py")
    assert [v.line for v in violations] == [1, 2]
    assert not check_source(source, "application", "cascadia.application.x", "application/x.py")
