def pytest_addoption(parser):
    parser.addoption(
        "--regen-golden",
        action="store_true",
        help="rewrite tests/golden/ from the current output instead of comparing with it",
    )
