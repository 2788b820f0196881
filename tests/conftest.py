import os

from hypothesis import settings

# In CI the examples are derived from the test names, so a run gives the same result twice.
settings.register_profile("ci", derandomize=True, database=None)
if os.environ.get("CI"):
    settings.load_profile("ci")


def pytest_addoption(parser):
    parser.addoption(
        "--regen-golden",
        action="store_true",
        help="rewrite tests/golden/ from the current output instead of comparing with it",
    )
