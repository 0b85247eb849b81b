"""File operations on trees a submission controls, done as root without following its links.

A submission (or code its build runs) can replace `src`, `target` or any folder with a symlink to a host folder, or
leave FIFOs and device nodes behind. The platform copies and cleans such trees as root, so every operation here
refuses to go through a link and skips special files (docs/scoring.md "The run of one task", install phase).
"""
from __future__ import annotations

import hashlib
import os
import shutil
import stat
from pathlib import Path

from core.grading.untrusted_files import (  # noqa: F401 - also this module's API
    MAX_TREE_DEPTH, TreeTooDeep, TreeUnreadable, UntrustedTreeError, is_regular, read_regular, walk_untrusted)

#: The Java tampering check reads at most this many entries of the built tree (files and folders) and this many
#: entries of all its archives together; past either the build is `tampered` (docs/scoring.md "The test phase"):
#: red team round 12 made the root worker hold 800 MB for 100,000 empty class files, 534 MB for a jar of a million
#: entries. The biggest reference build (quarkus-blog-cms) has about 2,000 entries.
MAX_TREE_ENTRIES = 200_000
MAX_ARCHIVE_ENTRIES = 200_000
#: Bytes of an archive's central directory per entry allowed for (46 bytes of record and a name of 170 bytes on
#: average): a directory bigger than that for the entries left is refused unread.
ZIP_ENTRY_BYTES = 216


class TreeTooLarge(UntrustedTreeError):
    """The tree (or its archives) holds more entries than the check reads."""


def copy_tree(source: Path, target: Path, *, links: bool = True, only_named: str | None = None) -> None:
    """Copy `source` to `target` keeping symlinks as links (never followed; `links=False` leaves them out) and
    leaving out FIFOs, sockets and device nodes; with `only_named`, only the regular files of that name (and the
    folders) are copied. Raises OSError when a file cannot be copied, e.g. the target is full; TreeTooDeep (not an
    OSError) for a folder nested deeper than MAX_TREE_DEPTH. Iterative (`walk_untrusted`): no depth of the tree can
    exhaust the worker's stack, as shutil.copytree's recursion did."""
    target = Path(target)
    for folder, rel, _, files in walk_untrusted(source, strict=True):
        here = target if rel == "." else target / rel
        here.mkdir(parents=rel == ".")
        for name in files:
            path = os.path.join(folder, name)
            mode = os.lstat(path).st_mode
            if only_named is not None and name != only_named:
                continue
            if stat.S_ISREG(mode):
                shutil.copy2(path, here / name, follow_symlinks=False)
            elif links and stat.S_ISLNK(mode):
                os.symlink(os.readlink(path), here / name)
        shutil.copystat(folder, here, follow_symlinks=False)


def apparent_size(root: Path) -> int:
    """Bytes the regular files below `root` would take once copied (st_size, so sparse files count in full); links
    are not followed. Each entry is looked at relative to its open folder, so a name whose whole path is longer
    than PATH_MAX is measured too; anything the system still refuses raises TreeUnreadable (the submission's
    outcome, never a platform fault: red team round 13)."""
    total = 0
    for folder, rel, _, files in walk_untrusted(root):  # TreeTooDeep past MAX_TREE_DEPTH
        try:
            fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC)
        except OSError as exc:
            raise TreeUnreadable.of(exc, rel) from None
        try:
            for name in files:
                info = os.lstat(name, dir_fd=fd)
                if stat.S_ISREG(info.st_mode):
                    total += info.st_size
        except OSError as exc:
            raise TreeUnreadable.of(exc, rel) from None
        finally:
            os.close(fd)
    return total


def remove_below(root: Path, rel: str) -> None:
    """Remove `root/rel` without following a link on the way: if any component of the path is a symlink, only that
    link is removed; the folder it points at is never touched."""
    current = root
    for part in Path(rel).parts:
        current = current / part
        if current.is_symlink():
            current.unlink()
            return
        if not current.exists():
            return
    if current.is_dir():
        shutil.rmtree(current, ignore_errors=True)
    else:
        current.unlink(missing_ok=True)



