"""The Maven build the platform runs the hidden Java tests with: its own pom, never the submission's (docs/scoring.md
"The test phase", Java; issue 15's direction "Java test runs on the platform's terms").

The submission's build decides one thing about the test run: which artifacts are on its class path. After the build,
`maven-dependency-plugin:list` (run with the submission's pom, in the install sandbox, before the hidden tests exist
anywhere) writes the resolved test class path as coordinates; `parse_dependency_list` keeps the well-formed ones and
`platform_pom` writes a pom that names each of them with every transitive dependency excluded (the list is already
complete) and their versions managed, so Maven resolves exactly those artifacts from the verified repository
(maven_verify) and nothing else. Quarkus extensions (`bootstrap_extensions`) keep their transitive dependencies:
Quarkus's test bootstrap resolves each one's deployment artifact itself and carries the runtime artifact's
exclusions over to it, so with everything excluded it finds no dependencies and fails. The bills of materials the
submission's root pom imports (`imported_boms`) are imported too, when the test run's repository holds them: they
manage versions only (no plugin or setting of a BOM reaches a build that imports it), and Quarkus reads its platform
properties from them.
Everything else of the test run is the platform's: the plugins and their versions (PLUGINS), the compilation of the
hidden tests (javac with annotation processing off: no code of the class path runs in it), surefire's fork, JVM
options, reports folder, failure handling and JUnit configuration. Nothing of the submission's pom (its plugins,
their configuration, profiles, parents, build extensions, properties) is read by the test run's Maven: rounds 13
and 14 of the red team forged 15/15 through the submission's pom in four different ways while it was.
"""
from __future__ import annotations

import re
import zipfile
from dataclasses import dataclass
from pathlib import Path
from xml.sax.saxutils import escape

from core.grading.untrusted_files import is_regular

#: The Maven plugins of the hidden test run, pinned (groupId:artifactId -> version). scripts/bootstrap.sh seeds the
#: platform's repository with them (`seed_goals`), so an offline run finds them on a fresh machine.
PLUGINS = {"org.apache.maven.plugins:maven-compiler-plugin": "3.11.0",
           "org.apache.maven.plugins:maven-surefire-plugin": "3.5.4",
           "org.apache.maven.plugins:maven-dependency-plugin": "3.8.1"}
#: Where the platform's compiler writes generated test sources (none: processing is off), a folder of the runner's
#: project that the platform empties first: javac reads it as a source path, so a file of the submission's there
#: would be compiled in place of a library class (red team round 15c).
GENERATED_TEST_SOURCES = "target/platform-generated-test-sources"
#: Most dependencies a test class path may name; a longer list is cut there (honest builds name a few hundred).
MAX_DEPENDENCIES = 2000
#: Scopes kept; `system` (a file anywhere on disk) and `import` never reach the test run.
SCOPES = ("compile", "runtime", "provided", "test")
#: Types kept, each with the type the platform's pom names (a `bundle` is a jar without the bundle plugin's help).
TYPES = {"jar": "jar", "test-jar": "test-jar", "bundle": "jar"}
#: One coordinate part: Maven's own characters for ids, versions and classifiers (nothing XML or a path could read
#: otherwise).
_PART = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.+\-]{0,199}")


def goal(artifact: str, name: str) -> str:
    """The full key of one of PLUGINS' goals, e.g. goal("maven-surefire-plugin", "test") ->
    "org.apache.maven.plugins:maven-surefire-plugin:3.5.4:test". Raises KeyError for a plugin not in PLUGINS."""
    return f"org.apache.maven.plugins:{artifact}:{_version(artifact)}:{name}"


def _version(artifact: str) -> str:
    """The pinned version of PLUGINS' `artifact` (of group org.apache.maven.plugins). KeyError when not pinned."""
    return PLUGINS[f"org.apache.maven.plugins:{artifact}"]


#: surefire's JUnit Platform provider (groupId:artifactId), which surefire resolves at its own version.
SUREFIRE_PROVIDER = "org.apache.maven.surefire:surefire-junit-platform"


