"""The other side of the protocol: an outside engine as a player (``cmd:COMMAND`` in the arena)."""

from __future__ import annotations

import json
import queue
import shlex
import subprocess
import threading
from collections.abc import Sequence

from cafe.ai.levels import PlayerSpecError
from cafe.engine import PROTOCOL
from cafe.errors import CafeError
from cafe.i18n import T
from cafe.steps import Step, parse_step
from cafe.view import View

HELLO_SECONDS = 30.0  # to start and answer the handshake
ANSWER_SECONDS = 120.0  # to answer one 'go'


class EngineError(CafeError):
    """An outside engine did not answer, answered nonsense, or chose an illegal step."""


def cmd_player(command: str, seed: int | None = None) -> EnginePlayer:
    """``cmd:COMMAND``, as cafe.ai.levels names it through the ``cafe.players`` entry points (pyproject.toml): the
    engine is started with ``COMMAND``; the seed is the engine's own business."""
    if not command.strip():
        raise PlayerSpecError(T("cmd: needs the command that starts the engine, like cmd:cafe engine"))
    return EnginePlayer(command)


class EnginePlayer:
    """A player whose choices come from an outside program speaking the engine protocol."""

    def __init__(self, command: str, answer_seconds: float = ANSWER_SECONDS) -> None:
        self.command = command
        self.name = f"cmd:{command}"
        self.answer_seconds = answer_seconds
        try:
            self._process = subprocess.Popen(
                shlex.split(command),
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
                text=True,
                bufsize=1,
            )
        except OSError as error:
            raise EngineError(
                T("cannot start engine '{command}': {reason}", command=command, reason=str(error.strerror or error))
            ) from None
        self._lines: queue.Queue[str | None] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()
        self._send(PROTOCOL)
        self.wants_legal = False  # the engine asked for the legal steps before each 'go' (docs/engine.md)
        for line in self._until(f"{PROTOCOL}ok", HELLO_SECONDS):
            if line.startswith("id name "):
                self.engine_name = line.removeprefix("id name ")
            self.wants_legal |= line.split()[:3] == ["option", "name", "legal"]
        if self.wants_legal:
            self._send("setoption name legal value true")

    def choose(self, view: View, legal: Sequence[Step]) -> Step:
        self._send("position view " + json.dumps(view.to_json(), separators=(",", ":")))
        if self.wants_legal:
            self._send("legal " + " ".join(str(step) for step in legal))
        self._send("go")
        for line in self._until("bestmove ", self.answer_seconds):
            if line.startswith("error "):
                raise EngineError(
                    T("engine '{command}' said: {words}", command=self.command, words=line.removeprefix("error "))
                )
        text = self._last.removeprefix("bestmove ").strip()
        try:
            step = parse_step(text)
        except CafeError as error:
            raise EngineError(
                T("engine '{command}' answered '{text}': {error}", command=self.command, text=text, error=str(error))
            ) from None
        if step not in legal:
            raise EngineError(
                T("engine '{command}' chose {step}, which is not legal here", command=self.command, step=str(step))
            )
        return step

    def close(self) -> None:
        """Ask the engine to quit; stop it if it does not."""
        if self._process.poll() is None:
            try:
                self._send("quit")
                self._process.wait(timeout=5)
            except (EngineError, subprocess.TimeoutExpired):
                self._process.kill()
                self._process.wait()

    def _send(self, line: str) -> None:
        stdin = self._process.stdin
        assert stdin is not None
        try:
            stdin.write(line + "\n")
            stdin.flush()
        except (BrokenPipeError, OSError):
            raise EngineError(T("engine '{command}' has stopped", command=self.command)) from None

    def _read(self) -> None:
        stdout = self._process.stdout
        assert stdout is not None
        for line in stdout:
            self._lines.put(line.rstrip("\n"))
        self._lines.put(None)

    def _until(self, prefix: str, seconds: float) -> list[str]:
        """The lines up to and including the first starting with ``prefix`` (kept in ``_last``)."""
        seen: list[str] = []
        while True:
            try:
                line = self._lines.get(timeout=seconds)
            except queue.Empty:
                raise EngineError(
                    T(
                        "engine '{command}' gave no '{answer}' within {seconds:g} s",
                        command=self.command,
                        answer=prefix.strip(),
                        seconds=seconds,
                    )
                ) from None
            if line is None:
                raise EngineError(
                    T(
                        "engine '{command}' stopped before answering '{answer}'",
                        command=self.command,
                        answer=prefix.strip(),
                    )
                )
            seen.append(line)
            if line.startswith(prefix) or (line.startswith("error ") and prefix == "bestmove "):
                self._last = line
                return seen
