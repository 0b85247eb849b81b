"""Static test counts (docs/scoring.md "Metrics per task": tests_total N)."""
from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

from core.grading.testcount import count_java_tests, count_python_tests


def write(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text))
    return root


SUITE = {
    "conftest.py": """
        import pytest
        def test_in_conftest_is_not_a_test_module(): pass
    """,
    "test_basic.py": """
        import pytest
        from pytest import mark

        def test_one(): pass
        async def test_async(): pass
        def helper_test(): pass
        def testing_prefix_counts(): pass

        @pytest.fixture
        def test_looking_fixture(): return 1

        @pytest.mark.parametrize("a", [1, 2, 3])
        def test_param(a): pass

        @pytest.mark.parametrize("a", [1, 2])
        @mark.parametrize("b", ("x", "y", "z"))
        def test_stacked(a, b): pass

        CASES = [1, 2, 3, 4]
        @pytest.mark.parametrize("a", CASES)
        def test_non_literal(a): pass

        @pytest.mark.parametrize(argnames="a", argvalues=[pytest.param(1, marks=pytest.mark.skip), 2])
        def test_keyword_values(a): pass

        @pytest.mark.timeout(5)
        @pytest.mark.order(1)
        def test_other_markers(): pass

        def test_redefined(): pass
        def test_redefined(): pass
    """,
    "sub/users_test.py": """
        import pytest

        class TestUsers:
            def test_a(self): pass
            def test_b(self): pass
            def not_a_test(self): pass

            class TestNested:
                def test_inner(self): pass

        class TestWithInit:
            def __init__(self): pass
            def test_never_collected(self): pass

        class Helper:
            def test_not_in_a_test_class(self): pass

        @pytest.mark.parametrize("role", ["admin", "user"])
        class TestRoles:
            def test_x(self, role): pass
            @pytest.mark.parametrize("n", [1, 2, 3])
            def test_y(self, role, n): pass

        class TestBase:
            __test__ = False
            def test_shared(self): pass

        class TestChild(TestBase):
            __test__ = True
            def test_own(self): pass
    """,
    "sub/test_module_mark.py": """
        import pytest
        pytestmark = [pytest.mark.timeout(10), pytest.mark.parametrize("backend", ["a", "b"])]
        def test_m(backend): pass
    """,
    "test_broken.py": "def test_x(:\n",
    "helpers.py": "def test_helper_module(): pass\n",
    "README.md": "def test_readme(): pass\n",
}

# test_basic: one, async, testing_prefix, param 3, stacked 6, non_literal 1, keyword 2, markers 1, redefined 1 = 17
# users_test: TestUsers 2 + nested 1; TestRoles (1 + 3) * 2 = 8; TestChild own + inherited = 2 -> 13
# test_module_mark: 1 * 2 = 2
EXPECTED = 17 + 13 + 2


def test_python_static_count(tmp_path):
    assert count_python_tests(write(tmp_path / "tests", SUITE)) == EXPECTED


def test_python_static_count_agrees_with_pytest_collection(tmp_path):
    suite = dict(SUITE)
    del suite["test_broken.py"]  # pytest would report a collection error
    tests_dir = write(tmp_path / "tests", suite)
    (tmp_path / "tests" / "pytest.ini").write_text("[pytest]\n")
    proc = subprocess.run(
        [sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:django", "-p", "no:cacheprovider",
         "-c", str(tests_dir / "pytest.ini"), "--rootdir", str(tests_dir), str(tests_dir)],
        capture_output=True, text=True, timeout=60, cwd=tests_dir,
    )
    collected = [line for line in proc.stdout.splitlines() if "::" in line]
    assert count_python_tests(tests_dir) == EXPECTED
    # pytest sees all 4 values of the non-literal parametrize; the static count takes it as 1 (hence N = max of both)
    assert len(collected) == EXPECTED + 3, proc.stdout + proc.stderr


def test_python_files_option_from_ini(tmp_path):
    tests_dir = write(
        tmp_path / "tests",
        {"check_api.py": "def test_a(): pass\ndef test_b(): pass\n", "test_default.py": "def test_c(): pass\n"},
    )
    assert count_python_tests(tests_dir) == 1
    (tmp_path / "pytest.ini").write_text("[pytest]\npython_files = check_*.py\n")  # in the parent: the task root
    assert count_python_tests(tests_dir) == 2
    (tests_dir / "setup.cfg").write_text("[tool:pytest]\npython_files = check_*.py test_*.py\n")
    assert count_python_tests(tests_dir) == 3


def test_missing_directories_count_zero(tmp_path):
    assert count_python_tests(tmp_path / "absent") == 0
    assert count_java_tests(tmp_path / "absent") == 0


