"""Game logs: the ``cascadia-log`` file format (FORMAT.md) and the tools built on it.

- :mod:`~cascadia.replays.format`: framing, canonical bytes, hash chain; reader and writer
- :mod:`~cascadia.replays.audit`: re-execute a log's decisions and compare every event
- :mod:`~cascadia.replays.files`: where logs are on disk (one rule for audit, import, ingest)
- :mod:`~cascadia.replays.replay`: the state after any event, turn by turn
- :mod:`~cascadia.replays.rerun`: deterministic rerun and what-if continuation
- :mod:`~cascadia.replays.diff`: where two logs first diverge
- :mod:`~cascadia.replays.errors`: ``LogFormatError`` and ``AuditDivergence``
"""
