"""Evaluating one task of one submission in a sandbox: docs/scoring.md "The run of one task", every phase.

The first phase that fails sets the outcome; hidden tests still count in the denominator. Faults of
the platform raise `SandboxError` (the caller records `harness_error` and retries); faults of the
submission are results.
"""
from __future__ import annotations

import functools
import json
import math
import os
import re
import shutil
import stat
import time
import uuid
from collections import Counter
from collections.abc import Callable
from contextlib import nullcontext
from dataclasses import dataclass
from pathlib import Path

from core.grading.endpoints import Endpoint
from core.grading.static_routes import static_routes_check
from core.grading.junit import MAX_REPORT_FILES, ForgedReport, JUnitError, JUnitResult, Status, parse_junit
from core.grading.probe import lookalike_vocabulary, probe_endpoints
from core.sandbox import ExecResult, Mount, Role, SandboxBackend, SandboxError, ServiceHandle, TaskSandbox
from core.sandbox.cgroups import ResourceLimits

from .layout import find_requirements, find_start_script, inside
from .readiness import port_state
from .runner_env import ensure_runner_env
from .sentinels import CASES_PER_RUN, RECORD_BYTES, Sentinels, recorded_passes
from .spec import EndpointEvidence, Phase, TaskEvaluation, TaskSpec, TestCaseResult
from .toolchain import Toolchain
from .uv_cache import create_venv, preinstall_wheels
from . import jvm_domain, maven_repo, maven_verify, team_view, test_pom, untrusted_tree, workspace
from .whitebox import app_side_suite, conftest_fixtures, install_bridge, runner_plugins, submission_modules

POLL_SECONDS = 0.25
#: Endpoint probe limits in seconds: per request, and for the whole probe (the static check decides the rest).
PROBE_TIMEOUT = 5.0
PROBE_BUDGET = 30.0
_ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
#: Cases a run's reports may hold past the most an honest run reports (the hidden suite's N, or the count a
#: parametrized run printed, and the sentinels) before their parse stops: such reports are `tampered` anyway, and no
#: flood of cases is ever read (red team round 13: 24 M cases, 13.4 GB). At most MAX_RUN_CASES are read in all.
REPORT_CASE_MARGIN = 1000
MAX_RUN_CASES = 100_000
#: Characters of a pytest case name kept after its function's name (its parameter ids) with the result: a public
#: split's submission page lists the cases.
MAX_CASE_SUFFIX = 40
#: The first identifier of a case name: the test method or function it names.
_CASE_IDENTIFIER = re.compile(r"[A-Za-z_$][\w$]*")
#: What surefire writes after a method's name: its parameter types and invocation indexes ("(String)[1]").
_SUREFIRE_SUFFIX = re.compile(r"(\([\w.$,\s\[\]<>?]*\))?(\[\d+\])*")
#: Names a hidden suite declares for its tests: Java methods (a name, its parameters, a body), Python functions.
_JAVA_METHOD = re.compile(r"([A-Za-z_$][\w$]*)\s*\((?:[^()]|\([^()]*\))*\)\s*(?:throws\s+[\w.$,\s]+)?\{")
_PYTHON_FUNCTION = re.compile(r"\bdef\s+([A-Za-z_]\w*)")


#: JUnit configuration the platform imposes on every Java test run (as configuration parameters and system
#: properties, which take precedence over a `junit-platform.properties` on the classpath): no extension
#: autodetection, so no extension of the submission's runs around the hidden tests; the sentinels still catch
#: whatever else rewrites a verdict.
JUNIT_PLATFORM_PROPERTIES = {"junit.jupiter.extensions.autodetection.enabled": "false"}
#: Options of surefire's forked test JVM, the whole of its `argLine` in the platform's pom (test_pom): the JDK's
#: attach mechanism is off, so code of the submission running in an in-process suite's JVM
#: cannot attach an instrumentation agent to it (Byte Buddy's `ByteBuddyAgent.install()`, through a helper JVM) and
#: rewrite the hidden test methods (red team round 12: every @Test body emptied, 15/15 for no route).
TEST_JVM_OPTIONS = "-XX:+DisableAttachMechanism -Djdk.attach.allowAttachSelf=false"
#: MAVEN_OPTS of the runner's Maven (the hidden test run's), whose console and reports decide the verdicts: no attach
#: mechanism, and no signal handling of the JVM's own (`-Xrs`). Red team round 19, from a process of the test JVM
#: (same uid): a `.attach_pid<pid>` file and a SIGQUIT made Maven open its attach socket and load an agent that
#: rewrote its output (15/15 for 1/15); a SIGQUIT every 2 ms made Maven print thread dumps after its final summary
#: until the console's kept tail held none, and the test's own fake summary in the head counted (15/15). With
#: `-Xrs` a SIGQUIT ends Maven instead (its run is not believed); the test JVM's Landlock domain also refuses it
#: signals to Maven where the kernel can (core.engine.jvm_domain).
RUNNER_MAVEN_OPTS = "-XX:+DisableAttachMechanism -Xrs"
def jvm_sizing(limits: ResourceLimits) -> str:
    """JVM options that size a JVM of the task by its sandbox's limits, not by the host's: `-XX:MaxRAM` the task's
    memory in bytes (a JVM's default heap is a quarter of it: 512 MiB of 2 GiB) and `-XX:ActiveProcessorCount` its
    CPUs. Inside the local backend's sandbox the JVM sees the host's memory (the cgroup is not visible to it), so
    every JVM of a Java task (Maven, javac, surefire's forked JVM, the service) took a quarter of 24 GiB as its
    heap's ceiling and together they outgrew the task's 2 GiB: the kernel's OOM killer ended the runner's Maven
    while it compiled the hidden tests (a Verified reference scored 0 of 15 under load). HotSpot's ergonomics: the
    JDK's `java` tool documentation, "-XX:MaxRAM" and "-XX:ActiveProcessorCount"."""
    return f"-XX:MaxRAM={limits.memory_bytes} -XX:ActiveProcessorCount={max(1, math.ceil(limits.cpus))}"


#: Exit statuses of a command killed by SIGKILL (the shell's 128 + 9, or Python's -9).
KILLED = (137, -9)


def clean_log(text: str) -> str:
    """Drop terminal colour codes from a log shown to submitters."""
    return _ANSI.sub("", text)


def redact_hidden_tests(text: str) -> str:
    """Replace build-log lines that mention the hidden test sources (src/test/...) with a marker, so
    compiler errors never reveal hidden test names or code."""
    lines = text.splitlines(keepends=True)
    return "".join("[a line about the hidden tests was removed]\n" if "src/test/" in line else line for line in lines)


class _Stop(Exception):
    """A phase failed: carries the outcome and a one-line detail."""

    def __init__(self, outcome: str, detail: str) -> None:
        super().__init__(detail)
        self.outcome, self.detail = outcome, detail


@dataclass
class _Work:
    """The folders of one task evaluation: work/{repo, env, runner, test-m2}."""

    root: Path

    @property
    def repo(self) -> Path:
        return self.root / "repo"

    @property
    def env(self) -> Path:
        return self.root / "env"

    @property
    def runner(self) -> Path:
        return self.root / "runner"

    @property
    def bridge(self) -> Path:
        """The folder of a white-box run's socket between its verdict and application sides (the runner's own)."""
        return self.root / "bridge"

    @property
    def app_side(self) -> Path:
        """A white-box run's application side: the bridge's modules and the suite's copy without its tests."""
        return self.root / "app-side"

    @property
    def jvm(self) -> Path:
        """The folder of the test JVM's launcher (core.engine.jvm_domain), the platform's, read-only in the sandbox;
        its `bin/java` exists only where the launcher starts the test JVM (`TaskRun._jvm_launcher`)."""
        return self.root / "jvm"

    @property
    def test_m2(self) -> Path:
        """The hidden Java test run's Maven repository (maven_verify), mounted in no sandbox but the runner's."""
        return self.root / "test-m2"


def _pytest_env(env_dir: Path) -> dict[str, str]:
    """The environment of a pytest process of the runner environment `env_dir` (the verdict side and, in a white-box
    run, the application side): no bytecode written, and no plugin loaded from an entry point but those named with
    `-p` (red team round 15: a dist-info folder at the submission's root registered a plugin that turned failures
    into passes)."""
    return {"PYTHONDONTWRITEBYTECODE": "1", "PATH": f"{env_dir}/bin:/usr/bin:/bin",
            "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1"}


