"""A Java test run that left no report says why, in fixed words (core.engine.runner.java_run_failure): a seeded demo
run once scored 0 of 15 with nothing on its page but "0 of 15 hidden tests passed" (the fresh-user pass of this
session); a missing plugin of the platform's own is a platform fault, retried, never a 0 for the team."""
from __future__ import annotations

import pytest

from core.engine.runner import java_run_failure
from core.sandbox import ExecResult, SandboxError

HIDDEN_LINE = "[ERROR] src/test/java/com/x/SecretTest.java:[12,8] cannot find symbol: assertSecretAnswer"


def _run(output: str, code: int = 1) -> ExecResult:
    return ExecResult(returncode=code, output=output, timed_out=False, duration=3.0)


def test_hidden_tests_that_do_not_compile_are_said_so_without_quoting_javac():
    why = java_run_failure(_run(f"[ERROR] COMPILATION ERROR :\n{HIDDEN_LINE}\n[INFO] BUILD FAILURE"), compiling=True)
    assert why.startswith("the hidden tests did not compile against the build's classes and class path (Maven "
                          "exited with 1)")
    assert "Secret" not in why and "assert" not in why


def test_a_missing_platform_plugin_is_a_platform_fault():
    output = ("[ERROR] Plugin org.apache.maven.plugins:maven-surefire-plugin:3.5.4 or one of its dependencies could "
              "not be resolved: Cannot access central in offline mode")
    with pytest.raises(SandboxError, match="pinned plugins"):
        java_run_failure(_run(output), compiling=False)
    provider = ("[ERROR] Failed to execute goal ... org.apache.maven.surefire:surefire-junit-platform:jar:3.5.4 has "
                "not been downloaded from it before")
    with pytest.raises(SandboxError):
        java_run_failure(_run(provider), compiling=False)


def test_a_platform_fault_the_console_claims_counts_only_when_confirmed_outside_it():
    """Red team round 20: the test JVM printed the launcher's refusal (or a missing plugin of the platform's),
    deleted its reports and halted, and each bad run became an unscored retry. The claim is checked where the test
    JVM cannot reach (TaskRun._platform_fault_confirmed); unconfirmed, the run is the submission's."""
    from core.engine.jvm_domain import LAUNCH_REFUSED

    asked = []

    def refuted(claim: str) -> bool:
        asked.append(claim)
        return False

    launch = f"{LAUNCH_REFUSED} Operation not permitted\n[ERROR] The forked VM terminated without properly saying goodbye."
    assert java_run_failure(_run(launch), compiling=False, confirmed=refuted).startswith(
        "the test JVM ended before the tests did")
    plugin = ("[ERROR] Plugin org.apache.maven.plugins:maven-surefire-plugin:3.5.4 or one of its dependencies could "
              "not be resolved: Cannot access central in offline mode")
    assert java_run_failure(_run(plugin), compiling=False, confirmed=refuted).startswith(
        "the test run could not resolve an artifact of the build's class path")
    assert asked == ["launch", "plugins"]
    with pytest.raises(SandboxError, match="Landlock"):
        java_run_failure(_run(launch), compiling=False, confirmed=lambda claim: True)


def test_an_artifact_of_the_builds_class_path_that_is_missing_is_the_submissions():
    output = ("[ERROR] Failed to execute goal on project x: Could not resolve dependencies for project x: "
              "com.acme:homemade:jar:1.0 was not found")
    why = java_run_failure(_run(output), compiling=True)
    assert why.startswith("the test run could not resolve an artifact of the build's class path (Maven exited with "
                          "1)") and "acme" not in why


def test_a_test_jvm_that_ended_early_and_a_run_with_no_report():
    crashed = java_run_failure(_run("[ERROR] ExecutionException The forked VM terminated without properly saying "
                                    "goodbye. VM crash or System.exit called?"), compiling=False)
    assert crashed == ("the test JVM ended before the tests did and wrote no report (Maven exited with 1): "
                       "System.exit, or a crash")
    assert java_run_failure(_run("[INFO] nothing to say", 0), compiling=False) == \
        "the test run wrote no report (Maven exited with 0)"


def test_a_flood_of_report_files_is_listed_no_further_than_the_limit(tmp_path):
    """Red team round 16: 2.5 M empty TEST-*.xml files took the worker 1.4 GB to list before the limit was checked;
    one past MAX_REPORT_FILES is enough for parse_junit to refuse the run as forged."""
    from core.engine.runner import surefire_reports
    from core.grading.junit import MAX_REPORT_FILES, ForgedReport, parse_junit

    reports = tmp_path / "surefire-reports"
    reports.mkdir()
    for n in range(MAX_REPORT_FILES + 500):
        (reports / f"TEST-{n:05d}.xml").touch()
    (reports / "TEST-x.txt").touch()
    (reports / "other.xml").touch()
    listed = surefire_reports(reports)
    assert len(listed) == MAX_REPORT_FILES + 1 and listed == sorted(listed)
    assert all(p.name.startswith("TEST-") and p.suffix == ".xml" for p in listed)
    with pytest.raises(ForgedReport):
        parse_junit(listed)
    assert surefire_reports(tmp_path / "absent") == []
    few = tmp_path / "few"
    few.mkdir()
    for name in ("TEST-b.xml", "TEST-a.xml"):
        (few / name).touch()
    assert [p.name for p in surefire_reports(few)] == ["TEST-a.xml", "TEST-b.xml"]