ARCHIVE_SUFFIXES = (".jar", ".war", ".ear", ".zip")
JUNIT_CONFIGURATION = ("META-INF/services/org.junit.", "junit-platform.properties")
#: Service entries by which javac finds code to run while it compiles (annotation processors, compiler plugins): a
#: submission's own would run inside the platform's compilation of the hidden tests and could rewrite them.
COMPILER_HOOKS = ("META-INF/services/javax.annotation.processing.Processor", "META-INF/services/com.sun.source.util.Plugin")


#: Packages of the test machinery: a submission bringing classes of them (to shadow JUnit's or surefire's own) is
#: rewriting how the hidden tests are run and reported.
TEST_MACHINERY = ("org/junit/", "org/opentest4j/", "org/apache/maven/surefire/", "org/apiguardian/")
#: Settings of a submission's build that change which tests run, how, or where their reports go: the hidden test
#: run is the platform's (docs/scoring.md "The test phase"). Anywhere in a pom: JVM agents and boot class paths.
#: In the configuration of the surefire or failsafe plugin, or as a `surefire.*` / `argLine` / `junit.*` property:
#: every setting of TEST_RUN_SETTINGS.
JVM_INJECTION = ("javaagent", "agentlib", "agentpath", "Xbootclasspath")
TEST_RUN_SETTINGS = ("argLine", "additionalClasspathElements", "configurationParameters", "properties",
                     "statelessTestsetReporter", "statelessTestsetInfoReporter", "consoleOutputReporter",
                     "reportsDirectory", "includes", "excludes", "includesFile", "excludesFile", "test",
                     "testClassesDirectory", "classesDirectory", "dependenciesToScan", "testSourceDirectory",
                     "classpathDependencyExcludes", "classpathDependencyScopeExclude", "systemPropertiesFile", "jvm",
                     "skipAfterFailureCount", "debugForkedProcess", "forkNode", "includeJUnit5Engines",
                     "excludeJUnit5Engines",
                     "testFailureIgnore", "reportFormat", "redirectTestOutputToFile", "objectFactory",
                     # how and where the tests run: with forkCount 0 they run in Maven's own JVM, which the
                     # platform's argLine never reaches, so an agent could be attached again (red team round 14)
                     "forkCount", "forkMode", "reuseForks", "useSystemClassLoader", "useManifestOnlyJar",
                     "useModulePath", "workingDirectory", "rerunFailingTestsCount", "childDelegation", "parallel",
                     "threadCount", "useUnlimitedThreads", "perCoreThreadCount")


_JUNIT_KEYS = ("junit.jupiter.", "junit.platform.")
#: Environment variables the forked test JVM's launcher (or the dynamic linker) takes options from: an agent, a class
#: path or a preloaded library by way of an @argfile would slip past any check of the pom's text.
LAUNCHER_VARIABLES = ("JAVA_TOOL_OPTIONS", "JDK_JAVA_OPTIONS", "_JAVA_OPTIONS", "CLASSPATH", "JAVA_HOME", "PATH")
#: Groups whose artifacts may be added to surefire's or failsafe's own class path (a JUnit launcher or engine,
#: surefire's providers): anything else there is code running in the test run's Maven or its provider.
TEST_PLUGIN_GROUPS = ("org.junit", "org.apache.maven.surefire")


