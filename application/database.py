"""Which database holds the events, named by one URL.

``CASCADIA_DATABASE_URL`` (or a ``--from``/``--to`` of ``cascadia migrate``) names the
event store in one string, mapped onto the ``eventsourcing`` library's own settings:

``postgresql://user[:password]@host[:port]/dbname[?schema=NAME&connect_timeout=SECONDS]``
    The library's PostgreSQL module (``postgres://`` is accepted too): ``POSTGRES_USER``,
    ``POSTGRES_PASSWORD`` (empty when the URL has none, e.g. for trust or ``.pgpass``
    authentication), ``POSTGRES_HOST``, ``POSTGRES_PORT`` (default 5432),
    ``POSTGRES_DBNAME`` and, when given, ``POSTGRES_SCHEMA`` (created if missing) and
    ``POSTGRES_CONNECT_TIMEOUT``. Percent-escape special characters in user and password.
``sqlite:PATH``
    The library's SQLite module on the file ``PATH``, or ``PATH/events.sqlite`` when
    ``PATH`` is a directory or ends with ``/`` (``sqlite:///abs/path`` is read as ``/abs/path``).

Nothing here opens a connection except :func:`postgres_setup`, which creates the
configured schema and lets processes create the library's tables one at a time.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import parse_qsl, unquote, urlsplit

from cascadia.domain.errors import CascadiaError

DATABASE_URL_VAR = "CASCADIA_DATABASE_URL"
SQLITE_MODULE = "eventsourcing.sqlite"
POSTGRES_MODULE = "eventsourcing.postgres"
EVENTS_FILE = "events.sqlite"
POSTGRES_SCHEMES = ("postgresql", "postgres")
URL_QUERY_SETTINGS = {"schema": "POSTGRES_SCHEMA", "connect_timeout": "POSTGRES_CONNECT_TIMEOUT"}
URL_FORM = "postgresql://user[:password]@host[:port]/dbname[?schema=NAME] or sqlite:PATH"
SETUP_LOCK_KEY = int.from_bytes(b"cascadia")
"""The PostgreSQL advisory lock held while a process creates the tables."""
_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]{0,62}")


class DatabaseUrlError(CascadiaError, ValueError):
    """A database URL that cannot be read (wrong scheme, missing part, bad port ...)."""


class DatabaseConfigError(CascadiaError):
    """A database that is configured but cannot be used from here (e.g. no driver installed)."""


def sqlite_settings(path: str | Path) -> dict[str, str]:
    """The library settings of the SQLite file ``path``, or of ``path/events.sqlite`` when
    ``path`` is a directory or ends with a slash (a data directory, like ``--home``)."""
    target = Path(path)
    if target.is_dir() or str(path).endswith(("/", os.sep)):
        target = target / EVENTS_FILE
    return {"PERSISTENCE_MODULE": SQLITE_MODULE, "SQLITE_DBNAME": str(target)}


def database_settings(url: str) -> dict[str, str]:
    """The ``eventsourcing`` settings that ``url`` stands for; :class:`DatabaseUrlError` if malformed."""
    text = url.strip()
    scheme, colon, rest = text.partition(":")
    if not colon:
        raise DatabaseUrlError(f"database URL {_redact(text)!r} has no scheme; expected {URL_FORM}")
    scheme = scheme.lower()
    if scheme == "sqlite":
        path = rest[2:] if rest.startswith("//") else rest
        if not path:
            raise DatabaseUrlError(f"database URL {text!r} names no file; expected sqlite:PATH")
        return sqlite_settings(path)
    if scheme in POSTGRES_SCHEMES:
        return _postgres_settings(text)
    raise DatabaseUrlError(f"database URL scheme {scheme!r} is not supported; expected {URL_FORM}")


def _postgres_settings(url: str) -> dict[str, str]:
    shown = _redact(url)
    parts = urlsplit(url)
    if parts.fragment:
        raise DatabaseUrlError(f"database URL {shown!r} has a fragment ('#...'); escape '#' as %23")
    try:
        port = parts.port
    except ValueError:
        raise DatabaseUrlError(f"database URL {shown!r} has a bad port; expected 1 to 65535") from None
    dbname = unquote(parts.path.removeprefix("/"))
    missing = [
        name
        for name, value in (("user", parts.username), ("host", parts.hostname), ("database name", dbname))
        if not value
    ]
    if missing:
        raise DatabaseUrlError(f"database URL {shown!r} has no {' or '.join(missing)}; expected {URL_FORM}")
    if "/" in dbname:
        raise DatabaseUrlError(f"database URL {shown!r}: the database name may not contain '/'")
    settings = {
        "PERSISTENCE_MODULE": POSTGRES_MODULE,
        "POSTGRES_USER": unquote(parts.username or ""),
        "POSTGRES_PASSWORD": unquote(parts.password or ""),
        "POSTGRES_HOST": unquote(parts.hostname or ""),
        "POSTGRES_PORT": str(port or 5432),
        "POSTGRES_DBNAME": dbname,
    }
    try:
        query = parse_qsl(parts.query, keep_blank_values=True, strict_parsing=bool(parts.query))
    except ValueError:
        raise DatabaseUrlError(f"database URL {shown!r} has a malformed query") from None
    for key, value in query:
        if key not in URL_QUERY_SETTINGS:
            raise DatabaseUrlError(
                f"database URL {shown!r}: unknown parameter {key!r}; known: {', '.join(URL_QUERY_SETTINGS)}"
            )
        settings[URL_QUERY_SETTINGS[key]] = value
    schema = settings.get("POSTGRES_SCHEMA")
    if schema is not None and not _IDENTIFIER.fullmatch(schema):
        raise DatabaseUrlError(
            f"database URL {shown!r}: schema {schema!r} is not a plain identifier "
            "(letters, digits, underscores; at most 63)"
        )
    timeout = settings.get("POSTGRES_CONNECT_TIMEOUT")
    if timeout is not None and not timeout.isdigit():
        raise DatabaseUrlError(f"database URL {shown!r}: connect_timeout must be whole seconds")
    return settings


def _redact(url: str) -> str:
    """``url`` with any password replaced by ``***``, for messages."""
    return re.sub(r"^([a-zA-Z]+://[^:/@]*):[^@/]*@", r"\1:***@", url)


def same_database(one: Mapping[str, str | None], other: Mapping[str, str | None]) -> bool:
    """Whether two sets of settings name the same database (SQLite paths compared resolved)."""
    if one.get("PERSISTENCE_MODULE") == other.get("PERSISTENCE_MODULE") == SQLITE_MODULE:
        paths = (Path(settings.get("SQLITE_DBNAME") or "").resolve() for settings in (one, other))
        return next(paths) == next(paths)
    return describe(one) == describe(other)


def describe(settings: Mapping[str, str | None]) -> str:
    """Where ``settings`` keep the events, as a URL without the password."""
    module = settings.get("PERSISTENCE_MODULE") or ""
    if module == SQLITE_MODULE:
        name = settings.get("SQLITE_DBNAME") or ""
        if name.startswith("file:"):  # a URI, e.g. a store opened read-only: its file
            name = unquote(urlsplit(name).path)
        return f"sqlite:{name}"
    if module == POSTGRES_MODULE:
        where = (
            f"postgresql://{settings.get('POSTGRES_USER')}@{settings.get('POSTGRES_HOST')}:"
            f"{settings.get('POSTGRES_PORT') or 5432}/{settings.get('POSTGRES_DBNAME')}"
        )
        schema = settings.get("POSTGRES_SCHEMA")
        return f"{where}?schema={schema}" if schema else where
    return module


def require_psycopg() -> None:
    """Raise :class:`DatabaseConfigError` unless the PostgreSQL driver (with its pool) is installed."""
    try:
        import psycopg  # noqa: F401
        import psycopg_pool  # noqa: F401
    except ImportError:
        raise DatabaseConfigError(
            "PostgreSQL needs the psycopg driver and pool: pip install 'cascadia[postgres]'"
        ) from None


@contextmanager
def postgres_setup(settings: Mapping[str, str | None]) -> Iterator[None]:
    """Hold the setup lock while the library creates its tables; create the schema first.

    The library's ``CREATE ... IF NOT EXISTS`` and ``CREATE OR REPLACE FUNCTION``
    statements fail ("duplicate key", "tuple concurrently updated") when several
    processes open a database at the same moment, so they take turns here, on a
    session-level advisory lock. The server being out of reach raises the library's
    ``OperationalError``."""
    import psycopg
    from eventsourcing.persistence import OperationalError
    from psycopg import sql

    schema = (settings.get("POSTGRES_SCHEMA") or "").strip()
    try:
        conn = psycopg.connect(**connection_kwargs(settings), autocommit=True)
    except psycopg.Error as error:
        raise OperationalError(f"{describe(settings)}: {error}".strip()) from error
    with conn:
        conn.execute("SELECT pg_advisory_lock(%s)", [SETUP_LOCK_KEY])
        try:
            if schema and schema != "public":
                conn.execute(sql.SQL("CREATE SCHEMA IF NOT EXISTS {}").format(sql.Identifier(schema)))
            yield
        finally:
            if not conn.closed:
                conn.execute("SELECT pg_advisory_unlock(%s)", [SETUP_LOCK_KEY])


def connection_kwargs(settings: Mapping[str, str | None]) -> dict[str, str | int]:
    """psycopg ``connect()`` arguments of PostgreSQL ``settings``."""
    return {
        "host": settings.get("POSTGRES_HOST") or "",
        "port": int(settings.get("POSTGRES_PORT") or 5432),
        "dbname": settings.get("POSTGRES_DBNAME") or "",
        "user": settings.get("POSTGRES_USER") or "",
        "password": settings.get("POSTGRES_PASSWORD") or "",
        "connect_timeout": int(settings.get("POSTGRES_CONNECT_TIMEOUT") or 10),
    }


def store_env(spec: str, environ: Mapping[str, str] | None = None) -> dict[str, str]:
    """The ``env`` of a :class:`~cascadia.application.store.GameStore` on the store ``spec`` names:

    - ``sqlite:PATH`` or ``postgresql://...``: that database (see :func:`database_settings`);
    - ``postgres`` (or ``postgresql``): the PostgreSQL that the environment configures,
      ``CASCADIA_DATABASE_URL`` if it names one, else the library's ``POSTGRES_*`` variables.
    """
    environ = os.environ if environ is None else environ
    text = spec.strip()
    if text.lower() in POSTGRES_SCHEMES:
        url = environ.get(DATABASE_URL_VAR, "")
        if url and database_settings(url)["PERSISTENCE_MODULE"] == POSTGRES_MODULE:
            return {DATABASE_URL_VAR: url}
        if not environ.get("POSTGRES_DBNAME"):
            raise DatabaseUrlError(
                f"{text!r} means the PostgreSQL of the environment, but neither {DATABASE_URL_VAR} "
                "(postgresql://...) nor POSTGRES_DBNAME/POSTGRES_HOST/POSTGRES_USER is set; "
                "give a postgresql:// URL instead"
            )
        return {DATABASE_URL_VAR: "", "PERSISTENCE_MODULE": POSTGRES_MODULE}
    database_settings(text)  # reject a malformed one now, with its own message
    return {DATABASE_URL_VAR: text}
