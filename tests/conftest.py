"""The test tiers.

``pytest`` (and ``./run test``) runs the fast suite: every test not marked as one of the
long tiers below. ``pytest --all`` (``./run test --all``, ``.ci/run``) adds them. A run that
names its own ``-m`` expression chooses for itself.

- ``slow``: soak runs of many whole games (``REALMS_SOAK=1`` makes them long);
- ``browser``: Playwright driving Debian's chromium (they also need ``REALMS_BROWSER=1``);
- ``postgres``: the storage tests on a PostgreSQL server (they also need
  ``REALMS_TEST_POSTGRES=postgresql://…``).
"""

from __future__ import annotations

import pytest

#: The markers of the tiers ``--all`` adds to the fast suite.
LONG_TIERS = ("slow", "browser", "postgres")


def pytest_addoption(parser) -> None:
    parser.addoption("--all", action="store_true", dest="all_tiers",
                     help="run every tier: the fast suite plus " + ", ".join(LONG_TIERS))


def pytest_collection_modifyitems(config, items) -> None:
    if config.getoption("all_tiers") or config.getoption("markexpr"):
        return
    kept, left = [], []
    for item in items:
        (left if any(item.get_closest_marker(m) for m in LONG_TIERS) else kept).append(item)
    if left:
        config.hook.pytest_deselected(items=left)
        items[:] = kept