def _chown_tree(path: Path, uid: int, gid: int) -> None:
    """Give `path` and everything below it to `uid`:`gid`, links themselves (never their targets), each entry
    changed relative to its open folder (no whole path is built, so none can be longer than PATH_MAX: red team
    round 13). The trees given are copies the platform made (copy_tree: at most MAX_TREE_DEPTH deep)."""
    os.chown(path, uid, gid, follow_symlinks=False)
    for _, dirnames, filenames, folder_fd in os.fwalk(path):
        for name in dirnames + filenames:
            os.chown(name, uid, gid, dir_fd=folder_fd, follow_symlinks=False)


class TaskRun:
    """State of one task's evaluation; `execute()` runs the phases and returns a TaskEvaluation."""

    def __init__(self, *, spec: TaskSpec, repo_src: Path | None, backend: SandboxBackend, work_root: Path,
                 toolchain: Toolchain, on_phase=None, harvest_maven: bool = False) -> None:
        self.spec, self.repo_src, self.backend, self.toolchain = spec, repo_src, backend, toolchain
        self.harvest_maven = harvest_maven
        self.maven_local = toolchain.maven_repo  # the task's own overlay once _build_java mounted it
        self.test_repo = toolchain.maven_repo  # the hidden test run's verified view (maven_verify) once built
        self.test_dependencies: tuple[test_pom.Dependency, ...] = ()  # the build's test class path (_build_java)
        self.test_boms: tuple[test_pom.Dependency, ...] = ()  # the BOMs its root pom imports (_build_java)
        self.key = uuid.uuid4().hex[:10]
        self.work = _Work(work_root / self.key)
        self.on_phase = on_phase or (lambda phase: None)
        self.durations: dict[str, float] = {}
        self.logs: dict[str, str] = {}
        self.cases: tuple[TestCaseResult, ...] = ()
        self.passed = 0
        self.total = spec.tests_total
        self.not_believed = ""  # why a Java run's reports were not counted (surefire_check), shown in the detail
        self.outcome_record: Path | None = None  # a pytest run's outcomes as its sentinel plugin recorded them
        self.install_deadline: float | None = None  # time.monotonic() at which the install phase's limit ends
        self.dsr = 0
        self.probe: dict[Endpoint, bool | None] = {}
        self.sentinels = Sentinels.new()

    # --- helpers ---------------------------------------------------------------------------
    def _give(self, path: Path, role: Role, mode: int = 0o755) -> None:
        owner = self.sb.owner(role)
        if owner:
            _chown_tree(path, *owner)
        path.chmod(mode)

    @functools.cached_property
    def java_classes(self) -> frozenset[str]:
        """The hidden suite's Java classes and the sentinel class (fully qualified, `hidden_java_classes`)."""
        return hidden_java_classes(self.spec.hidden_dir / "src" / "test" / "java") | {self.sentinels.java_class}

    def _service_env(self) -> dict[str, str]:
        port = str(self.spec.port)
        env = {"PORT": port, "SERVICE_PORT": port}
        if self.spec.language == "python":
            venv = self.work.env / "venv"
            env.update(VIRTUAL_ENV=str(venv), PATH=f"{venv}/bin:/usr/local/bin:/usr/bin:/bin")
        else:  # every JVM the service's script starts is sized by the sandbox (`jvm_sizing`), unless it says otherwise
            sizing = jvm_sizing(self.backend.limits)
            env.update(MAVEN_OPTS=f"-Dmaven.repo.local={self.maven_local} {sizing}", JAVA_TOOL_OPTIONS=sizing)
        return env

    def _service_mounts(self) -> list[Mount]:
        mounts = [Mount(self.work.repo, True), Mount(self.work.env, True)]
        if self.spec.language == "java" and not self.maven_local.is_relative_to(self.work.env):
            mounts.append(Mount(self.maven_local))  # the platform's repository, read-only (no overlay here)
        return mounts

    # --- phases ----------------------------------------------------------------------------
    def materialize(self) -> None:
        untrusted_tree.copy_tree(self.repo_src, self.work.repo)
        self.work.env.mkdir()
        if self.spec.language == "java":
            self._replace_java_tests()
        self._give(self.work.repo, Role.SERVICE)
        self._give(self.work.env, Role.SERVICE)

    def _replace_java_tests(self) -> None:
        """The submission's own tests are removed; its build gets the sentinel class alone in src/test: enough to
        resolve the test-scope dependencies and surefire's JUnit provider, and the hidden tests are never on disk
        while the submission's build (or its service) runs: no plugin can print, copy or rewrite them."""
        untrusted_tree.remove_below(self.work.repo, "src/test")  # a symlinked src is removed, never followed
        src = self.work.repo / "src"
        if src.exists() and not src.is_dir():
            src.unlink()
        src.mkdir(exist_ok=True)
        self._plant_sentinel(src / "test")
        if not (self.work.repo / "pom.xml").is_file():
            raise _Stop("build_failed", "no pom.xml at the repository root")

    def _plant_sentinel(self, tests: Path) -> None:
        (tests / "java").mkdir(parents=True, exist_ok=True)
        (tests / "java" / f"{self.sentinels.java_class}.java").write_text(self.sentinels.java_source())

    def _plant_hidden_tests(self, target: Path) -> None:
        """Copy the benchmark's hidden tests to `target` (a missing folder) with the sentinel class in java/, and the
        preloading listener (sentinels.preloader_source) when the test run has the JUnit Platform launcher."""
        shutil.copytree(self.spec.hidden_dir / "src" / "test", target)
        self._plant_sentinel(target)
        for rel, text in self._platform_test_sources().items():
            (target / rel).write_text(text)

    def _platform_test_sources(self) -> dict[str, str]:
        """{path under src/test: text} of the platform's own test sources beside the hidden tests, the sentinel's
        class aside: the preloading listener, when the test run's class path has the launcher it implements."""
        if not test_pom.has_launcher(test_pom.with_launcher(self.test_dependencies)):
            return {}
        return {f"java/{self.sentinels.java_preloader}.java": self.sentinels.preloader_source()}

    def install(self, sb: TaskSandbox) -> None:
        started = time.monotonic()
        try:
            if self.spec.language == "java":
                self._build_java(sb)
            else:
                self._install_python(sb)
        finally:
            self.durations["install"] = round(time.monotonic() - started, 3)

    def _install_python(self, sb: TaskSandbox) -> None:
        tc = self.toolchain
        requirements = find_requirements(self.work.repo, find_start_script(self.work.repo))
        venv = self.work.env / "venv"
        try:
            create_venv(venv, tc)
        except RuntimeError as exc:
            raise SandboxError(str(exc)) from exc
        if requirements is None:
            self._give(self.work.env, Role.INSTALL)
            self.logs["install"] = "no requirements.txt found: nothing installed\n"
            return
        preinstalled, output = (preinstall_wheels(requirements, venv, tc) if inside(self.work.repo, requirements)
                                else (False, ""))
        log = [f"[platform] wheels pre-installed from the shared cache:\n{output}" if preinstalled else
               "[platform] no wheel-only pre-install: everything is installed in the sandbox\n",
               "[sandbox] uv pip install -r requirements.txt\n"]
        cache = self.work.env / "uv-cache"
        cache.mkdir()
        self._give(self.work.env, Role.INSTALL)
        argv = [str(tc.uv), "pip", "install", "--python", str(venv / "bin" / "python"), "-r", str(requirements)]
        mounts = [Mount(self.work.repo, True), Mount(self.work.env, True), Mount(tc.uv)]
        with sb.egress(allowed_hosts=tc.package_hosts, avoid_port=self.spec.port) as proxy_env:
            self._install_step(sb, argv, {**tc.install_env(cache=cache), **proxy_env},
                               time.monotonic() + self.spec.limits.install, mounts, log)
        shutil.rmtree(cache, ignore_errors=True)

    def _install_step(self, sb: TaskSandbox, argv: list[str], env: dict, deadline: float, mounts: list[Mount],
                      log: list[str]) -> ExecResult:
        """One install command; raises _Stop(install_failed) when it fails or runs out of time."""
        result = sb.run(argv, role=Role.INSTALL, cwd=self.work.repo, env=env,
                        timeout=max(1.0, deadline - time.monotonic()), mounts=mounts)
        log.append(result.output)
        self.logs["install"] = "".join(log)[-64 * 1024:]
        if not result.ok:
            why = "timed out" if result.timed_out else f"exited with {result.returncode}"
            raise _Stop("install_failed", f"installing requirements.txt {why}")
        return result

    def _build_java(self, sb: TaskSandbox) -> None:
        """Build with Maven into the task's own repository (maven_repo: the platform's artifacts underneath, the
        task's downloads on top), online through the egress proxy unless configured offline or no overlay can be
        mounted; then, with the hidden tests still absent, list the test class path the build resolved
        (test_pom.dependency_list_args) and, while still online, resolve what the platform's own test build needs
        on top of it (its plugins, surefire's JUnit provider): the test phase has no network."""
        tc = self.toolchain
        merged = maven_repo.prepare(platform_repo=tc.maven_repo, env_dir=self.work.env, owner=sb.owner(Role.INSTALL))
        self.maven_local = merged or tc.maven_repo
        online = merged is not None and not tc.maven_offline
        settings = self.work.env / "settings.xml"
        deadline = self.install_deadline = time.monotonic() + self.spec.limits.install
        egress = sb.egress(allowed_hosts=tc.package_hosts, avoid_port=self.spec.port) if online else nullcontext({})
        with egress as proxy_env:
            proxy = proxy_env.get("HTTPS_PROXY", "")
            settings.write_text(maven_repo.settings_xml(proxy_port=int(proxy.rsplit(":", 1)[1]) if proxy else None))
            base = ["mvn", *tc.maven_args(repo=self.maven_local, offline=not online), "-s", str(settings)]
            result = self._install_maven(sb, [*base, "-q", "-DskipTests", "test-compile"], self.work.repo, deadline)
            self.logs["build"] = redact_hidden_tests(result.output)
            if not result.ok:
                why = "timed out" if result.timed_out else f"exited with {result.returncode}"
                raise _Stop("build_failed", f"mvn test-compile {why}")
            listed = self.work.env / "test-dependencies.txt"
            self._install_maven(sb, [*base, "-q", *test_pom.dependency_list_args(str(listed))], self.work.repo,
                                deadline)
            self.test_dependencies = test_pom.parse_dependency_list(untrusted_tree.read_regular_text(listed, 1 << 20))
            self.test_boms = test_pom.imported_boms(untrusted_tree.read_regular_text(self.work.repo / "pom.xml",
                                                                                     1 << 20))
            if online:
                self._resolve_test_build(sb, base, deadline)
        if merged is not None and self.harvest_maven:
            maven_repo.harvest(env_dir=self.work.env, platform_repo=tc.maven_repo)
        self._take_java_tests_from_service(verified_repo=merged is not None, online=online)

    def _install_maven(self, sb: TaskSandbox, argv: list[str], cwd: Path, deadline: float,
                       extra: tuple[Mount, ...] = ()) -> ExecResult:
        return sb.run(argv, role=Role.INSTALL, cwd=cwd, env={"MAVEN_OPTS": jvm_sizing(self.backend.limits)},
                      timeout=max(1.0, deadline - time.monotonic()), mounts=[*self._service_mounts(), *extra])

    def _resolve_test_build(self, sb: TaskSandbox, base: list[str], deadline: float) -> None:
        """Run the platform's test build once, on the sentinel class alone, in a scratch project so that its plugins
        and surefire's JUnit provider (resolved only when a test class runs) are in the build's Maven repository
        (and, once Central vouches for them, in the test run's). Its result is not used. The scratch folder is made
        new by the platform in the work root, where the build cannot write (red team round 15b: a folder of the
        build's env, which the build had made a link, had the platform write its pom over a root-owned host file)."""
        scratch = self.work.root / "test-build"
        scratch.mkdir(mode=0o700)
        self._plant_sentinel(scratch / "src" / "test")
        (scratch / "pom.xml").write_text(self._test_pom_text(None))
        self._give(scratch, Role.INSTALL)
        self._install_maven(sb, [*base, "-q", test_pom.goal("maven-compiler-plugin", "testCompile"),
                                 test_pom.goal("maven-surefire-plugin", "test"),
                                 f"-Dtest={self.sentinels.java_class}#{self.sentinels.must_pass}"], scratch, deadline,
                            extra=(Mount(scratch, True),))
        shutil.rmtree(scratch, ignore_errors=True)

    def _test_pom_text(self, repository: Path | None) -> str:
        """The platform's pom for the hidden test run (test_pom), its Quarkus extensions and BOMs read from the
        verified Maven `repository` (None: the scratch run of the install phase, whose repository the build wrote,
        is given neither)."""
        return test_pom.platform_pom(
            test_pom.with_launcher(self.test_dependencies), timeout=self.spec.limits.test_suite,
            jvm_options=f"{TEST_JVM_OPTIONS} {jvm_sizing(self.backend.limits)}",
            junit_properties=JUNIT_PLATFORM_PROPERTIES,
            keep_transitive=test_pom.bootstrap_extensions(self.test_dependencies, repository) if repository else
            frozenset(),
            boms=tuple(b for b in self.test_boms
                       if repository and untrusted_tree.is_regular(test_pom.in_repository(b, repository, "pom"))),
            jvm=str(self._jvm_launcher()) if repository and self.spec.in_process else None)

    def _jvm_launcher(self) -> Path | None:
        """The launcher of the test JVM's own Landlock domain (core.engine.jvm_domain), made once per task in a folder
        of the platform's (root's, read-only for the sandbox: not the runner's folder, whose entries the runner could
        rename), or None when the kernel has no Landlock (a documented limit), the sandbox has no users, or it is not
        the local backend's (a docker image has neither the host's python3 nor its JDK at the host's paths; docker's
        default seccomp profile refuses pidfd_getfd and process_vm_* without CAP_SYS_PTRACE, docs/scoring.md)."""
        if getattr(self.backend, "name", "") != "local" or not jvm_domain.available() or \
                not self.sb.owner(Role.RUNNER):
            return None
        launcher = self.work.jvm / "bin" / "java"
        if not launcher.is_file():
            jvm_domain.make_launcher(self.work.jvm)
            self.work.jvm.chmod(0o755)
        return launcher

    def _mount_test_repo(self, online: bool) -> None:
        """The hidden test run's Maven repository: the platform's, plus what the build fetched that Central vouches
        for (maven_verify); a verified dependency that ships test-machinery classes makes the run `tampered`."""
        verifier = maven_verify.CentralChecksums(self.toolchain.maven_central) if online else None
        try:  # under the install phase's limit (red team round 12: 400 planted jars, 287 s of requests past it)
            view = maven_verify.mount_test_view(env_dir=self.work.env, platform_repo=self.toolchain.maven_repo,
                                                view_dir=self.work.test_m2, verifier=verifier,
                                                deadline=self.install_deadline)
        except maven_verify.BuildTooLarge as exc:
            raise _Stop("build_failed", str(exc)) from exc
        except (maven_verify.VerificationUnavailable, OSError) as exc:
            raise SandboxError(str(exc)) from exc
        finally:
            if verifier is not None:
                verifier.close()
        self.test_repo = view.path
        if view.left_out:
            shown = ", ".join(view.left_out[:5]) + (f" and {len(view.left_out) - 5} more" if len(view.left_out) > 5
                                                     else "")
            self.logs["build"] += (f"\n[platform] the hidden test run does not see {len(view.left_out)} files the build "
                                   f"changed or added in its Maven repository (only artifacts Maven Central publishes "
                                   f"byte for byte are kept, none when the build ran offline): {shown}\n")
        if view.machinery:
            raise _Stop("tampered", f"{view.machinery}: the hidden tests run on JUnit's and surefire's own classes")

    def _take_java_tests_from_service(self, *, verified_repo: bool, online: bool) -> None:
        """Make the test runner's project, work/runner/repo: the platform's pom (test_pom: the build's test class
        path, the platform's plugins and settings; the submission's poms and .mvn are never read by the test run),
        the hidden tests with the sentinel, and for an in-process suite a copy of the built repository (its
        target/classes are the main classes; links and special files left out: a symlinked META-INF/services would
        be read by the JVM yet escape every check here) without the submission's JUnit service entries and
        junit-platform.properties, so no extension of the submission is found whatever its configuration enables. A
        black-box suite gets nothing of the submission's (red team round 8: a service-provider entry of
        target/classes ran in its JVM and rewrote the reports). The sentinel is taken out of the service's tree. A
        build whose files would not fit the task's disk once copied (sparse files) ends `build_failed`."""
        self.work.runner.mkdir(mode=0o700)
        runner_repo = self.work.runner / "repo"
        if self.spec.in_process:
            size = untrusted_tree.apparent_size(self.work.repo)
            if size > self.spec.limits.disk_bytes:
                raise _Stop("build_failed", f"the build left {size / 2**30:.1f} GiB of files (sparse files count in "
                                            "full), more than the task's disk allows for the test run's copy")
            try:
                untrusted_tree.copy_tree(self.work.repo, runner_repo, links=False)
            except OSError as exc:  # the reason alone: the path is the worker's (and a name the build chose)
                raise _Stop("build_failed", "the built repository could not be copied for the test run: "
                                            f"{exc.strerror or type(exc).__name__}") from exc
        else:
            runner_repo.mkdir()
        for rel in ("src/test", "target/test-classes", "target/generated-test-sources", "target/maven-status"):
            untrusted_tree.remove_below(self.work.repo, rel)
        if verified_repo:
            self._mount_test_repo(online)
        # The runner compiles the hidden tests (_test_java), never trusting a class file the build wrote. Records of
        # the build's class path go too (Quarkus's serialized application model, target/quarkus/): they name jars of
        # the build's own repository, which the test run does not read; Quarkus resolves its model again from the
        # platform's pom.
        # javac reads the test source roots of the platform's pom, src/test/java and its generated test sources, as
        # a source path: a library class shipped there as source (red team round 15c: JUnit's Assertions with empty
        # asserts, in target/generated-test-sources) would be compiled in place of the library's. Both are the
        # platform's alone.
        for rel in ("src/test", "target/test-classes", "target/generated-test-sources", "target/quarkus", ".mvn",
                    "pom.xml", test_pom.GENERATED_TEST_SOURCES):
            untrusted_tree.remove_below(runner_repo, rel)
        (runner_repo / "pom.xml").write_text(self._test_pom_text(self.test_repo))
        self._plant_hidden_tests(runner_repo / "src" / "test")
        if not self.spec.in_process:
            return
        untrusted_tree.remove_junit_configuration(runner_repo, keep_below="src/test")
        own = frozenset(name.rpartition(".")[0] for name in self.java_classes if "." in name)
        rewrite = untrusted_tree.test_run_tampering(runner_repo / "target" / "classes",
                                                    repositories=(self.test_repo,), own_packages=own)
        if rewrite:
            raise _Stop("tampered", f"the build would change how the hidden tests run ({rewrite}): the platform runs "
                                    "them with JUnit's, surefire's and the libraries' own classes")

    def start_and_wait(self, sb: TaskSandbox):
        script = find_start_script(self.work.repo)
        if script is None:
            raise _Stop("no_start_script", "no start.sh at the root, in scripts/, in bin/ or within depth 3")
        started = time.monotonic()
        service = sb.start_service([str(script)], cwd=self.work.repo, env=self._service_env(),
                                   mounts=self._service_mounts())
        deadline = started + self.spec.limits.start
        state = "closed"
        try:
            while time.monotonic() < deadline:
                state = sb.in_network(lambda: port_state(self.spec.port))
                if state == "http":
                    self.dsr = 1
                    return service
                if not service.alive():
                    raise _Stop("start_crashed", team_view.start_crash_detail(script))
                time.sleep(POLL_SECONDS)
            if state == "not_http":
                raise _Stop("not_http", f"port {self.spec.port} accepted TCP but never answered HTTP")
            raise _Stop("start_timeout", f"port {self.spec.port} did not open within {self.spec.limits.start:.0f} s")
        finally:
            self.durations["start"] = round(time.monotonic() - started, 3)
            self.logs["start"] = service.log()

    def probe_service(self, sb: TaskSandbox) -> None:
        endpoints = [Endpoint.of(m, p) for m, p in self.spec.endpoints]
        if not endpoints:
            return
        base = f"http://127.0.0.1:{self.spec.port}"
        readme = self.spec.hidden_dir / "README.md"
        text = readme.read_text(encoding="utf-8", errors="replace") if readme.is_file() else ""
        vocabulary = lookalike_vocabulary(text, endpoints)
        started = time.monotonic()
        result = sb.in_network(lambda: probe_endpoints(base_url=base, endpoints=endpoints, timeout=PROBE_TIMEOUT,
                                                       budget=PROBE_BUDGET, vocabulary=vocabulary))
        self.probe = dict(result.results)
        self.durations["probe"] = round(time.monotonic() - started, 3)

    def run_tests(self, sb: TaskSandbox) -> None:
        started = time.monotonic()
        try:
            if self.spec.language == "java":
                result, reports = self._test_java(sb)
            else:
                result, reports = self._test_python(sb)
        finally:
            self.durations["test"] = round(time.monotonic() - started, 3)
        tampered = self._read_reports(reports, console=result.output if self.spec.language == "java" else None,
                                      run=result)
        if tampered:
            self.passed = 0
            raise _Stop("tampered", tampered)
        if result.timed_out:
            raise _Stop("tests_timeout", f"the hidden suite ran past {self.spec.limits.test_suite:.0f} s")
        if self.passed == self.total and self.total > 0:
            return
        raise _Stop("tests_failed", f"{self.passed} of {self.total} hidden tests passed" + (
            f" ({self.not_believed})" if self.not_believed else ""))

    def _read_reports(self, reports: list[Path], console: str | None = None, run: ExecResult | None = None
                      ) -> str | None:
        """Count the report's cases (the sentinels removed); returns why the report is not to be trusted, or None.
        `console`: Maven's output of a Java test run, whose surefire summaries the reports must agree with; `run`:
        the test command's result (its exit code and time-out decide whether a Java run's reports are believed at
        all, `surefire_check`; its output bounds a run that raises N, `run_case_bound`). N stays the task's unless
        the suite's case count is decided at run time (`dynamic_case_count`), then it may rise to the count the
        test tool printed itself; a report holding more of the suite's cases than that is `tampered` (red team
        round 12: a forged report's case count was shown as N, a channel out of the hidden suite).
        The reports are read within bounds (parse_junit: regular files with one link each, 64 MiB in all, and no
        more than REPORT_CASE_MARGIN cases past the most an honest run reports), and a reason given here names only
        what the platform knows (the hidden suite's classes, counts), never a string of the reports or of their
        file names (red team round 13: a report's class names carried the hidden test source into the detail).
        Cases are kept for the result only from a run that is neither tampered nor disbelieved (`_shown_cases`)."""
        java = self.spec.language == "java"
        self.cases = ()
        dynamic = dynamic_case_count(self.spec.hidden_dir, java=java)
        printed = run_case_bound(run.output if run else "", java=java) if dynamic else None
        honest_most = max(self.spec.tests_total + CASES_PER_RUN, printed or 0)
        try:
            junit = parse_junit(reports, max_cases=min(MAX_RUN_CASES, honest_most + REPORT_CASE_MARGIN)) \
                if reports else None
        except ForgedReport as forged:  # red team rounds 11 and 13: a FIFO, a link, a hard-linked flood
            return f"the test reports hold {forged.why}: code of the submission wrote into the reports folder"
        except JUnitError:
            junit = None
        if junit is None:
            return None
        check = None
        if console is not None:
            check = surefire_check(console, junit, returncode=run.returncode if run else 0,
                                   timed_out=bool(run and run.timed_out), classes=self.java_classes)
        reported, reported_passed = junit.total, junit.passed
        recorded = None if java or self.outcome_record is None else recorded_passes(
            untrusted_tree.read_regular_text(self.outcome_record, RECORD_BYTES))
        junit, tampered = self.sentinels.verdict(junit, java=java, expected=self.spec.tests_total)
        tampered = tampered or (check.tampered if check else None)
        if recorded is not None and reported_passed > recorded and not tampered:
            tampered = ("the test report holds more passed tests than pytest's own outcomes of the run: the report "
                        "was not written by the test run alone")
        sentinel_cases = reported - junit.total
        foreign = {c.classname for c in junit.cases
                   if java and c.classname.split("$", 1)[0] not in self.java_classes}
        if foreign and not tampered:  # cases the hidden suite does not have: the run selected other tests
            tampered = (f"the test report holds cases of {len(foreign)} "
                        f"{'class that is' if len(foreign) == 1 else 'classes that are'} not the hidden tests: the "
                        "build changed which tests ran")
        bound = self.spec.tests_total
        if junit.total > bound and dynamic:
            bound = max(bound, printed - sentinel_cases if printed is not None else 0)
        if junit.total > bound and not tampered:
            tampered = (f"the test report holds {junit.total} cases of the hidden suite, which has {bound}: the "
                        "report was not written by the test run alone")
        if check and check.not_believed and not tampered:  # nothing of such a run counts (surefire_check)
            self.not_believed = check.not_believed
            junit = JUnitResult(())
        if not tampered and not self.not_believed:
            self.cases = self._shown_cases(junit)
        self.passed = junit.passed
        self.total = self.spec.tests_total if tampered else max(self.spec.tests_total, min(junit.total, bound))
        return tampered

    def _shown_cases(self, junit: JUnitResult) -> tuple[TestCaseResult, ...]:
        """The cases kept with the result (a public split's submission page lists them): only those of the hidden
        suite's own classes (Java) or modules (pytest) whose name starts with a method or function the suite
        declares; after that name, only what surefire writes there (parameter types, invocation indexes), or at most
        MAX_CASE_SUFFIX characters of pytest's parameter ids. Whatever else a report says, written by code of the
        submission, never reaches a page (red team round 13: case names carried the whole hidden test file)."""
        kept = []
        for case in junit.cases:
            word = _CASE_IDENTIFIER.match(case.name)
            if word is None or word.group() not in self._suite_tests or not self._suite_class(case.classname):
                continue
            suffix = case.name[word.end():]
            if self.spec.language == "java":
                suffix = suffix if _SUREFIRE_SUFFIX.fullmatch(suffix) else ""
            elif len(suffix) > MAX_CASE_SUFFIX:
                suffix = suffix[:MAX_CASE_SUFFIX] + "..."
            kept.append(TestCaseResult(f"{case.classname}::{word.group()}{suffix}", case.status))
        return tuple(kept)

    def _suite_class(self, classname: str) -> bool:
        """Whether a report's class name is one of the hidden suite's: a Java class (nested ones by their top-level
        class), or a pytest module (`tests.test_x`) or a class in one (`tests.test_x.TestGroup`)."""
        if self.spec.language == "java":
            return classname.split("$", 1)[0] in self.java_classes - {self.sentinels.java_class}
        return any(classname == module or classname.startswith(module + ".") for module in self._suite_modules)

    @functools.cached_property
    def _suite_modules(self) -> frozenset[str]:
        """The hidden pytest suite's modules as pytest names them in its report (`tests/test_x.py` -> tests.test_x;
        the reference solution is not part of the suite)."""
        hidden = self.spec.hidden_dir
        return frozenset(".".join(path.relative_to(hidden).with_suffix("").parts) for path in hidden.rglob("*.py")
                         if path.relative_to(hidden).parts[0] != "reference")

    @functools.cached_property
    def _suite_tests(self) -> frozenset[str]:
        """The method (Java) or function (Python) names the hidden suite's sources declare."""
        hidden = self.spec.hidden_dir
        java = self.spec.language == "java"
        pattern = _JAVA_METHOD if java else _PYTHON_FUNCTION
        return frozenset(name for path in hidden.rglob("*.java" if java else "*.py")
                         if path.relative_to(hidden).parts[0] != "reference"
                         for name in pattern.findall(path.read_text(errors="replace")))

    def _runner_dir(self) -> tuple[Path, Path]:
        self.work.runner.mkdir(mode=0o700)
        suite = self.work.runner / "suite"
        shutil.copytree(self.spec.hidden_dir, suite, ignore=shutil.ignore_patterns("reference", "__pycache__"))
        reports = self.work.runner / "reports"
        reports.mkdir()
        return suite, reports

    def _test_python(self, sb: TaskSandbox) -> tuple[ExecResult, list[Path]]:
        env_dir = ensure_runner_env(self.spec.hidden_dir, self.toolchain)
        suite, reports = self._runner_dir()
        target = "tests" if (suite / "tests").is_dir() else "."
        # No BASE_URL / API_BASE_URL / PORT or other variable a suite reads: its defaults are right (v2 test phase).
        env = _pytest_env(env_dir)  # the runner environment's own plugins only, named below
        mounts = [Mount(self.work.runner, True), Mount(env_dir)]
        platform = self.work.runner / "platform"
        platform.mkdir()
        env["PYTHONPATH"] = str(platform)
        plugins = [arg for name in runner_plugins(env_dir) for arg in ("-p", name)]
        white_box = submission_modules(suite / target, self.work.repo, runner_env=env_dir)
        bridge: list[str] = []
        if white_box:  # the verdicts in a process of their own, the submission's code in another (bridge/)
            bridge = ["--noconftest", "-p", "rg_bridge.verdict_side"]
            env["RG_BRIDGE_PLAN"] = str(self._bridge_plan(platform, suite / target, white_box))
            mounts.append(Mount(self.work.bridge, True))
        self.outcome_record = reports / "outcomes.txt"
        plugin = self.sentinels.pytest_plugin(platform, record=self.outcome_record)
        self._read_only_for_runner(self.work.runner, writable=reports)
        report = reports / "junit.xml"
        argv = [str(env_dir / "bin" / "python"), "-m", "pytest", target, "-q", "-p", "no:cacheprovider",
                f"--junitxml={report}", "-o", "junit_family=xunit1", f"--rootdir={suite}", *plugins, *bridge,
                "-p", plugin, f"--timeout={self.spec.limits.test_case:.0f}", *self.spec.pytest_args]
        app_side = self._start_app_side(sb, env_dir, target, plugins) if white_box else None
        try:
            result = sb.run(argv, role=Role.RUNNER, cwd=suite, env=env, timeout=self.spec.limits.test_suite,
                            mounts=mounts)
        finally:
            if app_side is not None:
                app_side.stop()
        return result, [report] if report.is_file() else []

    def _bridge_plan(self, platform: Path, tests: Path, modules: set[str]) -> Path:
        """The verdict side's plan (bridge/verdict_side.py): where it listens, the submission's modules the suite
        imports, the fixtures the suite's conftest files define; and its folder for the socket, the runner's own
        (the application side, another user, may connect to the socket and do nothing else there)."""
        install_bridge(platform, "verdict")
        self.work.bridge.mkdir(mode=0o711)
        self._give(self.work.bridge, Role.RUNNER, 0o711)
        plan = platform / "bridge-plan.json"
        plan.write_text(json.dumps({"socket": str(self.work.bridge / "socket"), "modules": sorted(modules),
                                    "fixtures": conftest_fixtures(tests)}))
        return plan

    def _start_app_side(self, sb: TaskSandbox, env_dir: Path, target: str, plugins: list[str]) -> ServiceHandle:
        """Start the application side of a white-box run (bridge/app_side.py) as the service user: the suite's
        copy without its test modules, the submission's folders after the runner's packages."""
        folder = self.work.app_side
        folder.mkdir()
        install_bridge(folder, "app")
        stub = app_side_suite(self.spec.hidden_dir, folder / "suite", target)
        site = next((self.work.env / "venv" / "lib").glob("python*/site-packages"), None)
        paths = os.pathsep.join(str(p) for p in (self.work.repo, site) if p)
        script = folder / "app-side.sh"
        script.write_text('exec "$RG_PYTHON" -m rg_bridge.app_side "$@"\n')
        self._give(folder, Role.SERVICE)
        env = {**_pytest_env(env_dir), "PYTHONPATH": str(folder), "RG_SUBMISSION_PATHS": paths,
               "RG_PYTHON": str(env_dir / "bin" / "python")}
        argv = [str(script), str(self.work.bridge / "socket"), str(stub), "-q", "-p", "no:cacheprovider",
                f"--rootdir={folder / 'suite'}", *plugins]
        mounts = [Mount(folder, True), Mount(self.work.bridge), Mount(env_dir), Mount(self.work.repo),
                  Mount(self.work.env)]
        return sb.start_service(argv, cwd=folder / "suite", env=env, mounts=mounts)

    def _read_only_for_runner(self, folder: Path, *, writable: Path | None = None) -> None:
        """Give the platform's `folder` to root with the runner's group, readable and not writable by the runner
        (folders 0o750, files 0o640; a link or special file in it, which the platform never makes, is removed, never
        followed), and `writable` (a folder inside it), if given, to the runner alone. Used on the suite's folder
        (the suite, the sentinel plugin; `writable` the reports folder): the process under test, which runs
        submitted code in a white-box suite, can then neither rewrite the hidden tests before pytest collects them
        nor swap the suite's folder for its own (red team round 12: an application imported by the suite's conftest
        replaced every test body with `pass` on disk, 20/20 for a service with no routes); and on the compiled
        hidden Java tests, so an in-process application cannot rewrite a test class on disk before it is loaded
        (red team round 15d did so from a JUnit listener). Nothing changes under process isolation (no sandbox
        users)."""
        owner = self.sb.owner(Role.RUNNER)
        if not owner or not folder.is_dir() or folder.is_symlink():
            return
        uid, gid = owner
        for top, folders, files, top_fd in os.fwalk(folder):
            os.chown(top_fd, 0, gid)
            os.chmod(top_fd, 0o750)
            for name in files:
                if not stat.S_ISREG(os.lstat(name, dir_fd=top_fd).st_mode):
                    os.unlink(name, dir_fd=top_fd)
                    continue
                os.chown(name, 0, gid, dir_fd=top_fd, follow_symlinks=False)
                os.chmod(name, 0o640, dir_fd=top_fd)
        if writable is not None:
            _chown_tree(writable, uid, gid)
            writable.chmod(0o700)

    def _test_java(self, sb: TaskSandbox) -> tuple[ExecResult, list[Path]]:
        copy = self.work.runner / "repo"  # made right after the build, see _take_java_tests_from_service
        # Reports land in the runner's own copy (target/surefire-reports), out of the service's reach.
        reports = copy / "target" / "surefire-reports"
        untrusted_tree.remove_below(copy, "target/surefire-reports")
        resources = self.spec.hidden_dir / "src" / "test" / "resources"
        if resources.is_dir():
            shutil.copytree(resources, copy / "target" / "test-classes", dirs_exist_ok=True)
        # No attach mechanism in the test JVM (TEST_JVM_OPTIONS): Mockito's inline mock maker, which attaches an agent
        # (Spring Boot's test listeners load it for every @SpringBootTest), would fail every test. The subclass mock
        # maker needs no agent; the test classes come first on the class path, so this choice is the one Mockito reads.
        maker = copy / "target" / "test-classes" / "mockito-extensions" / "org.mockito.plugins.MockMaker"
        maker.parent.mkdir(parents=True, exist_ok=True)
        maker.write_text("mock-maker-subclass\n")
        if self._platform_test_sources():  # the platform's listener, found by the launcher as the session opens
            services = copy / "target" / "test-classes" / "META-INF" / "services"
            services.mkdir(parents=True, exist_ok=True)
            (services / "org.junit.platform.launcher.LauncherSessionListener").write_text(
                f"{self.sentinels.java_preloader}\n")
        self._give(self.work.runner, Role.RUNNER, 0o700)
        (self.work.runner / "settings.xml").write_text(maven_repo.settings_xml(proxy_port=None))
        base = ["mvn", *self.toolchain.maven_args(repo=self.test_repo, offline=True), "-s",
                str(self.work.runner / "settings.xml")]
        deadline = time.monotonic() + self.spec.limits.test_suite
        # Two invocations of the platform's pom (test_pom), by full plugin keys and no lifecycle: javac with
        # annotation processing off (no code of the class path runs while the hidden tests are compiled), then, once
        # the sources are checked intact, surefire.
        compiled = self._run_runner_maven(sb, [*base, "-q", test_pom.goal("maven-compiler-plugin", "testCompile")],
                                          deadline)
        confirmed = functools.partial(self._platform_fault_confirmed, sb)
        if compiled.returncode in KILLED and not compiled.timed_out:
            # no code of the submission runs while javac compiles the hidden tests (annotation processing off): a
            # Maven killed then is the platform's fault, retried, never "did not compile" (a reference scored 0 of
            # 15 so under load, its Maven killed 0.2 s after it started)
            raise SandboxError(f"the test run's Maven was killed while compiling the hidden tests "
                               f"(exit status {compiled.returncode})")
        if not compiled.ok:
            self.not_believed = java_run_failure(compiled, compiling=True, confirmed=confirmed)
            return compiled, []
        changed = self._hidden_sources_changed(copy / "src" / "test")
        if changed or reports.exists():
            raise _Stop("tampered", f"the compilation of the hidden tests changed {changed or 'the reports folder'}: "
                                    "code of the submission ran in it")
        self._read_only_for_runner(copy / "target" / "test-classes")
        result = self._run_runner_maven(sb, [*base, test_pom.goal("maven-surefire-plugin", "test")], deadline)
        if (copy / "target").is_symlink() or reports.is_symlink():  # the runner owns target/: never read through
            raise _Stop("tampered", "the test run replaced its reports folder with a link")
        found = surefire_reports(reports)
        if not found and not result.timed_out:
            self.not_believed = java_run_failure(result, compiling=False, confirmed=confirmed)
        return result, found

    def _platform_fault_confirmed(self, sb: TaskSandbox, claim: str) -> bool:
        """Whether a platform fault the test run's console claims (`java_run_failure`) is real, checked where the
        test JVM cannot reach: "launch", the test JVM's Landlock domain could not be made (the platform's own probe
        launcher, starting /bin/true, fails in this sandbox too); "plugins", a pinned plugin or surefire provider is
        missing (its folder is absent from the platform's Maven repository)."""
        if claim == "launch":
            if not (self.work.jvm / "bin" / "java").is_file():
                return False  # no launcher started this test JVM: its refusal cannot have been printed
            folder = self.work.root / "jvm-probe"
            if not folder.is_dir():
                jvm_domain.make_launcher(folder, java="/bin/true")
                folder.chmod(0o755)
            probe = sb.run([str(folder / "bin" / "java")], role=Role.RUNNER, cwd=folder, env={},
                           timeout=30, mounts=[Mount(folder)])
            return not probe.ok
        return not test_pom.hidden_run_plugins_present(self.toolchain.maven_repo)

    def _run_runner_maven(self, sb: TaskSandbox, argv: list[str], deadline: float) -> ExecResult:
        # Not the service's copy: the running service writes there (a pom could read it in).
        jvm = self.work.jvm
        return sb.run(argv, role=Role.RUNNER, cwd=self.work.runner / "repo",
                      env={"MAVEN_OPTS": f"{RUNNER_MAVEN_OPTS} {jvm_sizing(self.backend.limits)}"},
                      timeout=max(1.0, deadline - time.monotonic()),
                      mounts=[Mount(self.work.runner, True), Mount(self.test_repo),
                              *([Mount(jvm)] if jvm.is_dir() else [])])

    def _hidden_sources_changed(self, tests: Path) -> str | None:
        """The first file under the runner's `tests` (src/test) that is not byte for byte what the platform planted
        (the benchmark's hidden tests and the sentinel class), or None. A file the platform did not plant is not
        named: code that ran in the compilation chose its name (red team round 13: names and reports carried the
        hidden test source into the task's detail)."""
        planted = {p.relative_to(self.spec.hidden_dir / "src" / "test").as_posix(): p.read_bytes()
                   for p in (self.spec.hidden_dir / "src" / "test").rglob("*") if p.is_file()}
        planted[f"java/{self.sentinels.java_class}.java"] = self.sentinels.java_source().encode()
        planted.update({rel: text.encode() for rel, text in self._platform_test_sources().items()})
        found = {name if folder_rel == "." else f"{folder_rel}/{name}": Path(folder) / name
                 for folder, folder_rel, _, files in untrusted_tree.walk_untrusted(tests) for name in files}
        for rel in sorted(set(planted) | set(found)):
            path = found.get(rel)  # a link, FIFO or device is never read (read_regular gives None)
            if rel not in planted:
                return "a file under src/test that the platform did not plant"
            if path is None or untrusted_tree.read_regular(path) != planted[rel]:
                return f"src/test/{rel}"
        return None

    # --- the whole run ---------------------------------------------------------------------
    def execute(self) -> TaskEvaluation:
        """Run every phase; always tears down. Raises SandboxError on platform faults."""
        workspace.create(self.work.root, cap_bytes=self.spec.limits.disk_bytes)
        outcome, detail = "passed", ""
        try:
            if self.repo_src is None or not self.repo_src.is_dir():
                raise _Stop("missing", f"the submission has no folder named {self.spec.name!r}")
            with self.backend.open_task(key=self.key, port=self.spec.port, work_dir=self.work.root) as sb:
                self.sb = sb
                self.on_phase(Phase.MATERIALIZE.value)
                self.materialize()
                self.on_phase(Phase.INSTALL.value)
                self.install(sb)
                self.on_phase(Phase.START.value)
                service = self.start_and_wait(sb)
                self.on_phase(Phase.PROBE.value)
                self.probe_service(sb)
                if self.spec.in_process:  # the suite starts the application itself on the task's port
                    service.stop()
                self.on_phase(Phase.TEST.value)
                self.run_tests(sb)
                self.on_phase(Phase.TEARDOWN.value)
        except _Stop as stop:
            outcome, detail = stop.outcome, stop.detail
        except untrusted_tree.UntrustedTreeError as exc:  # a tree the submission made: its outcome, not a fault
            outcome = "build_failed" if self.spec.language == "java" else "install_failed"
            detail = f"{exc}: the platform does not inspect such a tree"
        finally:
            maven_repo.release(self.work.test_m2)
            maven_repo.release(self.work.env)
            workspace.remove(self.work.root)
        endpoints = self._endpoint_evidence()
        detail = (team_view.relative_paths(detail, work_root=self.work.root)
                  or f"all {self.total} hidden tests passed")
        return TaskEvaluation(
            task=self.spec.name, outcome=outcome, dsr=self.dsr, tests_passed=self.passed, tests_total=self.total,
            endpoints=endpoints, durations=self.durations,
            logs={name: team_view.relative_paths(clean_log(text), work_root=self.work.root)
                  for name, text in self.logs.items()}, cases=self.cases,
            detail=detail + (f"; {self.static_stopped}" if self.static_stopped else ""),
        )

    def _endpoint_evidence(self) -> tuple[EndpointEvidence, ...]:
        endpoints = [Endpoint.of(m, p) for m, p in self.spec.endpoints]
        undecided = [e for e in endpoints if self.probe.get(e) is None]
        self.static_stopped: str | None = None  # why the static check stopped early (its budget), for the detail
        static = {}
        if undecided and self.repo_src is not None and self.repo_src.is_dir():
            check = static_routes_check(repo_dir=self.repo_src, endpoints=undecided)
            static, self.static_stopped = check.found, check.stopped
        evidence = []
        for e in endpoints:
            verdict = self.probe.get(e)
            if verdict is not None:
                evidence.append(EndpointEvidence(e.method, e.path, verdict, "probe" if verdict else "none"))
            else:
                found = bool(static.get(e))
                evidence.append(EndpointEvidence(e.method, e.path, found, "static" if found else "none"))
        return tuple(evidence)


