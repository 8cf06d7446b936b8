"""Event-store backends for the persistence tests: SQLite always, PostgreSQL when reachable.

Load it in a test module with ``pytest_plugins = ["store_backends"]``. The fixtures:

``database_url``
    Parametrised over ``sqlite`` and ``postgres``: a ``CASCADIA_DATABASE_URL`` naming a
    fresh, empty event store (a SQLite file under ``tmp_path``, or a PostgreSQL schema
    of its own, created for the test and dropped after it, so parallel runs never meet).
``store_env`` / ``game_store``
    The ``env`` of a :class:`GameStore` on that database, and a store opened on it.
``postgres_url``
    Just the PostgreSQL case (a fresh schema).

PostgreSQL is ``$CASCADIA_TEST_POSTGRES_URL``, else ``postgresql://postgres@127.0.0.1:5432/test``.
When it cannot be reached its cases are skipped (the reason says where and why), unless
``CASCADIA_REQUIRE_POSTGRES=1``: then they fail (CI sets it).
"""

from __future__ import annotations

import os
import sys
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import cache
from pathlib import Path

import psycopg
import pytest
from cascadia.application.database import DATABASE_URL_VAR
from cascadia.application.store import GameStore
from cascadia.cli.app import app
from cascadia.cli.common import run_app
from psycopg import sql

TEST_URL_VAR = "CASCADIA_TEST_POSTGRES_URL"
DEFAULT_TEST_URL = "postgresql://postgres@127.0.0.1:5432/test"
REQUIRE_VAR = "CASCADIA_REQUIRE_POSTGRES"
SCHEMA_PREFIX = "cascadia_test_"
CliRunner = Callable[..., tuple[int, str, str]]

# Read once, before any test's monkeypatch can hide them.
SERVER_URL = os.environ.get(TEST_URL_VAR) or DEFAULT_TEST_URL
REQUIRED = os.environ.get(REQUIRE_VAR, "").strip().lower() in ("1", "true", "yes")


@cache
def server_problem() -> str | None:
    """Why the test server cannot be used (``None`` when it can); asked once per run."""
    try:
        with psycopg.connect(SERVER_URL, connect_timeout=3) as conn:
            conn.execute("SELECT 1")
    except psycopg.Error as error:
        return " ".join(str(error).split()) or type(error).__name__
    return None


def require_postgres() -> str:
    """The server URL; skips the test without a server (fails it when one is required)."""
    problem = server_problem()
    if problem is not None:
        if REQUIRED:
            pytest.fail(f"{REQUIRE_VAR}=1 but PostgreSQL at {SERVER_URL} is unusable: {problem}")
        pytest.skip(f"no PostgreSQL at {SERVER_URL} ({problem}); {REQUIRE_VAR}=1 makes this a failure")
    return SERVER_URL


@contextmanager
def postgres_schema(server_url: str) -> Iterator[str]:
    """A fresh schema on the server, dropped afterwards; yields a database URL using it."""
    name = f"{SCHEMA_PREFIX}{os.getpid()}_{uuid.uuid4().hex[:10]}"
    with psycopg.connect(server_url, autocommit=True) as conn:
        conn.execute(sql.SQL("CREATE SCHEMA {}").format(sql.Identifier(name)))
    try:
        yield f"{server_url}?schema={name}"
    finally:
        with psycopg.connect(server_url, autocommit=True) as conn:
            conn.execute(sql.SQL("DROP SCHEMA IF EXISTS {} CASCADE").format(sql.Identifier(name)))


@pytest.fixture
def postgres_url() -> Iterator[str]:
    """A database URL on a fresh PostgreSQL schema of this test's own."""
    with postgres_schema(require_postgres()) as url:
        yield url


@pytest.fixture(params=["sqlite", "postgres"])
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A fresh event store on each backend, as a ``CASCADIA_DATABASE_URL``."""
    if request.param == "sqlite":
        yield f"sqlite:{tmp_path / 'store' / 'events.sqlite'}"
        return
    with postgres_schema(require_postgres()) as url:
        yield url


@pytest.fixture
def store_env(database_url: str) -> dict[str, str]:
    return {DATABASE_URL_VAR: database_url}


@pytest.fixture
def game_store(store_env: dict[str, str]) -> Iterator[GameStore]:
    with GameStore(env=store_env) as store:
        yield store


@pytest.fixture
def isolated_env(monkeypatch: pytest.MonkeyPatch) -> pytest.MonkeyPatch:
    """No store settings inherited from the environment running the tests."""
    for key in list(os.environ):
        if key.startswith(("PERSISTENCE_", "SQLITE_", "POSTGRES_", "CASCADIA_", "TRANSCODER_")):
            monkeypatch.delenv(key)
    return monkeypatch


@pytest.fixture
def cascadia(isolated_env: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> CliRunner:
    """Run the ``cascadia`` command in this process: ``cascadia(*args, env={...})`` returns
    ``(exit code, stdout, stderr)``; ``env`` sets environment variables for that run."""

    def run(*args: str, env: dict[str, str] | None = None) -> tuple[int, str, str]:
        with isolated_env.context() as patch:
            for key, value in (env or {}).items():
                patch.setenv(key, value)
            patch.setattr(sys, "argv", ["cascadia", *args])
            capsys.readouterr()
            code = run_app(app)
            out, err = capsys.readouterr()
        return code, out, err

    return run
