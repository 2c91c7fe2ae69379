"""``python -m linlayout``: the ``linlayout`` command (see :mod:`linlayout.cli`)."""

import sys

from .cli import main

sys.exit(main())
