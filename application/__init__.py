"""The application layer: the use cases (start a game, apply a command, simulate and
store, export and import logs, ingest, the final-score read model) and the persistence
they need (the event store, its database settings, migration, the transcoder).

The command line calls these; the layers below (analytics, bots, replays, projections,
domain) know nothing of them."""
