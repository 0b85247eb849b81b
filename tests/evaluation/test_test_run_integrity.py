"""The hidden test run's integrity rules, fast: its Maven repository (core.engine.maven_verify: what a build changed in
the platform's artifacts is not seen, what it added only when Maven Central publishes the same bytes; Central is played
by a loopback server), the pom and tree rules (core.engine.untrusted_tree) and the pytest sentinels' verdict rule."""
from __future__ import annotations

import hashlib
import io
import threading
import zipfile
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from core.engine import maven_repo
from core.engine.maven_verify import CentralChecksums, VerificationUnavailable, mount_test_view

ENGINE = "org/junit/jupiter/junit-jupiter-engine/5.10.2/junit-jupiter-engine-5.10.2.jar"
NEW = "com/acme/lib/1.0/lib-1.0.jar"


class _Central(BaseHTTPRequestHandler):
    published: dict[str, str] = {}
    status = 200

    def do_GET(self):  # noqa: N802 - http.server's name
        rel = self.path.split("/maven2/", 1)[-1].removesuffix(".sha1")
        digest = self.published.get(rel)
        code = self.status if self.status != 200 else (200 if digest else 404)
        body = f"{digest}  {rel.rsplit('/', 1)[-1]}\n".encode() if code == 200 else b"no"
        self.send_response(code)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


@pytest.fixture
def central():
    """A loopback 'Maven Central': set `.published[rel] = sha1` and `.status`; yields (handler class, base URL)."""
    handler = type("Central", (_Central,), {"published": {}, "status": 200})
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield handler, f"http://127.0.0.1:{server.server_address[1]}/maven2/"
    server.shutdown()