def hidden_run_plugins_present(repo: Path) -> bool:
    """Whether the Maven repository `repo` holds a folder for each plugin the hidden test run invokes (the compiler
    and surefire, at their pinned versions) and for surefire's JUnit Platform provider: what scripts/bootstrap.sh
    seeds (`seed_goals`)."""
    surefire = _version("maven-surefire-plugin")
    keys = [(f"org.apache.maven.plugins:{artifact}", _version(artifact))
            for artifact in ("maven-compiler-plugin", "maven-surefire-plugin")] + [(SUREFIRE_PROVIDER, surefire)]
    return all((repo / group.replace(".", "/") / artifact / version).is_dir()
               for key, version in keys for group, artifact in [key.split(":")])


def seed_goals() -> list[str]:
    """Every goal of PLUGINS the evaluator runs, by full key: scripts/bootstrap.sh runs them once on the demo's
    reference so the platform's Maven repository holds the plugins (and surefire's JUnit provider) offline."""
    return [goal("maven-dependency-plugin", "list"), goal("maven-compiler-plugin", "testCompile"),
            goal("maven-surefire-plugin", "test")]


def dependency_list_args(output: str) -> list[str]:
    """Maven arguments that write the resolved test class path of the project in the working folder to `output` (a
    path) in `maven-dependency-plugin:list`'s format, read by `parse_dependency_list`."""
    return [goal("maven-dependency-plugin", "list"), "-DincludeScope=test", f"-DoutputFile={output}",
            "-DappendOutput=false", "-DoutputAbsoluteArtifactFilename=false"]


@dataclass(frozen=True)
class Dependency:
    """One artifact of a test class path: Maven coordinates (every part matches _PART; `classifier` may be "")."""

    group: str
    artifact: str
    type: str
    classifier: str
    version: str
    scope: str


#: Versions Maven resolves through repository metadata rather than reads as given: never on the test run's class path
#: (red team round 15b: RELEASE, with planted metadata, pointed into the submission's own tree).
METAVERSIONS = ("RELEASE", "LATEST")


def parse_dependency_list(text: str) -> tuple[Dependency, ...]:
    """The dependencies of a `maven-dependency-plugin:list` output file (`text`, written by the submission's build, so
    untrusted): lines "g:a:type[:classifier]:version:scope[ -- module name]". A line that is not one of those, or
    whose parts are not plain Maven coordinates, or whose scope or type is not kept (SCOPES, TYPES), or whose version
    is a metaversion or a snapshot, is left out, and
    so is a repeated (group, artifact, classifier); at most MAX_DEPENDENCIES are returned, in the file's order."""
    found: dict[tuple[str, str, str], Dependency] = {}
    for line in text.splitlines():
        parts = line.split(" -- ", 1)[0].strip().split(":")
        if len(parts) == 5:
            parts.insert(3, "")
        if len(parts) != 6 or not all(_PART.fullmatch(p) for i, p in enumerate(parts) if p or i != 3):
            continue
        dependency = Dependency(*parts)
        if dependency.scope not in SCOPES or dependency.type not in TYPES or not _plain_version(dependency.version):
            continue
        found.setdefault((dependency.group, dependency.artifact, dependency.classifier), dependency)
        if len(found) == MAX_DEPENDENCIES:
            break
    return tuple(found.values())


def imported_boms(pom: str) -> tuple[Dependency, ...]:
    """The BOMs a pom's text (the submission's root pom.xml, untrusted) imports in its dependencyManagement
    (`<type>pom</type><scope>import</scope>`), each part read literally or from one of the pom's own
    `<properties>` (`${name}`); entries whose parts are not then plain Maven coordinates are left out, and so is
    everything of a pom that does not parse."""
    import xml.etree.ElementTree as ET

    try:
        root = ET.fromstring(pom)
    except ET.ParseError:
        return ()
    bare = lambda tag: tag.rsplit("}", 1)[-1]  # noqa: E731 - namespace-free element names
    child = lambda element, name: next((c for c in element if bare(c.tag) == name), None)  # noqa: E731
    properties = child(root, "properties")
    known = {bare(p.tag): (p.text or "").strip() for p in (properties if properties is not None else ())}

    def value(element, name: str) -> str:
        found = child(element, name)
        text = (found.text or "").strip() if found is not None else ""
        return known.get(text[2:-1], "") if text.startswith("${") and text.endswith("}") else text

    managed = child(root, "dependencyManagement")
    entries = child(managed, "dependencies") if managed is not None else None
    boms = []
    for entry in entries if entries is not None else ():
        if value(entry, "scope") != "import" or value(entry, "type") != "pom":
            continue
        parts = (value(entry, "groupId"), value(entry, "artifactId"), value(entry, "version"))
        if all(_PART.fullmatch(p) for p in parts):
            boms.append(Dependency(parts[0], parts[1], "pom", "", parts[2], "import"))
    return tuple(boms)


