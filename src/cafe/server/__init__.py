"""The online café: a game server (``cafe serve``), its rooms, storage and protocol (docs/protocol.md)."""
