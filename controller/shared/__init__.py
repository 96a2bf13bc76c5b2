"""What the table daemon and the pit share, and nothing else: the event schemas (the contract of
every message on the broker, ``data/schemas/``), and how a client reaches the broker (TLS, the
socket options). Neither program's code lives here (tests/test_boundaries.py)."""
