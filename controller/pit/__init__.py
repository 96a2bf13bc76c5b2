"""The pit service (issue 10): what the pit opens, fed by every table's events over MQTT.

- :mod:`controller.pit.archive`: every event of every table in PostgreSQL, keyed by (table, seq),
  with the gaps a table's seq shows and what became of each (docs/pit.md).
- :mod:`controller.pit.report` (:mod:`~controller.pit.report_output`, :mod:`~controller.pit.report_cli`):
  `tablectl report`, hands per hour, results by shift, alarms and voids, player-dealer rotation and
  the gaps, read back from the archive; :mod:`controller.pit.shifts`: the site's shifts and zone.
- ``controller/pit/migrations/``: the archive's schema, one numbered SQL file a version.

It runs in the pit, not under a table: its dependencies (psycopg) are the ``pit`` extra.
"""