JAVA_TEST = '''
package com.example;

import org.junit.jupiter.api.*;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.*;

@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
public class ItemApiTest {
    private static final String URL = "http://localhost:8080/api"; // not a comment start inside a string
    private static final String NOTE = "@Test inside a string is not an annotation";

    @BeforeAll
    static void setUp() {}

    @Test
    @Order(1)
    void createsItem() {}

    @Test
    @DisplayName("lists items (@Test in a string does not count)")
    void listsItems() {}

    // @Test
    // void commentedOut() {}

    /*
    @Test
    void blockCommented() {}
    */

    @org.junit.jupiter.api.Test
    void fullyQualified() {}

    @Disabled("flaky")
    @Test
    void disabledStillCounts() {}

    @ParameterizedTest
    @ValueSource(strings = {"a", "b, c", "d"})
    void valueSource(String s) {}

    @ParameterizedTest(name = "{0}")
    @ValueSource(ints = {1, 2, 3, 4})
    void ints(int n) {}

    @ParameterizedTest
    @CsvSource({"1, 2", "3, 4"})
    void csv(int a, int b) {}

    @ParameterizedTest
    @NullAndEmptySource
    @ValueSource(strings = {" "})
    void blanks(String s) {}

    @ParameterizedTest
    @CsvSource(textBlock = """
        apple, 1
        banana, 2

        cherry, 3
        """)
    void csvTextBlock(String fruit, int n) {}

    @ParameterizedTest
    @MethodSource("provider")
    void methodSource(String s) {}

    @RepeatedTest(5)
    void repeated() {}

    @RepeatedTest(value = 3, name = "{currentRepetition}")
    void repeatedNamed() {}

    @TestFactory
    Stream<DynamicTest> dynamic() { return Stream.empty(); }

    @Nested
    class Inner {
        @Test
        void inner() {}
    }

    @AfterEach
    void tearDown() {}
}
'''


def test_java_static_count(tmp_path):
    root = write(tmp_path / "src/test/java", {"com/example/ItemApiTest.java": JAVA_TEST,
                                               "com/example/Util.java": "class Util { void x() {} }"})
    # 1+1+1+1 plain, 3 + 4 + 2 + (2+1) + 3 + 1 parameterized, 5 + 3 repeated, 1 factory, 1 nested
    assert count_java_tests(root) == 4 + 3 + 4 + 2 + 3 + 3 + 1 + 5 + 3 + 1 + 1


# Tests added for the mutation run of testcount.py (docs/mutation.md); each comment names the mutants they kill.
MORE_SUITE = {
    "test_more.py": """
        import unittest
        import pytest
        from unittest import TestCase

        @pytest.mark.slow
        def test_marked(): pass

        @pytest.mark.parametrize("n", argvalues=[1, 2, 3])
        def test_names_positional_values_keyword(n): pass

        @pytest.fixture(scope="module")
        def test_data(): return 1

        class Mixin:
            def test_from_mixin(self): pass

        class TestOuter:
            class TestInner(Mixin):
                def test_inner(self): pass

        class TestThing:
            pass

        class TestThing(TestThing):
            def test_second(self): pass

        class TestUnit(unittest.TestCase):
            def test_u(self): pass

        class TestImported(TestCase):
            def test_i(self): pass

        class Base:
            def test_base(self): pass

        class TestMiddle(Base):
            def test_middle(self): pass

        class TestLeaf(TestMiddle):
            def test_leaf(self): pass

        class TestAbstract:
            __test__ = False
            def test_abstract(self): pass

        class TestConcrete(TestAbstract):
            def test_concrete(self): pass

        class TestDocumented:
            \"\"\"A docstring and a falsy class attribute are not `__test__ = False`.\"\"\"
            limit = 0
            def test_doc(self): pass
    """,
    "test_marked_module.py": """
        import pytest
        pytestmark = pytest.mark.parametrize("backend", ["a", "b"])
        TIMEOUT = 5
        def test_m(backend): pass
    """,
    ".cache/test_hidden.py": "def test_h(): pass\n",
    "node_modules/pkg/test_vendor.py": "def test_v(): pass\n",
}
# test_more: marked 1, positional names 3, fixture 0, TestOuter::TestInner 2 (own + Mixin's), TestThing 1, TestUnit 1,
# TestImported 1, TestMiddle 2, TestLeaf 3, TestAbstract 0, TestConcrete 0 (inherits __test__ = False),
# TestDocumented 1 = 15; test_marked_module 1 * 2 = 2; hidden and node_modules folders 0.
MORE_EXPECTED = 15 + 2


