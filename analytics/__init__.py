"""Analytics over many finished games: Parquet tables, DuckDB queries, standard statistics.

- :mod:`~cascadia.analytics.schema`: the tables and their Arrow types (SCHEMA.md);
- :mod:`~cascadia.analytics.rows`: events of a finished game -> columns of a batch;
- :mod:`~cascadia.analytics.dataset`: the dataset's layout: partitions, names, version;
- :mod:`~cascadia.analytics.storage`: the Parquet files, batch commits, tracking position;
- :mod:`~cascadia.analytics.legacy`: the first layout's files, still read;
- :mod:`~cascadia.analytics.ingest`: ingest from logs, the event store, or memory
  (:func:`~cascadia.analytics.ingest.ingest_games`, :class:`~cascadia.analytics.ingest.Ingest`);
- :mod:`~cascadia.analytics.query`: DuckDB views, free SQL, ``--where`` filters;
- :mod:`~cascadia.analytics.stats`: the standard statistics (STATS.md).
"""
