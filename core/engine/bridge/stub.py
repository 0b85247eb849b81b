"""The application side's only test file, copied next to the suite's conftest (see app_side.py).

`test_rg_bridge` serves one test of the verdict side each time it runs; `test_rg_bridge_next` never runs: it is the
"next item" that keeps module and session fixtures alive between two runs of the first.
"""
import rg_bridge.app_side as _host


def test_rg_bridge(request):
    _host.serve_test(request)


def test_rg_bridge_next():
    pass