def evaluate_task(*, spec: TaskSpec, repo_src: Path | None, backend: SandboxBackend, work_root: Path,
                  toolchain: Toolchain, on_phase=None, harvest_maven: bool = False) -> TaskEvaluation:
    """Evaluate one task (docs/scoring.md "The run of one task") and return its TaskEvaluation.

    `repo_src` is the submission's `<task>/` folder (None when absent → outcome `missing`).
    `on_phase(name)` is called as each phase begins. `harvest_maven`: keep what a Java build downloaded in the
    platform's Maven repository (trusted code only: the benchmark's reference solutions). Raises SandboxError for
    platform faults.
    """
    return TaskRun(spec=spec, repo_src=repo_src, backend=backend, work_root=work_root, toolchain=toolchain,
                   on_phase=on_phase, harvest_maven=harvest_maven).execute()


def surefire_reports(folder: Path) -> list[Path]:
    """The `TEST-*.xml` files of surefire's reports `folder`, sorted; at most MAX_REPORT_FILES + 1 of them, read one
    name at a time (parse_junit refuses a run with more as forged). Red team round 16's application filled the
    folder with 2.5 M empty report files, and a glob of it took the worker 1.4 GB before the limit was checked."""
    found: list[Path] = []
    try:
        with os.scandir(folder) as entries:
            for entry in entries:
                if entry.name.startswith("TEST-") and entry.name.endswith(".xml"):
                    found.append(Path(entry.path))
                    if len(found) > MAX_REPORT_FILES:
                        break
    except (FileNotFoundError, NotADirectoryError):
        return []
    return sorted(found)


