"""``cafe bot``: any player (a level, or an outside engine with ``cmd:``) playing in an online café as a bot
account (docs/protocol.md, "Bots").  A client of the café's WebSocket protocol only: it imports nothing of the
server."""
