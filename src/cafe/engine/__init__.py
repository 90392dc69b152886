"""The engine protocol: a bot behind a line protocol on stdin/stdout, like chess's UCI (docs/engine.md)."""

PROTOCOL = "cep"  # the handshake word: Café engine protocol
