"""Hypothesis profiles: ``dev`` (the default, quick) and ``ci`` (more examples), chosen by
``HYPOTHESIS_PROFILE``. Neither has a deadline: a loaded machine must not fail a test."""

from __future__ import annotations

from hypothesis import HealthCheck, settings

from tests.support.examples import PROFILE

settings.register_profile(
    "dev", max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile(
    "ci", max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.load_profile(PROFILE)
