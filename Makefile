# Two commands on a fresh machine: `make run` (the site + worker with demo data) and `make test`.
.PHONY: run test test-slow test-all setup worker bench clean demo-agent

setup:
	scripts/bootstrap.sh

run:
	scripts/run.sh

worker: setup
	.venv/bin/celery -A config worker --loglevel=INFO --concurrency=$${EVALUATION_TASK_CONCURRENCY:-2} --without-gossip --without-mingle --without-heartbeat --beat

# Fast suite (SQLite + embedded transport); slow end-to-end suites are marked `slow`.
test: setup
	.venv/bin/python -m pytest -m "not slow and not docker" -q

# The slow suites (real worker end to end, browser, Docker backend) on SQLite + the filesystem transport, then the whole
# suite again on PostgreSQL + Redis. CI runs `make test test-slow`.
test-slow:
	WITH_BROWSER=1 scripts/bootstrap.sh
	WITH_DOCKER=1 scripts/bootstrap.sh
	.venv/bin/python -m pytest -q -m "slow or docker"
	scripts/services.sh
	DATABASE_URL=postgres://leaderboard:leaderboard@127.0.0.1:5432/test CELERY_BROKER_URL=redis://127.0.0.1:6379/0 \
		.venv/bin/python -m pytest -q -m "not browser and not docker" $(ENGINE_ONLY)

# Sandbox suites that never depend on the database engine: run once, on SQLite, not again on PostgreSQL.
ENGINE_ONLY = --ignore=tests/evaluation/test_forged_reports.py --ignore=tests/evaluation/test_java_builds.py \
	--ignore=tests/evaluation/test_runner_rules.py

test-all: test test-slow

# The demo agent endpoint (protocol agent/1) on 127.0.0.1:8765; the site must run with AGENT_ALLOWED_NETWORKS=127.0.0.1:8765.
demo-agent: setup
	.venv/bin/python manage.py demo_agent --port $${PORT:-8765} --system $${SYSTEM:-agent-alpha}

bench: setup
	.venv/bin/python bench/sandbox_overhead.py

clean:
	rm -rf var .pytest_cache
