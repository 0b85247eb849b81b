"""The two sides of a white-box Python test run (docs/scoring.md "The test phase", white-box suites).

A white-box suite imports the submission's modules. Run in one process, the submission's code shares the interpreter
that decides the verdicts and can forge any of them (red team rounds 10 to 17). The platform therefore splits the run:

- the *verdict side* (`verdict_side`, a pytest plugin) runs the hidden test functions, decides every verdict and writes
  the report, as the runner user; the submission's code never runs in it, and its modules are stand-ins;
- the *application side* (`app_side`) imports the submission, sets up the suite's conftest fixtures with pytest's own
  fixture machinery and carries out the operations the verdict side asks for, as the service user, in a sandbox that
  holds the suite's conftest but none of its test modules.

They talk over one Unix socket, in JSON frames (`wire`): plain data crosses by value; any other object of the
application stays there and is named by a handle. The verdict side never unpickles, never compares through the
application (an `==`, `in` or `<` on a handle is decided on the verdict side) and never hands it its own objects.
These modules run inside the sandboxes and import only the standard library and pytest.
"""
