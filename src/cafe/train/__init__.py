"""``cafe train``: the master's learned evaluation (cafe.ai.learned), made again from self-play."""