def _jar(entries: dict[str, bytes]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name, data in entries.items():
            archive.writestr(name, data)
    return buffer.getvalue()


def _put(root: Path, rel: str, data: bytes) -> Path:
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    return path


@pytest.fixture
def task(tmp_path):
    """A platform repository with the genuine JUnit engine, a task env whose build wrote its upper layer, a view
    folder; unmounts the view afterwards."""
    platform, env = tmp_path / "platform", tmp_path / "env"
    genuine = _jar({"org/junit/jupiter/engine/JupiterTestEngine.class": b"\xca\xfe\xba\xbegenuine"})
    _put(platform, ENGINE, genuine)
    (env / maven_repo.UPPER).mkdir(parents=True)
    yield platform, env, tmp_path / "view", genuine
    maven_repo.release(tmp_path / "view")



def test_a_platform_artifact_the_build_rewrote_is_read_as_the_platform_has_it(task):
    platform, env, view_dir, genuine = task
    _put(env / maven_repo.UPPER, ENGINE, b"forged engine")

    view = mount_test_view(env_dir=env, platform_repo=platform, view_dir=view_dir, verifier=None)

    assert (view.path / ENGINE).read_bytes() == genuine
    assert view.left_out == (ENGINE,) and view.machinery is None


def test_an_added_artifact_is_kept_only_when_central_publishes_the_same_bytes(task, central):
    platform, env, view_dir, _ = task
    handler, url = central
    upper = env / maven_repo.UPPER
    good = _put(upper, NEW, _jar({"com/acme/Lib.class": b"\xca\xfe\xba\xbe"}))
    _put(upper, "com/acme/other/1.0/other-1.0.jar", b"altered after download")
    _put(upper, "com/acme/nowhere/1.0/nowhere-1.0.pom", b"<project/>")  # Central has no such artifact
    _put(upper, "com/acme/lib/1.0/lib-1.0.jar.sha1", b"whatever")  # checksum files: neither needed nor listed
    _put(upper, "com/acme/lib/maven-metadata-central.xml", b"<metadata/>")  # metadata: never kept (round 15b)
    handler.published.update({NEW: hashlib.sha1(good.read_bytes()).hexdigest(),
                              "com/acme/other/1.0/other-1.0.jar": hashlib.sha1(b"as published").hexdigest()})

    view = mount_test_view(env_dir=env, platform_repo=platform, view_dir=view_dir, verifier=CentralChecksums(url))

    assert (view.path / NEW).read_bytes() == good.read_bytes()
    assert not (view.path / "com/acme/lib/maven-metadata-central.xml").exists()
    assert not (view.path / "com/acme/other/1.0/other-1.0.jar").exists()
    assert view.left_out == ("com/acme/nowhere/1.0/nowhere-1.0.pom", "com/acme/other/1.0/other-1.0.jar")
    with pytest.raises(OSError):
        (view.path / "com/acme/planted.jar").write_bytes(b"x")  # the view is read-only


def test_an_artifact_bigger_than_the_check_reads_is_left_out_unread(tmp_path, central, monkeypatch):
    """Red team round 15c: sparse files cost the build no disk but were read whole into the worker's memory (eight
    2 GiB files at once). Files are hashed in blocks, and one over MAX_ARTIFACT_BYTES is not read at all."""
    from core.engine import maven_verify

    handler, url = central
    small = _put(tmp_path, NEW, b"x" * 10)
    big = _put(tmp_path, "com/acme/big/1.0/big-1.0.jar", b"y" * 20)
    handler.published.update({NEW: hashlib.sha1(b"x" * 10).hexdigest(),
                              "com/acme/big/1.0/big-1.0.jar": hashlib.sha1(b"y" * 20).hexdigest()})
    monkeypatch.setattr(maven_verify, "MAX_ARTIFACT_BYTES", 15)
    verifier = CentralChecksums(url)

    assert verifier(NEW, small) is True
    assert verifier("com/acme/big/1.0/big-1.0.jar", big) is False
    verifier.close()


def test_offline_nothing_the_build_added_is_kept(task):
    platform, env, view_dir, _ = task
    _put(env / maven_repo.UPPER, NEW, b"planted while offline")

    view = mount_test_view(env_dir=env, platform_repo=platform, view_dir=view_dir, verifier=None)

    assert not (view.path / NEW).exists() and view.left_out == (NEW,)


def test_only_mavens_own_bookkeeping_files_are_kept_unverified_and_no_metadata_of_the_build(task):
    """Red team round 9: any file whose name began with `maven-metadata` was kept as bookkeeping, unverified, so an
    artifact named maven-metadata (maven-metadata-1.0.jar) planted by the build reached the test run. Round 15b: a
    planted `maven-metadata-local.xml` sent a version RELEASE to a jar of the submission's tree; the test run names
    every version, so no metadata of the build's is kept."""
    platform, env, view_dir, _ = task
    planted = "org/acme/maven-metadata/1.0/maven-metadata-1.0.jar"
    kept = "org/acme/lib/1.0/_remote.repositories"
    metadata = ("org/acme/lib/maven-metadata-central.xml", "zz/rel/a/maven-metadata-local.xml")
    _put(env / maven_repo.UPPER, planted, _jar({"org/junit/platform/engine/X.class": b"forged"}))
    for rel in (kept, *metadata):
        _put(env / maven_repo.UPPER, rel, b"<metadata/>")

    view = mount_test_view(env_dir=env, platform_repo=platform, view_dir=view_dir, verifier=None)

    assert not (view.path / planted).exists() and view.left_out == (planted,)
    assert (view.path / kept).is_file()
    assert not any((view.path / rel).exists() for rel in metadata)


def test_a_genuine_jar_of_another_group_shipping_junit_classes_is_reported(task, central):
    platform, env, view_dir, _ = task
    handler, url = central
    shadow = _put(env / maven_repo.UPPER, NEW,
                  _jar({"META-INF/versions/11/org/junit/platform/launcher/core/LauncherFactory.class": b"\xca\xfe"}))
    handler.published[NEW] = hashlib.sha1(shadow.read_bytes()).hexdigest()

    view = mount_test_view(env_dir=env, platform_repo=platform, view_dir=view_dir, verifier=CentralChecksums(url))

    assert view.machinery and NEW in view.machinery and "LauncherFactory.class" in view.machinery


def test_central_unreachable_is_a_platform_fault_not_a_verdict(tmp_path, central):
    handler, url = central
    handler.status = 503
    artifact = _put(tmp_path, NEW, b"bytes")

    with pytest.raises(VerificationUnavailable, match="503"):
        CentralChecksums(url)(NEW, artifact)
    with pytest.raises(VerificationUnavailable, match="could not be asked"):
        CentralChecksums("http://127.0.0.1:9/maven2/", timeout=2)(NEW, artifact)


def test_a_flood_of_planted_files_is_refused_before_central_is_asked(task, central):
    """maven-verify-candidate-flood (red team round 12): an antrun step planted 400 empty jars in the build's
    repository; each was checked against Central, one new HTTPS client per file, outside the build's limit."""
    from core.engine.maven_verify import BuildTooLarge

    platform, env, view_dir, _ = task
    handler, url = central
    for k in range(6):
        _put(env / maven_repo.UPPER, f"rt12/flood/a{k}/1.0/a{k}-1.0.jar", b"")
    asked = []
    verifier = CentralChecksums(url)
    counting = lambda rel, path: asked.append(rel) or verifier(rel, path)  # noqa: E731

    with pytest.raises(BuildTooLarge, match="added 6 files"):
        mount_test_view(env_dir=env, platform_repo=platform, view_dir=view_dir, verifier=counting, max_candidates=5)
    assert asked == []


def test_the_check_against_central_stops_at_the_install_deadline(task, central):
    import time

    from core.engine.maven_verify import BuildTooLarge

    platform, env, view_dir, _ = task
    _put(env / maven_repo.UPPER, NEW, b"bytes")

    with pytest.raises(BuildTooLarge, match="past the install phase's limit"):
        mount_test_view(env_dir=env, platform_repo=platform, view_dir=view_dir, verifier=CentralChecksums(central[1]),
                        deadline=time.monotonic() - 1)


def test_one_http_client_serves_every_check(tmp_path, central):
    handler, url = central
    verifier = CentralChecksums(url)
    paths = [_put(tmp_path, f"com/acme/x{k}/1.0/x{k}-1.0.jar", bytes([k])) for k in range(3)]

    for k, path in enumerate(paths):
        verifier(f"com/acme/x{k}/1.0/x{k}-1.0.jar", path)
    client = verifier.client()
    verifier(NEW, _put(tmp_path, NEW, b"other"))

    assert verifier.client() is client
    verifier.close()
    assert client.is_closed


# --- the platform's own test build (core.engine.test_pom) -----------------------------------------------------------
LISTED = """
The following files have been resolved:
   com.google.code.gson:gson:jar:2.11.0:compile -- module com.google.gson
   org.junit.jupiter:junit-jupiter-api:jar:5.10.2:test -- module org.junit.jupiter.api
   io.rest-assured:rest-assured-common:test-jar:tests:5.4.0:test
   org.example:local:jar:1.0:system
   org.example:bom:pom:1.0:import
   x</groupId><plugin>evil:a:jar:1:test
   ../../etc:passwd:jar:1:test
   com.google.code.gson:gson:jar:9.9:test
   zz.rel:a:jar:RELEASE:test
   zz.rel:b:jar:latest:test
   zz.rel:c:jar:1.0-SNAPSHOT:test
"""


def test_only_plain_coordinates_of_the_builds_test_class_path_reach_the_platforms_pom():
    """The dependency list is written by the submission's build: a system-scoped file, an import, anything that is
    not a plain Maven coordinate (XML, a path), a second version of the same artifact and a version Maven would look
    up in repository metadata (RELEASE, LATEST, a snapshot: red team round 15b) are left out."""
    from core.engine.test_pom import parse_dependency_list

    listed = parse_dependency_list(LISTED)

    assert [(d.group, d.artifact, d.type, d.classifier, d.version, d.scope) for d in listed] == [
        ("com.google.code.gson", "gson", "jar", "", "2.11.0", "compile"),
        ("org.junit.jupiter", "junit-jupiter-api", "jar", "", "5.10.2", "test"),
        ("io.rest-assured", "rest-assured-common", "test-jar", "tests", "5.4.0", "test")]


def test_the_platforms_pom_names_each_dependency_alone_and_the_platforms_settings():
    import xml.etree.ElementTree as ET

    from core.engine.test_pom import PLUGINS, parse_dependency_list, platform_pom

    pom = platform_pom(parse_dependency_list(LISTED), timeout=120.0, jvm_options="-XX:+DisableAttachMechanism",
                       junit_properties={"junit.jupiter.extensions.autodetection.enabled": "false"})
    ns = {"m": "http://maven.apache.org/POM/4.0.0"}
    tree = ET.fromstring(pom)

    dependencies = tree.findall("m:dependencies/m:dependency", ns)
    assert len(dependencies) == 3
    assert all(d.find("m:exclusions/m:exclusion/m:groupId", ns).text == "*" for d in dependencies)
    plugins = {p.find("m:artifactId", ns).text: p for p in tree.findall("m:build/m:plugins/m:plugin", ns)}
    assert {f"org.apache.maven.plugins:{a}": p.find("m:version", ns).text for a, p in plugins.items()}.items() <= \
        PLUGINS.items()
    assert plugins["maven-compiler-plugin"].find("m:configuration/m:proc", ns).text == "none"
    surefire = plugins["maven-surefire-plugin"].find("m:configuration", ns)
    assert surefire.find("m:argLine", ns).text == "-XX:+DisableAttachMechanism"
    assert surefire.find("m:forkedProcessTimeoutInSeconds", ns).text == "120"
    assert surefire.find("m:useModulePath", ns).text == "false"  # the class path only (round 15d)
    assert surefire.find("m:systemPropertyVariables/m:junit.jupiter.extensions.autodetection.enabled",
                         ns).text == "false"


QUARKUS_POM = """<project xmlns="http://maven.apache.org/POM/4.0.0"><properties>
  <quarkus.platform.group-id>io.quarkus.platform</quarkus.platform.group-id><v>3.33.2</v></properties>
  <dependencyManagement><dependencies>
    <dependency><groupId>${quarkus.platform.group-id}</groupId><artifactId>quarkus-bom</artifactId>
      <version>${v}</version><type>pom</type><scope>import</scope></dependency>
    <dependency><groupId>${undefined}</groupId><artifactId>other-bom</artifactId>
      <version>1</version><type>pom</type><scope>import</scope></dependency>
    <dependency><groupId>x</groupId><artifactId>managed</artifactId><version>1</version></dependency>
  </dependencies></dependencyManagement></project>"""


def test_the_boms_a_root_pom_imports_are_read_with_its_own_properties():
    from core.engine.test_pom import imported_boms

    assert [(b.group, b.artifact, b.version) for b in imported_boms(QUARKUS_POM)] == [
        ("io.quarkus.platform", "quarkus-bom", "3.33.2")]
    assert imported_boms("<project><oops") == ()


def test_a_quarkus_extension_keeps_its_transitive_dependencies_and_boms_are_imported(tmp_path):
    """Quarkus's test bootstrap resolves each extension's deployment artifact with the runtime artifact's exclusions:
    with every dependency excluded it found none and the reference of quarkus-blog-cms failed 0/15."""
    from core.engine.test_pom import (bootstrap_extensions, imported_boms, parse_dependency_list, platform_pom)

    listed = parse_dependency_list("   io.quarkus:quarkus-rest:jar:3.33.2:compile\n"
                                   "   io.rest-assured:rest-assured:jar:5.5.0:test\n")
    _put(tmp_path, "io/quarkus/quarkus-rest/3.33.2/quarkus-rest-3.33.2.jar",
         _jar({"META-INF/quarkus-extension.properties": b"deployment-artifact=io.quarkus:quarkus-rest-deployment"}))
    _put(tmp_path, "io/rest-assured/rest-assured/5.5.0/rest-assured-5.5.0.jar", _jar({"io/x.class": b""}))

    keep = bootstrap_extensions(listed, tmp_path)
    pom = platform_pom(listed, timeout=60, jvm_options="", junit_properties={}, keep_transitive=keep,
                       boms=imported_boms(QUARKUS_POM))

    assert keep == {("io.quarkus", "quarkus-rest")}
    rest, assured = pom.split("<artifactId>quarkus-rest</artifactId>")[2], pom.split("rest-assured</artifactId>")[2]
    assert "<exclusions>" not in rest.split("</dependency>")[0] and "<exclusions>" in assured.split("</dependency>")[0]
    assert "<artifactId>quarkus-bom</artifactId><version>3.33.2</version><type>pom</type><scope>import</scope>" in pom


@pytest.mark.timeout(20)
def test_a_fifo_or_a_link_at_a_dependencys_jar_is_never_opened(tmp_path):
    """Red team round 15b: a FIFO at a listed dependency's jar hung the worker in the Quarkus extension check."""
    import os

    from core.engine.test_pom import bootstrap_extensions, parse_dependency_list

    listed = parse_dependency_list("   zz:fifo:jar:1.0:test\n   zz:link:jar:1.0:test\n")
    (tmp_path / "zz" / "fifo" / "1.0").mkdir(parents=True)
    os.mkfifo(tmp_path / "zz" / "fifo" / "1.0" / "fifo-1.0.jar")
    real = _put(tmp_path / "elsewhere", "x.jar", _jar({"META-INF/quarkus-extension.properties": b""}))
    (tmp_path / "zz" / "link" / "1.0").mkdir(parents=True)
    (tmp_path / "zz" / "link" / "1.0" / "link-1.0.jar").symlink_to(real)

    assert bootstrap_extensions(listed, tmp_path) == frozenset()


def test_surefires_and_junits_service_entries_of_the_submission_are_removed(tmp_path):
    """Round 15b: surefire's forked booter loads its channel to Maven (MasterProcessChannelProcessorFactory) through
    ServiceLoader from the test class path, which holds the submission's target/classes."""
    from core.engine.untrusted_tree import remove_junit_configuration

    services = "target/classes/META-INF/services/"
    for name in ("org.apache.maven.surefire.spi.MasterProcessChannelProcessorFactory",
                 "org.junit.platform.launcher.TestExecutionListener", "java.sql.Driver"):
        _put(tmp_path, services + name, b"zz.X\n")
    # round 15d: a module descriptor's `provides` registers the same services on the module path
    for rel in ("target/classes/module-info.class", "target/classes/META-INF/versions/11/module-info.class"):
        _put(tmp_path, rel, b"\xca\xfe\xba\xbe")

    removed = remove_junit_configuration(tmp_path, keep_below="src/test")

    assert sorted(removed) == sorted([services + "org.apache.maven.surefire.spi.MasterProcessChannelProcessorFactory",
                                      services + "org.junit.platform.launcher.TestExecutionListener",
                                      "target/classes/META-INF/versions/11/module-info.class",
                                      "target/classes/module-info.class"])
    assert (tmp_path / services / "java.sql.Driver").is_file()


def test_the_outcomes_pytest_recorded_count_a_test_passed_only_when_no_phase_failed():
    from core.engine.sentinels import recorded_passes

    record = ("setup\tpassed\tt.py::a\ncall\tpassed\tt.py::a\nteardown\tpassed\tt.py::a\n"
              "call\tpassed\tt.py::b\nteardown\tfailed\tt.py::b\n"
              "call\tfailed\tt.py::c\ncall\trerun\tt.py::d\ncall\tpassed\tt.py::d\n"
              "call\tpassed\tt.py::a\ngarbage line\n")

    assert recorded_passes(record) == 2  # a (once) and d; b failed its teardown, c its call


def test_the_runners_pytest_plugins_are_its_own_entry_points(tmp_path):
    from core.engine.whitebox import runner_plugins

    site = tmp_path / "env" / "lib" / "python3.11" / "site-packages"
    for name, points in (("pytest_timeout-2.4.0", "[pytest11]\ntimeout = pytest_timeout\n"),
                         ("anyio-4.0.0", "[pytest11]\nanyio = anyio.pytest_plugin\n"),
                         ("other-1.0", "[console_scripts]\nx = y:z\n")):
        dist = site / f"{name}.dist-info"
        dist.mkdir(parents=True)
        (dist / "METADATA").write_text(f"Name: {name.split('-')[0]}\nVersion: 1\n")
        (dist / "entry_points.txt").write_text(points)

    assert runner_plugins(tmp_path / "env") == ["anyio", "timeout"]


@pytest.mark.timeout(20)
def test_the_worker_reads_the_head_of_a_requirements_file_only(tmp_path):
    """Red team round 15: 250 MB of newlines took the worker 2.4 GB as one list of lines."""
    import os

    from core.engine.uv_cache import REQUIREMENTS_BYTES, plain_requirements

    flood = tmp_path / "requirements.txt"
    flood.write_bytes(b"flask==3.0.0\n" + b"\n" * (REQUIREMENTS_BYTES * 4) + b"requests==2.32.0\n")
    os.mkfifo(tmp_path / "fifo.txt")

    assert plain_requirements(flood) == ["flask==3.0.0"]
    assert plain_requirements(tmp_path / "fifo.txt") == []


def test_the_sentinel_plugin_records_what_pytest_decided(tmp_path):
    """The plugin as the runner writes it, loaded into a real pytest run: its record holds each phase's outcome."""
    import subprocess
    import sys

    from core.engine.sentinels import Sentinels, recorded_passes

    sentinels = Sentinels.new()
    (tmp_path / "platform").mkdir()
    (tmp_path / "submission").mkdir()
    (tmp_path / "submission" / "appmod.py").write_text("VALUE = 1\n")
    (tmp_path / "suite").mkdir()
    (tmp_path / "suite" / "test_x.py").write_text(
        "import appmod\n\ndef test_ok():\n    assert appmod.VALUE == 1\n\ndef test_bad():\n    assert False\n")
    record = tmp_path / "outcomes.txt"
    plugin = sentinels.pytest_plugin(tmp_path / "platform", record=record)

    run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", plugin,
                          f"--junitxml={tmp_path / 'junit.xml'}", "test_x.py"], cwd=tmp_path / "suite",
                         env={"PYTHONPATH": f"{tmp_path / 'platform'}:{tmp_path / 'submission'}",
                              "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1",
                              "PATH": "/usr/bin:/bin"}, capture_output=True, text=True, timeout=60)

    assert "1 failed, 2 passed, 2 skipped" in run.stdout, run.stdout + run.stderr
    assert recorded_passes(record.read_text()) == 2  # test_ok and the must-pass sentinel
    assert "call\tfailed\ttest_x.py::test_bad" in record.read_text()