def _test_run_setting(pom: str, *, plugins: tuple[str, ...] = ("maven-surefire-plugin", "maven-failsafe-plugin")
                      ) -> str | None:
    """The first setting of a pom's text that would change the hidden test run (JVM_INJECTION anywhere; a
    TEST_RUN_SETTINGS element in a surefire/failsafe plugin's configuration; a surefire.*, argLine or JUnit
    property; `testOutputDirectory` or `testSourceDirectory` in the build), or None. A pom that does not parse is judged by its text."""
    import xml.etree.ElementTree as ET

    hit = next((s for s in JVM_INJECTION if s in pom), None)
    if hit:
        return hit
    try:
        tree = ET.fromstring(pom)
    except ET.ParseError:
        return next((s for s in TEST_RUN_SETTINGS if f"<{s}>" in pom), None)
    local = lambda tag: tag.rsplit("}", 1)[-1]  # noqa: E731 - namespace-free element names
    for element in tree.iter():
        tag = local(element.tag)
        if tag == "properties":
            for prop in element:
                name = local(prop.tag)
                if not name.endswith("version") and (name == "argLine" or name.startswith(
                        (*_JUNIT_KEYS, "surefire.", "failsafe.", "maven.test.", "maven.surefire.",
                         "maven.failsafe."))):
                    return f"the {name} property"
        if tag in ("testOutputDirectory", "testSourceDirectory"):  # where the hidden tests are compiled from / to
            return tag
        if tag in ("relativePath", "module"):  # every pom Maven reads must be a pom.xml the checks read (round 14)
            value = (element.text or "").strip().rstrip("/")
            last = value.rsplit("/", 1)[-1]
            if value and "." in last.strip(".") and last != "pom.xml":
                return f"a {tag} naming a file other than pom.xml ({value}), which no check of the platform reads"
        if tag in ("resource", "testResource"):
            folder = _child_text(element, "directory")
            if folder.startswith(("/", "${user.", "${env.", "${java.io.tmpdir}")) or ".." in folder:
                return f"a {tag} folder outside the project ({folder})"
        if tag == "plugin" and any(local(c.tag) == "artifactId" and (c.text or "").strip() == "maven-compiler-plugin"
                                   for c in element):
            hit = _compiler_hook(element, local, tree)
            if hit:
                return hit
        if tag == "plugin" and any(local(c.tag) == "artifactId" and (c.text or "").strip() in plugins
                                   for c in element):
            for setting in element.iter():
                name = local(setting.tag)
                if name in TEST_RUN_SETTINGS:
                    return f"surefire's {name}"
                if name == "environmentVariables":  # the forked JVM's launcher reads its options from some
                    keys = [local(c.tag) for c in setting]
                    launcher = next((k for k in keys if k.upper() in LAUNCHER_VARIABLES or k.upper().startswith("LD_")),
                                    None)
                    if launcher:
                        return f"surefire's environment variable {launcher}"
                if name == "dependencies":
                    foreign = next((g for g in (_child_text(d, "groupId") for d in setting) if not g.strip().startswith(TEST_PLUGIN_GROUPS)), None)
                    if foreign is not None:
                        return f"a dependency of the test plugin ({foreign or 'no groupId'})"
                if name in ("systemPropertyVariables", "systemProperties", "environmentVariables"):
                    keys = [local(c.tag) for c in setting] + [_child_text(c, "name")
                                                              for c in setting]
                    junit = next((k for k in keys if k.startswith(_JUNIT_KEYS)), None)
                    if junit:  # JVM properties for the application are fine (Quarkus needs its logging manager)
                        return f"surefire's {name} {junit}"
    return None


#: javac options that load code from a path of the submission's choosing, hand options to the JVM running javac,
#: turn annotation processing back on (the runner compiles the hidden tests with -proc:none unless processors come
#: from `annotationProcessorPaths`), or compile sources other than the planted ones in their place (a source path
#: javac would take a hidden test's class from, implicit compilation: red team round 13).
COMPILER_HOOK_OPTIONS = ("-processor", "--processor-path", "--processor-module-path", "-Xplugin", "-J", "-proc",
                         "-Xprefer", "-implicit")
#: The same, for options that are whole words (a prefix would catch "-deprecation" for "-d").
COMPILER_HOOK_WORDS = ("-sourcepath", "--source-path", "-d", "--module-source-path")
#: Compiler settings that name code to run (a processor found on the class path, which holds the submission's
#: classes; another compiler; a forked javac) rather than artifacts of `annotationProcessorPaths`, turn processing
#: on, or choose which sources the test compilation reads and where it writes (red team round 13: extra
#: `compileSourceRoots` and `testIncludes` compiled a fake `ApiTest` with 15 empty tests in place of the hidden one).
COMPILER_HOOK_SETTINGS = ("executable", "annotationProcessors", "annotationProcessor", "compilerId",
                          "forceJavacCompilerUse", "fork", "proc", "compileSourceRoots", "testIncludes",
                          "testExcludes", "outputDirectory", "generatedTestSourcesDirectory")
