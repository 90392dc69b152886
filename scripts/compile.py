"""Compile the engine's modules (and the search's) with mypyc, in place, beside their source (make does it).

    python scripts/compile.py           # build the C extensions (skipped, with a note, without a C compiler)
    python scripts/compile.py --clean   # remove them: pure Python again
    python scripts/compile.py --check   # fail if a C compiler is here and the engine is not compiled (make test)
    python scripts/compile.py --list    # the source files it compiles (make rebuilds when one changes)

The same source runs either way, with the same behaviour (the whole test suite runs against both); compiled it
runs two to three times faster.  The modules are those the compiled wheel lists in pyproject.toml
(``HATCH_BUILD_HOOK_ENABLE_MYPYC=true python -m build --wheel`` builds that wheel).  Python prefers an extension
module to a source file of the same name, so once built the compiled modules are the ones imported, unless
CAFE_PURE=1 is set (see cafe/__init__.py).
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import sysconfig
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "src" / "cafe"
# the rules of both editions and what they stand on, the research interfaces' hot path and the search, as the
# compiled wheel lists them (pyproject.toml), relative to src/
COMPILED = tuple(
    str(Path(path).relative_to("src"))
    for path in tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["hatch"]["build"]["targets"]["wheel"][
        "hooks"
    ]["mypyc"]["include"]
)


def built() -> list[Path]:
    """The extension modules now beside the source (and mypyc's shared runtime module)."""
    suffix = sysconfig.get_config_var("EXT_SUFFIX")
    return sorted(p for p in PACKAGE.parent.rglob(f"*{suffix}"))


def clean() -> None:
    for path in built():
        path.unlink()
    shutil.rmtree(ROOT / "build" / "mypyc", ignore_errors=True)


def has_compiler() -> bool:
    return shutil.which((sysconfig.get_config_var("CC") or "cc").split()[0]) is not None


def compile_all() -> int:
    if not has_compiler():
        print("compile: no C compiler: the engine stays pure Python", file=sys.stderr)
        return 0
    clean()
    modules = list(COMPILED)
    env = {**os.environ, "MYPYC_OPT_LEVEL": os.environ.get("MYPYC_OPT_LEVEL", "3")}
    done = subprocess.run(
        [sys.executable, "-m", "mypyc", *modules], cwd=PACKAGE.parent, env=env, capture_output=True, text=True
    )
    shutil.rmtree(PACKAGE.parent / "build", ignore_errors=True)  # mypyc's C sources and objects
    if done.returncode != 0:
        print(done.stdout[-4000:] + done.stderr[-4000:], file=sys.stderr)
        clean()
        print("compile: mypyc failed (above): the engine stays pure Python", file=sys.stderr)
        return 0  # the game runs all the same; `--check` (make test) says so loudly
    print(f"compile: {len(built())} extension modules built with mypyc")
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--clean", action="store_true", help="remove the compiled modules")
    parser.add_argument("--check", action="store_true", help="fail if a C compiler is here and nothing is compiled")
    parser.add_argument("--list", action="store_true", help="print the source files it compiles")
    args = parser.parse_args()
    if args.list:
        print(" ".join(f"src/{path}" for path in COMPILED))
        return 0
    if args.clean:
        clean()
        return 0
    if args.check:
        if has_compiler() and not built():
            print("compile: a C compiler is here but the engine is not compiled", file=sys.stderr)
            return 1
        return 0
    return compile_all()


if __name__ == "__main__":
    sys.exit(main())
