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
