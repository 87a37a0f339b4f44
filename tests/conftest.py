"""Shared test settings: hypothesis is derandomized so every run tries the same cases."""

import os

import pytest
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


def _shard(spec: str) -> tuple[int, int]:
    """``"k/n"`` (0 ≤ k < n) as ``(k, n)``."""
    try:
        k, n = (int(part) for part in spec.split("/"))
    except ValueError:
        raise pytest.UsageError(f"CT_SHARD must read k/n (such as 0/2), not {spec!r}") from None
    if not 0 <= k < n:
        raise pytest.UsageError(f"CT_SHARD {spec!r}: k must be at least 0 and less than n")
    return k, n


def pytest_collection_modifyitems(config, items):
    """``CT_SHARD=k/n`` runs every n-th test from the k-th (`make test` runs the Pyodide suite
    as two such halves side by side with CPython: together they are every test, once)."""
    spec = os.environ.get("CT_SHARD")
    if spec:
        k, n = _shard(spec)
        kept = [item for i, item in enumerate(items) if i % n == k]
        config.hook.pytest_deselected(items=[item for i, item in enumerate(items) if i % n != k])
        items[:] = kept
    _cap_examples(items)


def _cap_examples(items):
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