def _plugin_run(tmp_path, app: str, test: str):
    """A real pytest run of `test` (test_x.py) with the sentinel plugin, the submission's module `appmod` holding
    `app`; (pytest's output, the last sentinel passed: the run is tampered)."""
    import subprocess
    import sys

    from core.engine.sentinels import Sentinels

    sentinels = Sentinels.new()
    for folder in ("platform", "submission", "suite"):
        (tmp_path / folder).mkdir()
    (tmp_path / "submission" / "appmod.py").write_text(app)
    (tmp_path / "suite" / "test_x.py").write_text(test)
    plugin = sentinels.pytest_plugin(tmp_path / "platform", record=tmp_path / "outcomes.txt")
    run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", plugin, "-rA",
                          "test_x.py"], cwd=tmp_path / "suite",
                         env={"PYTHONPATH": f"{tmp_path / 'platform'}:{tmp_path / 'submission'}",
                              "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1",
                              "PATH": "/usr/bin:/bin"}, capture_output=True, text=True, timeout=60)
    return run.stdout + run.stderr, f"PASSED ::{sentinels.must_skip_last}" in run.stdout


SETTRACE_APP = """import sys
def _trace(frame, event, arg):
    return None
sys.settrace(_trace)
"""
JSONLIB_APP = """import httpx._models
class _Anything:
    def __eq__(self, other):
        return True
class _Lib:
    @staticmethod
    def loads(*args, **kwargs):
        return _Anything()
httpx._models.jsonlib = _Lib()
"""
PLAIN_TEST = "import appmod\n\ndef test_a():\n    assert 1 == 1\n"


