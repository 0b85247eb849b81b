"""`manage.py demo_agent --port 8765 [--system agent-alpha|agent-beta|reference] [--secret S] [--async]`.

Serves an `agent/1` endpoint on 127.0.0.1 that answers each task with the demo submission's folder
(benchmarks/demo-submissions/<system>/<task>/) or the task's reference (benchmarks/demo/<task>/reference),
as a zip. Register http://127.0.0.1:<port>/ as a system's endpoint (with AGENT_ALLOWED_NETWORKS=127.0.0.1:<port>
set for the site and the worker, since loopback is refused otherwise), then press "Run on split".
"""
from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand

from submissions.agents.demo_server import folder_source, make_server

SYSTEMS = ("agent-alpha", "agent-beta", "reference")


class Command(BaseCommand):
    help = "Run the demo agent endpoint (agent/1) on 127.0.0.1, answering from the demo submissions."

    def add_arguments(self, parser):
        parser.add_argument("--port", type=int, default=8765)
        parser.add_argument("--system", choices=SYSTEMS, default="agent-alpha")
        parser.add_argument("--secret", default="", help="require this bearer secret (default: accept any caller)")
        parser.add_argument("--async", dest="asynchronous", action="store_true",
                            help="answer 202 + Location and let the platform poll")
        parser.add_argument("--delay", type=float, default=0.0, help="seconds each answer takes")

    def handle(self, *args, **opts):
        base = Path(settings.BASE_DIR) / "benchmarks"
        if opts["system"] == "reference":
            source = folder_source(base / "demo", subfolder="reference")
        else:
            source = folder_source(base / "demo-submissions" / opts["system"])
        server = make_server(port=opts["port"], source=source, secret=opts["secret"],
                             asynchronous=opts["asynchronous"], delay=opts["delay"],
                             log=lambda line: self.stdout.write(line))
        host, port = server.server_address[:2]
        self.stdout.write(f"demo agent ({opts['system']}) on http://{host}:{port}/  (Ctrl-C stops it)")
        try:
            server.serve_forever()
        except KeyboardInterrupt:
            pass
        finally:
            server.server_close()