#: Compiler settings that hold javac options, as text (or, for the map forms, as element names).
COMPILER_ARGUMENT_SETTINGS = ("compilerArgs", "compilerArgument", "compilerArguments", "testCompilerArgument",
                              "testCompilerArguments", "arg")


def _compiler_hook(plugin, local, tree=None) -> str | None:
    """Why a maven-compiler-plugin element would run the submission's code while the platform compiles the hidden
    tests (its own javac `executable`, or a COMPILER_HOOK_OPTIONS argument), or None. Processors named by artifact
    (`annotationProcessorPaths`) come from the verified repository and are allowed (Micronaut needs them)."""
    for setting in plugin.iter():
        name = local(setting.tag)
        if name in COMPILER_HOOK_SETTINGS:
            return f"the compiler's {name}"
        if name in COMPILER_ARGUMENT_SETTINGS:
            options = [setting.text or ""] + [c.text or "" for c in setting]
            if tree is not None:  # `<arg>${x}</arg>` with x one of the pom's own properties (red team round 14)
                options = [_interpolate(o.strip(), tree) for o in options]
            if name.endswith("Arguments"):  # <compilerArguments><sourcepath>..</sourcepath>: the option -sourcepath
                options += [f"-{local(c.tag)}" for c in setting]
            hit = next((o for o in options if _hook_option(o)), None)
            if hit:
                return f"the compiler option {_hook_option(hit)}"
    return None


def _hook_option(text: str) -> str | None:
    """The COMPILER_HOOK_OPTIONS or COMPILER_HOOK_WORDS option a javac argument (as a pom writes it) starts with,
    or None."""
    word = (text.strip().split() or [""])[0]
    return next((o for o in COMPILER_HOOK_OPTIONS if word.startswith(o)), None) or next(
        (o for o in COMPILER_HOOK_WORDS if word == o or word.startswith((o + "=", o + ":"))), None)


#: Groups whose parent poms and build extensions are taken as they are (framework parents configure surefire for
#: their own builds, e.g. spring-boot-starter-parent's failsafe classesDirectory). A parent of any other group,
#: which anyone may publish to Maven Central, is held to the submission's own rules (surefire settings, JVM agents,
#: compiler hooks), its parents too; a build extension of any other group runs inside the test run's Maven and is
#: refused.
FRAMEWORK_GROUPS = ("org.springframework", "io.micronaut", "io.quarkus", "org.apache.", "io.javalin", "com.sparkjava",
                    "io.helidon", "io.vertx", "io.dropwizard", "org.codehaus.mojo", "kr.motd.maven", "org.jboss",
                    "io.smallrye", "org.eclipse.jetty")


def _pom_tree(text: str):
    import xml.etree.ElementTree as ET

    try:
        return ET.fromstring(text)
    except ET.ParseError:
        return None


def _child_text(element, name: str) -> str:
    found = element.find(f"{{*}}{name}")
    if found is None:
        found = element.find(name)
    return (found.text or "").strip() if found is not None else ""


def _interpolate(value: str, tree) -> str:
    """A `${name}` value read from the pom's own <properties> (one level, as the framework poms use it)."""
    if not (value.startswith("${") and value.endswith("}")):
        return value
    for properties in [e for e in tree.iter() if e.tag.rsplit("}", 1)[-1] == "properties"]:
        resolved = _child_text(properties, value[2:-1])
        if resolved:
            return resolved
    return value