@pytest.mark.parametrize("app", [SETTRACE_APP, JSONLIB_APP], ids=["settrace", "jsonlib"])
def test_a_trace_function_or_a_replaced_json_library_of_the_clients_is_tampering(tmp_path, app):
    """Red team round 16 forged Blog's 20 of 20 (honest: 2 and 8) with a trace function that set pytest's rewritten
    asserts true, and with `httpx._models.jsonlib` replaced by one whose values equal anything."""
    output, tampered = _plugin_run(tmp_path, app, PLAIN_TEST)
    assert tampered, output


def test_an_honest_run_importing_the_clients_is_intact(tmp_path):
    test = ("import appmod, json, httpx, logging\n\ndef test_a():\n    logging.getLogger('httpx').warning('hi')\n"
            "    assert json.loads('[1]') == [1] and httpx.Response(201).status_code == 201\n")
    output, tampered = _plugin_run(tmp_path, "VALUE = 1\n", test)
    assert not tampered and "2 passed, 2 skipped" in output, output


def test_a_status_code_equal_to_everything_is_made_a_plain_number(tmp_path):
    app = ("class Magic(int):\n    def __eq__(self, other):\n        return True\n    __hash__ = int.__hash__\n"
           "STATUS = Magic(500)\n")
    test = ("import appmod, httpx\n\ndef test_a():\n    response = httpx.Response(appmod.STATUS)\n"
            "    assert type(response.status_code) is int and response.status_code != 200\n")
    output, tampered = _plugin_run(tmp_path, app, test)
    assert "PASSED test_x.py::test_a" in output and not tampered, output


