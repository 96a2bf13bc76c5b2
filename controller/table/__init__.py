"""The table daemon: the program under the table, on its Raspberry Pi (`tablectl run`).

It owns the devices, the round machine, the journal and the table's MQTT session; it imports
nothing of the pit (tests/test_boundaries.py) and runs without the pit's dependencies.

- :mod:`~controller.table.loop`: ``Table``, the one thread that owns the round machine and
  hands each item of its inbox on; the concerns it hands out are the modules below.
- :mod:`~controller.table.app`: builds a table from its config (drivers, lights, journal, MQTT).
- :mod:`~controller.table.inbox`, :mod:`~controller.table.reactor`: the one queue every input
  arrives on, and the wait on it and on the MQTT socket together.
- :mod:`~controller.table.journal` (``journal_check``, ``journal_clock``, ``journal_admin``): the
  SQLite journal, the outbox every event is written to before it is published.
- :mod:`~controller.table.publisher`: the table's MQTT client: birth, state, events, replies.
- :mod:`~controller.table.commands`, :mod:`~controller.table.answered`: pit commands, checked, and
  answered once however often they come.
- :mod:`~controller.table.config` (``config_schema``): the table's TOML config, every error at once.
- :mod:`~controller.table.dice_stats` (``chi_square``): the dice cups' live bias test.
- :mod:`~controller.table.secrecy`: what must wait for a face-down card to be turned up.
- :mod:`~controller.table.instance_lock`, :mod:`~controller.table.sdnotify`: one controller per
  journal; systemd's notify and watchdog.
"""
