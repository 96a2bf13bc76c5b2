"""Device drivers: one module per device class, a pure wire codec and the I/O around it.

Drivers import only :mod:`games.cards` of the project (DESIGN.md, import rule).
"""
