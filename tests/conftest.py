"""Hypothesis profiles: "ci", the full runs (chosen when CI=true), and "dev", a quick look for a
developer (the default elsewhere). HYPOTHESIS_PROFILE=ci or dev chooses either. A test that names
its own number of examples keeps it in both: those numbers are what the README's test table states."""

import os

from hypothesis import HealthCheck, settings

settings.register_profile("ci", max_examples=200, deadline=None, print_blob=True)
settings.register_profile("dev", max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE") or ("ci" if os.environ.get("CI") == "true" else "dev"))
