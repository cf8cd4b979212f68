"""Hypothesis profiles. `ci`, the default (`make test`): derandomized, so every run tries
the same examples, and no deadline, since games take as long as they take. `fuzz`
(`make fuzz`, HYPOTHESIS_PROFILE=fuzz): FUZZ_EXAMPLES (default 3000) new random examples
per property; failures are kept in .hypothesis/ and tried first next time. The fuzz tests'
own small `make test` budgets are in tests/fuzz_themes.py (`budget`)."""

import os

# first, before anything loads numpy: simcore pins OpenBLAS's kernel, as it does for the CLI
# (a search's path follows the kernel; without this pytest ran under the CPU's own pick)
import simcore  # noqa: F401  # isort: skip
from hypothesis import settings

settings.register_profile("ci", derandomize=True, deadline=None, print_blob=True)
settings.register_profile(
    "fuzz",
    max_examples=int(os.environ.get("FUZZ_EXAMPLES", "3000")),
    deadline=None,
    print_blob=True,
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))