# --- the pytest sentinels' verdict rule (core.engine.sentinels) ------------------------------------------------
def _report(sentinels, *, last: str | None, real: int = 3):
    from core.grading.junit import JUnitResult, Status, TestCase

    cases = [TestCase(name=f"test_{i}", classname="tests.test_x", status=Status.PASSED) for i in range(real)]
    cases += [TestCase(name=sentinels.must_pass, classname="x", status=Status.PASSED),
              TestCase(name=sentinels.must_skip, classname="x", status=Status.SKIPPED)]
    if last:
        cases.append(TestCase(name=sentinels.must_skip_last, classname="x", status=Status[last]))
    return JUnitResult(tuple(cases))


@pytest.mark.parametrize(("last", "real", "tampered"), [
    ("SKIPPED", 3, False),   # intact: every sentinel as it must be
    ("PASSED", 3, True),     # the end-of-run check saw pytest's machinery replaced (or a verdict flipped)
    (None, 3, True),         # a run that reported every case of the suite but not the last sentinel
    (None, 2, False),        # a run cut short (--maxfail, a crash) may lack it
])
def test_the_last_pytest_sentinel_must_be_skipped_unless_the_run_was_cut_short(last, real, tampered):
    from core.engine.sentinels import Sentinels

    sentinels = Sentinels.new()

    rest, why = sentinels.verdict(_report(sentinels, last=last, real=real), expected=3)

    assert (why is not None) is tampered
    assert rest.total == real  # sentinel cases never count


HAMCREST = "org/hamcrest/hamcrest/2.2/hamcrest-2.2.jar"


def test_a_submission_class_shadowing_a_library_of_the_test_run_is_named(tmp_path):
    """Red team round 7: five hamcrest classes in the submission's own sources (`matches` always true) come before
    the real library on the test class path, so rest-assured's checks passed for a service answering `{}` (28/46).
    A class of target/classes with the name of a class of any jar the test run can load is tampering."""
    from core.engine.untrusted_tree import test_run_tampering

    _put(tmp_path / "m2", HAMCREST, _jar({"org/hamcrest/core/IsEqual.class": b"real", "module-info.class": b"m"}))
    _put(tmp_path / "classes", "org/hamcrest/core/IsEqual.class", b"forged")
    _put(tmp_path / "classes", "module-info.class", b"m")

    why = test_run_tampering(tmp_path / "classes", repositories=(tmp_path / "m2",))

    assert why is not None and "target/classes/org/hamcrest/core/IsEqual.class" in why
    assert "org.hamcrest.core.IsEqual" in why and HAMCREST in why