#: Maven's words for an artifact it could not get (offline, the test run always is); with one of the platform's own
#: plugins or surefire's providers named, the platform's Maven repository lacks what bootstrap.sh seeds there.
_UNRESOLVED = re.compile(r"(?:could not be resolved|Could not resolve|Cannot access \S+ in offline mode|"
                         r"has not been downloaded from it before)")
_PLATFORM_ARTIFACT = re.compile(r"org\.apache\.maven\.(?:plugins:maven-(?:compiler|surefire)-plugin|surefire:)")


def java_run_failure(result: ExecResult, *, compiling: bool,
                     confirmed: Callable[[str], bool] = lambda claim: True) -> str:
    """Why a Java test run's Maven (`result` of the platform's testCompile, `compiling`, or surefire goal) left no
    report, in fixed words shown to the team (never Maven's own lines: javac quotes the hidden tests): the hidden
    tests not compiling against the build's classes and class path, an artifact of the class path missing from the
    test run's repository, or the test JVM ending before the tests did (an application calling System.exit, a
    crash). Raises SandboxError when the test JVM's Landlock domain could not be made or what is missing is one of
    the platform's own plugins: a platform fault (retried), never a score of 0 (a seeded demo run scored 0 of 15 with
    no word of why, issue 13's fresh-user pass). Such a fault is read from the console, where the test JVM may print
    anything: `confirmed(claim)` ("launch" or "plugins") must confirm it outside the console first (red team round
    20 printed the launcher's refusal, deleted its reports and halted: every bad run became an unscored retry)."""
    output = result.output
    if jvm_domain.LAUNCH_REFUSED in output and confirmed("launch"):
        raise SandboxError(jvm_domain.LAUNCH_REFUSED)
    unresolved = _UNRESOLVED.search(output) is not None
    if unresolved and _PLATFORM_ARTIFACT.search(output) and confirmed("plugins"):
        raise SandboxError("the test run's Maven repository lacks one of the platform's pinned plugins or surefire "
                           "providers (scripts/bootstrap.sh seeds them)")
    code = f"Maven exited with {result.returncode}"
    if unresolved:
        return (f"the test run could not resolve an artifact of the build's class path ({code}): only artifacts "
                "Maven Central publishes byte for byte reach the test run")
    if compiling:
        return (f"the hidden tests did not compile against the build's classes and class path ({code}): a class, "
                "method or dependency they use is missing or differs")
    if "The forked VM terminated" in output or "ExecutionException" in output:
        return f"the test JVM ended before the tests did and wrote no report ({code}): System.exit, or a crash"
    return f"the test run wrote no report ({code})"


