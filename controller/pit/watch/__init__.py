"""`tablectl watch`: the pit in a terminal. :mod:`.command` follows one table's events (or asks
for gaps, ``--replay``); without ``--table`` it shows every table at a glance (:mod:`.glance`, drawn
by :mod:`.screen`), from the same picture the board shows."""
