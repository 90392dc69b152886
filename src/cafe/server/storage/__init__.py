"""The café's storage: everything the server keeps, in SQLite (:mod:`~cafe.server.storage.store`, which also
defines the interface and the rows both stores share) or PostgreSQL (:mod:`~cafe.server.storage.postgres`, over
the connection pool of :mod:`~cafe.server.storage.database`), with their schemas and migrations.  Each kind of
row beyond the rooms and their steps is a mixin of its own (``*_rows.py``, :mod:`~cafe.server.storage.invitations`),
written once for both stores.

The storage is the bottom of the server: it knows nothing of connections, tables or due work
(tests/test_layers.py checks that it imports none of them).
"""
