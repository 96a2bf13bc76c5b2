"""`tablectl report`: what accounting and surveillance read back from the archive. :mod:`.query`
reads it (one read-only snapshot), :mod:`.shifts` cuts time into the site's shifts,
:mod:`.output` prints text or CSV, :mod:`.command` is the command line."""
