"""Dedicated presenters, one module per game; importing this package registers them all."""

from . import bag_of_bugs, bug_off, bug_run, bugs_and_co  # noqa: F401
