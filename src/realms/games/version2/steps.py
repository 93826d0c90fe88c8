"""The registry every phase module adds its steps to."""

from realms.core.engine import Steps

STEPS = Steps("version2")
