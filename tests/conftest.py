"""Hypothesis profiles: "ci", the full runs (chosen when CI=true), and "dev", a quick look for a
developer (the default elsewhere). HYPOTHESIS_PROFILE=ci or dev chooses either. A test that names
its own number of examples keeps it in both: those numbers are what the README's test table states.
Every test keeps players' data in a folder of its own."""

import os
from pathlib import Path

import pytest

from hypothesis import HealthCheck, settings

settings.register_profile("ci", max_examples=200, deadline=None, print_blob=True)
settings.register_profile("dev", max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE") or ("ci" if os.environ.get("CI") == "true" else "dev"))


@pytest.fixture(autouse=True)
def data_folder_of_its_own(tmp_path_factory, monkeypatch):
    """Each test keeps what players own (and a server's tables) in a folder of its own, never in the
    data folder of whoever runs the tests."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path_factory.mktemp("data")))


SLOW = frozenset(
    line.strip()
    for line in (Path(__file__).parent / "slow.txt").read_text().splitlines()
    if line.strip() and not line.startswith("#")
)


def pytest_collection_modifyitems(items):
    """Mark `slow` the tests listed in slow.txt and every test that runs the genuine ROM, so that
    `python -m pytest -m "not slow"` is the quick loop."""
    for item in items:
        module = Path(str(item.path)).name
        if module in SLOW or f"{module}::{item.originalname}" in SLOW or item.get_closest_marker("rom"):
            item.add_marker(pytest.mark.slow)


@pytest.fixture(scope="session")
def postgres():
    """A throwaway PostgreSQL cluster on loopback for the whole run (tests/cluster_parts.py),
    skipped saying why when PostgreSQL or psycopg is not installed."""
    from cluster_parts import Postgres, postgres_missing

    missing = postgres_missing()
    if missing:
        pytest.skip(missing)
    cluster = Postgres()
    yield cluster
    cluster.stop()


@pytest.fixture
def database(postgres, request):
    """A fresh database of its own in the throwaway cluster: its URL."""
    import re
    import secrets

    return postgres.new_database(
        f"t_{re.sub(r'[^a-z0-9]', '_', request.node.name.lower())[:40]}_{secrets.token_hex(3)}"
    )
