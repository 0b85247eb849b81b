# Two commands on a fresh machine: `make run` (the site + worker with demo data) and `make test`.
.PHONY: run test test-slow test-all setup worker bench clean demo-agent mutate

setup:
	scripts/bootstrap.sh

run:
	scripts/run.sh

# One worker for the teams' queue, one (concurrency 1, with beat) for the background queue: scripts/worker.sh.
worker: setup
	scripts/worker.sh

# Fast suite (SQLite + embedded transport); slow end-to-end suites are marked `slow`.
test: setup
	.venv/bin/python -m pytest -m "not slow and not docker" -q

# The slow suites (real worker end to end, browser, Docker backend, real Maven and pytest runs) once, on PostgreSQL +
# Redis (the production configuration; scripts/services.sh installs and starts both), and alongside them
# (scripts/test-slow.sh) the fast suites that touch the database again on PostgreSQL (the fast suite already ran on
# SQLite + the embedded transport: `make test`). CI runs `make test test-slow`. REQUIRE_SANDBOX=1: a sandbox test fails, never skips, on a machine without bubblewrap
# (tests/evaluation/test_sandbox_local.py).
test-slow:
	WITH_BROWSER=1 scripts/bootstrap.sh
	WITH_DOCKER=1 scripts/bootstrap.sh
	scripts/services.sh
	scripts/test-slow.sh $(NO_DATABASE)

# Fast suites that never open the database: run once, in `make test`.
NO_DATABASE = --ignore=tests/grading --ignore=tests/hostile --ignore=tests/evaluation/test_engine_archive.py \
	--ignore=tests/evaluation/test_engine_layout.py --ignore=tests/evaluation/test_test_run_integrity.py \
	--ignore=tests/evaluation/test_sandbox_local.py

test-all: test test-slow

# The demo agent endpoint (protocol agent/1) on 127.0.0.1:8765; the site must run with AGENT_ALLOWED_NETWORKS=127.0.0.1:8765.
demo-agent: setup
	.venv/bin/python manage.py demo_agent --port $${PORT:-8765} --system $${SYSTEM:-agent-alpha}

# Mutation testing of the scoring core and the archive checks (docs/mutation.md; config in setup.cfg): mutants are made
# in a copy under mutants/ and run against the fast grading and archive tests. One module at a time:
# `make mutate MUTANTS='core.grading.bootstrap*'`.
mutate: setup
	.venv/bin/mutmut run --max-children $${MUTATE_JOBS:-2} $(MUTANTS)
	.venv/bin/mutmut results

bench: setup
	.venv/bin/python bench/sandbox_overhead.py

clean:
	rm -rf var .pytest_cache