def _outside_code_in_test_run(pom: str, repositories: tuple[Path, ...], depth: int = 0) -> str | None:
    """Why code from outside the submission's tree would shape the hidden test run, or None: a build extension of a
    group outside FRAMEWORK_GROUPS, or a parent outside them (found in `repositories`) that breaks the pom rules."""
    tree = _pom_tree(pom)
    if tree is None or depth > 8:
        return None
    local = lambda tag: tag.rsplit("}", 1)[-1]  # noqa: E731
    for element in tree.iter():
        tag = local(element.tag)
        if tag == "extension" or (tag == "plugin" and _child_text(element, "extensions") == "true"):
            group = _interpolate(_child_text(element, "groupId") or "org.apache.maven.plugins", tree)
            if not group.startswith(FRAMEWORK_GROUPS):
                return f"a build extension of {group or 'no group'} (extensions run inside the test run's Maven)"
    parent = next((e for e in tree if local(e.tag) == "parent"), None)
    if parent is None:
        return None
    group, artifact, version = (_child_text(parent, n) for n in ("groupId", "artifactId", "version"))
    if not group or group.startswith(FRAMEWORK_GROUPS):
        return None
    rel = Path(*group.split("."), artifact, version, f"{artifact}-{version}.pom")
    found = next((r / rel for r in repositories if (r / rel).is_file()), None)
    if found is None:
        return None  # a parent in the tree (checked as a pom of the tree) or one the build could not resolve
    text = found.read_text(errors="replace")
    hit = _test_run_setting(text, plugins=("maven-surefire-plugin",))
    if hit:
        return f"a parent, {group}:{artifact}:{version}, that sets {hit}"
    return _outside_code_in_test_run(text, repositories, depth + 1)


class _PublishedCopies:
    """Whether a file is a byte-identical copy of one in the Maven `repositories` (a dependency the build copied,
    like JUnit's own jar in target/dependency/, or Quarkus's `lib/main/<group>.<artifact>-<version>.jar`: the name
    may differ, the bytes may not). The repositories' files are indexed by size once, on first use, so an
    archive-laden tree costs one walk of them, and only files of the same size are hashed."""

    def __init__(self, repositories: tuple[Path, ...]) -> None:
        self.repositories = repositories
        self._by_size: dict[int, list[str]] | None = None

    def __contains__(self, path: Path) -> bool:
        if self._by_size is None:
            self._by_size = {}
            for repository in self.repositories:
                for dirpath, _, filenames in os.walk(repository):
                    for name in filenames:
                        if name.lower().endswith(ARCHIVE_SUFFIXES):
                            full = os.path.join(dirpath, name)
                            self._by_size.setdefault(os.path.getsize(full), []).append(full)
        candidates = self._by_size.get(path.stat().st_size, ())
        if not candidates:
            return False
        digest = hashlib.sha256(path.read_bytes()).digest()
        return any(hashlib.sha256(Path(c).read_bytes()).digest() == digest for c in candidates)


