"""``python -m cafe``: the same as the ``cafe`` command."""

import sys

from cafe.cli import main

sys.exit(main())
