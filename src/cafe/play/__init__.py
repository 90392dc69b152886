"""Playing in the terminal: a game session (seats, moves, undo, hints, saving) and its Textual interface."""
