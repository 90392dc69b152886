"""Training data from self-play (``cafe selfplay``): every step a player chose, as Parquet shards.

:mod:`cafe.selfplay.games` plays one game and keeps its rows; :mod:`cafe.selfplay.shards` writes, finds and
reads the shards (``load`` gives numpy arrays for training); the schema is in docs/research.md.
"""