def test_a_class_of_the_test_machinery_among_the_submissions_classes_is_named(tmp_path):
    from core.engine.untrusted_tree import test_run_tampering

    _put(tmp_path / "classes", "org/junit/platform/engine/support/hierarchical/ThrowableCollector.class", b"x")

    assert "is a class of the test machinery" in (test_run_tampering(tmp_path / "classes") or "")


def test_the_applications_own_classes_are_never_a_shadow(tmp_path):
    """A jar of the application's own package in the platform's repository (a reference build's artifact, say) must
    not make every honest submission of that task tampered; neither do other classes no library has."""
    from core.engine.untrusted_tree import test_run_tampering

    _put(tmp_path / "m2", "com/example/app/1.0/app-1.0.jar", _jar({"com/example/auth/Main.class": b"ref",
                                                                    "com/example/auth/web/Routes.class": b"ref"}))
    _put(tmp_path / "m2", HAMCREST, _jar({"org/hamcrest/core/IsEqual.class": b"real"}))
    for rel in ("com/example/auth/Main.class", "com/example/auth/web/Routes.class", "com/example/auth/Users.class"):
        _put(tmp_path / "classes", rel, b"submission")

    assert test_run_tampering(tmp_path / "classes", repositories=(tmp_path / "m2",),
                              own_packages=frozenset({"com.example.auth"})) is None
    assert "com.example.auth.Main" in (test_run_tampering(tmp_path / "classes", repositories=(tmp_path / "m2",))
                                       or "")


def test_the_apparent_size_counts_sparse_files_in_full(tmp_path):
    from core.engine.untrusted_tree import apparent_size

    with open(tmp_path / "holes", "wb") as handle:
        handle.truncate(5 * 2**30)
    (tmp_path / "small").write_bytes(b"12345")
    (tmp_path / "link").symlink_to(tmp_path / "holes")

    assert apparent_size(tmp_path) == 5 * 2**30 + 5


# --- files the service or the build may have replaced (red team round 10) -----------------------------------------
@pytest.mark.timeout(20)
def test_a_start_script_replaced_by_a_fifo_or_a_link_is_never_read(tmp_path):
    """The service ran before the crash detail reads its start script: a FIFO hung the worker on open, a link to
    /dev/zero read until out of memory, a link to a root-only host file told whether it held CRLF. Only a regular
    file is read, and only its head."""
    import os

    from core.engine.team_view import start_crash_detail

    crlf = tmp_path / "crlf.sh"
    crlf.write_bytes(b"#!/bin/sh\r\nexec python3 app.py\r\n")
    assert "Windows line endings" in start_crash_detail(crlf)

    fifo = tmp_path / "fifo" / "start.sh"
    fifo.parent.mkdir()
    os.mkfifo(fifo)
    plain = "every process of the service exited before the port opened"
    assert start_crash_detail(fifo) == plain
    for target in ("/dev/zero", str(crlf)):
        link = tmp_path / f"link{len(target)}" / "start.sh"
        link.parent.mkdir()
        link.symlink_to(target)
        assert start_crash_detail(link) == plain, target


@pytest.mark.timeout(20)
def test_fifos_in_the_built_classes_do_not_block_the_test_run_check(tmp_path):
    import os

    from core.engine.untrusted_tree import test_run_tampering

    _put(tmp_path / "m2", HAMCREST, _jar({"org/hamcrest/core/IsEqual.class": b"real"}))
    (tmp_path / "classes" / "org" / "hamcrest" / "core").mkdir(parents=True)
    os.mkfifo(tmp_path / "classes" / "org" / "hamcrest" / "core" / "IsEqual.class")
    os.mkfifo(tmp_path / "classes" / "data.bin")

    assert test_run_tampering(tmp_path / "classes", repositories=(tmp_path / "m2",)) is None


def _junit_of(tmp_path, cases: str):
    from core.grading.junit import parse_junit

    path = tmp_path / "TEST-x.xml"
    path.write_text(f"<testsuite>{cases}</testsuite>")
    return parse_junit([path])


#: The classes the platform knows in these runs (the hidden suite's and the sentinel's): the only ones a detail names.
KNOWN = frozenset({"com.example.ApiTest", "RgSentinelTest"})
SUREFIRE_CONSOLE = """[INFO] Running com.example.ApiTest
[ERROR] Tests run: 3, Failures: 2, Errors: 0, Skipped: 0, Time elapsed: 1.2 s <<< FAILURE! -- in com.example.ApiTest
[INFO] Tests run: 3, Failures: 1, Errors: 0, Skipped: 1, Time elapsed: 0.1 s - in RgSentinelTest
[INFO] Results:
[ERROR] Tests run: 6, Failures: 3, Errors: 0, Skipped: 1
"""


def test_reports_saying_fewer_failures_than_surefire_printed_are_tampered(tmp_path):
    """Red team round 11: a process the in-process application started rewrote the hidden class's report file while
    the run went on (every failure stripped, the sentinel class's file spared): 15/15 for a service with no route.
    Maven's console, which that process can add to but not take back, is the cross-check."""
    from core.engine.runner import surefire_disagreement

    sentinel = ('<testcase classname="RgSentinelTest" name="a"/><testcase classname="RgSentinelTest" name="b">'
                '<skipped/></testcase><testcase classname="RgSentinelTest" name="c"><failure/></testcase>')
    honest = _junit_of(tmp_path, sentinel + '<testcase classname="com.example.ApiTest" name="t1"/>'
                     '<testcase classname="com.example.ApiTest" name="t2"><failure/></testcase>'
                     '<testcase classname="com.example.ApiTest" name="t3"><failure/></testcase>')
    forged = _junit_of(tmp_path, sentinel + "".join(f'<testcase classname="com.example.ApiTest" name="t{k}"/>'
                                                  for k in (1, 2, 3)))

    assert surefire_disagreement(SUREFIRE_CONSOLE, honest) is None
    assert "com.example.ApiTest" in surefire_disagreement(SUREFIRE_CONSOLE, forged, classes=KNOWN)
    # a class the platform does not know is never named (round 13: its name may be the hidden test source)
    assert "com.example" not in surefire_disagreement(SUREFIRE_CONSOLE, forged)
    # the class lines dropped from a capped console: the run's last summary still tells
    assert "reports were altered" in surefire_disagreement(SUREFIRE_CONSOLE.split("[INFO] Results:")[1], forged)
    # lines the tests printed themselves add nothing: the worst line of a class counts
    printed = "Tests run: 3, Failures: 0, Errors: 0, Skipped: 0, Time elapsed: 1 s -- in com.example.ApiTest\n"
    assert surefire_disagreement(printed + SUREFIRE_CONSOLE, forged) is not None
    assert surefire_disagreement("", forged) is None  # nothing to compare with