#: Surefire's console summary of one test class ("Tests run: 15, Failures: 2, Errors: 0, Skipped: 0, Time elapsed:
#: 1.2 s <<< FAILURE! -- in com.x.YTest"; " - in" before surefire 3) and of the whole run (the last such line
#: without a class).
_SUREFIRE_CLASS = re.compile(r"Tests run: (\d+), Failures: (\d+), Errors: (\d+), Skipped: (\d+)(?:, Flakes: \d+)?, "
                             r"Time elapsed: [^\n]*?-+ in ([\w.$]+)")
_SUREFIRE_TOTAL = re.compile(r"Tests run: (\d+), Failures: (\d+), Errors: (\d+), Skipped: (\d+)(?:, Flakes: \d+)?\s*$",
                             re.M)
#: What process_io.CappedReader writes where it dropped the middle of a long output.
_CAPPED_MARK = re.compile(r"^\[\.\.\. \d+ bytes of output dropped", re.M)


def _summary_totals(console: str) -> list[tuple[str, ...]]:
    """The run summaries ("Tests run: N, Failures: ...") of Maven's console where Maven's own final one must be: in
    the kept tail, after the last place the capped console dropped its middle (its head holds what the test JVM
    printed first, which may be a fake summary: red team round 19)."""
    marks = list(_CAPPED_MARK.finditer(console))
    return _SUREFIRE_TOTAL.findall(console[marks[-1].end():] if marks else console)