def test_run_tampering(root: Path, *, keep_below: str, repositories: tuple[Path, ...] = (),
                       own_packages: frozenset[str] = frozenset()) -> str | None:
    """Why the built repository at `root` would rewrite the hidden test run, or None: a build file (pom.xml, any
    depth) naming one of TEST_RUN_SETTINGS, or classes of TEST_MACHINERY outside `keep_below` (the hidden tests):
    as files, or as entries (or JUnit service entries, or COMPILER_HOOKS) of an archive that is not a byte-identical
    copy of one in the Maven `repositories`; or a class file of the submission's (in any folder: a pom may move the
    main output) that shadows a class of a jar in the `repositories` (`shadowed_library_class`; `own_packages`: the
    hidden tests' packages, dotted, where the application's own classes belong). Archives of the tree are never on
    the test class path (only the verified repository's jars are: a pom naming a local file, `systemPath`, is
    tampered), so their classes are no shadow: Quarkus's transformed-bytecode.jar rewrites library classes by
    design. Links are not followed."""
    import zipfile

    published = _PublishedCopies(repositories)
    classes: dict[str, list[str]] = {}  # the submission's class files by their last two parts (_add_class_names)
    entries_seen = archive_entries = 0
    for folder, rel_folder, dirs, files in walk_untrusted(root):  # TreeTooDeep past MAX_TREE_DEPTH
        if rel_folder == keep_below or rel_folder.startswith(keep_below + "/"):
            dirs[:] = []
            continue
        entries_seen += len(dirs) + len(files)
        if entries_seen > MAX_TREE_ENTRIES:
            raise TreeTooLarge(f"the built repository holds more than {MAX_TREE_ENTRIES:,} files and folders, more "
                               "than the platform checks before a test run")
        for name in files:
            path = Path(folder) / name
            rel = path.relative_to(root).as_posix()
            if not is_regular(path):  # a link, FIFO or device: never read (a FIFO would block the worker)
                continue
            if name == "pom.xml":
                text = (read_regular(path) or b"").decode(errors="replace")
                hit = _test_run_setting(text) or _outside_code_in_test_run(text, repositories)
                if hit:
                    return f"{rel} sets {hit}"
                if "systemPath" in text:  # red team round 8: a file of the tree, of any name, on the class path
                    return f"{rel} declares a system-scoped dependency (systemPath): a local file on the test class path"
            elif any(m in rel for m in TEST_MACHINERY) and rel.endswith((".class", ".java")):
                return f"{rel} is a class of the test machinery"
            elif name.endswith(".class"):
                _add_class_names(classes, rel, rel)
            elif name.lower().endswith(ARCHIVE_SUFFIXES) or _zip_signature(path):  # a jar under any name
                try:
                    entries = _archive_names(path, MAX_ARCHIVE_ENTRIES - archive_entries)
                except (OSError, zipfile.BadZipFile, ValueError):
                    if _zip_signature(path):  # the JVM may read what Python's zipfile refuses
                        return f"{rel} is an archive the platform cannot read"
                    continue
                if entries is None:
                    raise TreeTooLarge(f"the archives of the built repository hold more than {MAX_ARCHIVE_ENTRIES:,} "
                                       f"entries ({rel} among them), more than the platform checks before a test run")
                archive_entries += len(entries)
                hit = next((m for m in entries if m.startswith(TEST_MACHINERY)
                            or m.startswith(("META-INF/services/org.junit.", *COMPILER_HOOKS))), None)
                if hit and path not in published:
                    return f"{rel} carries {hit}"
    return shadowed_library_class(classes, repositories, own_packages=own_packages)


def _archive_names(path: Path, limit: int) -> list[str] | None:
    """The entry names of the zip archive at `path` (a regular file), or None when it has more than `limit` entries
    or a central directory of more than `limit` * ZIP_ENTRY_BYTES bytes: both are read from the end records before
    any entry is (zipfile builds an object per entry: 534 MB for a million, and it reads as many as the directory's
    size holds, whatever count the archive declares). Raises OSError / zipfile.BadZipFile like zipfile."""
    import zipfile

    with open(path, "rb") as handle:
        handle.seek(0, os.SEEK_END)
        size = handle.tell()
        handle.seek(max(0, size - 65_536 - 22))
        tail = handle.read()
    at = tail.rfind(b"PK\x05\x06")
    if at < 0 or len(tail) < at + 22:
        raise zipfile.BadZipFile("no end of central directory record")
    count = int.from_bytes(tail[at + 10 : at + 12], "little")
    directory = int.from_bytes(tail[at + 12 : at + 16], "little")
    if count == 0xFFFF or directory == 0xFFFFFFFF:  # zip64: the counts are in the zip64 end record
        at64 = tail.rfind(b"PK\x06\x06")
        if at64 < 0 or len(tail) < at64 + 48:
            return None
        count = int.from_bytes(tail[at64 + 32 : at64 + 40], "little")
        directory = int.from_bytes(tail[at64 + 40 : at64 + 48], "little")
    if count > limit or directory > limit * ZIP_ENTRY_BYTES:
        return None
    with zipfile.ZipFile(path) as archive:
        names = archive.namelist()
    return names if len(names) <= limit else None


def _zip_signature(path: Path) -> bool:
    """True when the file starts like a zip archive (a local file header or an empty archive's end record), whatever
    its name: the JVM reads a class-path entry by its content."""
    return read_regular(path, 4) in (b"PK\x03\x04", b"PK\x05\x06")


#: Class files that every module or package may have under the same name: never a shadow.
_SHARED_CLASS_FILES = ("module-info.class", "package-info.class")


def _versionless(entry: str) -> str:
    """An archive entry without the `META-INF/versions/<n>/` prefix of a multi-release jar."""
    if entry.startswith("META-INF/versions/"):
        parts = entry.split("/", 3)
        return parts[3] if len(parts) == 4 else entry
    return entry


