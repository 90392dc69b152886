"""A PostgreSQL and a Redis server of a test's own, which it may stop and start again (the shared ones of
scripts/with-services.sh serve other tests meanwhile).  The binaries are Debian's, which that script installs."""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

from servers import free_port


def _pg_bin() -> Path:
    found = sorted(Path("/usr/lib/postgresql").glob("*/bin"), key=lambda p: int(p.parent.name))
    if not found or shutil.which("redis-server") is None:
        raise AssertionError("PostgreSQL and Redis are not installed: run the tests under scripts/with-services.sh")
    return found[-1]


class OwnPostgres:
    """A throw-away cluster on a loopback port; ``stop`` ends every session as a restart does."""

    def __init__(self) -> None:
        self.bin = _pg_bin()
        self.dir = Path(tempfile.mkdtemp(prefix="cafe-pg-"))
        self.dir.chmod(0o755)
        self.port = free_port()
        self.as_owner: list[str] = []
        if os.getuid() == 0:  # PostgreSQL will not run as root
            shutil.chown(self.dir, "postgres")
            self.as_owner = ["runuser", "-u", "postgres", "--"]
        self._run("initdb", "-D", str(self.dir / "pg"), "-A", "trust", "-U", "cafe")
        self.start()
        self._run("createdb", "-h", "127.0.0.1", "-p", str(self.port), "-U", "cafe", "cafe")
        self.url = f"postgresql://cafe@127.0.0.1:{self.port}/cafe"

    def _run(self, program: str, *args: str) -> None:
        subprocess.run([*self.as_owner, str(self.bin / program), *args], check=True, capture_output=True)

    def start(self) -> None:
        options = f"-p {self.port} -k {self.dir} -c listen_addresses=127.0.0.1 -c fsync=off"
        self._run("pg_ctl", "-D", str(self.dir / "pg"), "-l", str(self.dir / "pg.log"), "-w", "-o", options, "start")

    def stop(self) -> None:
        self._run("pg_ctl", "-D", str(self.dir / "pg"), "-m", "fast", "-w", "stop")

    def remove(self) -> None:
        subprocess.run([*self.as_owner, str(self.bin / "pg_ctl"), "-D", str(self.dir / "pg"), "-m", "immediate",
                        "stop"], capture_output=True)  # fmt: skip
        shutil.rmtree(self.dir, ignore_errors=True)


class OwnRedis:
    """A Redis that keeps nothing on disk: started again, it has forgotten every key, as after a crash."""

    def __init__(self) -> None:
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.process: subprocess.Popen[bytes] | None = None
        self.start()

    def start(self) -> None:
        self.process = subprocess.Popen(
            ["redis-server", "--bind", "127.0.0.1", "--port", str(self.port), "--save", "", "--appendonly", "no"],
            stdout=subprocess.DEVNULL,
        )
        for _ in range(100):
            done = subprocess.run(["redis-cli", "-p", str(self.port), "ping"], capture_output=True, text=True)
            if done.stdout.strip() == "PONG":
                return
            time.sleep(0.05)
        raise AssertionError("Redis did not start")

    def kill(self) -> None:
        assert self.process is not None
        self.process.kill()
        self.process.wait()
        self.process = None

    def remove(self) -> None:
        if self.process is not None:
            self.kill()