#: pytest's last line: "2 failed, 3 passed, 1 skipped, 1 error in 0.52s" (words counted: each is one case).
_PYTEST_SUMMARY = re.compile(r"^=*\s*(\d+ \w+(?:, \d+ \w+)*) in [\d.]+s", re.M)
_PYTEST_CASES = ("passed", "failed", "skipped", "error", "errors", "xfailed", "xpassed")


def surefire_disagreement(console: str, junit: JUnitResult, *, classes: frozenset[str] = frozenset()) -> str | None:
    """Why the JUnit reports (`junit`, sentinels included) say fewer failures,
    errors or skips than surefire printed to Maven's console (`console`), or None. The console is written by Maven
    itself: a process the test JVM started can rewrite the report files while the run goes on (red team round 11: a
    watcher spared the sentinel class's file and stripped every failure from the hidden class's, 15/15 for a
    service with no route), and can add lines to the console by printing from the tests, but cannot take Maven's own
    lines back (as long as it cannot reach into Maven's process: red team round 16 wrote into Maven's own stdout
    through pidfd_getfd, which the local sandbox's seccomp filter now refuses). So any summary line of a class, and
    the run's last summary, may not report more cases that did not pass than the reports hold. Classes whose lines were dropped from a capped console are not compared. The reason
    names a class only when it is one of `classes` (the hidden suite's and the sentinel's: `_class_shown`)."""
    failing = Counter(c.classname for c in junit.cases if c.status is not Status.PASSED)
    for match in _SUREFIRE_CLASS.finditer(console):
        not_passed = sum(int(match.group(k)) for k in (2, 3, 4))
        if not_passed > failing.get(match.group(5), 0):
            return (f"surefire printed {not_passed} cases of {_class_shown(match.group(5), classes)} that did not "
                    f"pass, its report holds {failing.get(match.group(5), 0)}: the report was altered during the run")
    totals = _summary_totals(console)
    if totals:
        not_passed = sum(int(n) for n in totals[-1][1:])
        if not_passed > sum(failing.values()):
            return (f"surefire printed {not_passed} cases that did not pass, the reports hold "
                    f"{sum(failing.values())}: the reports were altered during the run")
    return None


