"""The game server: an HTTP API (FastAPI) over the event store, for browsers and bots.

See ``server/API.md`` for the API, :mod:`cascadia.server.app` for the application.
"""
