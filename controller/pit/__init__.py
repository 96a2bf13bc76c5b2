"""The pit service (issue 10): what the pit opens, fed by every table's events over MQTT.

- :mod:`controller.pit.archive`: every event of every table in PostgreSQL, keyed by (table, seq),
  with the gaps a table's seq shows and what became of each (docs/pit.md).
- :mod:`controller.pit.report.query` (:mod:`~controller.pit.report.output`, :mod:`~controller.pit.report.command`):
  `tablectl report`, hands by clock hour and per hour dealing, results and the poker room's collections
  by shift, alarms and voids, player-dealer rotation and the gaps, read back from the archive;
  :mod:`controller.pit.report.shifts`: the site's shifts and zone.
- ``controller/pit/migrations/``: the archive's schema, one numbered SQL file a version.
- :mod:`controller.pit.board.picture`: the live picture of every table (tiles, round history, alarms,
  hands per hour, the game's scoreboard), an observer of the service; :mod:`controller.pit.board.feed`
  fans its changes out to the browsers: each change encoded once, each browser a cursor, bounded.
- :mod:`controller.pit.board.web`: the pit board over HTTP (the page in ``static/``, its JSON, a
  server-sent event stream), localhost unless a password is given (:mod:`controller.pit.board.auth`);
  every connection on one thread (:mod:`controller.pit.board.loop`), capped.
- :mod:`controller.pit.checks`: what a message must be before the pit uses it (topic, JSON, schema, storable).
- :mod:`controller.pit.seqs`: one table's seqs as bounded runs (handed to the observers, known archived).
- :mod:`controller.pit.replays`: one table's ``cmd/replay`` requests: what to ask next, when, what a refusal means.
- :mod:`controller.pit.service`: the MQTT side, ``PitService``: subscribe (shared), check, observe, archive, ask.
- :mod:`controller.pit.command`: ``tablectl pit``, its options and its run.

It runs in the pit, not under a table: its dependencies (psycopg) are the ``pit`` extra.
"""
