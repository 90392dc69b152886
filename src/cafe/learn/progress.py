"""What a person has done of the tutorial in the terminal: a small JSON file in their data directory
(``$XDG_DATA_HOME/cafe-international/lessons.json``, else ``~/.local/share/...``).  The café keeps its own in the
browser."""

from __future__ import annotations

import json
import os
from pathlib import Path


def default_path() -> Path:
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "cafe-international" / "lessons.json"


class Progress:
    """The lessons done and skipped, kept in ``path`` after every change; an unreadable file counts as none done."""

    def __init__(self, path: Path | None = None) -> None:
        self.path = path or default_path()
        self.done: list[str] = []
        self.skipped: list[str] = []
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
            self.done = [str(i) for i in data.get("done", [])]
            self.skipped = [str(i) for i in data.get("skipped", [])]
        except (OSError, ValueError, AttributeError):
            pass

    def mark(self, lesson_id: str, done: bool) -> None:
        """A lesson done (or skipped: a skipped lesson done later counts as done)."""
        if done:
            self.done = [*dict.fromkeys([*self.done, lesson_id])]
            self.skipped = [i for i in self.skipped if i != lesson_id]
        elif lesson_id not in self.done:
            self.skipped = [*dict.fromkeys([*self.skipped, lesson_id])]
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.path.write_text(json.dumps({"done": self.done, "skipped": self.skipped}) + "\n", encoding="utf-8")

    def next_of(self, ids: list[str]) -> int:
        """Where to begin: the first lesson neither done nor skipped (the first of all when every one is)."""
        return next((k for k, i in enumerate(ids) if i not in self.done and i not in self.skipped), 0)
