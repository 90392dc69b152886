"""Teaching the game: how to play each edition, lessons that make a person do the moves, and puzzles mined from the
computer players' games. The terminal and the café both show what this package holds."""