def in_repository(d: Dependency, repository: Path, extension: str = "jar") -> Path:
    """Where `d`'s file of `extension` lies in a Maven repository folder (Maven's layout)."""
    name = f"{d.artifact}-{d.version}{'-' + d.classifier if d.classifier else ''}.{extension}"
    return repository.joinpath(*d.group.split("."), d.artifact, d.version, name)


#: The marker of a Quarkus extension's runtime jar (its deployment artifact is named inside).
QUARKUS_EXTENSION = "META-INF/quarkus-extension.properties"


def bootstrap_extensions(dependencies: tuple[Dependency, ...], repository: Path) -> frozenset[tuple[str, str]]:
    """(group, artifact) of each of `dependencies` whose jar in the Maven `repository` (the test run's verified view,
    whose files the platform made) carries QUARKUS_EXTENSION. A jar that is missing, unreadable, a link or not a
    regular file counts as none."""
    found = set()
    for d in dependencies:
        jar = in_repository(d, repository)
        if not is_regular(jar):  # never a link or a FIFO (red team round 15b: a FIFO hung the worker here)
            continue
        try:
            with zipfile.ZipFile(jar) as archive:
                archive.getinfo(QUARKUS_EXTENSION)
        except (OSError, KeyError, zipfile.BadZipFile, ValueError):
            continue
        found.add((d.group, d.artifact))
    return frozenset(found)


def _plain_version(version: str) -> bool:
    """False for a metaversion (METAVERSIONS) or a snapshot, whose file Maven finds through metadata."""
    return version.upper() not in METAVERSIONS and not version.upper().endswith("SNAPSHOT")


#: The JUnit Platform launcher's coordinates: the platform's preloading listener (core.engine.sentinels, a
#: LauncherSessionListener) is compiled against it.
LAUNCHER = ("org.junit.platform", "junit-platform-launcher")


def with_launcher(dependencies: tuple[Dependency, ...]) -> tuple[Dependency, ...]:
    """`dependencies` and, when they hold the JUnit Platform engine but not its launcher, the launcher of the
    engine's version (test scope): surefire runs that launcher anyway; the platform's listener needs it to compile."""
    if any((d.group, d.artifact) == LAUNCHER for d in dependencies):
        return dependencies
    engine = next((d for d in dependencies if (d.group, d.artifact) == ("org.junit.platform", "junit-platform-engine")
                   and d.type == "jar" and not d.classifier), None)
    if engine is None:
        return dependencies
    return (*dependencies, Dependency(*LAUNCHER, "jar", "", engine.version, "test"))


def has_launcher(dependencies: tuple[Dependency, ...]) -> bool:
    """Whether `dependencies` name the JUnit Platform launcher (`with_launcher`)."""
    return any((d.group, d.artifact) == LAUNCHER for d in dependencies)


