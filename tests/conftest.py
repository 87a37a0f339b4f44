"""Shared test settings: hypothesis is derandomized so every run tries the same cases."""

import os

from hypothesis import HealthCheck, Phase, settings

settings.register_profile(
    "default",
    derandomize=True,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile("fuzz", parent=settings.get_profile("default"), max_examples=5000)
# `make mutate` runs the engine tests once per mutant: fewer examples and no shrinking
# (a mutant only needs to be caught, not explained), so the run stays within minutes.
settings.register_profile("mutate", parent=settings.get_profile("default"), max_examples=25,
                          phases=[Phase.explicit, Phase.reuse, Phase.generate], database=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))


def pytest_collection_modifyitems(items):
    """Under the "mutate" profile a test's own ``@settings(max_examples=…)`` is capped at the
    profile's count too: mutmut runs every test that reaches a mutant, once per mutant, and a
    survivor runs them all (a 600-example test made one campaign survivor cost minutes)."""
    if os.environ.get("HYPOTHESIS_PROFILE") != "mutate":
        return
    cap = settings.get_profile("mutate").max_examples
    for item in items:
        test = getattr(getattr(item, "obj", None), "__func__", getattr(item, "obj", None))
        own = getattr(test, "_hypothesis_internal_use_settings", None)
        if own is not None and own.max_examples > cap:
            test._hypothesis_internal_use_settings = settings(own, max_examples=cap)
