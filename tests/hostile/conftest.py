"""The hostile corpus: its docker half uses the `dockerd` session fixture (tests/docker_fixtures.py: it starts
dockerd when needed and builds the sandbox images). The corpus repositories and the kit are data, never collected."""

collect_ignore = ["corpus", "kit"]
