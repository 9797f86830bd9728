"""How many examples a slow property test runs: all of them in CI, a quarter on a laptop.

``HYPOTHESIS_PROFILE`` picks the profile (``tests/conftest.py``): ``dev`` by default, ``ci`` in
``.ci/run``. Only the slowest property tests use ``examples``; the others run the same count in
both profiles.
"""

from __future__ import annotations

import os

PROFILE = os.environ.get("HYPOTHESIS_PROFILE", "dev")


def examples(ci: int) -> int:
    """``ci`` examples under the ``ci`` profile, a quarter of them (at least one) otherwise."""
    return ci if PROFILE == "ci" else max(1, ci // 4)
