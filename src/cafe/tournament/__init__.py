"""Tournaments of the café without the café: formats (Swiss, round robin, league), duplicate deals, match-point
scoring, standings and their JSON form (docs/tournaments.md).  Pure: the standard library and the rules only."""
