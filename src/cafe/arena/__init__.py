"""The arena: seeded games between players, in duplicate, and honest statistics about them."""
