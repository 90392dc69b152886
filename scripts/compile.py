"""Compile the engine's modules with mypyc, in place, beside their source (make does it after installing).

    python scripts/compile.py           # build the C extensions (skipped, with a note, without a C compiler)
    python scripts/compile.py --clean   # remove them: pure Python again

The same source runs either way, with the same behaviour (the whole test suite runs against both); compiled it
runs two to three times faster.  Python prefers an extension module to a source file of the same name, so once
built the compiled modules are the ones imported, unless CAFE_PURE=1 is set (see cafe/__init__.py).
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "src" / "cafe"
# the rules of both editions and what they stand on: every step of every game runs through these
COMPILED = (
    "frozen", "tiles", "steps", "errors", "options", "layout", "board_state", "card_state", "game", "board_game",
    "card_game", "view",
)  # fmt: skip


def built() -> list[Path]:
    """The extension modules now beside the source (and mypyc's shared runtime module)."""
    suffix = sysconfig.get_config_var("EXT_SUFFIX")
    return sorted(p for p in PACKAGE.parent.rglob(f"*{suffix}"))


def clean() -> None:
    for path in built():
        path.unlink()
    shutil.rmtree(ROOT / "build" / "mypyc", ignore_errors=True)


def compile_all() -> int:
    compiler = sysconfig.get_config_var("CC") or "cc"
    if shutil.which(compiler.split()[0]) is None:
        print(f"compile: no C compiler ({compiler}): the engine stays pure Python", file=sys.stderr)
        return 0
    clean()
    modules = [f"cafe/{name}.py" for name in COMPILED]
    env = {**os.environ, "MYPYC_OPT_LEVEL": os.environ.get("MYPYC_OPT_LEVEL", "3")}
    done = subprocess.run(
        [sys.executable, "-m", "mypyc", *modules], cwd=PACKAGE.parent, env=env, capture_output=True, text=True
    )
    shutil.rmtree(PACKAGE.parent / "build", ignore_errors=True)  # mypyc's C sources and objects
    if done.returncode != 0:
        print(done.stdout[-4000:] + done.stderr[-4000:], file=sys.stderr)
        clean()
        print("compile: mypyc failed: the engine stays pure Python", file=sys.stderr)
        return 1
    print(f"compile: {len(built())} extension modules built with mypyc")
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--clean", action="store_true", help="remove the compiled modules")
    args = parser.parse_args()
    if args.clean:
        clean()
        return 0
    return compile_all()


if __name__ == "__main__":
    sys.exit(main())
