"""Agent endpoints: the platform calls a team's agent with each task's README and scores what it returns.

- `guard`: the SSRF guard (URL and resolved-address checks). Django-free.
- `protocol`: the `agent/1` request body and the parsing of answers. Django-free.
- `client`: the HTTP client (pinned addresses, manual redirects, retries, deadline, size cap). Django-free.
- `crypto`: the endpoints' secrets, encrypted at rest.
- `services` (writes), `selectors` (reads), `api`, `views`: the Django side.
- `demo_server`: the demo agent behind `manage.py demo_agent`.
See docs/agent-protocol.md.
"""