def _class_shown(name: str, classes: frozenset[str]) -> str:
    """`name` (a class name read from a report or a console line) when it, or the top-level class of a nested one, is
    one of `classes` (names the platform knows: the hidden suite's classes and the sentinel's), else fixed words: a
    report or a line the test JVM printed may hold any text, the hidden test source included (red team round 13)."""
    return name if name.split("$", 1)[0] in classes else "a class that is not the hidden tests'"


@dataclass(frozen=True)
class SurefireCheck:
    """What Maven's console says of a Java test run's reports (`surefire_check`): `tampered`, why the reports
    claim what the console does not show (else None); `not_believed`, why the run is not one whose reports count at
    all (Maven did not exit normally, printed no summary, or no result for a class of the reports), else ""."""

    tampered: str | None
    not_believed: str


def surefire_check(console: str, junit: JUnitResult, *, returncode: int | None, timed_out: bool,
                   classes: frozenset[str] = frozenset()) -> SurefireCheck:
    """Whether the JUnit reports of a surefire run (`junit`, sentinels included) may be believed, from what Maven
    itself printed (`console`) and how it ended (`returncode`; `timed_out` when the sandbox killed it at the suite's
    limit). Reports are counted only from a run that ended normally: Maven exited 0 (the platform sets
    `maven.test.failure.ignore` and a pom may not unset it, so failing tests exit 0 too; a crashed or killed
    fork, or a killed Maven, does not), printed the run's final summary, and printed a "Tests run: ... -- in <class>"
    line for every class of the reports (a console capped in the middle is excused the lines it dropped: the final
    summary, which must then be in its tail, `_summary_totals`, still bounds the passes). Red team round 12: the in-process application wrote every
    report itself and SIGKILLed Maven before it printed anything of the hidden class, 15/15 for a service with no
    route. Lines printed while the test JVM runs may be its own (it can print anything), so a run that did not end
    normally is not believed even where its console agrees. Tampered: the reports hold fewer cases that did not pass
    than the console printed (`surefire_disagreement`), more passed cases of a class than its line or than the final
    summary shows, or, in a run that was not cut short by the time limit, passed cases of a class Maven printed no
    line for. A timed-out run is never called tampered by these rules (a class's report may be written just before
    its line), but its reports are not believed either. Reasons name a class only when it is one of `classes` (the
    hidden suite's and the sentinel's, `_class_shown`)."""
    disagreement = surefire_disagreement(console, junit, classes=classes)
    passed_per_line: dict[str, int] = {}
    for match in _SUREFIRE_CLASS.finditer(console):
        run, *not_passed, name = match.groups()
        passes = int(run) - sum(int(n) for n in not_passed)
        passed_per_line[name] = min(passed_per_line.get(name, passes), passes)  # the worst line of a class counts
    reported = Counter(c.classname for c in junit.cases)
    passed = Counter(c.classname for c in junit.cases if c.status is Status.PASSED)
    totals = _summary_totals(console)
    capped = bool(_CAPPED_MARK.search(console))
    tampered = disagreement
    for name in sorted(passed):
        if not tampered and name in passed_per_line and passed[name] > passed_per_line[name]:
            tampered = (f"the reports hold {passed[name]} passed cases of {_class_shown(name, classes)}, surefire "
                        f"printed {passed_per_line[name]}: the report was not written by the test run")
    if not tampered and totals:
        run, *not_passed = (int(n) for n in totals[-1])
        if sum(passed.values()) > run - sum(not_passed):
            tampered = (f"the reports hold {sum(passed.values())} passed cases, surefire's summary "
                        f"{run - sum(not_passed)}: the reports were not written by the test run")
    unprinted = sorted(name for name in reported if name not in passed_per_line)
    why = ("the run was cut short at the time limit" if timed_out else
           f"Maven exited with {returncode}" if returncode != 0 else
           "Maven printed no summary of the test run" if not totals else
           f"Maven printed no result for {_class_shown(unprinted[0], classes)}" if unprinted and not capped else "")
    if why and not timed_out and not tampered:
        claimed = sum(passed[name] for name in unprinted)
        if claimed:
            shown = sorted({_class_shown(name, classes) for name in unprinted if passed[name]})
            tampered = (f"the reports hold {claimed} passed cases of {', '.join(shown[:3])}, for which Maven "
                        f"printed no result ({why}): the reports were not written by the test run")
    return SurefireCheck(tampered, f"{why}: the run's reports are not counted" if why else "")