# --- Red team round 12: a Java run's reports count only when Maven ended the run normally -------------------------
SENTINEL_CASES = ('<testcase classname="RgSentinelTest" name="a"/><testcase classname="RgSentinelTest" name="b">'
                  '<skipped/></testcase><testcase classname="RgSentinelTest" name="c"><failure/></testcase>')
SENTINEL_LINE = ("[ERROR] Tests run: 3, Failures: 1, Errors: 0, Skipped: 1, Time elapsed: 0.1 s <<< FAILURE! -- in "
                 "RgSentinelTest\n")


def _api_cases(passed: int, failed: int = 0) -> str:
    return "".join(f'<testcase classname="com.example.ApiTest" name="p{k}"/>' for k in range(passed)) + "".join(
        f'<testcase classname="com.example.ApiTest" name="f{k}"><failure/></testcase>' for k in range(failed))


def test_reports_of_a_run_whose_maven_was_killed_are_tampered_not_counted(tmp_path):
    """java-inprocess-forge-reports-kill-maven: the in-process application wrote every report (the sentinel class's
    with its real verdicts) and SIGKILLed Maven before it printed a line of the hidden class or the summary."""
    from core.engine.runner import surefire_check

    forged = _junit_of(tmp_path, SENTINEL_CASES + _api_cases(15))
    console = SENTINEL_LINE + "[INFO] Running com.example.ApiTest\n"

    check = surefire_check(console, forged, returncode=137, timed_out=False, classes=KNOWN)

    assert check.tampered and "com.example.ApiTest" in check.tampered and "printed no result" in check.tampered
    unknown = surefire_check(console, forged, returncode=137, timed_out=False, classes=frozenset({"RgSentinelTest"}))
    assert unknown.tampered and "com.example" not in unknown.tampered
    # the same reports with Maven's exit code 0 but no summary: still no result of the class, still tampered
    assert surefire_check(console, forged, returncode=0, timed_out=False).tampered
    # cut short by the time limit: not called tampered (a report may precede its line), but not counted either
    cut = surefire_check(console, forged, returncode=None, timed_out=True)
    assert cut.tampered is None and "cut short" in cut.not_believed


def test_a_complete_surefire_run_is_believed_and_a_crashed_one_is_not(tmp_path):
    from core.engine.runner import surefire_check

    honest = _junit_of(tmp_path, SENTINEL_CASES + _api_cases(1, failed=2))
    console = (SENTINEL_LINE + "[ERROR] Tests run: 3, Failures: 2, Errors: 0, Skipped: 0, Time elapsed: 1.2 s <<< "
               "FAILURE! -- in com.example.ApiTest\n[INFO] Results:\n[ERROR] Tests run: 6, Failures: 3, Errors: 0, "
               "Skipped: 1\n[INFO] BUILD SUCCESS\n")

    believed = surefire_check(console, honest, returncode=0, timed_out=False)
    assert (believed.tampered, believed.not_believed) == (None, "")
    # the fork crashed (System.exit, a halt): Maven exits 1 after its summary; nothing is forged, nothing counted
    crashed = surefire_check(console + "[ERROR] The forked VM terminated without properly saying goodbye.\n", honest,
                             returncode=1, timed_out=False)
    assert crashed.tampered is None and "exited with 1" in crashed.not_believed
    # a line the test JVM printed itself (15 passed) adds nothing: the worst line of the class counts
    printed = "Tests run: 3, Failures: 0, Errors: 0, Skipped: 0, Time elapsed: 1 s -- in com.example.ApiTest\n"
    three = _junit_of(tmp_path, SENTINEL_CASES + _api_cases(3))
    assert "surefire printed" in surefire_check(printed + console, three, returncode=0, timed_out=False).tampered
    # a console capped in the middle is excused the class lines it dropped; its summary still bounds the passes
    tail = "\n[... 900000 bytes of output dropped (64 KiB cap: first and last 32 KiB kept) ...]\n" + \
        console.split("[INFO] Results:")[1]
    capped = surefire_check(tail, honest, returncode=0, timed_out=False)
    assert (capped.tampered, capped.not_believed) == (None, "")
    assert "summary" in surefire_check(tail.replace("Tests run: 6", "Tests run: 5"), honest, returncode=0,
                                       timed_out=False).tampered


