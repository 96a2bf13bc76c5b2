"""`tablectl bench`: a harness that drives the simulated table and times the real daemon from outside.

The benchmark is a tool, not part of the daemon, so it lives here and imports
nothing of controller/ (DESIGN.md, import rule): the controller it measures
is always a child process (``python -m controller.cli run --config FILE``),
the table configs it deals are TOML it writes itself from the game registry
(hw_sim.table_config), and its pit clients are plain paho-mqtt.

- ``harness``: the figures (latency, throughput, many tables, footprint) and
  ``run(args)``, which `tablectl bench` calls with its parsed arguments
  (controller/cli.py defines them and imports this package only then, so a
  production ``tablectl run`` never loads it);
- ``proc``: child processes, READY=1, CPU and memory from /proc;
- ``report``: percentiles, pairing cards with events, the tables printed;
- ``workers``, ``sim_worker``: the child processes, ``python -m hw_sim.bench
  worker ROLE`` (the pit subscriber, the bare pipeline, the simulated table).

Importing this package imports nothing else: a worker loads only what it needs.
"""