def dynamic_case_count(hidden_dir: Path, *, java: bool) -> bool:
    """True when the hidden suite below `hidden_dir` has tests whose number of cases is decided only when it runs,
    so the static count of N may be short: Java `@ParameterizedTest`, `@TestFactory`, `@TestTemplate`, or a class
    that extends another (inherited test methods run once per subclass); pytest `parametrize`,
    `pytest_generate_tests` or fixture `params`. Only such a suite's run may raise N."""
    pattern = (r"@(ParameterizedTest|TestFactory|TestTemplate)\b|\bclass\s+\w+(<[^>]*>)?\s+extends\b" if java
               else r"parametrize|pytest_generate_tests|params\s*=")
    glob = "*.java" if java else "*.py"
    return any(re.search(pattern, path.read_text(errors="replace")) for path in hidden_dir.rglob(glob)
               if path.is_file())


def run_case_bound(console: str, *, java: bool) -> int | None:
    """The number of cases the test tool itself counted in its last summary of `console` (sentinels included):
    surefire's "Tests run: N, ..." total; pytest's "2 failed, 3 passed ... in 0.5s" line summed. None when there is
    no such line. A run may raise N to this many cases, less the sentinels', never beyond."""
    if java:
        totals = _summary_totals(console)
        return int(totals[-1][0]) if totals else None
    lines = _PYTEST_SUMMARY.findall(console)
    return sum(int(n) for n, word in (part.split() for part in lines[-1].split(", ")) if word in _PYTEST_CASES) \
        if lines else None


def hidden_java_classes(tests: Path) -> frozenset[str]:
    """The fully qualified names of the top-level classes of hidden Java test sources below `tests` (one per .java
    file: its `package` declaration and file name), e.g. {"com.example.inventory.InventoryApiTest"}."""
    names = set()
    for path in tests.rglob("*.java"):
        match = re.search(r"^\s*package\s+([\w.]+)\s*;", path.read_text(errors="replace"), re.M)
        names.add(f"{match.group(1)}.{path.stem}" if match else path.stem)
    return frozenset(names)

