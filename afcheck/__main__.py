"""``python -m afcheck`` is the ``afcheck`` command."""

import sys

from afcheck.cli import main

sys.exit(main())