def test_a_summary_the_tests_printed_in_a_capped_consoles_head_counts_for_nothing(tmp_path):
    """Red team round 19 (java-sigquit-flood): the test printed a fake final summary and its own class line, then
    40 KB of filler, so Maven's real lines fell into the dropped middle; thread dumps of Maven after its real summary
    filled the kept tail. Maven's own summary must be in the tail: here there is none, so the run is not believed."""
    from core.engine.runner import surefire_check

    three = _junit_of(tmp_path, SENTINEL_CASES + _api_cases(3))
    head = ("Tests run: 3, Failures: 0, Errors: 0, Skipped: 0, Time elapsed: 1 s -- in com.example.ApiTest\n"
            "Tests run: 6, Failures: 1, Errors: 0, Skipped: 1\n" + "filler\n" * 10)
    tail = '"main" #1 prio=5 os_prio=0 tid=0x1 nid=0x2 waiting on condition\n' * 20
    console = head + "[... 900000 bytes of output dropped (64 KiB cap: first and last 32 KiB kept) ...]\n" + tail

    check = surefire_check(console, three, returncode=0, timed_out=False)

    assert "printed no summary" in check.not_believed, check
    # the same head and Maven's real summary in the tail: the tail's summary bounds the passes
    real = tail + "[INFO] Results:\n[ERROR] Tests run: 6, Failures: 3, Errors: 0, Skipped: 1\n[INFO] BUILD SUCCESS\n"
    bounded = surefire_check(console.replace(tail, real), three, returncode=0, timed_out=False)
    assert bounded.tampered and "reports were altered" in bounded.tampered


def _task_run(tmp_path, *, language: str, tests: dict[str, str], total: int):
    from core.engine.runner import TaskRun
    from core.engine.spec import TaskSpec
    from core.engine.toolchain import Toolchain

    hidden = tmp_path / "hidden"
    for rel, text in tests.items():
        (hidden / rel).parent.mkdir(parents=True, exist_ok=True)
        (hidden / rel).write_text(text)
    spec = TaskSpec(name="T", language=language, port=18999, hidden_dir=hidden, tests_total=total)
    return TaskRun(spec=spec, repo_src=None, backend=None, work_root=tmp_path / "work", toolchain=Toolchain())


def _pytest_report(path: Path, run, *, real: int) -> Path:
    s = run.sentinels
    cases = "".join(f'<testcase classname="tests.test_x" name="test_{k}"/>' for k in range(real))
    cases += (f'<testcase classname="x" name="{s.must_pass}"/><testcase classname="x" name="{s.must_skip}"><skipped/>'
              f'</testcase><testcase classname="x" name="{s.must_skip_last}"><skipped/></testcase>')
    path.write_text(f"<testsuites><testsuite>{cases}</testsuite></testsuites>")
    return path


def test_a_report_with_more_cases_than_the_hidden_suite_is_tampered_and_n_stays(tmp_path):
    """Red team round 12: N was the larger of the task's and the report's count, so a forged report set the N shown
    with the result (bits of the hidden suite, one submission at a time)."""
    from core.sandbox import ExecResult

    run = _task_run(tmp_path, language="python", tests={"tests/test_x.py": "def test_0():\n    pass\n"}, total=3)
    report = _pytest_report(tmp_path / "junit.xml", run, real=41)
    out = ExecResult(returncode=0, output="44 passed in 0.10s\n", timed_out=False, duration=1.0)

    why = run._read_reports([report], run=out)

    assert why and "41 cases of the hidden suite, which has 3" in why
    assert run.total == 3


def test_a_parametrized_suite_may_raise_n_up_to_what_pytest_counted(tmp_path):
    from core.sandbox import ExecResult

    suite = {"tests/test_x.py": "import pytest\n\n@pytest.mark.parametrize('x', VALUES)\ndef test_0(x):\n    pass\n"}
    run = _task_run(tmp_path, language="python", tests=suite, total=3)
    report = _pytest_report(tmp_path / "junit.xml", run, real=5)

    ok = run._read_reports([report], run=ExecResult(0, "3 passed, 2 skipped, 1 warning in 0.1s\n5 passed, 3 skipped "
                                                       "in 0.10s\n", False, 1.0))
    assert (ok, run.total, run.passed) == (None, 5, 5)
    # pytest itself counted fewer cases than the report holds: the report was written by someone else
    run = _task_run(tmp_path / "again", language="python", tests=suite, total=3)
    report = _pytest_report(tmp_path / "junit2.xml", run, real=9)
    assert "9 cases" in run._read_reports([report], run=ExecResult(0, "5 passed, 3 skipped in 0.1s\n", False, 1.0))
    assert run.total == 3


def test_the_launcher_joins_the_test_run_at_the_engines_version_for_the_preloading_listener():
    """Red team round 16 defined JUnit's AssertionFailureBuilder from the application before JUnit loaded it; the
    platform's listener loads the test libraries' classes first, and it compiles against the launcher."""
    from core.engine.sentinels import PRELOADED_LIBRARIES, Sentinels
    from core.engine.test_pom import Dependency, has_launcher, platform_pom, with_launcher

    api = Dependency("org.junit.jupiter", "junit-jupiter-api", "jar", "", "5.10.2", "test")
    engine = Dependency("org.junit.platform", "junit-platform-engine", "jar", "", "1.10.2", "test")
    assert with_launcher((api,)) == (api,) and not has_launcher((api,))
    added = with_launcher((api, engine))
    assert added[-1] == Dependency("org.junit.platform", "junit-platform-launcher", "jar", "", "1.10.2", "test")
    assert with_launcher(added) == added
    assert "<artifactId>junit-platform-launcher</artifactId>" in platform_pom(
        added, timeout=60, jvm_options="-Xmx1g", junit_properties={})
    sentinels = Sentinels.new()
    source = sentinels.preloader_source()
    assert f"public class {sentinels.java_preloader} implements org.junit.platform.launcher.LauncherSessionListener" \
        in source
    assert all(f'"{name}"' in source for name in ("org.junit.jupiter.api.Assertions", "org.assertj.core.api.Assertions"))
    assert "org.opentest4j.AssertionFailedError" in PRELOADED_LIBRARIES
    assert not sentinels.java_preloader.endswith(("Test", "Tests", "TestCase"))  # never run as a test class
