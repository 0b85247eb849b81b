"""The hostile corpus: its docker half uses the `dockerd` session fixture of the docker backend's tests
(it starts dockerd when needed and builds the sandbox images). The corpus repositories and the kit are data,
never collected."""
from tests.sandbox_docker.conftest import dockerd  # noqa: F401

collect_ignore = ["corpus", "kit"]
