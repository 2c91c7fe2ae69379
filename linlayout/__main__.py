"""``python -m linlayout``: the ``linlayout`` command (see :mod:`linlayout.app.cli`)."""

import sys

from .app.cli import main

sys.exit(main())