def _add_class_names(classes: dict[str, list[str]], rel: str, where: str) -> None:
    """Record the class file at `rel` (reported as `where`) under the last two parts of its path, its shortest
    possible binary name: the class root is unknown (`target/classes/org/x/Y.class` may be `org/x/Y.class` or
    `x/Y.class`), so any suffix of its path with a package may be its name (`_class_file_named`). One entry per
    file: recording every suffix made 100,000 class files at depth 41 cost the root worker 800 MB (issue 15)."""
    parts = rel.split("/")
    if parts[-1] in _SHARED_CLASS_FILES or len(parts) < 2:
        return
    classes.setdefault("/".join(parts[-2:]), []).append(where if where == rel else f"{rel}\0{where}")


def _class_file_named(classes: dict[str, list[str]], binary: str) -> str | None:
    """Where the first recorded class file whose path ends with the binary name `binary` ("org/x/Y.class", at least
    a package and a class) is, or None."""
    parts = binary.split("/")
    if len(parts) < 2:
        return None
    for record in classes.get("/".join(parts[-2:]), ()):
        rel, _, where = record.partition("\0")
        if rel == binary or rel.endswith("/" + binary):
            return where or rel
    return None


def shadowed_library_class(classes: dict[str, list[str]], repositories: tuple[Path, ...], *,
                           own_packages: frozenset[str] = frozenset()) -> str | None:
    """Why the submission's classes would replace a library's in the hidden test run, or None. `classes` holds the
    submission's class files as `_add_class_names` records them (any suffix of a path with a package, such as
    "org/hamcrest/core/IsEqual.class", may be the class's binary name); each jar of the
    Maven `repositories` (the test run's view: every dependency it can load) is read, and a class the submission
    also has is a shadow: the submission's build output comes first on the test class path, so its copy of an
    assertion library's matcher, an HTTP client or a JSON parser the hidden tests use would decide their verdicts
    (red team round 7: five hamcrest classes whose `matches` returns true gave 28/46 for a service answering `{}`).
    Classes in `own_packages` or below them (dotted: the application's packages, named by the hidden tests) are the
    submission's own and never a shadow; nor are module-info and package-info."""
    import zipfile

    if not classes:
        return None
    own = tuple(p.replace(".", "/") + "/" for p in own_packages)
    for repository in repositories:
        for dirpath, _, filenames in os.walk(repository):
            for name in filenames:
                if not name.endswith(".jar"):
                    continue
                jar = os.path.join(dirpath, name)
                try:
                    with zipfile.ZipFile(jar) as archive:
                        entries = archive.namelist()
                except (OSError, zipfile.BadZipFile, ValueError):
                    continue
                for entry in entries:
                    bare = _versionless(entry)
                    if bare.startswith(own) or not bare.endswith(".class"):
                        continue
                    where = _class_file_named(classes, bare)
                    if where is not None:
                        library = os.path.relpath(jar, repository)
                        return (f"{where} shadows {bare[:-len('.class')].replace('/', '.')} of the library {library}: "
                                "the hidden tests would run with the submission's copy of it")
    return None


def remove_junit_configuration(root: Path, *, keep_below: str) -> list[str]:
    """Delete the submission's JUnit configuration files (JUNIT_CONFIGURATION) and compiler hooks (COMPILER_HOOKS)
    below `root`, except below
    `keep_below` (the hidden tests' own folder); returns what was removed (relative paths). Links are not
    followed: a link is removed itself."""
    removed = []
    for folder, rel_folder, dirs, files in walk_untrusted(root):  # TreeTooDeep past MAX_TREE_DEPTH
        if rel_folder == keep_below or rel_folder.startswith(keep_below + "/"):
            dirs[:] = []
            continue
        for name in files:
            rel = f"{rel_folder}/{name}" if rel_folder != "." else name
            if any(marker in rel for marker in (*JUNIT_CONFIGURATION, *COMPILER_HOOKS)):
                os.unlink(Path(folder) / name)
                removed.append(rel)
    return removed
