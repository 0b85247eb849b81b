"""gunicorn's settings for the web role (`gunicorn -c config/gunicorn.py config.wsgi`), from the environment.

Used by `make run` (scripts/run.sh), the site image's `web` role (docker/site/entrypoint.sh) and docs/deploy.md.
Every value can still be overridden on the command line (gunicorn applies its flags after this file).

| variable | default | meaning |
|---|---|---|
| `WEB_CONCURRENCY` | 2 | worker processes (the convention Heroku and gunicorn share; about 2 per core) |
| `GUNICORN_BIND` | `127.0.0.1:8000`, or `0.0.0.0:$PORT` when `PORT` is set | address to listen on |
| `GUNICORN_TIMEOUT` | 120 | seconds a request may take before its worker is restarted (uploads are checked in it) |
| `GUNICORN_MAX_REQUESTS` | 2000 | requests before a worker is replaced (with up to 10% jitter), bounding slow leaks |

The access log goes to stdout and the error log to stderr: the process manager (compose, systemd) keeps them.
"""
import os

_port = os.environ.get("PORT", "")
bind = os.environ.get("GUNICORN_BIND") or (f"0.0.0.0:{_port}" if _port else "127.0.0.1:8000")
workers = int(os.environ.get("WEB_CONCURRENCY", "2"))
timeout = int(os.environ.get("GUNICORN_TIMEOUT", "120"))
graceful_timeout = 30
keepalive = 5
max_requests = int(os.environ.get("GUNICORN_MAX_REQUESTS", "2000"))
max_requests_jitter = max_requests // 10
accesslog = "-"  # stdout
errorlog = "-"  # stderr
# The client's address as the TLS proxy reports it, plus the request's duration in microseconds (%(D)s).
access_log_format = '%({x-forwarded-for}i)s %(h)s "%(r)s" %(s)s %(b)s %(D)sus "%(a)s"'
forwarded_allow_ips = os.environ.get("FORWARDED_ALLOW_IPS", "127.0.0.1")
# Temporary request files in memory, not on a container's (possibly read-only, slow) disk.
worker_tmp_dir = "/dev/shm" if os.path.isdir("/dev/shm") else None