def test_python_static_count_of_decorators_bases_and_skipped_folders(tmp_path):
    # A non-call marker (`isinstance(expr, Call) and` made `or`: AttributeError); parametrize values as a keyword
    # after positional names (`len(args) > 1` made `>= 1`: IndexError); a fixture called with arguments (`d.func`
    # dropped); a nested class with a base (`classes` not passed down: TypeError); a class extending an earlier one of
    # its name (`seen | {name}` made `&`: endless recursion); bases that are attributes or imported names (`and`
    # made `or`: AttributeError/KeyError); a base of a base (`classes` not passed: TypeError); an inherited
    # `__test__ = False` (`excluded = e` dropped); a docstring and a falsy class attribute (`and` made `or` in the
    # `__test__` check); a single pytestmark followed by another module assignment (`t.id == "pytestmark"` made
    # `or`, `.elts` always taken); hidden and node_modules folders (`and` made `or`, the "." test changed).
    assert count_python_tests(write(tmp_path / "tests", MORE_SUITE)) == MORE_EXPECTED


def test_python_static_count_of_the_more_suite_agrees_with_pytest_collection(tmp_path):
    tests_dir = write(tmp_path / "tests", MORE_SUITE)
    (tests_dir / "pytest.ini").write_text("[pytest]\n")
    proc = subprocess.run(
        [sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:django", "-p", "no:cacheprovider",
         "-c", str(tests_dir / "pytest.ini"), "--rootdir", str(tests_dir), str(tests_dir)],
        capture_output=True, text=True, timeout=60, cwd=tests_dir,
    )
    assert len([line for line in proc.stdout.splitlines() if "::" in line]) == MORE_EXPECTED, proc.stdout + proc.stderr


def test_python_files_option_from_tox_ini_and_a_broken_ini(tmp_path):
    tests_dir = write(tmp_path / "tests", {"check_api.py": "def test_a(): pass\ndef test_b(): pass\n",
                                           "test_default.py": "def test_c(): pass\n"})
    assert count_python_tests(tests_dir) == 1  # the default patterns
    (tests_dir / "tox.ini").write_text("[pytest]\npython_files = check_*.py\n")
    assert count_python_tests(tests_dir) == 2  # tox.ini's [pytest] section is read (its name or section mutated)
    (tests_dir / "pytest.ini").write_text("python_files = test_*.py\n")  # no section header: configparser refuses it
    # A broken pytest.ini is skipped, the folder's other files still read (`continue` made `break`).
    assert count_python_tests(tests_dir) == 2


def test_a_pytest_ini_without_python_files_stops_the_search(tmp_path):
    tests_dir = write(tmp_path / "tests", {"check_api.py": "def test_a(): pass\ndef test_b(): pass\n",
                                           "test_default.py": "def test_c(): pass\n"})
    (tmp_path / "pytest.ini").write_text("[pytest]\npython_files = check_*.py\n")
    assert count_python_tests(tests_dir) == 2  # the parent's patterns, while the folder has no pytest.ini
    (tests_dir / "pytest.ini").write_text("[pytest]\naddopts = -q\n")
    # pytest.ini is the rootdir's config even without python_files: the defaults, not the parent's patterns
    # (`name == "pytest.ini"` inverted or its string changed).
    assert count_python_tests(tests_dir) == 1


MORE_JAVA = '''
class MoreTest {
    @TestTemplate
    @ExtendWith(Provider.class)
    void template() {}

    @RepeatedTest
    void repeatedWithoutValue() {}

    @RepeatedTest(name = "run {currentRepetition}")
    void repeatedOnlyNamed() {}

    @RepeatedTest(COUNT)
    void repeatedConstant() {}

    @ParameterizedTest
    @CsvSource(value = {"a, 1", "b, 2"})
    void csvValueKeyword(String s, int n) {}

    @ParameterizedTest
    @ValueSource(ints = {1, 2})
    @CsvSource({"3"})
    void twoSources(int n) {}

    @ParameterizedTest
    @NullSource
    @ValueSource(strings = {"a"})
    void nullSource(String s) {}

    @ParameterizedTest
    @EmptySource
    @ValueSource(strings = {"a", "b"})
    void emptySource(String s) {}

    @ParameterizedTest
    @ValueSource(strings = "x")
    @CsvSource({"a", "b"})
    void singleValueAndCsv(String s) {}

    @ParameterizedTest
    @CsvSource(delimiter = ';')
    @NullSource
    void csvWithoutValues(String s) {}

    @ParameterizedTest
    @ValueSource(value = {1})
    @NullSource
    void valueSourceWithoutAKnownKey(String s) {}

    @ParameterizedTest
    @NullSource
    @ValueSource(strings = "a" + "b")
    void concatenatedValue(String s) {}

    @ParameterizedTest
    @ValueSource(strings = """
        one
        two
        three
        """)
    void textBlockValue(String s) {}
}
'''
# template 1; repeated without value 1, only named 1, constant 1; csv value= 2; ValueSource + CsvSource 2 + 1;
# NullSource 1 + 1; EmptySource 1 + 2; single string + csv 1 + 2; CsvSource without values + NullSource 0 + 1;
# ValueSource without a known key + NullSource 0 + 1; NullSource + a concatenated string 1 + 1 (it counted 0 for the
# string); a text block in ValueSource is one string (it counted a row per line, as in CsvSource)
MORE_JAVA_EXPECTED = 1 + 1 + 1 + 1 + 2 + 3 + 2 + 3 + 3 + 1 + 1 + 2 + 1