def platform_pom(dependencies: tuple[Dependency, ...], *, timeout: float, jvm_options: str,
                 junit_properties: dict[str, str], keep_transitive: frozenset[tuple[str, str]] = frozenset(),
                 boms: tuple[Dependency, ...] = (), jvm: str | None = None) -> str:
    """The text of the test run's pom.xml: `dependencies` (from parse_dependency_list), their versions managed,
    each with all of its own dependencies excluded unless its (group, artifact) is in `keep_transitive`
    (`bootstrap_extensions`), and `boms` (`imported_boms`) imported after them; the compiler with annotation
    processing off, for the language level of the JDK that runs it, its generated test sources in
    GENERATED_TEST_SOURCES; surefire in one forked JVM (`jvm_options` its whole command line, `junit_properties` as
    JUnit configuration parameters and system properties, Jupiter the only engine, the class path and never the
    module path, failures not failing the build, the fork killed after `timeout` seconds). The main classes are the
    project's default output, target/classes; the tests are compiled from src/test/java to target/test-classes.
    `jvm`: the executable surefire forks as the test JVM (core.engine.jvm_domain's launcher), None for the JDK's."""
    jvm_element = f"<jvm>{escape(jvm)}</jvm>" if jvm else ""
    properties = "".join(f"<{k}>{escape(v)}</{k}>" for k, v in junit_properties.items())
    parameters = escape("\n".join(f"{k}={v}" for k, v in junit_properties.items()))
    return f"""<?xml version="1.0" encoding="UTF-8"?>
<!-- Written by the evaluator for one hidden test run (core/engine/test_pom.py). -->
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>platform.evaluator</groupId>
  <artifactId>hidden-test-run</artifactId>
  <version>1</version>
  <properties>
    <project.build.sourceEncoding>UTF-8</project.build.sourceEncoding>
  </properties>
  <dependencyManagement>
    <dependencies>
{"".join(_dependency(d, managed=True) for d in dependencies)}{"".join(_dependency(b, managed=True) for b in boms)}    </dependencies>
  </dependencyManagement>
  <dependencies>
{"".join(_dependency(d, exclude=(d.group, d.artifact) not in keep_transitive) for d in dependencies)}  </dependencies>
  <build>
    <plugins>
{_plugin("maven-compiler-plugin")}
          <proc>none</proc>
          <generatedTestSourcesDirectory>${{project.basedir}}/{GENERATED_TEST_SOURCES}</generatedTestSourcesDirectory>
          <release>${{java.specification.version}}</release>
          <encoding>UTF-8</encoding>
        </configuration>
      </plugin>
{_plugin("maven-surefire-plugin")}
          <testFailureIgnore>true</testFailureIgnore>
          <useModulePath>false</useModulePath>
          <forkCount>1</forkCount>
          <reuseForks>true</reuseForks>
          <forkedProcessTimeoutInSeconds>{max(1, int(timeout))}</forkedProcessTimeoutInSeconds>
          <argLine>{escape(jvm_options)}</argLine>{jvm_element}
          <includeJUnit5Engines><engine>junit-jupiter</engine></includeJUnit5Engines>
          <systemPropertyVariables>{properties}</systemPropertyVariables>
          <properties><configurationParameters>{parameters}</configurationParameters></properties>
          <trimStackTrace>true</trimStackTrace>
        </configuration>
      </plugin>
    </plugins>
  </build>
</project>
"""


def _plugin(artifact: str) -> str:
    """The opening of one pinned plugin's element, up to and including `<configuration>`."""
    return (f"      <plugin>\n        <groupId>org.apache.maven.plugins</groupId>\n"
            f"        <artifactId>{artifact}</artifactId>\n        <version>{_version(artifact)}</version>\n"
            "        <configuration>")


def _dependency(d: Dependency, *, managed: bool = False, exclude: bool = True) -> str:
    """One <dependency> element: a managed version (a BOM's: imported), or a dependency of the project."""
    classifier = f"<classifier>{d.classifier}</classifier>" if d.classifier else ""
    if managed:
        rest = "<scope>import</scope>" if d.scope == "import" else ""
    else:
        rest = f"<scope>{d.scope}</scope>" + (
            "<exclusions><exclusion><groupId>*</groupId><artifactId>*</artifactId></exclusion></exclusions>"
            if exclude else "")
    return (f"    <dependency><groupId>{d.group}</groupId><artifactId>{d.artifact}</artifactId>"
            f"<version>{d.version}</version><type>{TYPES.get(d.type, d.type)}</type>{classifier}{rest}</dependency>\n")
