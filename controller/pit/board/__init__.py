"""The pit board in the browser: the live picture of every table (:mod:`.picture`), fanned out to
each browser (:mod:`.feed`) over HTTP and server-sent events (:mod:`.web`), behind a login
(:mod:`.auth`); the page itself is plain HTML, CSS and JS in ``static/``."""