def test_java_static_count_of_every_source_and_odd_annotations(tmp_path):
    # @TestTemplate ("TestTemplate" mutated); @RepeatedTest without a literal count (`return 1` made 2, `positional
    # or True`: IndexError, `isdigit() or True`: ValueError, the fallback 1 made 2); CsvSource's `value =` (the key
    # dropped or mutated); two sources add up (`+=` made `=`); NullSource and EmptySource add 1 each (their names
    # or counts mutated); a single literal value counts 1 (the literal regex or its `return 1` mutated); annotations
    # without values (`expr is not None or True`: AttributeError; `else 0` made `else 1`).
    root = write(tmp_path / "src/test/java", {"MoreTest.java": MORE_JAVA})
    assert count_java_tests(root) == MORE_JAVA_EXPECTED


SAME_NAME_SUITE = {"test_names.py": """
class TestA:
    def test_x(self): pass

class TestA(TestA):
    def test_y(self): pass

class Base:
    def test_b(self): pass

class TestB(Base):
    pass

class Base:
    def test_c(self): pass

class TestOuter:
    class Inner:
        def test_i(self): pass

    class TestNested(Inner):
        pass
"""}
# TestA: test_x inherited from the earlier TestA + test_y; TestB: the Base defined before it (test_b), not the later
# one; TestOuter::TestNested: the class body's own Inner. Both counts used to be 1 + 1 (the earlier TestA lost, the
# later Base taken).
SAME_NAME_EXPECTED = 2 + 1 + 1


def test_python_bases_are_the_classes_bound_before_the_class_statement(tmp_path):
    tests_dir = write(tmp_path / "tests", SAME_NAME_SUITE)
    assert count_python_tests(tests_dir) == SAME_NAME_EXPECTED
    (tests_dir / "pytest.ini").write_text("[pytest]\n")
    proc = subprocess.run(
        [sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:django", "-p", "no:cacheprovider",
         "-c", str(tests_dir / "pytest.ini"), "--rootdir", str(tests_dir), str(tests_dir)],
        capture_output=True, text=True, timeout=60, cwd=tests_dir,
    )
    assert len([line for line in proc.stdout.splitlines() if "::" in line]) == SAME_NAME_EXPECTED, proc.stdout


def test_a_long_inheritance_chain_is_counted_without_recursion(tmp_path):
    # 3,000 classes, each extending the one before: the old reader recursed once per base (RecursionError).
    chain = "class Base0:\n    def test_root(self): pass\n" + "".join(
        f"class Base{i}(Base{i - 1}):\n    pass\n" for i in range(1, 3000)) + "class TestLast(Base2999):\n    pass\n"
    assert count_python_tests(write(tmp_path / "tests", {"test_chain.py": chain})) == 1


def test_java_static_count_reads_kotlin_and_odd_files(tmp_path):
    root = tmp_path / "src/test"
    write(root, {"kotlin/ItemTest.kt": "class ItemTest {\n    @Test\n    fun lists() {}\n    @Test\n    fun creates() {}\n}\n",
                 "java/ZTest.java": "class ZTest { @Test void z() {} }\n"})
    # A byte that is not UTF-8 in a comment (`errors="replace"` dropped or mutated: UnicodeDecodeError).
    (root / "java/LatinTest.java").write_bytes(b"// caf\xe9\nclass LatinTest { @Test void a() {} }\n")
    # A dangling link read first (`continue` made `break`: the files after it would not be counted).
    (root / "java/ABrokenTest.java").symlink_to(tmp_path / "nowhere")
    # .kt counted (the suffix mutated), then LatinTest and ZTest.
    assert count_java_tests(root) == 2 + 1 + 1
